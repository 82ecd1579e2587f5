# SPDX-License-Identifier: MIT
# The fake machine fails where the real one would (or where a call is surely a mistake).
from fakes import fake_machine as m
from support import raises


def test_pin_levels_follow_mode_pull_and_outside_drive():
    m.reset()
    pin = m.Pin(14, m.Pin.IN, m.Pin.PULL_UP)
    assert pin.value() == 1
    pin.drive(0)
    assert pin.value() == 0
    pin.drive(None)
    assert pin.value() == 1
    out = m.Pin(2, m.Pin.OUT, value=1)
    assert out() == 1
    out(0)
    assert out.value() == 0


def test_an_output_fought_from_outside_counts_contention():
    m.reset()
    out = m.Pin(3, m.Pin.OUT, value=1)
    out.drive(0)
    assert m.line(3).contention == 1
    assert out.value() == 1


def test_irq_on_an_output_pin_or_with_a_bad_trigger_raises():
    m.reset()
    out = m.Pin(2, m.Pin.OUT)
    raises(ValueError, out.irq, handler=print)
    pin = m.Pin(14, m.Pin.IN, m.Pin.PULL_UP)
    raises(ValueError, pin.irq, handler=print, trigger=1)


def test_irq_fires_on_the_matching_edge_only():
    m.reset()
    seen = []
    pin = m.Pin(14, m.Pin.IN, m.Pin.PULL_UP)
    pin.irq(handler=lambda p: seen.append(p.value()), trigger=m.Pin.IRQ_FALLING)
    pin.drive(0)
    pin.drive(1)
    pin.drive(1)  # no change, no edge
    pin.drive(0)
    assert seen == [0, 0]
    assert m.line(14).hard is False


def test_bad_pins_and_values_raise():
    m.reset()
    raises(ValueError, m.Pin, 30)
    raises(ValueError, m.Pin, 5, 7)
    raises(ValueError, m.I2C, 0, scl=m.Pin(4), sda=m.Pin(5))  # swapped
    raises(ValueError, m.I2C, 1, scl=m.Pin(5), sda=m.Pin(4))  # I2C0 pins
    raises(ValueError, m.ADC, m.Pin(25))
    raises(ValueError, m.Timer, 0)
    raises(ValueError, m.WDT, timeout=9000)
    raises(ValueError, m.set_adc, 3, 65536)


def test_pwm_refuses_out_of_range_values_and_deinit_stops_it():
    m.reset()
    pwm = m.PWM(m.Pin(13))
    raises(ValueError, pwm.duty_u16, 65536)
    raises(ValueError, pwm.duty_u16, -1)
    raises(ValueError, pwm.freq, 7)
    assert not pwm.enabled
    pwm.freq(2000)
    pwm.duty_u16(32768)
    assert pwm.enabled and pwm.freq() == 2000 and pwm.duty_u16() == 32768
    pwm.deinit()
    assert not pwm.enabled
    pwm.duty_u16(0)  # rp2 restarts a slice whose frequency and duty are set
    assert pwm.enabled


def test_i2c_without_a_device_at_the_address_raises_oserror():
    m.reset()
    i2c = m.I2C(0, scl=m.Pin(5), sda=m.Pin(4), freq=400000)
    error = raises(OSError, i2c.writeto, 0x3C, b"\x00\xaf")
    assert error.args[0] == 5
    assert i2c.scan() == []


def test_timer_refuses_hard_when_told_to_and_fires_only_while_running():
    m.reset()
    m.state.timer_accepts_hard = False
    timer = m.Timer(-1)
    raises(TypeError, timer.init, freq=1000, callback=print, hard=True)
    assert not timer.running
    fired = []
    timer.init(mode=m.Timer.ONE_SHOT, period=5, callback=fired.append)
    timer.fire()
    assert fired == [timer]
    raises(RuntimeError, timer.fire)


def test_idle_counts_and_runs_the_hook_and_refuses_to_spin_forever():
    m.reset()
    clock = m.Clock(5)
    m.state.idle_hook = lambda: clock.advance(1)
    m.idle()
    m.idle()
    assert m.state.idle_calls == 2 and clock.ticks_ms() == 7
    m.state.idle_limit = 2
    raises(RuntimeError, m.idle)


def test_clock_wraps_at_2_to_the_30():
    clock = m.Clock(0x3FFFFFFF)
    clock.advance(2)
    assert clock.ticks_ms() == 1
