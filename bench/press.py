# SPDX-License-Identifier: MIT
# Press to pixels and CPU busy on the RP2040, estimated from this machine's MicroPython unix port.
#   micropython bench/press.py ROOT [REPEATS]
# prints "name value" lines (a value may hold spaces) that bench/run.py gathers into its table:
#   ref_*, ratio*     the reference loops timed here, and the factor r from unix to chip time
#   press.BOARD.CASE  one lever press: Python from the wake to the end of the display write,
#                     bytes on the bus,
#                     the chip estimate (pico_oled: I2C; pico_tm1637: bit-banged TM1637 writes)
#   busy.BOARD.CASE   loop passes, their Python and bus bytes over a stretch of virtual time
#   frame.BOARD       a second's tick: the Python that builds its frame (render less the show)
# The app runs on the virtual HAL (tests/harness.py Clock): its wait() returns at once, so the
# wall time of a Runner.step() is its Python time. pico_oled's display is the board's own
# Ssd1306 driver on an I2C with nothing on it (its Python is counted, the bus is estimated);
# pico_tm1637's records the 9-byte frame (the driver's writes are estimated from the change).
# A press whose frame changes nothing (a TM1637 side whose digits stay) is shown once the app's
# render has found so: it counts to the end of that render, not of the pass (the save after it).
# Unix times are the best of REPEATS runs, as for the reference loops.
import gc
import sys
import time

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
for path in ("tests", "", "firmware"):
    sys.path.insert(0, ROOT + "/" + path if path else ROOT)
if sys.implementation.name != "micropython":
    sys.path.insert(0, ROOT + "/sim/shim")

from boards import pico_oled, pico_tm1637  # noqa: E402
import ticks
from clock import display  # noqa: E402
from clock.game import View  # noqa: E402
from fakes.mini_fs import MiniFs  # noqa: E402
from hal import buttons as b  # noqa: E402
from hal.rp2040 import tm1637  # noqa: E402
from hal.rp2040.buzzer import Silent  # noqa: E402
from hal.rp2040.ssd1306 import PAGES, Ssd1306, window_bytes  # noqa: E402
from harness import Clock  # noqa: E402
from ui import seg7  # noqa: E402
from ui.seg7 import SegScreen  # noqa: E402

# Two loops timed on the chip (official MicroPython v1.28 RPI_PICO firmware, 125 MHz), each in a
# function: `for i in range(10000): pass`, and `x = x + i * 2` over range(10000).
CHIP_LOOP_A_MS = 33.2
CHIP_LOOP_B_MS = 63.2
# On the chip the app's own code ran ~180x slower than this unix port, those loops ~240x: a
# factor from the loops overestimates app code by 240/180; the low end of a range takes it off.
APP_CORRECTION = 180 / 240
# Assumed, not measured: the chip's cost of waking for an edge (IRQ handler, the waiter's
# return, the loop pass starting), per loop pass.
WAKE_US = 100
# Assumed, not measured: one Python call to a machine.Pin (pin(v), or pin() to read) on the chip.
PIN_CALL_US = 12
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5  # bench/run.py --quick: 1
WHOLE_FRAME_BYTES = PAGES * window_bytes(0, 127, 0, 0)  # 8 * (8 + 130): one window per page

try:
    _us = time.ticks_us

    def elapsed_us(start):
        return time.ticks_diff(time.ticks_us(), start)

    def time_diff(end, start):
        return time.ticks_diff(end, start)

except AttributeError:
    _us = time.perf_counter_ns

    def elapsed_us(start):
        return (time.perf_counter_ns() - start) / 1000

    def time_diff(end, start):
        return (end - start) / 1000


def _loop_a():
    for i in range(10000):
        pass


def _loop_b():
    x = 0
    for i in range(10000):
        x = x + i * 2
    return x


def best_us(function, repeats):
    best = None
    for _ in range(repeats):
        gc.collect()
        start = _us()
        function()
        took = elapsed_us(start)
        if best is None or took < best:
            best = took
    return best


# --- the displays --------------------------------------------------------------------------


class NullI2c:
    """machine.I2C with nothing on the wire. Its writeto is a call into C that returns at once,
    as machine.I2C's is C on the chip (a Python method here would count a Python call the
    chip does not make; the bus time is added from the bytes)."""

    def __init__(self):
        self.writeto = {}.get  # takes (address, data), returns data


