# SPDX-License-Identifier: MIT
# A board file read before anything is built from it: every option known, the required ones
# there, each value of its type and in its range, each GPIO used once. Pure: the RP2040 HAL runs
# it at boot, the simulator as it loads.
from hal import buttons

# Every board has these; a display kind adds its own (both: name -> what it is, for the messages).
_REQUIRED = ("NAME", "DISPLAY", "BUTTONS", "BUZZER", "BATTERY_ADC", "WATCHDOG_MS", "STORAGE_ROOT")
# VBUS_SENSE: the pin that reads USB power (GP24 on a Pico): on battery the loop sleeps lightly.
_OPTIONAL = ("LEDS", "WIFI", "VBUS_SENSE", "BATTERY_CELLS", "PLAY_UA", "PLAY_UW", "LED_FLASH_MS")
# REF_CLOCK: a 32.768 kHz reference's pin, a clock input of the RP2040 (clk_gpin0, clk_gpin1)
_OPTIONAL += ("REF_CLOCK",)
_REF_GPIOS = (20, 22)
_KINDS = {
    "oled": ((), ("OLED_BUS",)),  # and its bus's, below
    "tm1637": (
        ("TM1637_LEFT_CLK", "TM1637_LEFT_DIO", "TM1637_RIGHT_CLK", "TM1637_RIGHT_DIO"),
        ("TM1637_DELAY_US", "TM1637_POINTS"),
    ),
    # two HT1621 modules: a CS each, WR and DATA shared
    "lcd": (("LCD_LEFT_CS", "LCD_RIGHT_CS", "LCD_WR", "LCD_DATA"), ()),
}
# An OLED's bus (OLED_BUS, "i2c" when not given) and the options each needs and may have.
_OLED_BUSES = {
    "i2c": (("I2C_ID", "I2C_SDA", "I2C_SCL", "I2C_FREQ", "OLED_ADDRESS"), ()),
    "spi": (("SPI_ID", "SPI_SCK", "SPI_MOSI", "SPI_FREQ", "OLED_DC", "OLED_CS"), ("OLED_RES",)),
}
# Options that name one GPIO; BUTTONS and LEDS map keys to GPIOs.
_PINS = (
    "I2C_SDA",
    "I2C_SCL",
    "SPI_SCK",
    "SPI_MOSI",
    "OLED_DC",
    "OLED_CS",
    "OLED_RES",
    "TM1637_LEFT_CLK",
    "TM1637_LEFT_DIO",
    "TM1637_RIGHT_CLK",
    "TM1637_RIGHT_DIO",
    "LCD_LEFT_CS",
    "LCD_RIGHT_CS",
    "LCD_WR",
    "LCD_DATA",
    "VBUS_SENSE",
    "BUZZER",
    "BATTERY_ADC",
    "REF_CLOCK",
)
_MAY_BE_NONE = ("BUZZER", "BATTERY_ADC", "OLED_RES", "VBUS_SENSE")
_BUTTON_NAMES = ("LEFT", "RIGHT", "PLAY", "SET", "PLUS", "MINUS")  # imported from hal.buttons
_MUST_HAVE = (buttons.LEFT, buttons.RIGHT, buttons.PLAY)
_LAST_GPIO = 29
_ADC_GPIOS = (26, 27, 28, 29)
# A Pico W's wireless chip (CYW43439) has these: power, SPI data, SPI select, SPI clock.
_WIRELESS_GPIOS = (23, 24, 25, 29)
# Whole numbers (a bool is refused): option, lowest, highest, what it is; checked where present.
# MicroPython's rp2 WDT takes at most 8388 ms (the RP2040's 24-bit counter at 2 ticks a us).
_NUMBERS = (
    ("WATCHDOG_MS", 0, 8388, "a watchdog timeout in ms (0: off, at most 8388)"),
    ("I2C_ID", 0, 1, "an I2C block (0 or 1)"),
    ("I2C_FREQ", 10000, 1000000, "a frequency in Hz (10000..1000000)"),
    ("OLED_ADDRESS", 0x08, 0x77, "a 7-bit I2C address 0x08..0x77 (OLEDs: 0x3C or 0x3D)"),
    ("SPI_ID", 0, 1, "an SPI block (0 or 1)"),
    ("SPI_FREQ", 100000, 10000000, "a frequency in Hz (100000..10000000: 10 MHz at most)"),
    ("TM1637_DELAY_US", 0, 100, "a half clock period in us (0..100)"),
    ("BATTERY_CELLS", 2, 3, "a number of AA cells in series (2 or 3)"),
    ("PLAY_UA", 100, 200000, "the current in play in uA (100..200000, from make bench-chip)"),
    ("PLAY_UW", 300, 1000000, "the power in play in uW (300..1000000, from make bench-chip)"),
    ("LED_FLASH_MS", 0, 500, "a flash of the running light in ms (0: steady; at most 500)"),
)
BUILDER = "make_display"  # optional: make_display(machine, board, sleep_us) -> the display driver


