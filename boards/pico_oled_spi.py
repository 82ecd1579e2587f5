# SPDX-License-Identifier: MIT
# Raspberry Pi Pico + SSD1306 128x64 OLED on 4-wire SPI + six buttons + a passive buzzer.
# pico_oled with the panel on SPI0 (7-pin modules: GND, VCC, D0, D1, RES, DC, CS): a frame
# goes out at 8 MHz where I2C takes 400 kHz, so a digit takes 0.05 ms on the wire instead of 1.3.
# SPI_FREQ asks 10 MHz, the SSD1306's fastest; MicroPython clocks the SPI blocks from 48 MHz,
# so the bus runs at 8 MHz.
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
# | OLED SCK (SPI0)    | GP2  | 4        | D0 (SCK, CLK)                              |
# | OLED MOSI (SPI0)   | GP3  | 5        | D1 (SDA, MOSI, DIN)                        |
# | OLED DC            | GP4  | 6        | DC (D/C, A0)                               |
# | OLED CS            | GP5  | 7        | CS                                         |
# | OLED RES           | GP6  | 9        | RES (RST)                                  |
# | OLED VCC / GND     |      | 36 / 38  | 3V3(OUT) / GND                             |
# | battery sense      | GP29 | (on board) | VSYS through the Pico's 1/3 divider (ADC3) |
# | USB power sense    | GP24 | (on board) | VBUS: high while USB powers the board     |
# | power              |      | 39       | VSYS: 3 x AA or one Li-ion cell            |
# | left light (LED)   | GP20 | 26       | 330 ohm to the LED's anode, cathode to GND |
# | right light (LED)  | GP21 | 27       | 330 ohm to the LED's anode, cathode to GND |
from hal.buttons import LEFT, MINUS, PLAY, PLUS, RIGHT, SET

NAME = "pico_oled_spi"
DISPLAY = "oled"
OLED_BUS = "spi"
SPI_ID = 0
SPI_SCK = 2
SPI_MOSI = 3
SPI_FREQ = 10000000
OLED_DC = 4
OLED_CS = 5
OLED_RES = 6
BUTTONS = {LEFT: 14, RIGHT: 15, PLAY: 16, SET: 17, PLUS: 18, MINUS: 19}
LEDS = {LEFT: 20, RIGHT: 21}  # the running-side lights
LED_FLASH_MS = 60  # on battery a running side's light flashes this long each second
BUZZER = 13
BATTERY_ADC = 29
VBUS_SENSE = 24  # on battery the clock sleeps between events (docs/build.md)
BATTERY_CELLS = 3
PLAY_UW = 19700  # in play on battery, measured by make bench-chip: sets the low-battery warning
WATCHDOG_MS = 5000
STORAGE_ROOT = "/data"  # presets, settings and the saved game
