# Two commands: `make run` and `make test`. Both set up .venv first when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench install-pi clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion run

# One worker per core (pytest-xdist), each test file whole on one worker: its module fixtures are built once.
test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -n auto --dist loadfile

bench: $(STAMP)
	$(BIN)/companion simulate --games 2000 --players 4 --seed 1

# Installs the companion as a boot-time service on a fresh Raspberry Pi OS (see docs/deploy.md).
install-pi:
	sudo hardware/install-pi.sh

clean:
	rm -rf $(VENV) build *.egg-info
