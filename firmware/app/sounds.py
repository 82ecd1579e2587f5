# SPDX-License-Identifier: MIT
# When the buzzer sounds: beeps near the end of a control, a long tone at a flag, period and stage tones.
from micropython import const

import ticks

from clock import display

BEEP_HZ = const(2400)
BEEP_MS = const(60)
FLAG_HZ = const(1200)
FLAG_MS = const(1500)
PERIOD_HZ = const(1600)
PERIOD_MS = const(400)
STAGE_HZ = const(3000)
STAGE_MS = const(180)


class Sounds:
    """The tones: those the app asks for at a flag, a stage or a period (the core tells it when),
    and the beeps the side on move's time crosses on its way down. Allocates nothing."""

    def __init__(self, buzzer):
        self.buzzer = buzzer
        self.muted = False
        self._player = -1  # the player last watched, and the time they showed
        self._time = 0
        self._until = 0  # stamp the current tone ends at
        self._sounding = False

    def play(self, hz, ms, now):
        if self.muted:
            return
        self.buzzer.play(hz, ms, now)
        self._until = ticks.add(now, ms)
        self._sounding = True

    def forget(self):
        """A new game, a press or a resumption: the next observation starts afresh."""
        self._player = -1

    def observe(self, player, view, now):
        """Beep when the running side's time went below one of its marks since last seen."""
        if player != self._player:
            self._player = player
        elif not view.counting_up and self._crossed(view.time_ms, view.periods_left >= 0):
            self.play(BEEP_HZ, BEEP_MS, now)
        self._time = view.time_ms

    def _crossed(self, time_ms, in_period):
        marks = display.PERIOD_ALERTS if in_period else display.ALERTS
        if time_ms > marks[0]:  # above the first (highest) mark: none crossed yet
            return False
        for mark in marks:
            if time_ms <= mark < self._time:
                return True
        return False

    def stage_started(self, now):
        self.play(STAGE_HZ, STAGE_MS, now)

    def period_used(self, now):
        self.play(PERIOD_HZ, PERIOD_MS, now)

    def flag(self, now):
        self.play(FLAG_HZ, FLAG_MS, now)

    def until_next(self, view):
        """Milliseconds until the watched side reaches its next beep mark, or -1."""
        marks = display.PERIOD_ALERTS if view.periods_left >= 0 else display.ALERTS
        return display.until_alert(view.time_ms, marks)

    def tone_due(self):
        """Stamp the tone playing now ends at, or None."""
        return self._until if self._sounding else None

    def update(self, now):
        if self._sounding and ticks.diff(now, self._until) >= 0:
            self._sounding = False
        self.buzzer.update(now)
