# SPDX-License-Identifier: MIT
# The main loop's passes: one that wakes before anything is due only feeds the watchdog, early
# wakes change nothing the clock does or when, and a press is drawn before it is saved.
import gc

from app import gestures as act
from app.runner import Runner
import ticks
from clock.record import AT
from hal import buttons as b
from harness import Clock

MIN = 60000


def recording(clock, log):
    """Log each frame written (a digest), with its stamp, and each write to storage: a file, a
    record of the slot ring."""
    hal = clock.hal
    show = hal.display.show
    write = hal.storage.write

    def logged_show(frame, *rest):
        log.append(("show", hal.now, hash(bytes(frame)), sum(frame)))  # a digest: small
        show(frame, *rest)

    def logged_write(name, data):
        log.append(("write", hal.now, name))
        write(name, data)

    hal.display.show = logged_show
    hal.storage.write = logged_write
    ring = hal.slots  # in play the game's saves go to the slot ring (hal/slots.py)
    append = ring.append

    def logged_append(seq, flags, length):
        log.append(("write", hal.now, "slot record %d" % seq))
        return append(seq, flags, length)

    ring.append = logged_append


def early_wakes(clock, every):
    """The HAL's wait returns at most `every` ms on, as the RP2040's does to feed the watchdog."""
    hal = clock.hal
    wait = hal.wait

    def capped(until):
        latest = ticks.add(hal.now, every)
        wait(latest if until is None or ticks.diff(until, latest) > 0 else until)

    hal.wait = capped


def play_a_bullet_game(clock):
    clock.press(b.RIGHT, 1000)
    clock.press(b.LEFT, 3456)
    clock.press(b.RIGHT, 9001)
    clock.press(b.PLAY, 12000)  # a pause
    clock.press(b.PLAY, 15000)
    clock.press(b.LEFT, 20017)
    clock.run_until(25000)
    clock.press(b.RIGHT, 25000 + 40000)  # into the last ten seconds: beeps, then no reply
    clock.run_until(150000)
    clock.press(b.SET, 151000, hold_ms=3000)  # held: "New game?" at 153500
    clock.press(b.SET, 155000)  # yes
    clock.run_until(156000)


def test_early_wakes_change_nothing_the_clock_does_or_when():
    runs = []
    for every in (None, 7, 250):
        clock = Clock(preset="Bullet 1+0")
        log = []
        recording(clock, log)
        if every is not None:
            early_wakes(clock, every)
        play_a_bullet_game(clock)
        runs.append((log, clock.hal.buzzer.tones, clock.state(), clock.hal.fed))
    plain = runs[0]
    assert plain[2] == "ready"  # the flag fell, then the held SET began a new game
    assert len([tone for tone in plain[1] if tone[0] > 60000]) >= 6  # beeps and the flag tone
    for log, tones, state, fed in runs[1:]:
        assert log == plain[0] and tones == plain[1] and state == plain[2]
        assert fed > plain[3]  # more passes, each feeding the watchdog


def test_a_pass_that_wakes_early_only_feeds_the_watchdog():
    for bus in ("spi", "i2c"):
        wakes_early(bus)


def wakes_early(bus):
    from ui.oled import OledScreen

    clock = Clock(preset="Blitz 5+3", screen=OledScreen(bus=bus))
    clock.press(b.RIGHT, 1000)
    clock.run_until(1500)
    app = clock.app
    drawn = []
    render = app.render

    def counted(now, press=False):
        drawn.append(now)
        return render(now, press)

    app.render = counted
    hal = clock.hal
    hal.horizon = hal.now  # wait() returns at once: before anything is due
    fed = hal.fed
    for _ in range(5):
        clock.runner.step()
    assert drawn == [] and hal.fed == fed + 5
    hal.edges.push(b.LEFT, True, hal.now)  # a press in such a pass is taken at once
    clock.runner.step()
    # drawn at once, and not again (at the same instant tick changed nothing shown) but on
    # I2C, whose press leaves the move counter to a render after the save
    assert drawn == ([1500] if bus == "spi" else [1500, 1500]) and app.game.plies() == 1
    hal.horizon = None
    del drawn[:]
    clock.runner.step()  # the next digit's instant: 5:03 from 1500 shows 5:02 at 1501
    assert drawn == [1501]


def test_what_tick_changes_in_a_press_s_pass_is_drawn_after_the_save():
    """The battery is read every 10 s; when that reading falls in a press's pass and changes
    the figure, the pass draws the press, saves it, then draws the new figure."""
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.run_until(20999)  # read at 1000 (the start), at 11000, next at 21000
    log = []
    recording(clock, log)
    clock.hal._battery_mv = 3300  # low: the status line changes at the next reading
    clock.press(b.LEFT, 21000)
    clock.run_until(21000)
    assert [entry[:2] for entry in log] == [("show", 21000), ("write", 21000), ("show", 21000)]
    assert clock.app.status.battery_low


def test_a_press_is_drawn_before_it_is_saved():
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.run_until(5431)
    log = []
    recording(clock, log)
    clock.press(b.LEFT, 5432)
    clock.run_until(5432)
    # the press (bands, digits), its save, then what follows it on I2C (the move counter)
    assert [entry[:2] for entry in log] == [("show", 5432), ("write", 5432), ("show", 5432)]
    reboot = Clock(fs=clock.fs, start=10)
    reboot.press(b.SET, 100)  # resume the saved game: paused, the press taken
    reboot.run_until(200)
    assert reboot.app.game.plies() == 1
    assert reboot.view(0).time_ms == 15 * MIN + 10000 - 4432


