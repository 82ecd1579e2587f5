# SPDX-License-Identifier: MIT
# Two commands do everything on a fresh machine: `make sim` runs the simulator, `make test` every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.installed

.PHONY: sim test bench bench-chip firmware format clean

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

format: $(READY)
	$(BIN)/black -q -l 99 firmware hal sim tests boards conftest.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
