# SPDX-License-Identifier: MIT
# The supply voltage: VSYS through the Pico's on-board 1/3 divider into ADC3 (GPIO29).
#
# On a Pico W GPIO29 is shared with the wireless chip (its SPI clock): a reading is only valid
# while the wireless driver leaves the pin alone and GPIO25 (the chip's select) is held high.
# VSYS is the battery itself when it feeds pin 39 directly (~0.3 V less through the Schottky
# diode the Pico datasheet asks for when USB may be plugged in too); on USB alone ~4.7 V.
# What a reading means (percent, the low warning) is hal/battery.py's, for every HAL alike.
from micropython import const

_SAMPLES = const(4)


def millivolts_from_raw(raw):
    """VSYS in mV for a read_u16() value: 3.3 V full scale, times 3 for the divider."""
    return raw * 3 * 3300 // 65535


class Battery:
    """VSYS on an injected machine.ADC (ADC(Pin(29)) on a Pico)."""

    def __init__(self, adc):
        self._adc = adc

    def millivolts(self):
        """The mean of a few readings (the RP2040 ADC has a few LSB of noise)."""
        read = self._adc.read_u16
        total = 0
        for _ in range(_SAMPLES):
            total += read()
        return millivolts_from_raw(total // _SAMPLES)
