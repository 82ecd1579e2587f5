# SPDX-License-Identifier: MIT
# The least a clock needs: a Pico, an SSD1306 OLED, two levers and one button (long presses, combos).
#
# | function           | GPIO | Pico pin | wire to                                    |
# |--------------------|------|----------|--------------------------------------------|
# | left lever         | GP14 | 19       | switch to GND (internal pull-up)           |
# | right lever        | GP15 | 20       | switch to GND                              |
# | the button         | GP16 | 21       | push button to GND                         |
# | OLED SDA (I2C0)    | GP4  | 6        | SSD1306 SDA                                |
# | OLED SCL (I2C0)    | GP5  | 7        | SSD1306 SCL                                |
# | OLED VCC / GND     |      | 36 / 38  | 3V3(OUT) / GND                             |
# | left light (LED)   | GP20 | 26       | 330 ohm to the LED's anode, cathode to GND |
# | right light (LED)  | GP21 | 27       | 330 ohm to the LED's anode, cathode to GND |
# | battery sense      | GP29 | (on board) | VSYS through the Pico's 1/3 divider (ADC3) |
# | USB power sense    | GP24 | (on board) | VBUS: high while USB powers the board     |
# | power              |      | 39       | VSYS: 3 x AA or one Li-ion cell            |
#
# The button: a short press plays or pauses (a running clock pauses as it is pressed); held
# 1 s it is SET (menus, arbiter); held 2.5 s it resets. In menus the levers are - and +.
# No buzzer. The battery is measured on the Pico itself: nothing to wire.
from hal.buttons import LEFT, PLAY, RIGHT

NAME = "pico_minimal"
DISPLAY = "oled"
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 425000  # the RP2040 makes 399.4 kHz of it, the panel's 400 kHz (docs/boards.md)
OLED_ADDRESS = 0x3C
BUTTONS = {LEFT: 14, RIGHT: 15, PLAY: 16}
LEDS = {LEFT: 20, RIGHT: 21}  # the running-side lights
LED_FLASH_MS = 60  # on battery a running side's light flashes this long each second
BUZZER = None
BATTERY_ADC = 29
VBUS_SENSE = 24  # on battery the clock sleeps between events (docs/build.md)
BATTERY_CELLS = 3
PLAY_UW = 19800  # in play on battery, measured by make bench-chip: sets the low-battery warning
WATCHDOG_MS = 5000
STORAGE_ROOT = "/data"  # presets, settings and the saved game
