# SPDX-License-Identifier: MIT
# Two commands do everything on a fresh machine: `make sim` runs the simulator, `make test` every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.installed

.PHONY: sim test bench format clean

$(READY): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(READY)

sim: $(READY)
	$(BIN)/python -m sim $(ARGS)

test: $(READY)
	bash tests/run_all.sh

bench: $(READY)
	$(BIN)/python bench/run.py

format: $(READY)
	$(BIN)/black -q -l 99 firmware hal sim tests boards bench conftest.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
