# SPDX-License-Identifier: MIT
# The HAL's wait(until): one select.poll() asleep until the stamp, an edge or a watched stream.
#
# On rp2, poll's C loop asks each registered object's ioctl whether it is ready and, when none
# is, sleeps in WFE until the remaining timeout or any interrupt, then asks again. The EdgeRing
# is registered as a stream that is readable while an edge is pending, so the CPU wakes only for
# an interrupt, and poll returns only for an edge, a watched stream (USB stdin) or the stamp.
# An edge whose IRQ comes between the last ask and the WFE sets the event flag: WFE returns.
from ticks import add, diff
from micropython import const

_MP_STREAM_POLL = const(3)


def _edge_stream(io, pending, pollin):
    """An io.IOBase (of the injected `io`) that poll sees readable while an edge is pending."""

    class EdgeStream(io.IOBase):
        def ioctl(self, req, arg):
            if req == _MP_STREAM_POLL:
                return arg & pollin if pending() else 0
            return -1  # not a file: the unix port asks for a descriptor (req 10)

    return EdgeStream()


class Waiter:
    """`select` and `io` are the injected modules, `edges` the HAL's EdgeRing. `wakes` counts
    the returns from poll (wraps at 2**30): how often the CPU woke for the main loop."""

    def __init__(self, select, io, edges, ticks_ms):
        self._pollin = select.POLLIN
        self._pending = edges.pending
        self._ticks_ms = ticks_ms
        self.edge_stream = _edge_stream(io, edges.pending, select.POLLIN)
        self._poller = select.poll()
        self._poller.register(self.edge_stream, select.POLLIN)
        self._ipoll = self._poller.ipoll  # bound once: wait() allocates nothing
        self._ipoll(0)  # the first ipoll() makes the poller's result tuple: now, not in a wait
        self.wakes = 0

    def watch(self, stream):
        """From now on a byte to read on `stream` ends a wait too."""
        self._poller.register(stream, self._pollin)

    def unwatch(self, stream):
        self._poller.unregister(stream)

    def wait(self, until):
        """Sleep until stamp `until` is reached (wrap-safe), an edge is pending or a watched
        stream is readable; until=None: no stamp. Returns at once if one is true already."""
        if self._pending():
            return
        now = self._ticks_ms
        timeout = -1
        if until is not None:
            timeout = diff(until, now())
            if timeout <= 0:
                return
        ipoll = self._ipoll
        while True:
            polled = ipoll(timeout)
            self.wakes = add(self.wakes, 1)
            for _ready in polled:
                return
            # Nothing ready: the timeout passed by poll's own clock (or a port's poll returned
            # early). The stamp decides.
            if until is not None:
                timeout = diff(until, now())
                if timeout <= 0:
                    return
