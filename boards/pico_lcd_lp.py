# SPDX-License-Identifier: MIT
# pico_lcd with a 32.768 kHz reference on GP22, on 3 x AA: the chip sleeps on it between events.
#
# | function            | GPIO | Pico pin   | wire to                                      |
# |---------------------|------|------------|----------------------------------------------|
# | left module CS      | GP8  | 11         | left HT1621 module CS                        |
# | right module CS     | GP9  | 12         | right HT1621 module CS                       |
# | modules WR          | GP10 | 14         | WR of both modules                           |
# | modules DATA        | GP11 | 15         | DATA of both modules                         |
# | modules VCC / GND   |      | 36 / 38    | 3V3(OUT) / GND; backlight (LED+) unconnected |
# | 32.768 kHz reference| GP22 | 29         | the oscillator's output (clk_gpin1)          |
# | reference VDD / GND |      | 36 / 38    | 3V3(OUT) / GND                               |
# | left lever          | GP14 | 19         | switch to GND (internal pull-up)             |
# | right lever         | GP15 | 20         | switch to GND                                |
# | play / pause        | GP16 | 21         | push button to GND                           |
# | set                 | GP17 | 22         | push button to GND                           |
# | plus                | GP18 | 24         | push button to GND                           |
# | minus               | GP19 | 25         | push button to GND                           |
# | buzzer              | GP13 | 17         | passive piezo (+), other lead to GND         |
# | battery sense       | GP29 | (on board) | VSYS through the Pico's 1/3 divider (ADC3)   |
# | USB power sense     | GP24 | (on board) | VBUS: high while USB powers the board        |
# | power               |      | 39         | VSYS: 3 x AA through a Schottky diode        |
# | left light (LED)    | GP20 | 26         | 330 ohm to the LED's anode, cathode to GND   |
# | right light (LED)   | GP21 | 27         | 330 ohm to the LED's anode, cathode to GND   |
from hal.buttons import LEFT, MINUS, PLAY, PLUS, RIGHT, SET

NAME = "pico_lcd_lp"
DISPLAY = "lcd"
LCD_LEFT_CS = 8
LCD_RIGHT_CS = 9
LCD_WR = 10
LCD_DATA = 11
BUTTONS = {LEFT: 14, RIGHT: 15, PLAY: 16, SET: 17, PLUS: 18, MINUS: 19}
LEDS = {LEFT: 20, RIGHT: 21}  # the running-side lights
LED_FLASH_MS = 20  # on battery: flashed in the chip's sleep, no wake (docs/build.md)
REF_CLOCK = 22  # the 32.768 kHz reference: the chip sleeps on it (the clock's own UF2)
BUZZER = 13
BATTERY_ADC = 29
VBUS_SENSE = 24  # on battery the clock sleeps between events (docs/build.md)
BATTERY_CELLS = 3
PLAY_UW = 6300  # in play on battery, measured by make bench-chip: sets the low-battery warning
WATCHDOG_MS = 5000
STORAGE_ROOT = "/data"  # presets, settings and the saved game
