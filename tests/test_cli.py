"""The `companion` command line: every command has --help; simulate prints its report."""
import json

import pytest

from companion.cli import build_parser, main


def subcommands():
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return sorted(action.choices)


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for name in ("simulate", "run", "screenshot", "vision", "doctor"):
        assert name in out


@pytest.mark.parametrize("command", subcommands())
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert "usage: companion " + command in capsys.readouterr().out


def test_simulate_json_report(capsys):
    assert main(["simulate", "--games", "6", "--players", "3", "--seed", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and report["finished"] == 6
    assert report["invariant_violations"] == 0
    assert report["completions"] >= 6 * 5
    assert set(report["abilities_resolved"]) <= {"herald", "mourner", "jester", "executioner", "scavenger", "devourer"}


def test_simulate_readable_report(capsys):
    assert main(["simulate", "--games", "3", "--edition", "pl2017", "--target", "6"]) == 0
    out = capsys.readouterr().out
    for label in ("games finished", "turns per game", "completions", "abilities resolved", "chains stopped",
                  "chains interrupted", "invariant violations", "games per second"):
        assert label in out


def test_simulate_refuses_seals_in_an_edition_without_them(capsys):
    assert main(["simulate", "--games", "1", "--edition", "pl2017", "--seals"]) == 2
    assert "no seals" in capsys.readouterr().err
