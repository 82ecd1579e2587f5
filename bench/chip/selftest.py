# SPDX-License-Identifier: MIT
# The emulated chip's own check: each behaviour bench/chip models beyond rp2040js, tried on it.
#
#   RP2040_FIRMWARE=F.uf2 RP2040_BOOTROM=B.bin python bench/chip/selftest.py
#
# F is stock MicroPython for the Pico or this project's own image (NAME standing for a board:
# pico_oled's is taken); the clock's image is held at its REPL by PLAY (GP16) held at power-on.
# The checkout's lever stamping (hal/events.py, hal/rp2040/lever_pio.py, lever_stamps.py) is
# written to the chip's file system first and run from there. Each check prints a line:
#   erase     a 4 KB sector erase keeps the core tSE (45 ms typical) in the ROM with interrupts
#             masked: a lever's edge 10 ms into it is stamped at its own microsecond by the PIO
#             and DMA, while its GPIO interrupt runs only when the erase is over
#   program   a page programmed twice holds the AND of both (NOR flash: bits only fall), and
#             took tPP (0.4 ms typical)
#   i2c       a byte takes 9 SCL periods of (HCNT + SPKLEN + 7) + (LCNT + 1) clk_sys cycles
#   pio       two edges 0.6 ms apart, each 0.1 ms before a millisecond of the chip's timer, are
#             stamped at their own millisecond, and within 1 us of their microsecond
#   max       --flash-timing max: a sector erase takes tSE max (400 ms)
# and exits 1 when one fails.
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from chip import Chip, Hung  # noqa: E402

PLAY = 16
LEVER = 14  # the left lever; the right one is GP15
UPLOADED = ("hal/events.py", "hal/rp2040/lever_pio.py", "hal/rp2040/lever_stamps.py")
TSE_MS = {"typ": 45.0, "max": 400.0}
TPP_MS = 0.4
ROM_SPI_DIV = 6  # the boot ROM's SPI: clk_sys / 6
CYCLE_NS = 8  # 125 MHz


class Repl:
    """MicroPython's raw REPL on the emulated USB serial, the chip run while it answers."""

    def __init__(self, chip):
        self.chip = chip
        self.chip.write(b"\r\x03\x03")
        self._until(b">>> ", 8000)
        self.chip.write(b"\r\x01")
        self._until(b"raw REPL; CTRL-B to exit\r\n>", 3000)

    def _until(self, marker, limit_ms, step_ms=5):
        got = b""
        spent = 0
        while marker not in got:
            if spent >= limit_ms:
                raise Hung(
                    "no %r from the chip in %d ms (got %r)" % (marker, limit_ms, got[-200:])
                )
            self.chip.run(step_ms)
            spent += step_ms
            got += self.chip.take_output()
        return got

    def start(self, code):
        """Send `code` to run; returns at once (the chip has not run it yet)."""
        self.chip.write(code.encode() + b"\x04")

    def finish(self, limit_ms=5000):
        """The output of the code start() sent; an error raises."""
        got = self._until(b"\x04>", limit_ms)
        got = got[got.index(b"OK") + 2 :]
        out, _, error = got.partition(b"\x04")
        error = error.rstrip(b"\x04>")
        if error.strip():
            raise RuntimeError("on the chip: " + error.decode(errors="replace"))
        return out.decode()

    def run(self, code, limit_ms=5000):
        self.start(code)
        return self.finish(limit_ms)


def boot(firmware, bootrom, timing):
    chip = Chip(firmware, bootrom, timeout=120, flash_timing=timing)
    chip.drive(PLAY, 0)  # the clock's own image stays at its REPL
    chip.run(2500)
    chip.drive(PLAY, None)
    return chip, Repl(chip)


def upload(repl):
    repl.run(
        "import os\nfor d in ('/st', '/st/hal', '/st/hal/rp2040'):\n"
        "    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
        "for f in ('/st/hal/__init__.py', '/st/hal/rp2040/__init__.py'):\n"
        "    open(f, 'w').close()\n"
    )
    for path in UPLOADED:
        with open(os.path.join(ROOT, path)) as source:
            text = source.read()
        repl.run("with open(%r, 'w') as f:\n    f.write(%r)" % ("/st/" + path, text), 20000)


