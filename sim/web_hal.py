# SPDX-License-Identifier: MIT
# The HAL in a web page (the MicroPython WebAssembly build): page time, edges stamped by the page's
# events, the browser's local storage, a tone through the page, the serial line as page calls.
#
# Of the desktop family (sim/hal_base.py). wait() never sleeps: the page has one thread, so it
# notes the stamp the runner asks to sleep until and returns; the page calls Runner.step() again
# at that stamp (a timer) or at once when an edge or a serial line comes. Everything the page
# gives (its clock, its storage, its speaker and lights) is injected: under CPython the tests
# give plain Python stand-ins, and this module imports under MicroPython's unix port too.
import binascii
import json

import ticks
from sim.hal_base import HEALTHY_MV, DesktopBuzzer, DesktopHal

_ENOENT = 2
_ENOSPC = 28
_S_IFDIR = 0x4000
_S_IFREG = 0x8000
TMP = ".tmp"


def folded(ms):
    """A DOMHighResTimeStamp (performance.now(), event.timeStamp: float ms) as the board's
    time.ticks_ms() gives it: whole ms, folded to 2**30."""
    return int(ms) % ticks.PERIOD


class StoredFile:
    """A file open for writing: its bytes reach the filesystem when it is closed."""

    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.data = bytearray()

    def write(self, data):
        self.data += data
        return len(data)

    def flush(self):
        pass

    def close(self):
        if self.data is not None:
            self.fs._put(self.path, bytes(self.data))
            self.data = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class StoredFs:
    """The os-like module (and open) hal.storage.Storage needs, its files in a key-value `store`
    (the page's localStorage: get_all(prefix) -> JSON {key: base64}, put(key, text) -> false
    when the store is full, drop(key)) under keys `prefix` + path. A file is stored when it is closed; rename is one
    put and one drop, so Storage's temp-then-rename leaves, whatever instant the page goes, the
    old file or the new one in the store. A stored value that is not base64 is left out and
    named in `unreadable`."""

    def __init__(self, store, prefix):
        self.store = store
        self.prefix = prefix
        self.files = {}
        self.dirs = set()
        self.unreadable = []
        for key, text in json.loads(store.get_all(prefix)).items():
            path = key[len(prefix) :]
            try:
                self.files[path] = binascii.a2b_base64(text.encode())
            except (ValueError, TypeError):
                self.unreadable.append(path)

    def _put(self, path, data):
        if not path.endswith(TMP):
            text = binascii.b2a_base64(data).decode().strip()
            if self.store.put(self.prefix + path, text) is False:
                raise OSError(_ENOSPC)  # as a full flash: the old file stays
        self.files[path] = data

    def open(self, path, mode="r"):
        if "w" in mode:
            return StoredFile(self, path)
        data = self.files.get(path)
        if data is None:
            raise OSError(_ENOENT)
        import io

        return io.BytesIO(data)

    def rename(self, old, new):
        data = self.files.get(old)
        if data is None:
            raise OSError(_ENOENT)
        self._put(new, data)
        self.remove(old)

    def remove(self, path):
        if self.files.pop(path, None) is None:
            raise OSError(_ENOENT)
        if not path.endswith(TMP):
            self.store.drop(self.prefix + path)

    def _is_dir(self, path):
        if path in self.dirs or path == "/":
            return True
        inside = path.rstrip("/") + "/"
        for name in self.files:
            if name.startswith(inside):
                return True
        return False

    def stat(self, path):
        if path in self.files:
            return (_S_IFREG, 0, 0, 0, 0, 0, len(self.files[path]), 0, 0, 0)
        if self._is_dir(path):
            return (_S_IFDIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(_ENOENT)

    def mkdir(self, path):
        self.dirs.add(path)

    def listdir(self, path):
        if not self._is_dir(path):
            raise OSError(_ENOENT)
        inside = path.rstrip("/") + "/"
        found = []
        for name in list(self.files) + list(self.dirs):
            if name.startswith(inside):
                first = name[len(inside) :].split("/")[0]
                if first and first not in found:
                    found.append(first)
        return found


class PageLeds:
    """The running-side lights: set() tells the page (`show(left_on, right_on)`) only when a
    level changed; `left_on` and `right_on` are the levels."""

    def __init__(self, show):
        self.show = show
        self.left_on = False
        self.right_on = False

    def set(self, left_on, right_on):
        left_on = bool(left_on)
        right_on = bool(right_on)
        if left_on != self.left_on or right_on != self.right_on:
            self.left_on = left_on
            self.right_on = right_on
            self.show(left_on, right_on)


class PageSerial:
    """The clock's serial port as the page sees it: feed() puts bytes in as a host's would
    arrive, what the clock writes goes to `out(text)`."""

    def __init__(self, out):
        self.out = out
        self._inbox = bytearray()

    def feed(self, data):
        if isinstance(data, str):
            data = data.encode()
        self._inbox += data

    def pending(self):
        return len(self._inbox)

    def read_into(self, buf):
        count = min(len(buf), len(self._inbox))
        if count:
            buf[:count] = self._inbox[:count]
            self._inbox = self._inbox[count:]
        return count

    def write(self, data):
        self.out(bytes(data).decode())


class WebHal(DesktopHal):
    """The hal/__init__.py contract in a page. `ticks_ms` is the page's clock folded as the
    board's; `tone(hz, ms)` sounds a tone; `show_leds(left, right)` draws the lights;
    `serial_out(text)` takes what the clock writes on its serial line (None: no serial).
    The page pushes each button edge with edge(button, pressed, stamp), stamped by the event
    that made it; `trace` keeps every edge pushed as (stamp, button, pressed)."""

    def __init__(self, storage, ticks_ms, tone, show_leds, serial_out=None, battery_mv=HEALTHY_MV):
        self.ticks_ms = ticks_ms
        DesktopHal.__init__(self, storage, DesktopBuzzer(bell=self._ring), battery_mv)
        self._tone = tone
        self.leds = PageLeds(show_leds)
        if serial_out is not None:
            self.serial = PageSerial(serial_out)
        self.until = None  # what the runner last asked to sleep until
        self.trace = []

    def _ring(self):
        hz, ms, _stamp = self.buzzer.last
        self._tone(hz, ms)

    def edge(self, button, pressed, stamp):
        self.trace.append((stamp, button, bool(pressed)))
        self.edges.push(button, pressed, stamp)

    def wait(self, until):
        self.until = until

    def due_in(self):
        """Ms from now to the stamp the runner asked to sleep until, or -1 for none; a serial
        line in, not read yet, is due at once."""
        if self.edges.pending() or (self.serial is not None and self.serial.pending()):
            return 0
        if self.until is None:
            return -1
        return max(0, ticks.diff(self.until, self.ticks_ms()))
