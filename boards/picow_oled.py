# SPDX-License-Identifier: MIT
# Raspberry Pi Pico W + the pico_oled wiring: the clock that joins the hall's Wi-Fi by itself.
#
# | function           | GPIO | Pico W pin | wire to                                         |
# |--------------------|------|------------|-------------------------------------------------|
# | left lever         | GP14 | 19         | switch to GND (internal pull-up)                |
# | right lever        | GP15 | 20         | switch to GND                                   |
# | play / pause       | GP16 | 21         | push button to GND                              |
# | set                | GP17 | 22         | push button to GND                              |
# | plus               | GP18 | 24         | push button to GND                              |
# | minus              | GP19 | 25         | push button to GND                              |
# | buzzer             | GP13 | 17         | passive piezo (+), other lead to GND            |
# | OLED SDA (I2C0)    | GP4  | 6          | SSD1306 SDA                                     |
# | OLED SCL (I2C0)    | GP5  | 7          | SSD1306 SCL                                     |
# | OLED VCC / GND     |      | 36 / 38    | 3V3(OUT) / GND                                  |
# | battery sense      | GP28 | 34         | VSYS (39) - 200k - GP28 - 100k - GND (33)       |
# | power              |      | 39         | VSYS: 3 x AA or one Li-ion cell                 |
# | left light (LED)   | GP20 | 26         | 330 ohm to the LED's anode, cathode to GND      |
# | right light (LED)  | GP21 | 27         | 330 ohm to the LED's anode, cathode to GND      |
# | wireless chip      | GP23, GP24, GP25, GP29 | on the board | the CYW43's: nothing else  |
#
# On the Pico W the on-board VSYS sense (GP29, ADC3) is also the wireless chip's SPI clock, and
# MicroPython v1.28 reads it only with the Wi-Fi switched off: the battery is read through an
# external divider of the same ratio (1/3) on GP28 instead. USB power (VBUS) is sensed by the
# wireless chip too (its WL_GPIO2); the clock does not read it.
from hal.buttons import LEFT, MINUS, PLAY, PLUS, RIGHT, SET

NAME = "picow_oled"
DISPLAY = "oled"
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 425000  # the RP2040 makes 399.4 kHz of it, the panel's 400 kHz (docs/boards.md)
OLED_ADDRESS = 0x3C
BUTTONS = {LEFT: 14, RIGHT: 15, PLAY: 16, SET: 17, PLUS: 18, MINUS: 19}
LEDS = {LEFT: 20, RIGHT: 21}  # the running-side lights
BUZZER = 13
BATTERY_ADC = 28  # the external 1/3 divider (GP29's own is the wireless chip's clock)
BATTERY_CELLS = 3
# Not measured: the emulated chip has no wireless chip, and this board never sleeps (it cannot
# sense USB power). Taken high (the Pico awake at 125 MHz, 18-25 mA, the OLED and the CYW43439
# joined in power saving) so that the warning comes early rather than late.
PLAY_UA = 40000
WATCHDOG_MS = 5000
STORAGE_ROOT = "/data"  # presets, settings, the saved game and hall.txt (Wi-Fi and broker)
WIFI = True  # a Pico W: the firmware joins the Wi-Fi of hall.txt and publishes to its broker