class BoardError(ValueError):
    """A board file that cannot be built; its text is one line naming the option or the pin."""


def check(board):
    """Raise BoardError for the first problem in `board` (a boards/ module, or a class with the
    same names); return it as it is when there is none."""
    name = getattr(board, "NAME", None)
    where = "board %s: " % name if _identifier(name) else "board: "
    for option in _REQUIRED:
        if not hasattr(board, option):
            raise BoardError(where + "%s is missing" % option)
    if not _identifier(name):
        raise BoardError(
            where + "NAME is %r, not a module name (letters, digits, _; no digit first)" % (name,)
        )
    display = board.DISPLAY
    kind = _KINDS.get(display) if type(display) is str else None
    if kind is None:
        raise BoardError(
            where + "DISPLAY is %r; it is 'oled', 'tm1637' or 'lcd'" % (board.DISPLAY,)
        )
    required, optional = kind
    if display == "oled":
        bus = getattr(board, "OLED_BUS", "i2c")
        if type(bus) is not str or bus not in _OLED_BUSES:
            raise BoardError(where + "OLED_BUS is %r; it is 'i2c' or 'spi'" % (bus,))
        required, more = _OLED_BUSES[bus]
        optional = optional + more
    for option in required:
        if not hasattr(board, option):
            need = "DISPLAY %s" % display
            if display == "oled" and bus == "spi":
                need = "OLED_BUS spi"
            raise BoardError(where + "%s is missing (%s needs it)" % (option, need))
    for option in dir(board):
        if option.startswith("_") or option != option.upper():
            continue  # not an option: functions, modules, dunders
        if option in _REQUIRED or option in _OPTIONAL or option in _BUTTON_NAMES:
            continue
        if option in required or option in optional:
            continue
        raise BoardError(where + "unknown option %s" % option)
    builder = getattr(board, BUILDER, None)
    if builder is not None and not callable(builder):
        raise BoardError(where + "%s is not a function" % BUILDER)
    _values(board, where)
    _pins(board, where)
    if hasattr(board, "I2C_ID"):
        _i2c(board, where)
    if hasattr(board, "SPI_ID"):
        _spi(board, where)
    return board


def _identifier(name):
    # ASCII letters, digits and _, no digit first (MicroPython has no str.isidentifier); codes,
    # not one-letter strings, which a .mpy would intern for good.
    if type(name) is not str or not name or 48 <= ord(name[0]) <= 57:
        return False
    for code in name.encode():
        if not (65 <= code <= 90 or 97 <= code <= 122 or 48 <= code <= 57 or code == 95):
            return False
    return True


def _values(board, where):
    for option, low, high, what in _NUMBERS:
        if not hasattr(board, option):
            continue
        value = getattr(board, option)
        if type(value) is not int or not low <= value <= high:
            hexadecimal = type(value) is int and value >= 0 and option == "OLED_ADDRESS"
            shown = "0x%02X" % value if hexadecimal else None
            raise BoardError(where + "%s is %s, not %s" % (option, shown or repr(value), what))
    root = board.STORAGE_ROOT
    if type(root) is not str or root[:1] != "/" or (root != "/" and _bad_path(root[1:])):
        raise BoardError(
            where + "STORAGE_ROOT is %r, not an absolute folder path such as '/data' (no '.', "
            "'..' or '//', no '/' at the end)" % (root,)
        )
    for option in ("TM1637_POINTS", "WIFI"):
        value = getattr(board, option, False)
        if type(value) is not bool:
            raise BoardError(where + "%s is %r, not True or False" % (option, value))


def _bad_path(path):
    for part in path.split("/"):
        if part in ("", ".", ".."):
            return True
    return False


