#!/usr/bin/env bash
# Every test tier; each runs even when an earlier one failed, and any failure fails the whole.
set -u
cd "$(dirname "$0")/.."
BIN=.venv/bin
failed=()

echo "== tier 1: pytest under CPython"
"$BIN/pytest" -q -p no:cacheprovider || failed+=("pytest (exit $?)")

echo "== tier 2: the core, notation and app tests under the MicroPython unix port"
"$BIN/micropython" tests/mprun.py core notation || failed+=("micropython")

echo "== tier 3: mpy-cross compiles everything that goes on the board"
out=$(mktemp -d)
count=0
while IFS= read -r file; do
  count=$((count + 1))
  "$BIN/mpy-cross" -o "$out/$count.mpy" "$file" || failed+=("mpy-cross $file")
done < <(find firmware hal boards -name '*.py' | sort)
rm -rf "$out"
echo "mpy-cross: $count files compiled"
[ "$count" -gt 0 ] || failed+=("mpy-cross found nothing to compile")

if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED tiers: %s\n' "${failed[*]}"
  exit 1
fi
echo "all tiers passed"
