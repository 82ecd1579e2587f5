# The supply voltage: VSYS through the Pico's on-board 1/3 divider into ADC3 (GPIO29).
#
# On a Pico W GPIO29 is shared with the wireless chip (its SPI clock): a reading is only valid
# while the wireless driver leaves the pin alone and GPIO25 (the chip's select) is held high.
# VSYS is the battery itself when it feeds pin 39 directly (~0.3 V less through the Schottky
# diode the Pico datasheet asks for when USB may be plugged in too); on USB alone ~4.7 V.
from micropython import const

# Percent scale: one Li-ion cell (4.2 V full, 3.3 V where the clock should stop trusting it);
# three alkaline AA start at ~4.8 V (100 %) and are spent near 3.3 V (1.1 V a cell) as well.
EMPTY_MV = const(3300)
FULL_MV = const(4200)
LOW_MV = const(3500)  # low() turns on below this
HYSTERESIS_MV = const(100)  # and off again only at LOW_MV + this
_SAMPLES = const(4)


def millivolts_from_raw(raw):
    """VSYS in mV for a read_u16() value: 3.3 V full scale, times 3 for the divider."""
    return raw * 3 * 3300 // 65535


class Battery:
    """VSYS on an injected machine.ADC (ADC(Pin(29)) on a Pico)."""

    def __init__(self, adc, empty_mv=EMPTY_MV, full_mv=FULL_MV, low_mv=LOW_MV):
        self._adc = adc
        self.empty_mv = empty_mv
        self.full_mv = full_mv
        self.low_mv = low_mv
        self._low = False

    def millivolts(self):
        """The mean of a few readings (the RP2040 ADC has a few LSB of noise)."""
        read = self._adc.read_u16
        total = 0
        for _ in range(_SAMPLES):
            total += read()
        return millivolts_from_raw(total // _SAMPLES)

    def percent(self, mv=None):
        """0..100, linear between empty_mv and full_mv (a rough guide, not a fuel gauge)."""
        if mv is None:
            mv = self.millivolts()
        if mv <= self.empty_mv:
            return 0
        if mv >= self.full_mv:
            return 100
        return (mv - self.empty_mv) * 100 // (self.full_mv - self.empty_mv)

    def low(self, mv=None):
        """True below low_mv, and stays true until the supply is back above low_mv + 100 mV, so
        a sagging battery does not make the warning blink."""
        if mv is None:
            mv = self.millivolts()
        if self._low:
            if mv >= self.low_mv + HYSTERESIS_MV:
                self._low = False
        elif mv < self.low_mv:
            self._low = True
        return self._low
