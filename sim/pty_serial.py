# SPDX-License-Identifier: MIT
# A serial port on a pseudo-terminal: the HAL's side of the pty a host program opens.
import errno
import os
import tty


class PtySerial:
    """The app reads and writes the master end (never blocking); a host program opens `path`,
    the slave end, as it would open /dev/ttyACM0. The slave stays open here too, so a host may
    come and go without the master seeing a hang-up. Output nobody reads is dropped once the
    terminal's buffer is full, as USB CDC drops it when no host listens."""

    def __init__(self):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing, no CR/LF translation
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self.dropped = 0  # bytes of output dropped

    def fileno(self):
        return self.master

    def read_into(self, buf):
        try:
            data = os.read(self.master, len(buf))
        except BlockingIOError:
            return 0
        except OSError as error:
            if error.errno == errno.EIO:  # no slave open: nothing to read
                return 0
            raise
        buf[: len(data)] = data
        return len(data)

    def write(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                written = os.write(self.master, view)
            except BlockingIOError:
                self.dropped += len(view)
                return
            view = view[written:]

    def close(self):
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
