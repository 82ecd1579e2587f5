# SPDX-License-Identifier: MIT
# A board file read before anything is built from it: every option known, the required ones
# there, each GPIO used once. Pure: the RP2040 HAL runs it at boot, the simulator as it loads.
from hal import buttons

# Every board has these; a display kind adds its own (both: name -> what it is, for the messages).
_REQUIRED = ("NAME", "DISPLAY", "BUTTONS", "BUZZER", "BATTERY_ADC", "WATCHDOG_MS", "STORAGE_ROOT")
_OPTIONAL = ("LEDS",)
_KINDS = {
    "oled": (("I2C_ID", "I2C_SDA", "I2C_SCL", "I2C_FREQ", "OLED_ADDRESS"), ()),
    "tm1637": (
        ("TM1637_LEFT_CLK", "TM1637_LEFT_DIO", "TM1637_RIGHT_CLK", "TM1637_RIGHT_DIO"),
        ("TM1637_DELAY_US", "TM1637_POINTS"),
    ),
}
# Options that name one GPIO (None: not fitted); BUTTONS and LEDS map keys to GPIOs.
_PINS = (
    "I2C_SDA",
    "I2C_SCL",
    "TM1637_LEFT_CLK",
    "TM1637_LEFT_DIO",
    "TM1637_RIGHT_CLK",
    "TM1637_RIGHT_DIO",
    "BUZZER",
    "BATTERY_ADC",
)
_BUTTON_NAMES = ("LEFT", "RIGHT", "PLAY", "SET", "PLUS", "MINUS")  # imported from hal.buttons
_MUST_HAVE = (buttons.LEFT, buttons.RIGHT, buttons.PLAY)
_LAST_GPIO = 29
_ADC_GPIOS = (26, 27, 28, 29)
BUILDER = "make_display"  # optional: make_display(machine, board, sleep_us) -> the display driver


class BoardError(ValueError):
    """A board file that cannot be built; its text is one line naming the option or the pin."""


def check(board):
    """Raise BoardError for the first problem in `board` (a boards/ module, or a class with the
    same names); return it as it is when there is none."""
    name = getattr(board, "NAME", None)
    where = "board %s: " % name if isinstance(name, str) else "board: "
    for option in _REQUIRED:
        if not hasattr(board, option):
            raise BoardError(where + "%s is missing" % option)
    kind = _KINDS.get(board.DISPLAY)
    if kind is None:
        raise BoardError(where + "DISPLAY is %r; it is 'oled' or 'tm1637'" % (board.DISPLAY,))
    required, optional = kind
    for option in required:
        if not hasattr(board, option):
            raise BoardError(
                where + "%s is missing (DISPLAY %s needs it)" % (option, board.DISPLAY)
            )
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
    _pins(board, where)
    return board


def _pins(board, where):
    taken = {}  # GPIO -> the option that has it
    for option in _PINS:
        gpio = getattr(board, option, None)
        if gpio is not None:
            _take(taken, gpio, option, where)
    adc = board.BATTERY_ADC
    if adc is not None and adc not in _ADC_GPIOS:
        raise BoardError(where + "BATTERY_ADC is GP%s, not an ADC pin (GP26..GP29)" % (adc,))
    _mapping(board, "BUTTONS", taken, where, range(buttons.COUNT))
    for button in _MUST_HAVE:
        if button not in board.BUTTONS:
            raise BoardError(where + "BUTTONS has no %s" % buttons.NAMES[button])
    if getattr(board, "LEDS", None) is not None:
        _mapping(board, "LEDS", taken, where, (buttons.LEFT, buttons.RIGHT))


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


def forget():
    """Unload this module (the board is checked once, at boot)."""
    import sys

    del sys.modules[__name__]
    package = sys.modules[__name__.rpartition(".")[0]]
    if hasattr(package, "board_check"):
        delattr(package, "board_check")
