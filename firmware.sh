#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds MicroPython for the Raspberry Pi Pico with the clock frozen in: build/clock-BOARD.uf2.
#
#   MICROPYTHON_DIR=~/micropython ./firmware.sh [BOARD...]     (make firmware runs it)
#
# MICROPYTHON_DIR: a MicroPython v1.28.0 checkout with its submodules (git clone -b v1.28.0
# https://github.com/micropython/micropython; then in ports/rp2: make BOARD=RPI_PICO submodules,
# and for the Wi-Fi board make BOARD=RPI_PICO_W submodules: cyw43-driver, lwIP and btstack).
# A board file with WIFI = True is a Pico W: built as MicroPython's RPI_PICO_W, with umqtt.simple.
# PICOTOOL_DIR (optional): a picotool 2.2.0 source checkout, built once into build/picotool, for
# the UF2 step; without it the Pico SDK fetches picotool from GitHub itself.
# The boards default to every board file (boards/*.py). manifest.py says what is frozen; the C
# modules of cmod/ (refsleep: the chip asleep on a 32.768 kHz reference) are built in as well.
set -uo pipefail
cd "$(dirname "$0")" || exit 2
ROOT=$PWD
VERSION=v1.28.0
PACKAGES="gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake make
  python3 git"

die() {
  printf 'firmware.sh: %s\n' "$*" >&2
  exit 2
}

missing=()
for package in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  die "missing Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})"
fi

MP=${MICROPYTHON_DIR:-}
[ -n "$MP" ] || die "MICROPYTHON_DIR must name a MicroPython $VERSION checkout with its" \
  "submodules (git clone -b $VERSION https://github.com/micropython/micropython;" \
  "make -C micropython/ports/rp2 BOARD=RPI_PICO submodules); it is not set"
MP=$(cd "$MP" 2>/dev/null && pwd) || die "MICROPYTHON_DIR=$MICROPYTHON_DIR is not a folder"
version=$(awk '/^#define MICROPY_VERSION_(MAJOR|MINOR|MICRO) /{printf "%s%s", sep, $3; sep="."}' \
  "$MP/py/mpconfig.h" 2>/dev/null)
[ "v$version" = "$VERSION" ] ||
  die "MICROPYTHON_DIR=$MP is not MicroPython $VERSION (py/mpconfig.h says '${version:-nothing}')"
for sub in lib/pico-sdk/CMakeLists.txt lib/tinyusb/src/tusb.h lib/mbedtls/library/sha256.c \
  lib/micropython-lib/README.md; do
  [ -f "$MP/$sub" ] || die "MICROPYTHON_DIR=$MP lacks ${sub%%/*}/${sub#lib/}: fetch the" \
    "submodules (make -C $MP/ports/rp2 BOARD=RPI_PICO submodules)"
done

BOARDS=("$@")
if [ ${#BOARDS[@]} -eq 0 ]; then
  for file in boards/*.py; do
    name=$(basename "$file" .py)
    [ "$name" = __init__ ] || BOARDS+=("$name")
  done
fi
for board in "${BOARDS[@]}"; do
  [ -f "boards/$board.py" ] || die "no board $board (boards/$board.py)"
done

# The MicroPython board a clock board is built as (manifest.py reads WIFI = True the same way).
port_board() {
  if grep -qE '^WIFI = True\b' "boards/$1.py"; then echo RPI_PICO_W; else echo RPI_PICO; fi
}
for board in "${BOARDS[@]}"; do
  [ "$(port_board "$board")" = RPI_PICO_W ] || continue
  for sub in lib/cyw43-driver/src/cyw43.h lib/lwip/src/include/lwip/init.h \
    lib/btstack/src/btstack.h; do
    [ -f "$MP/$sub" ] || die "MICROPYTHON_DIR=$MP lacks the submodule ${sub%%/src/*} (no" \
      "$sub), which RPI_PICO_W, the Pico W of $board, needs besides RPI_PICO's: fetch it" \
      "(make -C $MP/ports/rp2 BOARD=RPI_PICO_W submodules)"
  done
done

mkdir -p build
JOBS=${JOBS:-$(nproc)}
if [ -n "${PICOTOOL_DIR:-}" ]; then
  PT=$ROOT/build/picotool
  if [ ! -x "$PT/picotool/picotool" ]; then
    echo "== picotool from $PICOTOOL_DIR (log: build/picotool.log)"
    { cmake -S "$PICOTOOL_DIR" -B build/picotool-build -DPICO_SDK_PATH="$MP/lib/pico-sdk" \
      -DPICOTOOL_NO_LIBUSB=1 -DPICOTOOL_FLAT_INSTALL=1 -DCMAKE_INSTALL_PREFIX="$PT" &&
      make -C build/picotool-build -j"$JOBS" install; } >build/picotool.log 2>&1 ||
      die "picotool did not build: see build/picotool.log"
  fi
  export PICOTOOL_FETCH_FROM_GIT_PATH=$PT
fi

echo "== mpy-cross (log: build/mpy-cross.log)"
make -C "$MP/mpy-cross" -j"$JOBS" >build/mpy-cross.log 2>&1 || die "mpy-cross did not build:" \
  "see build/mpy-cross.log"
for board in "${BOARDS[@]}"; do
  PORT_BOARD=$(port_board "$board")
  OUT=$ROOT/build/rp2-$PORT_BOARD
  echo "== MicroPython $VERSION $PORT_BOARD with the clock for $board (log: build/firmware-$board.log)"
  # The port's Makefile runs CMake only in a fresh folder: one set up before the C modules were
  # built in starts again.
  if [ -f "$OUT/CMakeCache.txt" ] && ! grep -q "^USER_C_MODULES:.*=$ROOT/cmod/micropython.cmake$" \
    "$OUT/CMakeCache.txt"; then
    rm -rf "$OUT"
  fi
  if ! CLOCK_BOARD=$board make -C "$MP/ports/rp2" BOARD="$PORT_BOARD" BUILD="$OUT" \
    FROZEN_MANIFEST="$ROOT/manifest.py" USER_C_MODULES="$ROOT/cmod/micropython.cmake" \
    -j"$JOBS" >"build/firmware-$board.log" 2>&1; then
    tail -20 "build/firmware-$board.log" >&2
    die "the build for $board failed: see build/firmware-$board.log"
  fi
  cp "$OUT/firmware.uf2" "build/clock-$board.uf2"
  cp "$OUT/firmware.elf" "build/clock-$board.elf" # its symbols, for bench/chip/profile.py
  echo "build/clock-$board.uf2: $(wc -c <"build/clock-$board.uf2") bytes"
done
