# SPDX-License-Identifier: MIT
# An I2C bus's two lines for the display drivers: whether one is held low, the bus clear, and the
# I2C block made again.
#
# Between transfers both lines of an I2C bus are high (their pull-ups). One held low is a fault
# no write can get past: SCL held (a device stretching the clock for good), the RP2040's master
# waits for it until machine.I2C's timeout; SDA held (a device cut off halfway through a byte it
# was sending or acknowledging), the master loses the arbitration at once. held() reads both
# levels from SIO's GPIO_IN (RP2040 datasheet 2.3.1.7), which shows a pin's level whatever
# function drives it: one word read, so a driver asks at every frame while its panel is lost.
#
# clear() is the I2C specification's bus clear (UM10204 3.1.16): with SDA held, SCL is clocked
# up to nine times, which walks the device through the rest of its byte and its acknowledge
# until it lets SDA go, then a STOP (SDA rising while SCL is high) ends whatever it thought it
# was in. SCL held cannot be cleared from the master: the specification's remedy is the device's
# reset or its power. Either way the I2C block is made again (machine.I2C with the board's pins
# and rate resets it and gives it the pins back), so no byte of a transfer that stopped halfway
# goes out when the lines come back. Only a fault calls it: it may allocate.
from micropython import const

_SIO_GPIO_IN = const(0xD0000004)
SDA_HELD = const(1)
SCL_HELD = const(2)
_HALF_PERIOD_US = const(5)  # 100 kHz, the slowest device's rate, for the clear's clocks
_CLEAR_CLOCKS = const(9)


class I2cLines:
    """The lines of the bus `make_i2c()` makes (machine.I2C on the board's pins, at its rate),
    GPIOs `scl` and `sda`, read through `mem32` (machine.mem32), driven by `Pin`
    (machine.Pin) for the bus clear, timed by `sleep_us`."""

    def __init__(self, make_i2c, Pin, mem32, scl, sda, sleep_us):
        self._make_i2c = make_i2c
        self._Pin = Pin
        self._mem32 = mem32
        self._scl = scl
        self._sda = sda
        self._mask = 1 << scl | 1 << sda
        self._sleep_us = sleep_us
        self.clears = 0  # bus clears run (SDA held)
        self.remade = 0  # times the I2C block was made again

    def held(self):
        """0 while both lines are high, else SDA_HELD | SCL_HELD for those held low."""
        levels = self._mem32[_SIO_GPIO_IN] & self._mask
        if levels == self._mask:
            return 0
        return (SDA_HELD if not levels >> self._sda & 1 else 0) | (
            SCL_HELD if not levels >> self._scl & 1 else 0
        )

    def clear(self):
        """The bus clear where SDA alone is held, then the I2C block made again; what held()
        says after it."""
        if self.held() == SDA_HELD:
            self.clears += 1
            Pin = self._Pin
            sleep_us = self._sleep_us
            scl = Pin(self._scl, Pin.OPEN_DRAIN, value=1)
            sda = Pin(self._sda, Pin.OPEN_DRAIN, value=1)
            for _ in range(_CLEAR_CLOCKS):
                if sda():
                    break  # let go: the device is between bytes
                scl(0)
                sleep_us(_HALF_PERIOD_US)
                scl(1)
                sleep_us(_HALF_PERIOD_US)
            sda(0)  # STOP: SDA low, then high while SCL is high
            sleep_us(_HALF_PERIOD_US)
            sda(1)
            sleep_us(_HALF_PERIOD_US)
        self._make_i2c()
        self.remade += 1
        return self.held()


def for_board(machine, board, sleep_us, make_i2c):
    """The lines of the board's display bus, which `make_i2c()` makes."""
    return I2cLines(make_i2c, machine.Pin, machine.mem32, board.I2C_SCL, board.I2C_SDA, sleep_us)
