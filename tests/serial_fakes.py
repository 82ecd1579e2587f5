# SPDX-License-Identifier: MIT
# An in-memory serial port (a byte queue each way) and the app on the virtual HAL with a channel.
from app.serial_channel import SerialChannel
from harness import Clock

_SIZE = 16384


class FakePort:
    """The HAL serial contract. read_into() copies from a preallocated queue and allocates
    nothing, so the channel can be polled under heap_lock."""

    def __init__(self):
        self._data = bytearray(_SIZE)
        self._head = 0  # next byte to read
        self._tail = 0  # bytes queued end here
        self.output = []
        self.reads = 0

    def feed(self, data):
        if self._head == self._tail:
            self._head = self._tail = 0
        for byte in data:
            self._data[self._tail] = byte
            self._tail += 1

    def queued(self):
        return self._tail - self._head

    def read_into(self, buf):
        self.reads += 1
        count = 0
        size = len(buf)
        while count < size and self._head < self._tail:
            buf[count] = self._data[self._head]
            self._head += 1
            count += 1
        return count

    def write(self, data):
        self.output.append(bytes(data))

    def take(self):
        """The lines written since the last take(), without their CRLF."""
        text = b"".join(self.output).decode()
        self.output = []
        assert text == "" or text.endswith("\r\n"), text
        return text.split("\r\n")[:-1]


class SerialClock(Clock):
    """harness.Clock with a SerialChannel on a FakePort, polled after each run_until()."""

    def __init__(self, preset=None, repl=True, **options):
        Clock.__init__(self, preset=preset, **options)
        self.port = FakePort()
        self.channel = SerialChannel(self.port, self.app, repl)
        self.runner.channel = self.channel  # polled each pass, as on the board

    def run_until(self, stamp):
        steps = Clock.run_until(self, stamp)
        self.channel.poll(self.hal.now)
        return steps

    def send(self, data):
        """Bytes (or text) as a host would write them; polled at once; the lines answered."""
        if isinstance(data, str):
            data = data.encode()
        self.port.feed(data)
        while True:
            self.channel.poll(self.hal.now)
            if not self.channel.backlog() and not self.port.queued():
                break
        return self.port.take()

    def ask(self, command):
        """One command line; its answer lines."""
        return self.send(command + "\n")
