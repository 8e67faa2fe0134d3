"""`companion simulate`: random legal games, with the counts a rules engineer wants to see."""
from __future__ import annotations

import json
import sys

from .variants import EDITIONS, WIN_TARGETS


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play random legal Nightmarium games and report what happened",
        description="Plays N complete games between random legal players (every prompt answered at random among "
                    "its legal answers) and prints games finished, turns, completions, abilities, chains stopped "
                    "and interrupted, invariant violations and games per second.")
    parser.add_argument("--games", type=int, default=200, help="how many games (default 200)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="{2..5}",
                        help="players per game (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--edition", choices=sorted(EDITIONS), default="ru2014", help="rules edition")
    parser.add_argument("--target", type=int, choices=WIN_TARGETS, default=5, help="complete creatures to win")
    parser.add_argument("--seals", action="store_true", help="RU advanced rules: shuffle the 12 seals in")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a report")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from .simulate import simulate

    if args.games < 1:
        print("companion simulate: --games must be at least 1", file=sys.stderr)
        return 2
    if args.seals and not EDITIONS[args.edition].has_seals:
        print(f"companion simulate: the {args.edition} edition has no seals", file=sys.stderr)
        return 2
    show_progress = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if show_progress and (done % 50 == 0 or done == total):
            print(f"\r  {done}/{total} games", end="" if done < total else "\n", file=sys.stderr, flush=True)

    report = simulate(args.games, args.players, args.seed, edition=args.edition, win_target=args.target,
                      seals=args.seals, progress=progress)
    data = report.to_json()
    if args.json:
        print(json.dumps(data))
        return 0 if not report.violations else 1
    turns = data["turns_per_game"]
    lines = [
        f"Nightmarium simulation: {args.games} games, {args.players} players, edition {args.edition}, "
        f"target {args.target}{', seals' if args.seals else ''}, seed {args.seed}",
        f"  games finished         {data['finished']} of {data['games']}",
        f"  turns per game         mean {turns['mean']}, median {turns['median']}, max {turns['max']}",
        f"  completions            {data['completions']} ({data['pure_legion_completions']} pure legion)",
        "  abilities resolved     " + ", ".join(f"{k} {v}" for k, v in data["abilities_resolved"].items()),
        f"  chains stopped         {data['chains_stopped']} (an ability could not be performed)",
        f"  chains interrupted     {data['chains_interrupted']} (a new completion took over)",
    ]
    if args.seals:
        lines.append(f"  seals played           {data['seals_played']}")
    lines += [
        f"  invariant violations   {data['invariant_violations']}"
        + (": " + "; ".join(data["violation_examples"]) if data["violation_examples"] else ""),
        f"  speed                  {data['games_per_second']} games per second ({data['seconds']} s)",
    ]
    print("\n".join(lines))
    return 0 if not report.violations else 1
