# SPDX-License-Identifier: MIT
# A display that fails, on the fake machine: unplugged and plugged back, SCL held low, SDA held by
# a device halfway through a byte, a DMA request never raised. Each costs the loop one failed
# write; the driver then waits cheaply (no byte on the bus while a line is held), clears the bus
# where it can, sets the panel up again and sends it the whole frame, and counts all of it.
from app import commands
from boards import pico_oled
from fake_devices import Sh1106Panel, Ssd1306Panel
from fakes import fake_machine as m
from fakes import fake_rp2
from fakes.fake_rp2 import DMA
from hal.rp2040 import i2c_lines, ssd1306, ssd1306_dma
from hal.rp2040.sh1106 import Sh1106, Sh1106Dma
from hal.rp2040.ssd1306 import Ssd1306
from hal.rp2040.ssd1306_dma import Ssd1306Dma
from test_board_app import Bench
from test_hal_ssd1306 import Windows, pattern

SDA, SCL = 4, 5


class Board:
    I2C_ID = 0
    I2C_SDA = SDA
    I2C_SCL = SCL
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C


KINDS = ("i2c", "dma", "sh1106", "sh1106 dma")


def setup(kind):
    """(bus, panel, driver, lines, dma or None) for `kind`, the lines as from_board makes them."""
    m.reset()
    DMA.withheld = False
    bus = m.bus(0)
    sh1106 = kind.startswith("sh1106")
    panel = bus.attach(0x3C, Sh1106Panel() if sh1106 else Ssd1306Panel())
    i2c = ssd1306.board_i2c(m, Board)
    lines = ssd1306.board_lines(m, Board, lambda us: None)()  # from_board's drivers: at a fault
    dma = DMA() if kind.endswith("dma") else None
    if kind == "i2c":
        oled = Ssd1306(i2c, 0x3C, lines=lines)
    elif kind == "dma":
        oled = Ssd1306Dma(i2c, dma, m.mem32, 0, 0x3C, lines=lines)
    elif kind == "sh1106":
        oled = Sh1106(i2c, 0x3C, lines=lines)
    else:
        oled = Sh1106Dma(i2c, dma, m.mem32, 0, 0x3C, lines=lines)
    return bus, panel, oled, lines, dma


def changed(frame, n):
    for x in range(8 * n, 8 * n + 12):
        frame[128 + x] ^= 0xFF
    return Windows((8 * n, 8 * n + 11, 1, 1))


def test_a_write_waits_no_longer_than_its_bytes_need():
    i2c = ssd1306.board_i2c(m, Board)
    assert m.bus(0).timeout == ssd1306.I2C_TIMEOUT_US  # 15 ms, where rp2's default is 50 ms
    assert i2c is not None and ssd1306.I2C_TIMEOUT_US > 2 * 258 * 9 * 1000 // 400


def test_an_unplugged_panel_costs_one_write_and_comes_back_set_up_and_whole():
    for kind in KINDS:
        bus, panel, oled, lines, dma = setup(kind)
        frame = pattern()
        oled.show(frame)
        assert oled.health() == (True, 0, 0, 0), kind
        del bus.devices[0x3C]  # unplugged
        sent = oled.show(frame, changed(frame, 1))
        assert sent == 0 or dma is not None  # by DMA: the bytes were staged, then refused
        assert oled.failing and oled.health() == (False, 1, 0, 1), kind
        oled.show(frame, changed(frame, 2))  # tried again: the panel set up, not acknowledged
        assert oled.health() == (False, 1, 0, 2), kind
        oled.contrast(0x30)  # the dimmer face asked meanwhile: kept for the set-up
        again = bus.attach(0x3C, Sh1106Panel() if kind.startswith("sh1106") else Ssd1306Panel())
        assert not again.on  # plugged back in: a panel as from power-on
        oled.show(frame, changed(frame, 3))
        assert again.on and again.contrast == 0x30 and again.visible() == frame, kind
        assert oled.health() == (True, 1, 1, 2), kind
        assert lines.remade == 0 and lines.clears == 0  # a missing panel needs no bus clear


def test_scl_held_low_costs_one_timeout_then_nothing_on_the_bus_till_it_is_let_go():
    for kind in KINDS:
        bus, panel, oled, lines, dma = setup(kind)
        frame = pattern()
        oled.show(frame)
        scl = m.StuckDevice(SCL)
        oled.show(frame, changed(frame, 1))
        assert oled.failing and oled.health()[1:] == (1, 0, 1), kind
        assert bus.timeouts == (0 if dma else 1), kind  # a DMA transfer: given up, counted
        assert lines.held() == i2c_lines.SCL_HELD
        before = (bus.bytes, bus.timeouts, oled.errors, bus.inits)
        for n in range(2, 12):  # ten frames while it is held: one word read each
            oled.show(frame, changed(frame, n))
        oled.power(True)
        assert (bus.bytes, bus.timeouts, oled.errors, bus.inits) == before, kind
        scl.release()
        oled.show(frame, changed(frame, 12))
        assert bus.inits == before[3] + 1  # the block made again: no half transfer goes on
        assert panel.visible() == frame and oled.health() == (True, 1, 1, 1), kind
        if dma is not None:
            assert not oled.blocking and m.state.words[0x40044000 + 0x88] == 2  # TDMAE again
            started = dma.started
            oled.show(frame, changed(frame, 13))
            assert dma.started == started + 1 and panel.visible() == frame, kind


