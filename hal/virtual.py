# A HAL in virtual time, for tests and scripted runs: scheduled button edges, recorded frames and tones.
from clock import ticks
from hal.events import EdgeRing


class RecordingDisplay:
    def __init__(self):
        self.writes = 0
        self.frame = None
        self.stamp = 0
        self.hal = None
        self.windows = None  # of the last show: a list of (x0, x1, p0, p1), None for all

    def show(self, frame, dirty=None):
        self.writes += 1
        self.frame = bytes(frame)
        self.stamp = self.hal.now if self.hal else 0
        self.windows = None
        if dirty is not None:
            if not dirty.whole:
                boxes = dirty.boxes
                self.windows = [tuple(boxes[i : i + 4]) for i in range(0, 4 * dirty.count, 4)]
            dirty.clear()


class RecordingBuzzer:
    def __init__(self):
        self.tones = []  # (stamp, hz, ms)
        self.sounding = False
        self._until = 0

    def play(self, hz, ms, now):
        self.tones.append((now, hz, ms))
        self.sounding = True
        self._until = ticks.add(now, ms)

    def update(self, now):
        if self.sounding and ticks.diff(now, self._until) >= 0:
            self.sounding = False

    def stop(self):
        self.sounding = False


class VirtualHal:
    """Time moves only in wait(): straight to the next due stamp or scheduled edge."""

    def __init__(self, storage, start=0, battery_mv=4000):
        self.now = start
        self.edges = EdgeRing()
        self.display = RecordingDisplay()
        self.display.hal = self
        self.buzzer = RecordingBuzzer()
        self.storage = storage
        self.battery = battery_mv
        self.fed = 0
        self.serial = None
        self.horizon = None  # wait() never goes past this stamp (tests stop time here)
        self._script = []  # (stamp, button, pressed), in order

    def ticks_ms(self):
        return self.now

    def schedule(self, stamp, button, pressed):
        script = self._script
        index = len(script)
        while index > 0 and ticks.diff(script[index - 1][0], stamp) > 0:
            index -= 1
        script.insert(index, (stamp, button, pressed))

    def press(self, button, stamp, hold_ms=80):
        self.schedule(stamp, button, True)
        self.schedule(ticks.add(stamp, hold_ms), button, False)

    def next_edge(self):
        return self._script[0][0] if self._script else None

    def wait(self, until):
        target = until
        edge = self.next_edge()
        if edge is not None and (target is None or ticks.diff(edge, target) < 0):
            target = edge
        horizon = self.horizon
        if horizon is not None and (target is None or ticks.diff(target, horizon) > 0):
            target = horizon
        if target is not None and ticks.diff(target, self.now) > 0:
            self.now = target
        script = self._script
        while script and ticks.diff(script[0][0], self.now) <= 0:
            stamp, button, pressed = script.pop(0)
            self.edges.push(button, pressed, stamp)

    def battery_mv(self):
        return self.battery

    def feed(self):
        self.fed += 1