SETUP = """
import sys, time, machine, rp2, uctypes
from array import array
sys.path.insert(0, '/st')
for name in [n for n in sys.modules if n == 'hal' or n.startswith('hal.')]:
    del sys.modules[name]  # the clock's image imported its own at boot
from hal.events import EdgeRing
from hal.rp2040.lever_stamps import LeverStamps
edges = EdgeRing()
for g in (14, 15):
    machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP)
stamps = LeverStamps(rp2, machine, uctypes.addressof, 14, (0, 1), edges)
late = array('i', [0, 0])
def seen(pin):
    late[0] = time.ticks_us()
    late[1] += 1
machine.Pin(14).irq(handler=seen, trigger=machine.Pin.IRQ_FALLING, hard=True)
flash = rp2.Flash()
last = flash.ioctl(4, 0) - 1
def popped():
    out = []
    while edges.pop():
        out.append((edges.button, edges.pressed, edges.stamp))
    return out
print('ready', stamps.taken)
"""


def at_fraction(chip, fraction_us):
    """Run the chip until its timer's microsecond within the millisecond is `fraction_us`."""
    now = chip.run(0)["timer_us"]
    wait = (fraction_us - now % 1000) % 1000
    return chip.run(wait / 1000.0)["timer_us"]


def check(results, name, ok, text):
    results.append(ok)
    print("%-8s %s  %s" % (name, "ok  " if ok else "FAIL", text))