def test_every_save_still_happens_in_the_pass_that_changed_the_game():
    clock = Clock(preset="Bullet 1+0")
    log = []
    recording(clock, log)
    clock.press(b.RIGHT, 1000)  # start
    clock.press(b.LEFT, 2000)  # press
    clock.press(b.PLAY, 3000)  # pause
    clock.press(b.MINUS, 4000)  # undo? (a question: no save)
    clock.press(b.MINUS, 4500)  # yes: undo
    clock.press(b.PLAY, 5000)  # resume
    clock.run_until(1000 + MIN + 5000)
    writes = [entry[1] for entry in log if entry[0] == "write"]
    # Every 10 s of a running move; the flag: a minute, less the second before the undone
    # press, from the resumption.
    every_10_s = [5000 + 10000 * n for n in range(1, 6)]
    assert writes == [1000, 2000, 3000, 4500, 5000] + every_10_s + [5000 + MIN - 1000 + 1]


def test_a_new_game_drops_a_save_still_pending():
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.run_until(2000)
    app = clock.app
    app.on_action(act.PLAY, 2500)  # a pause, to be saved at the end of the pass...
    app.new_game()  # ... which begins a new game instead
    app.flush(2500)
    assert Clock(fs=clock.fs).state() == "ready"  # nothing to resume


class Port:
    """A serial port with bytes waiting to be read."""

    def __init__(self):
        self.waiting = b""
        self.written = []

    def read_into(self, buf):
        count = min(len(buf), len(self.waiting))
        buf[:count] = self.waiting[:count]
        self.waiting = self.waiting[count:]
        return count

    def write(self, data):
        self.written.append(bytes(data))


def test_a_command_in_a_pass_that_wakes_early_is_answered_and_drawn():
    clock = Clock(preset="Rapid 15+10")
    hal = clock.hal
    hal.serial = Port()
    runner = Runner(hal, clock.app)
    runner.step()
    hal.horizon = hal.now  # no time passes: nothing comes due
    index = [preset.name for preset in clock.app.presets.items].index("Blitz 5+3")
    hal.serial.waiting = b"PRESET USE %d\n" % (index + 1)
    runner.step()
    assert hal.serial.written and hal.serial.written[-1].startswith(b"OK")
    assert clock.app.left.time_ms == 5 * MIN  # drawn in that pass


def test_a_switch_collects_the_garbage_on_micropython():
    if not hasattr(gc, "mem_free"):
        return  # CPython's collector needs no help: the loop leaves it alone
    clock = Clock(preset="Rapid 15+10")
    clock.press(b.RIGHT, 1000)
    clock.run_until(2000)
    gc.collect()
    live = gc.mem_alloc()
    garbage = [bytearray(100) for _ in range(100)]
    garbage = None
    assert gc.mem_alloc() > live + 10000 and garbage is None
    clock.run_until(3000)  # ticks leave garbage where it is
    assert gc.mem_alloc() > live + 10000
    clock.press(b.LEFT, 3500)
    clock.run_until(3500)
    assert gc.mem_alloc() < live + 4000


def test_a_time_that_changes_shape_at_a_press_is_drawn_after_its_save_on_i2c():
    """59:45, a move of a second, +30 s after it: 1:00:14, the half redrawn (258 bytes on I2C):
    the press's frame goes first, then the save, then the half. On SPI it is in the first."""
    from ui.oled import OledScreen

    for bus, passes in (("i2c", ["show", "write", "show"]), ("spi", ["show", "write"])):
        clock = Clock(screen=OledScreen(bus=bus))
        app = clock.app
        app.choose_preset(app.add_preset("hour", "chessclock:G/59m45s/30 fischer-after"))
        clock.press(b.RIGHT, 2000)
        clock.run_until(2999)
        log = []
        recording(clock, log)
        clock.press(b.LEFT, 3000)
        clock.run_until(3000)
        assert [entry[0] for entry in log if entry[1] == 3000] == passes, bus
        assert clock.view(0).time_ms == 3614000  # 1:00:14
        first = bytes(app.screen.frame)
        fresh = OledScreen()
        fresh.clock(app.left, app.right, app.status)
        assert first == bytes(fresh.frame)


def test_a_press_stamped_after_the_pass_read_its_now_is_charged_exactly():
    # The levers' stamps are the hardware's: a press can reach the ring, stamped, after the
    # pass read the clock (its drain ran during the pass). The pass takes it, and must not then
    # bring the game to its own earlier `now`, which would start the next move there.
    clock = Clock(preset="Blitz 5+3")
    clock.press(b.RIGHT, 1000)
    clock.run_until(2000)
    clock.hal.edges.push(b.LEFT, True, 2003)  # stamped 3 ms after the pass's now, 2000
    clock.runner.step()
    clock.hal.now = 2004  # the pass is over: the chip's clock has gone on meanwhile
    clock.hal.edges.push(b.LEFT, False, 2090)
    clock.press(b.RIGHT, 5003)
    clock.run_until(6000)
    record = clock.app.game.record
    assert [record.field(index, AT) for index in record.plies()] == [1003, 3000]