def test_sda_held_halfway_through_a_byte_is_freed_by_the_bus_clear():
    for kind in KINDS:
        bus, panel, oled, lines, dma = setup(kind)
        frame = pattern()
        oled.show(frame)
        device = m.StuckDevice(SDA, SCL, clocks=5)  # five clocks of its byte still to go
        oled.show(frame, changed(frame, 1))
        assert oled.failing and lines.held() == i2c_lines.SDA_HELD, kind
        oled.show(frame, changed(frame, 2))
        assert device.seen == 5 and lines.clears == 1 and lines.held() == 0, kind
        assert panel.visible() == frame and oled.health() == (True, 1, 1, 1), kind


def test_a_dma_request_never_raised_is_given_up_in_bounded_polls_and_writes_go_blocking():
    for kind in ("dma", "sh1106 dma"):
        bus, panel, oled, lines, dma = setup(kind)
        frame = pattern()
        oled.show(frame)
        DMA.withheld = True  # as emu.mjs --no-i2c-dreq: the block asks for no word
        polls = [0]
        active = dma.active

        def counted(value=None):
            polls[0] += 1
            return active(value)

        dma.active = counted
        try:
            windows = changed(frame, 1)
            words = 12 + (8 if kind == "dma" else 5)  # the window's commands and its 12 bytes
            oled.send(frame, windows)
            oled.wait()
            assert polls[0] <= ssd1306_dma.POLLS_PER_WORD * words + 400 + 4, (kind, polls[0])
            assert oled.blocking and oled.health() == (False, 1, 0, 1), kind
            sent = oled.send(frame, changed(frame, 2))  # now written as the I2C driver does
            assert sent > 0 and panel.visible() == frame and oled.health() == (True, 1, 1, 1)
            oled.wait()  # nothing under way: returns at once
        finally:
            DMA.withheld = False


def test_on_the_board_a_held_scl_leaves_the_lights_and_the_charging_alone_and_says_so():
    import sys

    saved = sys.modules.get("rp2")
    sys.modules["rp2"] = fake_rp2  # the board's port: the panel's bytes by DMA
    try:
        bench = Bench()
    finally:
        if saved is None:
            del sys.modules["rp2"]
        else:
            sys.modules["rp2"] = saved
    app, bus, panel = bench.app, m.bus(0), bench.panel
    assert bench.hal.display.overlaps and app.display_health()["showing"]
    left, right = m.line(pico_oled.LEDS[0]), m.line(pico_oled.LEDS[1])
    bench.press(1, 1000)  # the right lever starts the left clock
    bench.run_until(4600)
    held = []
    bench.select.at(5000, lambda: held.append(m.StuckDevice(SCL)))
    bench.press(0, 7000)  # the left player's move: 6 s
    bench.run_until(7000)
    bench.runner.step()  # the press's pass
    assert (left.level, right.level) == (0, 1)  # the lights at once, the panel or not
    bench.run_until(17000)
    assert bus.timeouts <= 1 and not app.display_health()["showing"]
    bytes_before = bus.bytes
    bench.press(1, 18500)
    bench.run_until(18500)
    bench.runner.step()
    assert (left.level, right.level) == (1, 0)
    bench.run_until(20000)
    assert bus.bytes == bytes_before  # nothing tried on the bus while SCL is held
    assert app.game.plies() == 2
    said = commands.state(app, bench.clock.ms)
    assert said["display"] == {"showing": False, "lost": 1, "recovered": 0, "failed_writes": 1}
    now = bench.clock.ms  # Blitz 5+3 (Fischer, as a move begins): 6 s, then 18.5 s on
    assert bench.shown(0) == 5 * 60000 + 3000 - 6000 + 3000 - (now - 18500)  # charged exactly
    assert bench.shown(1) == 5 * 60000 + 3000 - 11500
    held[0].release()
    bench.run_until(21500)  # the next pass's render tries again: set up, the whole frame
    assert bytes(panel.visible()) == bytes(app.screen.frame)
    assert app.display_health() == {
        "showing": True,
        "lost": 1,
        "recovered": 1,
        "failed_writes": 1,
    }
