# SPDX-License-Identifier: MIT
# USB CDC as the HAL's serial channel: non-blocking reads from stdin, Ctrl-C off while the app runs.
#
# The modules come injected (sys, select, micropython; machine for the boot helpers), so tests
# drive this with fakes under CPython. While a UsbSerial is open, micropython.kbd_intr(-1) makes
# Ctrl-C (0x03) an ordinary byte: stray bytes on the cable cannot stop a game; the serial
# channel answers them with an error. The ways back to the REPL (for mpremote and flash.sh):
#   * the REPL command when no game is in progress: main.py catches LeaveForRepl, closes this
#     (kbd_intr(3)) and calls reboot_to_repl(), which leaves a marker and resets the board
#     (the RP2040's watchdog cannot be stopped once started, so returning to the REPL with it
#     running would reset the board a few seconds later anyway);
#   * holding PLAY while powering on.
# On boot, main.py asks app_skipped() before it starts the HAL (and its watchdog).
# Given the HAL's waiter, stdin is watched while open: a byte ends the main loop's sleep.

MARKER = "repl.txt"  # in the board's storage: the next boot stays at the REPL
_CTRL_C = 3


class UsbSerial:
    """`waiter`: None, or the HAL's Waiter (watch(stream), unwatch(stream))."""

    def __init__(self, sys, select, micropython, waiter=None):
        stdin = sys.stdin
        self._in = getattr(stdin, "buffer", stdin)
        self._out = getattr(sys.stdout, "buffer", sys.stdout)
        self._micropython = micropython
        self._pollin = select.POLLIN
        self._poller = select.poll()
        self._poller.register(stdin, select.POLLIN)
        # ipoll yields a callee-owned tuple without allocating (MicroPython); poll elsewhere.
        try:
            self._ipoll = self._poller.ipoll
        except AttributeError:
            self._ipoll = self._poller.poll
        self._one = bytearray(1)
        self._readinto = getattr(self._in, "readinto", None)
        self._stdin = stdin
        self._waiter = waiter
        if waiter is not None:
            waiter.watch(stdin)
        self.open = True
        micropython.kbd_intr(-1)

    def any(self):
        """Whether a byte is waiting (never blocks)."""
        for _stream, events in self._ipoll(0):
            if events & self._pollin:
                return True
        return False

    def read_into(self, buf):
        """Up to len(buf) waiting bytes into `buf`; the count (0 when none). Never blocks: a byte
        is read only after poll said one is there, one at a time (stdin blocks for a full
        buffer)."""
        if not self.open:
            return 0
        count = 0
        size = len(buf)
        one = self._one
        readinto = self._readinto
        while count < size and self.any():
            if readinto is not None:
                if readinto(one) != 1:
                    break
                buf[count] = one[0]
            else:
                data = self._in.read(1)
                if not data:
                    break
                buf[count] = data[0] if isinstance(data[0], int) else ord(data[0])
            count += 1
        return count

    def write(self, data):
        if self.open:
            self._out.write(data)

    def close(self):
        """Before leaving for the REPL: Ctrl-C interrupts again, stdin is not watched."""
        if self.open:
            self.open = False
            self._poller.unregister(self._stdin)
            if self._waiter is not None:
                self._waiter.unwatch(self._stdin)
            self._micropython.kbd_intr(_CTRL_C)


def app_skipped(machine, storage, play_pin):
    """On boot, before the HAL starts: whether to stay at the REPL instead of running the app,
    because the REPL command asked for it (the marker, removed here: once only) or PLAY is held
    (`play_pin` is the board's GPIO number for PLAY; buttons close to GND)."""
    if storage.read(MARKER) is not None:
        storage.remove(MARKER)
        return True
    pin = machine.Pin(play_pin, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


def reboot_to_repl(machine, storage):
    """Leave a marker, then reset: the next boot skips the app and its watchdog."""
    storage.write(MARKER, b"the REPL command asked for the REPL\n")
    machine.reset()
