# SPDX-License-Identifier: MIT
# The display kinds a board's DISPLAY names, and for each where its pieces are: the app's screen
# (firmware/ui), the board's driver (hal/rp2040) and the text pictures (sim/frames). Modules are
# named, not imported: the board loads only its own kind's (the other screen would take RAM).
# The board needs this only at boot: main.py calls forget() once its driver and screen are made.
OLED = "oled"
TM1637 = "tm1637"
LCD = "lcd"

# The fields of a kind's row:
SCREEN = 0  # (module, class): made with the kind's options as keywords
# A module with from_board(machine, board, sleep_us) -> the display driver; for an OLED, one for
# each bus its board's OLED_BUS can name ("i2c" when it names none).
DRIVER = 1
TEXT = 2  # (full size, half size or None): sim/frames functions of (frame, **options)
OPTIONS = 3  # (keyword, board constant, default) for each option of the screen and the text

KINDS = {
    OLED: (
        ("ui.oled", "OledScreen"),
        {"i2c": "hal.rp2040.ssd1306_dma", "spi": "hal.rp2040.ssd1306_spi"},
        ("oled_text", "oled_braille"),
        (("bus", "OLED_BUS", "i2c"),),
    ),
    TM1637: (
        ("ui.seg7", "SegScreen"),
        "hal.rp2040.tm1637",
        ("seg_text", None),
        (("points", "TM1637_POINTS", False),),
    ),
    LCD: (("ui.lcd", "LcdScreen"), "hal.rp2040.ht1621", ("lcd_text", None), ()),
}


def row(board):
    """The row of KINDS for board.DISPLAY; ValueError for a kind there is none of."""
    found = KINDS.get(board.DISPLAY)
    if found is None:
        raise ValueError("board.DISPLAY is 'oled', 'tm1637' or 'lcd'")
    return found


def options(board):
    """The keywords the board's screen and text pictures take, from its constants."""
    found = {}
    for keyword, name, default in row(board)[OPTIONS]:
        found[keyword] = getattr(board, name, default)
    return found


def screen_for(board, frame=None):
    """The app's screen for the board's display, drawing into `frame` (None: its own)."""
    module, name = row(board)[SCREEN]
    return getattr(__import__(module, None, None, (name,)), name)(frame, **options(board))


def driver_for(machine, board, sleep_us):
    """The board's display driver on `machine`: the board file's own make_display(machine, board,
    sleep_us) where it has one (a panel of its kind that needs another driver), else the kind's
    (for an OLED, its bus's)."""
    make = getattr(board, "make_display", None)
    if make is not None:
        return make(machine, board, sleep_us)
    name = row(board)[DRIVER]
    if type(name) is dict:
        name = name[getattr(board, "OLED_BUS", "i2c")]
    module = __import__(name, None, None, ("from_board",))
    return module.from_board(machine, board, sleep_us)


def forget():
    """Unload this module (what it holds stays only with those who kept it)."""
    import sys

    del sys.modules[__name__]
    package = sys.modules[__name__.rpartition(".")[0]]
    if hasattr(package, "kinds"):
        delattr(package, "kinds")