def typical(firmware, bootrom, results):
    chip, repl = boot(firmware, bootrom, "typ")
    with chip:
        upload(repl)
        out = repl.run(SETUP, 10000)
        if "ready 1" not in out:
            raise RuntimeError("the lever stamping did not start: %r" % out)
        chip.events()

        # --- erase: an edge 10 ms into a sector erase
        repl.start("flash.ioctl(6, last)\nprint(popped(), late[0], late[1])")
        erase = None
        for _ in range(2000):
            chip.run(1)
            found = [e for e in chip.events() if e["ev"] == "flash" and e.get("op") == "erase"]
            if found:
                erase = found[0]
                break
        if erase is None:
            raise RuntimeError("no erase came")
        chip.run(10)
        edge_us = at_fraction(chip, 900)
        edge_t = chip.press(LEVER)["t"]
        out = repl.finish(3000)
        chip.release(LEVER)
        got, irq_us, irq_n = out.rsplit(" ", 2)
        wire_ms = (1 + 4 + 2) * 8 * ROM_SPI_DIV * CYCLE_NS / 1e6
        check(
            results,
            "erase",
            abs(erase["ms"] - TSE_MS["typ"] - wire_ms) < 1e-3,
            "a sector erase held the core %.4f ms (tSE 45 ms and %.4f ms on the ROM's SPI)"
            % (erase["ms"], wire_ms),
        )
        wanted = "[(0, True, %d)]" % (edge_us // 1000)
        check(
            results,
            "erase",
            got == wanted,
            "an edge %.1f ms into it, at timer %d us: stamped %s by the PIO and DMA (%s wanted)"
            % (edge_t - erase["t"], edge_us, got, wanted),
        )
        late_us = (int(irq_us) - edge_us) & 0x3FFFFFFF
        left_us = (erase["t"] + erase["ms"] - edge_t) * 1000
        check(
            results,
            "erase",
            int(irq_n) == 1 and left_us <= late_us <= left_us + 1000,
            "its GPIO interrupt ran %d us after the edge, %.0f us of the erase being left (the rest: "
            "the SDK and MicroPython ending the section, the handler's own start): "
            "pended while masked, as on silicon" % (late_us, left_us),
        )

        # --- program: a page twice, the AND of both
        code = (
            "a = bytearray(256)\nb = bytearray(256)\n"
            "for i in range(256):\n    a[i] = 0xF0 | i & 15\n    b[i] = 0x3C ^ i\n"
            "flash.ioctl(6, last)\nflash.writeblocks(last, a, 0)\nflash.writeblocks(last, b, 0)\n"
            "c = bytearray(256)\nflash.readblocks(last, c, 0)\n"
            "print(all(c[i] == a[i] & b[i] for i in range(256)), c[:4].hex())"
        )
        chip.events()
        out = repl.run(code, 5000)
        programs = [e for e in chip.events() if e["ev"] == "flash" and e.get("op") == "program"]
        page_ms = TPP_MS + (1 + 4 + 256 + 2) * 8 * ROM_SPI_DIV * CYCLE_NS / 1e6
        check(
            results,
            "program",
            out.startswith("True")
            and len(programs) == 2
            and all(abs(p["ms"] - page_ms) < 1e-3 for p in programs),
            "programmed twice, the page holds the AND (%s); each took %s ms (%.4f wanted)"
            % (out.strip(), [p["ms"] for p in programs], page_ms),
        )

        # --- i2c: 100 bytes to the SSD1306 at 400 kHz
        chip.events()
        out = repl.run(
            "i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4), freq=400000)\n"
            "print(i2c.writeto(0x3c, bytes(100)))\n",
            5000,
        )
        writes = [e for e in chip.events() if e["ev"] == "i2c" and e["n"] == 100]
        period_ns = (126 + 11 + 7 + 187 + 1) * CYCLE_NS  # i2c_set_baudrate's counts at 125 MHz
        least_ms = (1 + 9 * 101 + 1) * period_ns / 1e6  # START, address and bytes, STOP
        took = writes[0]["t"] - writes[0]["t0"] if writes else 0
        check(
            results,
            "i2c",
            bool(writes) and least_ms - 2e-4 <= took <= least_ms * 1.03,
            "100 bytes took %.4f ms: 911 periods of %d ns (376.5 kHz) are %.4f ms, the rest "
            "is the Pico SDK's wait between bytes" % (took, period_ns, least_ms),
        )

        # --- pio: two edges 0.6 ms apart, both 0.1 ms before a millisecond boundary
        repl.run("popped()")
        first = at_fraction(chip, 900)
        chip.press(LEVER)
        chip.run(0.6)
        second = chip.run(0)["timer_us"]
        chip.press(LEVER + 1)
        chip.run(5)
        chip.release(LEVER)
        chip.release(LEVER + 1)
        out = repl.run(
            "print(popped()[:2])\n"
            "print([stamps._ring[stamps._stamps_at + 2 * i] | "
            "stamps._ring[stamps._stamps_at + 2 * i + 1] << 16 for i in range(64)])"
        )
        got, ring = out.strip().splitlines()
        wanted = str([(0, True, first // 1000), (1, True, second // 1000)])
        check(
            results,
            "pio",
            got == wanted,
            "edges at timer %d and %d us stamped %s (%s wanted)" % (first, second, got, wanted),
        )
        ring_us = json.loads(ring)
        near = [min(abs(v - e) for v in ring_us) for e in (first, second)]
        check(
            results,
            "pio",
            max(near) <= 1,
            "their microseconds in the DMA's ring are within %d us of the edges" % max(near),
        )


def maximum(firmware, bootrom, results):
    chip, repl = boot(firmware, bootrom, "max")
    with chip:
        repl.run("import rp2\nflash = rp2.Flash()\nlast = flash.ioctl(4, 0) - 1\n")
        chip.events()
        repl.run("flash.ioctl(6, last)", 3000)
        erase = [e for e in chip.events() if e["ev"] == "flash" and e.get("op") == "erase"]
        status = chip.run(0)
        check(
            results,
            "max",
            len(erase) == 1
            and abs(erase[0]["ms"] - 400.0027) < 1e-3
            and status["flash_timing"] == "max",
            "a sector erase held the core %s ms (tSE max 400 ms)" % [e["ms"] for e in erase],
        )


def main():
    firmware = os.environ.get("RP2040_FIRMWARE", "").replace("NAME", "pico_oled")
    bootrom = os.environ.get("RP2040_BOOTROM", "")
    if not os.path.isfile(firmware) or not os.path.isfile(bootrom):
        print(
            "selftest: RP2040_FIRMWARE and RP2040_BOOTROM must name a MicroPython image for "
            "the Pico and the RP2040 boot ROM (make bench-chip says what they are)",
            file=sys.stderr,
        )
        return 2
    results = []
    typical(os.path.abspath(firmware), bootrom, results)
    maximum(os.path.abspath(firmware), bootrom, results)
    print("selftest: %d of %d checks passed" % (sum(results), len(results)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Hung as error:
        print("selftest: %s" % error, file=sys.stderr)
        sys.exit(1)
