# The main loop: sleep until something is due, take the edges, bring the app up to now, draw.
from hal.debounce import Debouncer
from hal import buttons


class Runner:
    def __init__(self, hal, app):
        self.hal = hal
        self.app = app
        self.debouncer = Debouncer(buttons.COUNT)
        self._accept = self.debouncer.accept
        self._edge = app.gestures.edge

    def step(self):
        """One pass. Allocates nothing while a game runs (menus and saves aside)."""
        hal = self.hal
        app = self.app
        hal.wait(app.next_wake(hal.ticks_ms()))
        # `now` is read before the edges are taken: every edge stamped up to `now` is in the
        # ring already, so no flag is declared at `now` ahead of an earlier press.
        now = hal.ticks_ms()
        edges = hal.edges
        while edges.pop():
            if self._accept(edges.button, edges.pressed, edges.stamp):
                self._edge(edges.button, edges.pressed, edges.stamp)
        app.tick(now)
        app.render(now)
        hal.feed()

    def run(self):
        while True:
            self.step()
