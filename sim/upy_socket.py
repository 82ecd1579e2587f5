# SPDX-License-Identifier: MIT
# MicroPython's `socket` module on CPython's sockets, for the Wi-Fi clock's own MQTT code on the
# desktop (firmware/app/hall_mqtt.py and micropython-lib's umqtt.simple): a socket that reads
# and writes as a MicroPython stream does.
#
# MicroPython's read(n) on a blocking socket returns n bytes (fewer only at the end of the
# stream), on a non-blocking one None when nothing waits; write(buf, n) writes the first n bytes.
# A wait past the socket's timeout is OSError(ETIMEDOUT), as on the board.
import errno
import socket as _socket

AF_INET = _socket.AF_INET
SOCK_STREAM = _socket.SOCK_STREAM


def getaddrinfo(host, port, *args):
    return _socket.getaddrinfo(host, port, AF_INET, SOCK_STREAM)


class socket:  # noqa: N801  (MicroPython's name)
    def __init__(self, family=AF_INET, kind=SOCK_STREAM, proto=0):
        self._sock = _socket.socket(family, kind, proto)

    def fileno(self):
        return self._sock.fileno()

    def setblocking(self, flag):
        self._sock.setblocking(flag)

    def settimeout(self, seconds):
        self._sock.settimeout(seconds)

    def connect(self, address):
        try:
            self._sock.connect(address)
        except BlockingIOError:
            raise OSError(errno.EINPROGRESS, "in progress")

    def read(self, count=None):
        sock = self._sock
        if count is None:
            count = 4096
        try:
            data = sock.recv(count)
        except BlockingIOError:
            return None
        except _socket.timeout:
            raise OSError(errno.ETIMEDOUT, "timed out")
        if not data or sock.gettimeout() == 0.0:
            return data
        while len(data) < count:  # blocking: the whole count, as a MicroPython stream reads
            try:
                more = sock.recv(count - len(data))
            except _socket.timeout:
                raise OSError(errno.ETIMEDOUT, "timed out")
            if not more:
                break
            data += more
        return data

    def write(self, data, count=None):
        view = memoryview(data)
        if count is not None:
            view = view[:count]
        try:
            self._sock.sendall(view)
        except _socket.timeout:
            raise OSError(errno.ETIMEDOUT, "timed out")
        return len(view)

    def close(self):
        self._sock.close()
