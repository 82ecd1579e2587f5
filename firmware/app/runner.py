# SPDX-License-Identifier: MIT
# The main loop: sleep until something is due, take the edges, bring the app up to now, draw.
import gc

from hal import buttons
from hal.debounce import Debouncer
from ticks import diff


class Runner:
    def __init__(self, hal, app):
        self.hal = hal
        self.app = app
        self.debouncer = Debouncer(buttons.COUNT)
        self._accept = self.debouncer.accept
        self._edge = app.gestures.edge
        # MicroPython's allocator slows as garbage piles up (on the emulated RP2040 a press took
        # 5.5 ms to the display after a collection, 11 ms twenty moves later): the garbage of a
        # switch's save is collected at once, while the new mover thinks. CPython needs no help.
        self._collect = gc.collect if hasattr(gc, "mem_free") else None
        self.channel = None
        if getattr(hal, "serial", None) is not None:
            from app.serial_channel import SerialChannel

            self.channel = SerialChannel(hal.serial, app)

    def step(self):
        """One pass. Allocates nothing while a game runs (menus, saves and commands aside).

        A pass that woke before anything was due (the watchdog's early return, a byte of a line
        still coming) with no edge and no command line only feeds the watchdog: the app has
        nothing to bring up to date and nothing new to draw.
        """
        hal = self.hal
        app = self.app
        channel = self.channel
        debouncer = self.debouncer
        start = hal.ticks_ms()
        until = app.next_wake(start)
        if debouncer.waiting:  # a tap's release held back by the lockout
            settle = debouncer.due()
            if diff(settle, until) < 0:
                until = settle
        if channel is not None:
            until = channel.wake_by(until, start)
        hall = app.hall  # app/hall.py: a scheduled start, the broker's link
        if hall is not None:
            until = hall.wake_by(until, start)
        hal.wait(until)
        # `now` is read before the edges are taken: every edge stamped up to `now` is in the
        # ring already, so no flag is declared at `now` ahead of an earlier press. An edge that
        # reaches the ring after that read, stamped later, moves `now` on to its stamp: the
        # rest of the pass must not bring the game to an instant before a press it took (it
        # would start the next move at `now`, charging it the difference).
        now = hal.ticks_ms()
        busy = app.due(now)
        edges = hal.edges
        lever = False
        while edges.pop():
            busy = True
            if diff(edges.stamp, now) > 0:
                now = edges.stamp
            if debouncer.waiting:
                self._settle(edges.stamp)  # a tap's release comes before the next edge
            if self._accept(edges.button, edges.pressed, edges.stamp):
                self._edge(edges.button, edges.pressed, edges.stamp)
                if edges.pressed and edges.button <= buttons.RIGHT:
                    lever = True
        if debouncer.waiting and self._settle(now):
            busy = True
        if lever:
            # A lever's press goes on the display before anything else of the pass: what tick
            # and the serial channel change, and a time that changed shape on a slow panel,
            # are drawn after the save, by the render below.
            app.render(now, True)
        if busy:
            app.tick(now)
        answered = False
        if channel is not None:
            before = channel.answered
            channel.poll(now)
            if channel.answered != before:
                busy = answered = True
        if hall is not None and hall.take(now):
            busy = answered = True
        if busy:
            if lever:
                app.flush(now)  # the press is on the display: its save
                # At the same `now` the frame is the press's own, unless tick, a command or the
                # hall changed something: then it is drawn again (otherwise ~3 ms for nothing).
                if answered or app.owes_frame():
                    app.render(now)
                if self._collect is not None:
                    self._collect()
            else:
                app.render(now)
                app.flush(now)  # the game's save, after the frame that shows what changed
        if hall is not None:
            hall.send(now)  # to the broker: after the frame and the save, a message at most
        if not lever and not edges.pending():
            app.tidy(now)  # an erase of the store's, while no clock runs and no edge waits
        hal.feed()

    def _settle(self, now):
        """Hand the gestures the releases the lockout held back and has let go by `now`."""
        debouncer = self.debouncer
        settled = False
        while True:
            button = debouncer.settle(now)
            if button < 0:
                return settled
            settled = True
            self._edge(button, False, debouncer.stamp)

    def run(self):
        self.app.render(self.hal.ticks_ms())  # the first frame at once, not at the first wake
        while True:
            self.step()
