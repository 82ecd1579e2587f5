# SPDX-License-Identifier: MIT
# Two commands do everything on a fresh machine: `make sim` runs the simulator, `make test` every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.installed

ENGINE := web/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs

.PHONY: sim web test bench format clean

$(READY): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(READY)

# The simulator is the standard library alone (curses): nothing to install.
sim:
	$(PYTHON) -m sim $(ARGS)

# The clock in a web page: the pinned MicroPython WebAssembly build from npm, then the server.
web: $(READY) | $(ENGINE)
	$(BIN)/python -m sim web $(ARGS)

$(ENGINE):
	@command -v npm >/dev/null || { echo "make web needs npm (Debian: apt-get install npm)"; exit 2; }
	cd web && npm ci --omit=dev --no-audit --no-fund --loglevel=error

test: $(READY)
	bash tests/run_all.sh

bench: $(READY)
	$(BIN)/python bench/run.py

format: $(READY)
	$(BIN)/black -q -l 99 firmware hal sim tests boards bench web conftest.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis web/node_modules web/build
