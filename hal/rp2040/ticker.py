# A 1 kHz machine.Timer that keeps waking the main loop, and the HAL's wait(until) built on it.
#
# machine.idle() sleeps until the next interrupt. The timer guarantees one every millisecond,
# so wait() sees its deadline within 1 ms even if an edge's interrupt slipped in between the
# check and the sleep; button interrupts end the wait sooner.
from clock.ticks import add, diff
from micropython import const

FREQ_HZ = const(1000)


class Ticker:
    """The timer comes from the injected `machine`; `edges` is the HAL's EdgeRing."""

    def __init__(self, machine, edges, ticks_ms):
        self._machine = machine
        self._timer = None
        self._idle = machine.idle
        self._pending = edges.pending
        self._ticks_ms = ticks_ms
        self._tick = self._on_tick  # bound once: the callback allocates nothing
        self.count = 0  # ticks so far (wraps at 2**30)
        self.hard = False  # whether the callback runs as a hard interrupt

    def _on_tick(self, timer):
        self.count = add(self.count, 1)

    def start(self):
        Timer = self._machine.Timer
        timer = Timer(-1)
        # A hard callback where the port takes `hard` (newer rp2); a soft one where it does not.
        try:
            timer.init(mode=Timer.PERIODIC, freq=FREQ_HZ, callback=self._tick, hard=True)
            self.hard = True
        except TypeError:
            timer.init(mode=Timer.PERIODIC, freq=FREQ_HZ, callback=self._tick)
            self.hard = False
        self._timer = timer

    def stop(self):
        if self._timer is not None:
            self._timer.deinit()
            self._timer = None

    def wait(self, until):
        """Sleep until stamp `until` is reached (wrap-safe) or an edge is pending; until=None
        waits for an edge only. Returns at once if either is true already."""
        pending = self._pending
        idle = self._idle
        if until is None:
            while not pending():
                idle()
            return
        now = self._ticks_ms
        while not pending() and diff(until, now()) > 0:
            idle()
