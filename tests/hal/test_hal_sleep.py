# SPDX-License-Identifier: MIT
# The RP2040 HAL's waits on the fake machine: light sleep on battery, select.poll on USB power, a
# press during a sleep stamped at its millisecond, dormant while the clock is off, its wake.
from fakes import fake_machine as m
from hal import buttons as b
from support import raises
from test_hal_rp2040 import oled_hal

WAKE = 0x40014160  # IO_BANK0 DORMANT_WAKE_INTE0


class Board:
    NAME = "sleepy"
    DISPLAY = "oled"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16, b.SET: 17, b.PLUS: 18, b.MINUS: 19}
    LEDS = {b.LEFT: 20, b.RIGHT: 21}
    BUZZER = 13
    BATTERY_ADC = 29
    VBUS_SENSE = 24
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/"


def board_hal(usb=False, watchdog=False):
    return oled_hal(watchdog, Board, 1000, usb)


def test_on_battery_a_wait_is_one_light_sleep_to_the_stamp():
    hal, clock, panel, select = board_hal()
    assert hal.on_battery()
    hal.wait(1400)
    assert m.state.sleeps == [400] and clock.ticks_ms() == 1400
    assert select.polls[0].timeouts == [0]  # the waiter's own first look only: no poll


def test_with_usb_power_it_polls_as_it_always_did():
    hal, clock, panel, select = board_hal(usb=True)
    assert not hal.on_battery()
    hal.wait(1400)
    assert m.state.sleeps == [] and select.polls[0].timeouts == [0, 400]
    assert clock.ticks_ms() == 1400


def test_a_press_during_a_light_sleep_ends_it_and_is_charged_at_its_millisecond():
    hal, clock, panel, select = board_hal()
    select.at(1237, lambda: m.Pin(14).drive(0))  # the left lever, 237 ms into the sleep
    hal.wait(2000)
    assert m.state.sleeps == [1000] and clock.ticks_ms() == 1237
    assert hal.edges.pop() and (hal.edges.button, hal.edges.pressed) == (b.LEFT, True)
    assert hal.edges.stamp == 1237
    assert hal.sleeper.light == 1


def test_an_edge_already_waiting_means_no_sleep():
    hal, clock, panel, select = board_hal()
    m.Pin(16).drive(0)
    hal.wait(2000)
    assert m.state.sleeps == [] and clock.ticks_ms() == 1000


def test_plugging_usb_in_ends_a_sleep_and_the_next_wait_polls():
    hal, clock, panel, select = board_hal()
    select.at(1100, lambda: m.set_vbus(True))
    hal.wait(1900)
    assert clock.ticks_ms() == 1100 and hal.sleeper.plugs == 1
    hal.wait(1900)
    assert m.state.sleeps == [900] and select.polls[0].timeouts[-1] == 800
    assert m.line(24).hard and m.line(24).trigger == m.Pin.IRQ_RISING


def test_a_tone_and_a_wait_of_a_few_ms_poll_instead():
    hal, clock, panel, select = board_hal()
    hal.buzzer.play(2000, 100, 1000)  # the PWM would stop in a light sleep
    hal.wait(1050)
    clock.advance(50)
    hal.buzzer.update(1100)
    hal.wait(1102)  # 2 ms: lightsleep(2) on rp2 is a delay anyway
    assert m.state.sleeps == [] and select.polls[0].timeouts == [0, 50, 2]
    hal.wait(1200)
    assert m.state.sleeps == [98]


def test_the_watchdog_still_bounds_a_sleep():
    hal, clock, panel, select = board_hal(watchdog=True)
    hal.wait(None)
    assert m.state.sleeps == [2500]
    hal.wait(clock.ticks_ms() + 60000)
    assert m.state.sleeps == [2500, 2500]


def test_a_display_with_wake_is_woken_after_each_sleep():
    hal, clock, panel, select = board_hal()
    woken = []
    hal.sleeper._wake = lambda: woken.append(clock.ticks_ms())  # an SPI display's re-init
    hal.wait(1300)
    hal.wait(1600)
    assert woken == [1300, 1600]


