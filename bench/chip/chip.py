# SPDX-License-Identifier: MIT
# One emulated Pico (bench/chip/emu.mjs under node), driven from Python: levers, time, events.
#
# The chip's USB serial is a pseudo-terminal while `forward` is on (mpremote and flash.sh use
# `chip.port` as they would /dev/ttyACM0), and otherwise lands in `chip.output` for the bench
# to read. Every command waits at most `timeout` seconds of wall time: a chip that stops
# answering is killed and raises Hung, never left running. `flash_timing` is emu.mjs's
# --flash-timing: typ (the W25Q16JV's typical erase and program times, the default), max or none.
import json
import os
import pty
import select
import socket
import subprocess
import tempfile
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))


class Hung(Exception):
    """The emulator did not answer in time (it has been stopped)."""


class Chip:
    def __init__(
        self,
        firmware,
        bootrom,
        tm1637="",
        oled="0x3c",
        timeout=120,
        leds="",
        spi_oled="",
        ht1621="",
        ref="",
        flash_timing="typ",
        options=(),
    ):
        self.timeout = timeout
        self.output = bytearray()
        self.forward = False
        self._lock = threading.Lock()
        self._mine, theirs = socket.socketpair()
        self._master, slave = pty.openpty()
        tty.setraw(slave)  # no echo, no line editing: bytes pass as they are
        self._slave = slave  # held open so the PTY lives while mpremote comes and goes
        self.port = os.ttyname(slave)
        command = ["node", os.path.join(HERE, "emu.mjs"), "--firmware", firmware]
        command += ["--bootrom", bootrom, "--serial-fd", str(theirs.fileno())]
        command += ["--tm1637", tm1637, "--oled", oled, "--leds", leds, "--spi-oled", spi_oled]
        command += ["--ht1621", ht1621, "--ref", str(ref), "--flash-timing", flash_timing]
        command += list(options)  # options: faults.mjs's, say
        self._errors = tempfile.TemporaryFile(mode="w+")  # rp2040js's warnings, our errors
        self._node = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            pass_fds=(theirs.fileno(),),
            text=True,
            bufsize=1,
        )
        theirs.close()
        self._stopping = False
        threading.Thread(target=self._relay, daemon=True).start()
        first = self._answer()
        if not first.get("ready"):
            self.close()
            raise Hung("the emulator did not start: %s" % first)

    # --- commands --------------------------------------------------------------------------

    def _answer(self, timeout=None):
        ready, _, _ = select.select([self._node.stdout], [], [], timeout or self.timeout)
        line = self._node.stdout.readline() if ready else ""
        if not line:
            self.close()
            if self._node.returncode not in (None, 0, -9, -15):
                raise Hung(
                    "the emulator stopped (exit %s): %s" % (self._node.returncode, self.errors())
                )
            raise Hung("the emulated chip did not answer within %d s: stopped" % self.timeout)
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError("emu.mjs: " + answer["error"])
        return answer

    def send(self, op, timeout=None, **fields):
        fields["op"] = op
        try:
            self._node.stdin.write(json.dumps(fields) + "\n")
        except (BrokenPipeError, OSError):
            self.close()
            raise Hung("the emulator is gone (exit %s)" % self._node.poll())
        return self._answer(timeout)

    def run(self, ms):
        """Run the chip `ms` emulated ms; its state then (t, exec_ms, resets)."""
        return self.send("run", ms=ms)

    def press(self, pin):
        return self.send("pin", pin=pin, v=0)

    def release(self, pin):
        return self.send("pin", pin=pin, v=None)

    def drive(self, pin, level):
        """Drive `pin` from outside (0 or 1), or let it go (None). GP24 is the Pico's VBUS sense:
        1 is USB power present, 0 (or nothing) on battery."""
        return self.send("pin", pin=pin, v=level)

    def events(self):
        return self.send("events")["events"]

    def errors(self):
        """The emulator's last error line."""
        self._errors.seek(0)
        lines = [line for line in self._errors.read().splitlines() if "invalid SIO" not in line]
        return lines[-1] if lines else ""

    def close(self):
        if self._stopping:
            return
        self._stopping = True
        if self._node.poll() is None:
            self._node.kill()
        self._node.wait()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._mine.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- the USB serial --------------------------------------------------------------------

    def write(self, data):
        self._mine.sendall(data)

    def take_output(self):
        with self._lock:
            data = bytes(self.output)
            self.output.clear()
        return data

    def _relay(self):
        sock = self._mine
        while not self._stopping:
            try:
                ready, _, _ = select.select([sock, self._master], [], [], 0.2)
                if sock in ready:
                    data = sock.recv(4096)
                    if not data:
                        return
                    if self.forward:
                        os.write(self._master, data)
                    else:
                        with self._lock:
                            self.output += data
                if self._master in ready:
                    data = os.read(self._master, 4096)
                    if self.forward and data:
                        sock.sendall(data)
            except OSError:
                if self._stopping:
                    return
                time.sleep(0.05)
