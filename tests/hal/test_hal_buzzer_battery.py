# SPDX-License-Identifier: MIT
# The PWM buzzer (tone on, off when due, across the ticks wrap) and the VSYS battery reading.
from fakes import fake_machine as m
from hal.battery import Gauge
from hal.rp2040.battery import Battery, millivolts_from_raw
from hal.rp2040.buzzer import Buzzer, Silent


def buzzer():
    m.reset()
    return Buzzer(m.PWM(m.Pin(13))), m.state.pwms[13]


def test_play_sets_the_frequency_and_half_duty():
    beeper, pwm = buzzer()
    assert pwm.duty_u16() == 0
    beeper.play(2000, 100, 5000)
    assert pwm.freq() == 2000 and pwm.duty_u16() == 32768 and pwm.enabled
    assert beeper.playing


def test_update_silences_the_tone_when_due_and_not_before():
    beeper, pwm = buzzer()
    beeper.play(880, 100, 5000)
    beeper.update(5099)
    assert pwm.duty_u16() == 32768
    beeper.update(5100)
    assert pwm.duty_u16() == 0 and not beeper.playing


def test_a_tone_across_the_ticks_wrap_ends_on_time():
    beeper, pwm = buzzer()
    start = 0x3FFFFFFF - 49  # 50 ms before the wrap
    beeper.play(1000, 100, start)
    beeper.update(0x3FFFFFFF)
    beeper.update(49)  # 99 ms in
    assert pwm.duty_u16() == 32768
    beeper.update(50)  # 100 ms in
    assert pwm.duty_u16() == 0


def test_stop_silence_and_clamped_frequencies():
    beeper, pwm = buzzer()
    beeper.play(1000, 100, 0)
    beeper.stop()
    assert pwm.duty_u16() == 0
    beeper.play(0, 100, 0)
    assert pwm.duty_u16() == 0
    beeper.play(5, 100, 0)  # rp2 PWM would refuse 5 Hz
    assert pwm.freq() == 20
    beeper.play(50000, 100, 0)
    assert pwm.freq() == 20000
    beeper.deinit()
    assert not pwm.enabled


def test_silent_board_buzzer_takes_the_same_calls():
    quiet = Silent()
    quiet.play(1000, 10, 0)
    quiet.update(20)
    quiet.stop()
    assert not quiet.playing


def test_millivolts_from_a_raw_reading_worked_by_hand():
    # 26000 / 65535 of 3.3 V is 1.309 V at the ADC; times 3 for the divider: 3927.67 mV.
    # 26000 * 9900 = 257400000; // 65535 = 3927 (65535 * 3927 = 257355945, 44055 left).
    assert millivolts_from_raw(26000) == 3927
    assert millivolts_from_raw(65535) == 9900
    assert millivolts_from_raw(0) == 0


def test_battery_averages_four_readings():
    m.reset()
    m.set_adc(3, 26000)
    battery = Battery(m.ADC(m.Pin(29)))
    assert battery.millivolts() == 3927
    # (3927 - 3300) * 100 // (4200 - 3300) = 62700 // 900 = 69
    assert Gauge().percent(battery.millivolts()) == 69


def test_the_gauge_scales_percent():
    gauge = Gauge()
    assert gauge.percent(3300) == 0 and gauge.percent(4500) == 100
    assert gauge.percent(3750) == 50 and gauge.percent(-1) == -1


def test_low_has_hysteresis():
    gauge = Gauge()
    assert not gauge.low(3500)
    assert gauge.low(3499)
    assert gauge.low(3550)  # recovered a little: still low
    assert gauge.low(3599)
    assert not gauge.low(3600)
    assert not gauge.low(3550)
    assert gauge.low(3400) and not gauge.low(-1)  # nothing sensed: no warning
