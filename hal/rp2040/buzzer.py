# SPDX-License-Identifier: MIT
# A passive piezo on a PWM pin: play(hz, ms, now) starts a tone, update(now) ends it when due.
from ticks import add, diff
from micropython import const

_HALF = const(32768)  # duty_u16 for a 50 % square wave: the loudest a piezo gets
_LOWEST_HZ = const(20)  # rp2 PWM refuses below ~8 Hz; nothing below 20 Hz is a tone anyway
_HIGHEST_HZ = const(20000)


class Buzzer:
    """Tones on an injected machine.PWM. A tone's end is a stamp, checked by update(now) from the
    main loop (wrap-safe); nothing here allocates or blocks."""

    def __init__(self, pwm):
        self._pwm = pwm
        self._until = 0
        self.playing = False
        pwm.duty_u16(0)

    def play(self, hz, ms, now):
        """Start a tone of `hz` for `ms` from stamp `now`; replaces a tone still playing.
        Frequencies are clamped to 20..20000 Hz; hz <= 0 or ms <= 0 is silence."""
        if hz <= 0 or ms <= 0:
            self.stop()
            return
        if hz < _LOWEST_HZ:
            hz = _LOWEST_HZ
        elif hz > _HIGHEST_HZ:
            hz = _HIGHEST_HZ
        self._pwm.freq(hz)
        self._pwm.duty_u16(_HALF)
        self._until = add(now, ms)
        self.playing = True

    def update(self, now):
        if self.playing and diff(now, self._until) >= 0:
            self.stop()

    def stop(self):
        self._pwm.duty_u16(0)
        self.playing = False

    def deinit(self):
        self.stop()
        self._pwm.deinit()


class Silent:
    """The buzzer of a board without one."""

    playing = False

    def play(self, hz, ms, now):
        pass

    def update(self, now):
        pass

    def stop(self):
        pass

    def deinit(self):
        pass
