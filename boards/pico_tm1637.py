# SPDX-License-Identifier: MIT
# Raspberry Pi Pico + two TM1637 four-digit 7-segment modules (one per player) + six buttons + buzzer.
#
# | function           | GPIO | Pico pin | wire to                                    |
# |--------------------|------|----------|--------------------------------------------|
# | left module CLK    | GP2  | 4        | left TM1637 CLK                            |
# | left module DIO    | GP3  | 5        | left TM1637 DIO                            |
# | right module CLK   | GP6  | 9        | right TM1637 CLK                           |
# | right module DIO   | GP7  | 10       | right TM1637 DIO                           |
# | modules VCC / GND  |      | 36 / 38  | 3V3(OUT) / GND                             |
# | left lever         | GP14 | 19       | switch to GND (internal pull-up)           |
# | right lever        | GP15 | 20       | switch to GND                              |
# | play / pause       | GP16 | 21       | push button to GND                         |
# | set                | GP17 | 22       | push button to GND                         |
# | plus               | GP18 | 24       | push button to GND                         |
# | minus              | GP19 | 25       | push button to GND                         |
# | buzzer             | GP13 | 17       | passive piezo (+), other lead to GND       |
# | battery sense      | GP29 | (on board) | VSYS through the Pico's 1/3 divider (ADC3) |
# | USB power sense    | GP24 | (on board) | VBUS: high while USB powers the board     |
# | left light (LED)   | GP20 | 26       | 330 ohm to the LED's anode, cathode to GND |
# | right light (LED)  | GP21 | 27       | 330 ohm to the LED's anode, cathode to GND |
from hal.buttons import LEFT, MINUS, PLAY, PLUS, RIGHT, SET

NAME = "pico_tm1637"
DISPLAY = "tm1637"
TM1637_LEFT_CLK = 2
TM1637_LEFT_DIO = 3
TM1637_RIGHT_CLK = 6
TM1637_RIGHT_DIO = 7
TM1637_DELAY_US = 10  # half a clock period; 0 (no sleeps) once a scope shows clean edges
# The modules' variant (see firmware/ui/seg7.py): False, the common 4-digit clock module, whose
# only mark is the centre colon (bit 7 of the second digit); True, a module with a decimal point
# on each digit and no colon.
TM1637_POINTS = False
BUTTONS = {LEFT: 14, RIGHT: 15, PLAY: 16, SET: 17, PLUS: 18, MINUS: 19}
LEDS = {LEFT: 20, RIGHT: 21}  # the running-side lights
LED_FLASH_MS = 60  # on battery a running side's light flashes this long each second
BUZZER = 13
BATTERY_ADC = 29
VBUS_SENSE = 24  # on battery the clock sleeps between events (docs/build.md)
BATTERY_CELLS = 3
PLAY_UW = 59200  # in play on battery, measured by make bench-chip: sets the low-battery warning
WATCHDOG_MS = 5000
STORAGE_ROOT = "/data"  # presets, settings and the saved game
