# SPDX-License-Identifier: MIT
# The battery rule every HAL and the app share: a percentage, and a low warning with hysteresis.
from micropython import const

# One Li-ion cell (4.2 V full, 3.3 V where the clock should stop trusting it); three alkaline
# AA start at ~4.8 V (100 %) and are spent near 3.3 V (1.1 V a cell) as well.
EMPTY_MV = const(3300)
FULL_MV = const(4200)
LOW_MV = const(3500)  # the warning turns on below this
HYSTERESIS_MV = const(100)  # and off again only at LOW_MV + this


class Gauge:
    """What a supply voltage means to a player; -1 mV (nothing sensed) is never low."""

    def __init__(self, empty_mv=EMPTY_MV, full_mv=FULL_MV, low_mv=LOW_MV):
        self.empty_mv = empty_mv
        self.full_mv = full_mv
        self.low_mv = low_mv
        self._low = False

    def percent(self, mv):
        """0..100, linear between empty_mv and full_mv (a rough guide, not a fuel gauge); -1
        for an unknown supply."""
        if mv < 0:
            return -1
        if mv <= self.empty_mv:
            return 0
        if mv >= self.full_mv:
            return 100
        return (mv - self.empty_mv) * 100 // (self.full_mv - self.empty_mv)

    def low(self, mv):
        """True below low_mv, and stays true until the supply is back above low_mv + 100 mV, so
        a sagging battery does not make the warning blink."""
        if mv < 0:
            self._low = False
        elif self._low:
            if mv >= self.low_mv + HYSTERESIS_MV:
                self._low = False
        elif mv < self.low_mv:
            self._low = True
        return self._low