def test_bytes_under_way_by_dma_are_waited_for_before_a_sleep():
    import sys

    from fakes import fake_rp2
    from ui.dirty import Dirty

    saved = sys.modules.get("rp2")
    sys.modules["rp2"] = fake_rp2  # the board's port: the I2C panel's bytes go by DMA
    try:
        hal, clock, panel, select = board_hal()
    finally:
        if saved is None:
            del sys.modules["rp2"]
        else:
            sys.modules["rp2"] = saved
    display = hal.display
    assert display.overlaps
    frame = bytearray(1024)
    display.show(frame)
    display._dma.polls = 50
    frame[0] = 0xFF
    dirty = Dirty()
    dirty.clear()  # shown: from now on only windows
    dirty.add(0, 0, 0, 0)
    display.send(frame, dirty)
    assert display._dma.active() and panel.ram[0] == 0
    hal.wait(1400)
    assert panel.ram[0] == 0xFF and m.state.sleeps == [400]


def test_standby_darkens_the_display_and_lights_and_a_wait_is_dormant():
    hal, clock, panel, select = board_hal(watchdog=True)
    hal.leds.set(True, False)
    hal.standby(True)
    assert not panel.on and not hal.leds.left_on and m.line(20).level == 0
    select.at(50000, lambda: m.Pin(16).drive(0))  # PLAY, long after
    hal.wait(2000)  # a stamp makes no difference: only a lever, PLAY or USB power wake it
    assert m.state.sleeps == [None] and clock.ticks_ms() == 50000
    assert m.state.watchdogs[0].feeds == 1  # fed before: the dormant chip's watchdog stands
    assert hal.edges.pop() and (hal.edges.button, hal.edges.stamp) == (b.PLAY, 50000)
    # the levers and PLAY were armed for a falling edge, VBUS (GP24) for a rising one; now none
    assert m.mem32[WAKE + 4] == 0 and m.mem32[WAKE + 8] == 0 and m.mem32[WAKE + 12] == 0
    hal.standby(False)
    assert panel.on


def test_the_levers_play_and_usb_power_are_what_wake_a_dormant_clock():
    hal, clock, panel, select = board_hal()
    seen = []

    def dormant(ms):
        armed = [m.mem32[WAKE + 4 * n] for n in range(4)]
        seen.append(armed)
        m.Pin(15).drive(0)

    m.state.sleep_hook = dormant
    hal.standby(True)
    hal.wait(None)
    gp14, gp15, gp16, gp24 = (seen[0][g >> 3] >> 4 * (g & 7) & 15 for g in (14, 15, 16, 24))
    assert (gp14, gp15, gp16, gp24) == (4, 4, 4, 8)  # edge low, edge low, edge low, edge high
    assert seen[0][2] >> 4 & 15 == 0  # SET (GP17) wakes nothing


def test_set_cannot_wake_a_dormant_clock():
    hal, clock, panel, select = board_hal()
    m.state.sleep_hook = lambda ms: m.Pin(17).drive(0)
    hal.standby(True)
    raises(RuntimeError, hal.wait, None)


def test_a_press_whose_edge_no_irq_saw_in_dormant_is_put_in_the_ring():
    hal, clock, panel, select = board_hal()
    m.state.irqs_in_dormant = False  # the edge came while no clock ran
    m.state.sleep_hook = lambda ms: m.Pin(14).drive(0)
    hal.standby(True)
    hal.wait(None)
    assert hal.edges.pop() and (hal.edges.button, hal.edges.pressed) == (b.LEFT, True)
    assert not hal.edges.pop()


def test_standby_on_usb_power_waits_as_ever():
    hal, clock, panel, select = board_hal(usb=True, watchdog=True)
    hal.standby(True)
    hal.wait(None)
    assert m.state.sleeps == [] and clock.ticks_ms() == 3500
