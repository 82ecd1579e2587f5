# SPDX-License-Identifier: MIT
# The battery rule every HAL and the app share: a percentage, and a low warning with hysteresis.
#
# A board that names its cells (BATTERY_CELLS: AA alkaline in series) and its draw in play gets a
# gauge from the cells' discharge curve: the level is the share of the usable capacity left, and
# the warning comes on while at least WARN_HOURS of play (or a tenth of the capacity, whichever
# is more) are left. Its draw is PLAY_UW, the power its 3.3 V loads take from the Pico's
# buck-boost in play (make bench-chip measures it): the current from the cells is then that
# power over VSYS, plus the regulator's own current, so it grows as the cells run down, and the
# hours left are summed along the curve at the current of each voltage. PLAY_UA (a current,
# taken the same at every voltage) is the older, rosier way, kept for board files that have it.
# A board that names neither keeps the one rule every board had before: a straight line from
# 3.3 V to 4.2 V at VSYS and a warning below 3.5 V.
from micropython import const

# One Li-ion cell (4.2 V full, 3.3 V where the clock should stop trusting it); three alkaline
# AA start at ~4.8 V (100 %) and are spent near 3.3 V (1.1 V a cell) as well.
EMPTY_MV = const(3300)
FULL_MV = const(4200)
LOW_MV = const(3500)  # the warning turns on below this
HYSTERESIS_MV = const(100)  # and off again only at LOW_MV + this

# An alkaline AA cell under a light load (a few to tens of mA): its voltage in mV against the
# share of its usable capacity used, per mille. Read off the typical discharge curves of the
# makers' AA datasheets (Energizer E91, Duracell MN1500) and rounded; the end is 1.0 V a cell,
# where 2 x AA behind the diode leave the Pico its 1.8 V.
CURVE = (
    (1550, 0),
    (1450, 60),
    (1350, 250),
    (1300, 380),
    (1250, 500),
    (1200, 630),
    (1150, 750),
    (1100, 850),
    (1050, 930),
    (1000, 1000),
)
DIODE_MV = const(200)  # the Schottky diode before VSYS at a few mA (build.md: Power)
USABLE_MAH = const(2000)  # an alkaline AA's usable capacity at these currents
# What VSYS feeds besides the converter's output: the RT6150B's own quiescent current in power
# save mode, 60 uA (its datasheet, Electrical Characteristics), and the Pico's VSYS divider for
# ADC3 (200 k + 100 k: 10 to 15 uA at these voltages).
REGULATOR_UA = const(72)
_STEP = const(10)  # per mille of the capacity: the sum along the curve goes in steps of 20 mAh
WARN_HOURS = const(15)  # FIDE asks for 10 hours after the warning; the curve is typical only
WARN_SHARE = const(100)  # per mille: the warning never comes with less than this left


def used_per_mille(cells, vsys_mv):
    """The share of the capacity used (0..1000) at `vsys_mv` from `cells` AA cells."""
    cell = (vsys_mv + DIODE_MV) // cells
    high_mv, high_used = CURVE[0]
    if cell >= high_mv:
        return 0
    for low_mv, low_used in CURVE[1:]:
        if cell >= low_mv:
            return high_used + (high_mv - cell) * (low_used - high_used) // (high_mv - low_mv)
        high_mv, high_used = low_mv, low_used
    return 1000


def vsys_at(cells, used):
    """VSYS in mV when `cells` cells have used `used` per mille of their capacity."""
    high_mv, high_used = CURVE[0]
    if used <= high_used:
        return cells * high_mv - DIODE_MV
    for low_mv, low_used in CURVE[1:]:
        if used <= low_used:
            cell = high_mv - (used - high_used) * (high_mv - low_mv) // (low_used - high_used)
            return cells * cell - DIODE_MV
        high_mv, high_used = low_mv, low_used
    return cells * CURVE[-1][0] - DIODE_MV


def current_ua(vsys_mv, play_ua, play_uw=0):
    """The current from the cells at `vsys_mv`: `play_uw` over VSYS and the regulator's own,
    or `play_ua` as it is when there is no power."""
    if play_uw:
        return play_uw * 1000 // vsys_mv + REGULATOR_UA
    return play_ua


def _step_millihours(cells, used, step, play_ua, play_uw):
    """Thousandths of an hour of play in the `step` per mille of the capacity from `used`."""
    ua = current_ua(vsys_at(cells, used + step // 2), play_ua, play_uw)
    return step * USABLE_MAH * 1000 // ua  # mAh x 1000 / uA = h, x 1000


def _millihours(cells, used, play_ua, play_uw):
    """Thousandths of an hour of play from `used` per mille to the end of the curve."""
    total = 0
    while used < 1000:
        step = _STEP if used + _STEP <= 1000 else 1000 - used
        total += _step_millihours(cells, used, step, play_ua, play_uw)
        used += step
    return total


def warning_mv(cells, play_ua, play_uw=0):
    """The VSYS in mV below which the warning comes on: WARN_HOURS of play left (at the current
    of each voltage on the way down), or WARN_SHARE of the capacity, whichever is more."""
    used = 1000
    total = 0
    while used > 0 and total < WARN_HOURS * 1000:
        used -= _STEP
        total += _step_millihours(cells, used, _STEP, play_ua, play_uw)
    left = 1000 - used
    if left < WARN_SHARE:
        left = WARN_SHARE
    return vsys_at(cells, 1000 - left)


def hours_left(cells, vsys_mv, play_ua, play_uw=0):
    """Hours of play left at `vsys_mv` with `play_ua` (or `play_uw`) drawn."""
    return _millihours(cells, used_per_mille(cells, vsys_mv), play_ua, play_uw) // 1000


class Gauge:
    """What a supply voltage means to a player; -1 mV (nothing sensed) is never low. With
    `cells`, the level is the capacity left on the discharge curve, not a straight line."""

    def __init__(self, empty_mv=EMPTY_MV, full_mv=FULL_MV, low_mv=LOW_MV, cells=0):
        self.empty_mv = empty_mv
        self.full_mv = full_mv
        self.low_mv = low_mv
        self.cells = cells
        self._low = False

    def percent(self, mv):
        """0..100, linear between empty_mv and full_mv (a rough guide, not a fuel gauge), or
        from the curve for a gauge of cells; -1 for an unknown supply."""
        if mv < 0:
            return -1
        if self.cells:
            return (1000 - used_per_mille(self.cells, mv)) // 10
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


def for_board(board):
    """The board's gauge: from its BATTERY_CELLS and PLAY_UW (or PLAY_UA), or the general rule
    without."""
    cells = getattr(board, "BATTERY_CELLS", 0)
    play_ua = getattr(board, "PLAY_UA", 0)
    play_uw = getattr(board, "PLAY_UW", 0)
    if not cells or not (play_ua or play_uw):
        return Gauge()
    low = warning_mv(cells, play_ua, play_uw)
    return Gauge(vsys_at(cells, 1000), vsys_at(cells, 0), low, cells)