def _i2c(board, where):
    # The RP2040's pin functions: I2Cn's SDA on the GPIOs 4k + 2n, its SCL on 4k + 2n + 1.
    block = board.I2C_ID
    for option, first in (("I2C_SDA", 2 * block), ("I2C_SCL", 2 * block + 1)):
        gpio = getattr(board, option)
        if gpio % 4 != first:
            last = first + (_LAST_GPIO - first) // 4 * 4
            raise BoardError(
                where
                + "%s is GP%d, not an %s pin of I2C%d (GP%d, GP%d, ... GP%d)"
                % (option, gpio, option[4:], block, first, first + 4, last)
            )


def _spi(board, where):
    # The RP2040's pin functions: SPIn on the GPIOs 8k + 0..7 with k even for SPI0, odd for
    # SPI1; of each four, the third is SCK and the fourth TX (MOSI).
    block = board.SPI_ID
    for option, role, name in (("SPI_SCK", 2, "an SCK"), ("SPI_MOSI", 3, "a MOSI")):
        gpio = getattr(board, option)
        if gpio % 4 != role or gpio >> 3 & 1 != block:
            fits = [n for n in range(_LAST_GPIO + 1) if n % 4 == role and n >> 3 & 1 == block]
            raise BoardError(
                where
                + "%s is GP%d, not %s pin of SPI%d (GP%s)"
                % (option, gpio, name, block, ", GP".join(str(n) for n in fits))
            )


def _pins(board, where):
    taken = {}  # GPIO -> the option that has it
    for option in _PINS:
        if not hasattr(board, option):
            continue  # another display's
        gpio = getattr(board, option)
        if gpio is not None or option not in _MAY_BE_NONE:
            _take(taken, gpio, option, where)
    ref = getattr(board, "REF_CLOCK", None)
    if ref is not None and ref not in _REF_GPIOS:
        raise BoardError(
            where + "REF_CLOCK is GP%s, not a clock input (GP20: clk_gpin0, GP22: clk_gpin1)" % ref
        )
    if ref is not None and getattr(board, "VBUS_SENSE", None) is None:
        raise BoardError(where + "REF_CLOCK needs VBUS_SENSE (the clock sleeps on it on battery)")
    adc = board.BATTERY_ADC
    if adc is not None and adc not in _ADC_GPIOS:
        raise BoardError(where + "BATTERY_ADC is GP%s, not an ADC pin (GP26..GP29)" % (adc,))
    _mapping(board, "BUTTONS", taken, where, range(buttons.COUNT))
    for button in _MUST_HAVE:
        if button not in board.BUTTONS:
            raise BoardError(where + "BUTTONS has no %s" % buttons.NAMES[button])
    if getattr(board, "LEDS", None) is not None:
        _mapping(board, "LEDS", taken, where, (buttons.LEFT, buttons.RIGHT))
    if getattr(board, "WIFI", False):
        for gpio in _WIRELESS_GPIOS:
            if gpio in taken:
                raise BoardError(
                    where + "%s is GP%d, a pin of the Pico W's wireless chip (GP23, GP24, GP25, "
                    "GP29: WIFI is True)" % (taken[gpio], gpio)
                )


def _mapping(board, option, taken, where, keys):
    found = getattr(board, option)
    if not isinstance(found, dict):
        raise BoardError(where + "%s is a dict of button -> GPIO" % option)
    for key in found:
        if type(key) is not int or key not in keys:
            raise BoardError(where + "%s has an unknown key %r" % (option, key))
    for key in sorted(found):  # the same message for the same file, whatever the dict's order
        _take(taken, found[key], "%s[%s]" % (option, buttons.NAMES[key]), where)


def _take(taken, gpio, option, where):
    if type(gpio) is not int or not 0 <= gpio <= _LAST_GPIO:
        raise BoardError(where + "%s is %r, not a GPIO number 0..29" % (option, gpio))
    if gpio in taken:
        raise BoardError(where + "GP%d is used twice: %s and %s" % (gpio, taken[gpio], option))
    taken[gpio] = option


def used_gpios(board):
    """The GPIOs the board file names (its pins, buttons and lights): the others are unused."""
    used = set()
    for option in _PINS:
        gpio = getattr(board, option, None)
        if type(gpio) is int:
            used.add(gpio)
    for option in ("BUTTONS", "LEDS"):
        for gpio in (getattr(board, option, None) or {}).values():
            used.add(gpio)
    return used


def forget():
    """Unload this module (the board is checked once, at boot)."""
    import sys

    del sys.modules[__name__]
    package = sys.modules[__name__.rpartition(".")[0]]
    if hasattr(package, "board_check"):
        delattr(package, "board_check")
