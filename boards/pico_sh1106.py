# SPDX-License-Identifier: MIT
# Raspberry Pi Pico + SH1106 1.3" 128x64 OLED (I2C) + six buttons + a passive buzzer.
# pico_oled with the larger panel: the same pins; the SH1106 needs its own driver (132 columns
# of RAM, page writes), which make_display below builds.
#
# | function           | GPIO | Pico pin | wire to                                    |
# |--------------------|------|----------|--------------------------------------------|
# | left lever         | GP14 | 19       | switch to GND (internal pull-up)           |
# | right lever        | GP15 | 20       | switch to GND                              |
# | play / pause       | GP16 | 21       | push button to GND                         |
# | set                | GP17 | 22       | push button to GND                         |
# | plus               | GP18 | 24       | push button to GND                         |
# | minus              | GP19 | 25       | push button to GND                         |
# | buzzer             | GP13 | 17       | passive piezo (+), other lead to GND       |
# | left light         | GP20 | 26       | 330 ohm resistor -> LED anode, cathode GND |
# | right light        | GP21 | 27       | 330 ohm resistor -> LED anode, cathode GND |
# | OLED SDA (I2C0)    | GP4  | 6        | SH1106 SDA                                 |
# | OLED SCL (I2C0)    | GP5  | 7        | SH1106 SCL                                 |
# | OLED VCC / GND     |      | 36 / 38  | 3V3(OUT) / GND                             |
# | battery sense      | GP29 | (on board) | VSYS through the Pico's 1/3 divider (ADC3) |
# | USB power sense    | GP24 | (on board) | VBUS: high while USB powers the board     |
# | power              |      | 39       | VSYS: 3 x AA or one Li-ion cell            |
from hal.buttons import LEFT, MINUS, PLAY, PLUS, RIGHT, SET

NAME = "pico_sh1106"
DISPLAY = "oled"
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 425000  # the RP2040 makes 399.4 kHz of it, the panel's 400 kHz (docs/boards.md)
OLED_ADDRESS = 0x3C
BUTTONS = {LEFT: 14, RIGHT: 15, PLAY: 16, SET: 17, PLUS: 18, MINUS: 19}
LEDS = {LEFT: 20, RIGHT: 21}  # the running-side lights
LED_FLASH_MS = 60  # on battery a running side's light flashes this long each second
BUZZER = 13
BATTERY_ADC = 29
VBUS_SENSE = 24  # on battery the clock sleeps between events (docs/build.md)
BATTERY_CELLS = 3
PLAY_UW = 23500  # in play on battery, measured by make bench-chip: sets the low-battery warning
WATCHDOG_MS = 5000
STORAGE_ROOT = "/data"  # presets, settings and the saved game


def make_display(machine, board, sleep_us):
    from hal.rp2040 import sh1106

    return sh1106.from_board(machine, board, sleep_us)