class OledBus:
    """pico_oled's display: the board's Ssd1306 driver (its Python runs, its I2C does nothing).
    Notes the windows of the first show since `shown_at` was cleared: a press's own (on I2C the
    pass's second render, after the save, draws what the press left to it). `dirty` keeps its
    boxes after clear(), only the count goes; they are copied once the show is stamped, outside
    the timed part."""

    def __init__(self):
        self.driver = Ssd1306(NullI2c(), pico_oled.OLED_ADDRESS)
        self.shows = 0
        self.shown_at = None
        self.first = None  # the windows of the first show since shown_at was cleared
        self.first_sent = 0  # the bytes the driver put on the bus for it

    def show(self, frame, dirty=None):
        self.shows += 1
        whole = dirty is None or dirty.whole
        count = 0 if whole else dirty.count
        sent = self.driver.show(frame, dirty)
        if self.shown_at is None:
            self.shown_at = _us()
            self.first_sent = sent
            if whole:
                self.first = None
            else:
                boxes = dirty.boxes
                self.first = [tuple(boxes[i : i + 4]) for i in range(0, 4 * count, 4)]

    def windows(self):
        """(x0, x1, p0, p1) of each window of the first show; None for the whole frame."""
        return self.first


def oled_bytes(windows):
    """Bytes on the I2C bus for a show of `windows`, address bytes included."""
    if windows is None:
        return WHOLE_FRAME_BYTES
    return sum([window_bytes(x0, x1, p0, p1) for x0, x1, p0, p1 in windows])


