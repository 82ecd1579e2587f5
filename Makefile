# SPDX-License-Identifier: MIT
# Two commands do everything on a fresh machine: `make sim` runs the simulator, `make test` every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.installed

ENGINE := web/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs

.PHONY: sim web hall test bench bench-hall bench-chip firmware format imports clean

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

# A simulated hall on a local Mosquitto (installed when missing) with the arbiter's page:
# make hall ARGS="--clocks 20" (docs/hall.md).
MQTT_JS := web/node_modules/mqtt/dist/mqtt.esm.js
hall: $(READY) | $(MQTT_JS)
	bash tests/hall/setup.sh
	$(BIN)/python -m sim hall $(ARGS)

$(MQTT_JS):
	@command -v npm >/dev/null || { echo "make hall needs npm (Debian: apt-get install npm)"; exit 2; }
	cd web && npm ci --omit=dev --no-audit --no-fund --loglevel=error

test: $(READY)
	bash tests/run_all.sh

bench: $(READY)
	$(BIN)/python bench/run.py

# 500 simulated clocks on one broker, the arbiter's page in headless Chromium (docs/hall.md);
# ARGS="--clocks 2000" for the scale run, ARGS="--faults" for the run through outages.
bench-hall: $(READY)
	bash tests/hall/setup.sh
	bash tests/web/setup.sh
	$(BIN)/python bench/hall.py $(ARGS)

# The clock measured on an emulated RP2040 (rp2040js from npm, pinned in bench/chip/package.json):
# RP2040_FIRMWARE (a MicroPython .uf2/.bin, NAME standing for the board) and RP2040_BOOTROM.
CHIP_JS := bench/chip/node_modules/rp2040js/package.json
$(CHIP_JS): bench/chip/package.json bench/chip/package-lock.json
	@command -v npm >/dev/null || { echo "bench-chip: node and npm are needed (Debian: apt-get install nodejs npm)"; exit 2; }
	cd bench/chip && npm ci --no-audit --no-fund --silent
	touch $@

bench-chip: $(READY) $(CHIP_JS)
	$(BIN)/python bench/chip/run.py $(ARGS)

# MicroPython for the Pico with the clock frozen in, build/clock-BOARD.uf2 (firmware.sh says how).
firmware:
	./firmware.sh $(BOARDS)

# The picture of who imports whom in docs/design.md, from the code (tests/test_layers_host.py).
imports: $(READY)
	$(BIN)/python tools/imports.py

format: $(READY)
	$(BIN)/black -q -l 99 firmware hal sim tests boards bench web tools conftest.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis web/node_modules web/build bench/chip/node_modules