def scl_hz(asked, clk_sys=125000000):
    """The SCL rate the RP2040 makes of `asked`: the Pico SDK's i2c_set_baudrate counts (LCNT
    3/5 of the period, SPKLEN LCNT / 16), SCL high HCNT + SPKLEN + 7 and low LCNT + 1 clk_sys
    cycles (RP2040 datasheet 4.3.14): 376.5 kHz of 400 kHz, 399.4 kHz of 425 kHz."""
    period = (clk_sys + asked // 2) // asked
    low = period * 3 // 5
    spike = 1 if low < 16 else low // 16
    return clk_sys / (period - low + spike + 7 + low + 1)


def i2c_us(count):
    return count * 9 * 1000000 / scl_hz(pico_oled.I2C_FREQ)  # 8 bits and the ACK per byte


class SegBus:
    """pico_tm1637's display, recording the 9-byte frame of the last show (the copy stands in
    for the driver's own compare of the 8 digits and the brightness with what it sent)."""

    def __init__(self):
        self.frame = bytearray(seg7.FRAME_BYTES)
        self.shows = 0
        self.shown_at = None

    def show(self, frame, dirty=None):
        self.shows += 1
        shown = self.frame
        for i in range(seg7.FRAME_BYTES):
            shown[i] = frame[i]
        if self.shown_at is None:
            self.shown_at = _us()


class SegWriter:
    """What TwoModules.show() sends for a change of frame: a changed brightness, one control
    command to each module; then per module (Tm1637.update) the address command and the run of
    digits from the first to the last that changed, or, every REFRESH_EVERY-th write of a module,
    all of it with the data and control commands."""

    def __init__(self):
        self.writes = [0, 0]  # since each module's last refresh

    def cost(self, before, after, refresh=False):
        """(bytes, pin calls, sleep µs, digits changed) of the writes from frame `before` to
        `after`; `refresh`: as if each module written were due for its refresh."""
        delay = pico_tm1637.TM1637_DELAY_US
        sent = pins = sleep = changed = 0
        if before[8] != after[8]:
            _, p, s = tm1637.bus_cost(2, 2, delay)
            sent, pins, sleep = 2, p, s
        for module in (0, 1):
            at = module * tm1637.DIGITS
            first = last = -1
            for grid in range(tm1637.DIGITS):
                if before[at + grid] != after[at + grid]:
                    changed += 1
                    if first < 0:
                        first = grid
                    last = grid
            if first < 0:
                continue
            full = refresh or self.writes[module] >= tm1637.REFRESH_EVERY - 1
            if full:
                self.writes[module] = 0
                count = tm1637.DIGITS + 3
                _, p, s = tm1637.write_cost(tm1637.DIGITS, True, delay)
            else:
                self.writes[module] += 1
                count = last + 2 - first
                _, p, s = tm1637.write_cost(last + 1 - first, False, delay)
            sent += count
            pins += p
            sleep += s
        return sent, pins, sleep, changed


def seg_us(pins, sleep):
    return pins * PIN_CALL_US + sleep


# --- driving the app -----------------------------------------------------------------------


START = 2000  # the right lever starts the game here: the left player moves first


def make_clock(board, preset, oled):
    if board == "oled":
        clock = Clock(fs=MiniFs(), preset=preset)
        bus = oled
    else:
        clock = Clock(screen=SegScreen(), fs=MiniFs(), preset=preset)
        bus = SegBus()
    clock.hal.display = bus
    clock.app.sounds.buzzer = Silent()  # the recorder would allocate
    return clock, bus


def shown(clock, side, stamp, four_digits):
    app = clock.app
    view = app.game.view(app.player_on(side), stamp, View())
    text = bytearray(12)
    n = display.render(view.time_ms, text, four_digits)
    return bytes(text[:n]).decode()


def press_once(board, case, oled):
    """One run of `case`: (µs of the pass that takes the press, µs of the game's save alone,
    bytes on the bus, frames before and after (pico_tm1637), the time shown before and after)."""
    name, preset, plies, side, label = case
    clock, bus = make_clock(board, preset, oled)
    hal = clock.hal
    button, stamp = b.RIGHT, START  # the right lever starts the game: the left player moves
    for ply, ms in enumerate(plies):
        clock.press(button, stamp)
        button, stamp = (b.LEFT if ply % 2 == 0 else b.RIGHT), stamp + ms
    clock.press(button, stamp)
    clock.run_until(ticks.add(stamp, -1))
    four = board == "tm1637"
    before = shown(clock, side, stamp, four)
    step = clock.runner.step
    # Press to pixels: from the wait that the edge ends to the end of the display's first show
    # (the pass's second render, the save and the next wake's sums come after it).
    woke = [0]
    rendered = [None]
    waits = hal.wait
    render = clock.app.render

    def timed_wait(until):
        waits(until)
        woke[0] = _us()

    def timed_render(now, press=False):
        changed = render(now, press)
        if rendered[0] is None:
            rendered[0] = _us()
        return changed

    hal.wait = timed_wait
    clock.app.render = timed_render
    while True:  # a pass or two may come due before the edge
        shows = bus.shows
        frame = bytes(bus.frame) if four else None
        gc.collect()
        bus.shown_at = None
        rendered[0] = None
        step()
        if hal.next_edge() != stamp:
            break
    # A press the display need not show (a TM1637 side whose digits stay) is on it once the
    # runner's render for the lever has found no segment to change.
    took = time_diff(rendered[0] if bus.shown_at is None else bus.shown_at, woke[0])
    after = shown(clock, side, hal.now, four)
    count = 0
    frames = None
    if bus.shows != shows:
        if four:
            frames = (frame, bytes(bus.frame))
        else:
            count = oled_bytes(bus.windows())
            if bus.first_sent != count:
                raise AssertionError("window_bytes and the driver disagree: " + name)
    gc.collect()
    start = _us()
    clock.app._save(clock.hal.now)  # what the pass spent on saving the game (the same text)
    save = elapsed_us(start)
    return took, save, count, frames, before, after


PRESSES = (
    # name, preset, the plies before the measured press (ms each, the left player first; the
    # measured press ends the last one: no plies, it starts the game), the side whose time is
    # shown in the label, the label. Fischer adds the increment as a move begins: the press
    # changes the opponent's time.
    ("start", "Rapid 15+10", (), 0, "game start from the ready screen"),
    ("fischer", "Rapid 15+10", (1000, 910000 - 595400, 1000), 1, "Fischer +10 s"),
    ("tenths", "Blitz 3+2", (1000, 182000 - 18650, 1000), 1, "Fischer +2 s across 20 s"),
    ("hour", "FIDE classical", (1000, 5430000 - 3585300, 1000), 1, "Fischer +30 s across 1 h"),
    ("byoyomi", "Go 30m 5x30s byoyomi", (1830000 - 8350,), 0, "byo-yomi period reset"),
    ("delay", "US delay G/5 d5", (3350,), 1, "US delay, pressed in the delay"),
    ("plain", "Bullet 1+0", (5650,), 0, "no increment"),
)


def estimate(python_us, wire_us, ratio, passes=1):
    """(high, low) chip µs: the Python scaled by r (and by r x APP_CORRECTION), the bus, the
    wakes."""
    fixed = wire_us + passes * WAKE_US
    return python_us * ratio + fixed, python_us * ratio * APP_CORRECTION + fixed


def presses(board, ratio, oled):
    worst = None
    for case in PRESSES:
        name, preset, plies, side, label = case
        best = None
        save = None
        for _ in range(REPEATS):
            result = press_once(board, case, oled)
            if best is None or result[0] < best[0]:
                best = result
            if save is None or result[1] < save:
                save = result[1]
        took, _, count, frames, before, after = best
        key = "press.%s.%s." % (board, name)
        side = "left" if side == 0 else "right"
        print(key + "label", "%s: %s, %s %s -> %s" % (preset, label, side, before, after))
        print(key + "py_us", "%.1f" % took)
        print(key + "save_us", "%.1f" % save)
        if board == "oled":
            wire = i2c_us(count)
        elif frames is None:
            wire = 0
            print(key + "digits", 0)
        else:
            count, pins, sleep, digits = SegWriter().cost(*frames)
            wire = seg_us(pins, sleep)
            print(key + "digits", digits)
            print(key + "pins", pins)
            print(key + "sleep_us", sleep)
            # the same press when each module it writes is due for its periodic refresh
            _, pins, sleep, _ = SegWriter().cost(frames[0], frames[1], True)
            high, _ = estimate(took, seg_us(pins, sleep), ratio)
            print(key + "chip_refresh_ms", "%.3f" % (high / 1000))
        high, low = estimate(took, wire, ratio)
        print(key + "bytes", count)
        print(key + "bus_ms", "%.3f" % (wire / 1000))
        print(key + "chip_ms", "%.3f" % (high / 1000))
        print(key + "chip_low_ms", "%.3f" % (low / 1000))
        if worst is None or high > worst[1]:
            worst = (name, high, low)
    print("press.%s.worst" % board, worst[0])
    print("press.%s.worst_ms" % board, "%.3f" % (worst[1] / 1000))
    print("press.%s.worst_low_ms" % board, "%.3f" % (worst[2] / 1000))


# --- CPU busy ------------------------------------------------------------------------------

BUSY = (
    # name, preset, state, ms into it before the stretch, seconds measured, goal %, label
    ("running", "Rapid 15+10", "running", 10000, 60, 2.0, "game running, above 20 s"),
    (
        "tenths",
        "Bullet 1+0",
        "running",
        60000 - 20500,
        20,
        10.0,
        "game running, tenths shown (20.5 s to 0.5 s left)",
    ),
    ("ready", "Rapid 15+10", "ready", 1000, 60, 0.5, "ready screen"),
    ("paused", "Rapid 15+10", "paused", 10000, 60, 0.5, "game paused"),
)


def busy_once(board, case, oled):
    """(loop passes, shows, µs of Python in all, bytes, wire µs) over the stretch of `case`."""
    name, preset, state, lead, seconds, goal, label = case
    clock, bus = make_clock(board, preset, oled)
    hal = clock.hal
    begin = START + lead
    if state != "ready":
        clock.press(b.RIGHT, START)
    if state == "paused":
        clock.press(b.PLAY, begin - 500)
    clock.run_until(begin)
    if clock.state() != state:
        raise AssertionError("%s: %s, not %s" % (name, clock.state(), state))
    end = ticks.add(begin, 1000 * seconds)
    hal.horizon = end
    step = clock.runner.step
    writer = SegWriter()
    before = bytearray(seg7.FRAME_BYTES)
    passes = shows = python = count = wire = 0
    sent = oled.driver.sent
    gc.collect()
    while ticks.diff(end, hal.now) > 0:
        if board == "tm1637":
            for i in range(seg7.FRAME_BYTES):
                before[i] = bus.frame[i]
        seen = bus.shows
        start = _us()
        step()
        python += elapsed_us(start)
        passes += 1
        if bus.shows != seen:
            shows += 1
            if board == "tm1637":
                sent_now, pins, sleep, _ = writer.cost(before, bus.frame)
                count += sent_now
                wire += seg_us(pins, sleep)
    hal.horizon = None
    if board == "oled":
        count = oled.driver.sent - sent
        wire = i2c_us(count)
    return passes, shows, python, count, wire


def busy(board, ratio, oled):
    for case in BUSY:
        name, preset, state, lead, seconds, goal, label = case
        best = None
        for _ in range(REPEATS):
            result = busy_once(board, case, oled)
            if best is None or result[2] < best[2]:
                best = result
        passes, shows, python, count, wire = best
        high, low = estimate(python, wire, ratio, passes)
        key = "busy.%s.%s." % (board, name)
        print(key + "label", "%s: %s" % (preset, label))
        print(key + "seconds", seconds)
        print(key + "passes", passes)
        print(key + "shows", shows)
        print(key + "py_us", "%.1f" % python)
        print(key + "bytes", count)
        print(key + "bus_ms", "%.3f" % (wire / 1000))
        print(key + "pct", "%.3f" % (high / 10000 / seconds))
        print(key + "pct_low", "%.3f" % (low / 10000 / seconds))
        print(key + "goal_pct", goal)


# --- a second's tick: the frame it builds ---------------------------------------------------


def frame_once(board, oled):
    """(frame changes, µs building them, µs of the display's show) over a minute of a running
    game (Rapid 15+10, 10 s in): each is a render() that changed the frame, the time's digits
    of a new second; building is render() less the show."""
    clock, bus = make_clock(board, "Rapid 15+10", oled)
    hal = clock.hal
    clock.press(b.RIGHT, START)
    clock.run_until(START + 10000)
    end = ticks.add(hal.now, 60000)
    app = clock.app
    render = app.render
    show = bus.show
    took = [0, 0, 0]  # frames, µs of their renders, µs of their shows

    def timed_show(frame, dirty=None):
        start = _us()
        show(frame, dirty)
        took[2] += elapsed_us(start)

    def timed_render(now, press=False):
        start = _us()
        changed = render(now, press)
        if changed:
            took[0] += 1
            took[1] += elapsed_us(start)
        return changed

    bus.show = timed_show
    app.render = timed_render
    hal.horizon = end
    step = clock.runner.step
    gc.collect()
    while ticks.diff(end, hal.now) > 0:
        step()
    hal.horizon = None
    frames, rendering, showing = took
    return frames, rendering - showing, showing


def frames(board, ratio, oled):
    best = None
    for _ in range(REPEATS):
        result = frame_once(board, oled)
        if best is None or result[1] < best[1]:
            best = result
    count, building, showing = best
    key = "frame.%s." % board
    print(key + "count", count)
    print(key + "build_us", "%.1f" % (building / count))
    print(key + "show_us", "%.1f" % (showing / count))
    high, low = estimate(building / count, 0, ratio, 0)
    print(key + "chip_ms", "%.3f" % (high / 1000))
    print(key + "chip_low_ms", "%.3f" % (low / 1000))


def main():
    ref_a = best_us(_loop_a, 5 * REPEATS)
    ref_b = best_us(_loop_b, 5 * REPEATS)
    ratio_a = CHIP_LOOP_A_MS * 1000 / ref_a
    ratio_b = CHIP_LOOP_B_MS * 1000 / ref_b
    ratio = max(ratio_a, ratio_b)
    print("chip_a_ms", CHIP_LOOP_A_MS)
    print("chip_b_ms", CHIP_LOOP_B_MS)
    print("ref_a_us", "%.1f" % ref_a)
    print("ref_b_us", "%.1f" % ref_b)
    print("ratio_a", "%.1f" % ratio_a)
    print("ratio_b", "%.1f" % ratio_b)
    print("ratio", "%.1f" % ratio)
    print("app_correction", "%.4f" % APP_CORRECTION)
    print("wake_us", WAKE_US)
    print("pin_call_us", PIN_CALL_US)
    print("i2c_hz", round(scl_hz(pico_oled.I2C_FREQ)))
    print("tm1637_delay_us", pico_tm1637.TM1637_DELAY_US)
    print("repeats", REPEATS)
    oled = OledBus()
    for board in ("oled", "tm1637"):
        presses(board, ratio, oled)
    for board in ("oled", "tm1637"):
        busy(board, ratio, oled)
    for board in ("oled", "tm1637"):
        frames(board, ratio, oled)


main()
