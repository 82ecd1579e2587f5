# SPDX-License-Identifier: MIT
# hal/board_check.py: a board file is refused before anything is built, with one line that
# names the option or the pin, its value and what it should be; every board in boards/ passes.
import os

import boards
from hal import buttons as b
from hal.board_check import BoardError, check
from support import raises


class Good:
    NAME = "good"
    DISPLAY = "oled"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    OLED_ADDRESS = 0x3C
    BUTTONS = {b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16}
    LEDS = {b.LEFT: 20, b.RIGHT: 21}
    BUZZER = 13
    BATTERY_ADC = 29
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/data"
    LEFT = b.LEFT  # the button names a board file imports are not options


def refused(board):
    error = raises(BoardError, check, board)
    assert isinstance(error, ValueError) and "\n" not in str(error)
    return str(error)


def variant(**changes):
    class Board(Good):
        pass

    for name, value in changes.items():
        setattr(Board, name, value)
    return Board


def test_a_good_board_passes_and_comes_back():
    assert check(Good) is Good


SHIPPED = ("pico_lcd", "pico_minimal", "pico_oled", "pico_sh1106", "pico_ssd1309", "pico_tm1637")


def test_every_board_file_passes():
    folder = boards.__file__.rsplit("/", 1)[0]
    names = [n[:-3] for n in os.listdir(folder) if n.endswith(".py") and n != "__init__.py"]
    for name in names:
        board = __import__("boards." + name, None, None, ["NAME"])
        assert check(board) is board and board.NAME == name
    assert all(name in names for name in SHIPPED)


def test_an_unknown_option_is_named():
    assert refused(variant(BUZZR=13)) == "board good: unknown option BUZZR"
    assert refused(variant(TM1637_POINTS=True)) == "board good: unknown option TM1637_POINTS"


def test_a_missing_option_is_named():
    class NoBattery:
        NAME = "nobat"
        DISPLAY = "oled"
        BUTTONS = Good.BUTTONS
        BUZZER = None
        WATCHDOG_MS = 0
        STORAGE_ROOT = "/"

    assert refused(NoBattery) == "board nobat: BATTERY_ADC is missing"
    NoBattery.BATTERY_ADC = None
    assert refused(NoBattery) == "board nobat: I2C_ID is missing (DISPLAY oled needs it)"

    class Segments(NoBattery):
        DISPLAY = "tm1637"
        TM1637_LEFT_CLK = 2
        TM1637_LEFT_DIO = 3
        TM1637_RIGHT_CLK = 6

    assert refused(Segments) == (
        "board nobat: TM1637_RIGHT_DIO is missing (DISPLAY tm1637 needs it)"
    )
    Segments.TM1637_RIGHT_DIO = 7
    assert check(Segments) is Segments


def test_a_pin_used_twice_is_named_with_both_uses():
    assert refused(variant(BUZZER=4)) == "board good: GP4 is used twice: I2C_SDA and BUZZER"
    assert refused(variant(BUTTONS={b.LEFT: 14, b.RIGHT: 14, b.PLAY: 16})) == (
        "board good: GP14 is used twice: BUTTONS[left] and BUTTONS[right]"
    )
    assert refused(variant(LEDS={b.LEFT: 20, b.RIGHT: 16})) == (
        "board good: GP16 is used twice: BUTTONS[play] and LEDS[right]"
    )


def test_bad_pins_buttons_and_displays_are_named():
    assert refused(variant(BUZZER=30)) == "board good: BUZZER is 30, not a GPIO number 0..29"
    assert refused(variant(BATTERY_ADC=22)) == (
        "board good: BATTERY_ADC is GP22, not an ADC pin (GP26..GP29)"
    )
    assert refused(variant(BUTTONS={b.LEFT: 14, b.RIGHT: 15})) == "board good: BUTTONS has no play"
    assert refused(variant(BUTTONS={b.LEFT: 14, b.RIGHT: 15, b.PLAY: 16, 9: 17})) == (
        "board good: BUTTONS has an unknown key 9"
    )
    assert refused(variant(LEDS={b.PLAY: 20})) == "board good: LEDS has an unknown key 2"
    assert refused(variant(DISPLAY="epaper")) == (
        "board good: DISPLAY is 'epaper'; it is 'oled', 'tm1637' or 'lcd'"
    )
    assert refused(variant(make_display=7)) == "board good: make_display is not a function"
    assert check(variant(LEDS=None, BUZZER=None, BATTERY_ADC=None)).BUZZER is None


SEGMENTS = {
    "NAME": "seg",
    "DISPLAY": "tm1637",
    "TM1637_LEFT_CLK": 2,
    "TM1637_LEFT_DIO": 3,
    "TM1637_RIGHT_CLK": 6,
    "TM1637_RIGHT_DIO": 7,
    "TM1637_DELAY_US": 10,
    "TM1637_POINTS": False,
    "BUTTONS": Good.BUTTONS,
    "BUZZER": None,
    "BATTERY_ADC": None,
    "WATCHDOG_MS": 0,
    "STORAGE_ROOT": "/",
}


def segments(**changes):
    options = dict(SEGMENTS)
    options.update(changes)
    return type("Segments", (), options)


def refusals(make, option, cases):
    """Each (value, what the line says after "OPTION is ") refused; the message is one line."""
    where = "board %s: " % make().NAME
    for value, said in cases:
        found = refused(make(**{option: value}))
        assert found == where + option + " is " + said, found


def test_a_name_is_letters_digits_and_underscores():
    for bad in (5, True, None, "", "pico oled", "9lives", "pico-oled", "b\xe4r", "a/b"):
        said = refused(variant(NAME=bad))
        assert (
            said
            == "board: NAME is %r, not a module name (letters, digits, _; no digit first)" % (bad,)
        ), (said)
    assert check(variant(NAME="Pico_2")).NAME == "Pico_2"


def test_a_display_that_is_not_a_kind_is_refused_whatever_its_type():
    for bad in ("OLED", "", 1, None, ["oled"], ("oled",), {"oled": 1}):
        said = refused(variant(DISPLAY=bad))
        assert said == "board good: DISPLAY is %r; it is 'oled', 'tm1637' or 'lcd'" % (bad,), said


def test_the_watchdog_is_off_or_within_the_rp2040s():
    refusals(
        variant,
        "WATCHDOG_MS",
        (
            ("5000", "'5000', not a watchdog timeout in ms (0: off, at most 8388)"),
            (5000.0, "5000.0, not a watchdog timeout in ms (0: off, at most 8388)"),
            (True, "True, not a watchdog timeout in ms (0: off, at most 8388)"),
            (None, "None, not a watchdog timeout in ms (0: off, at most 8388)"),
            (-1, "-1, not a watchdog timeout in ms (0: off, at most 8388)"),
            (8389, "8389, not a watchdog timeout in ms (0: off, at most 8388)"),
        ),
    )
    for good in (0, 1, 5000, 8388):
        assert check(variant(WATCHDOG_MS=good)).WATCHDOG_MS == good


def test_the_storage_root_is_an_absolute_folder():
    said = "not an absolute folder path such as '/data' (no '.', '..' or '//', no '/' at the end)"
    cases = [(bad, "%r, %s" % (bad, said)) for bad in (5, None, True, b"/data", ["/data"])]
    for bad in ("", "data", "./data", "/data/", "//", "/a//b", "/../x", "/data/..", "/./a"):
        cases.append((bad, "%r, %s" % (bad, said)))
    refusals(variant, "STORAGE_ROOT", cases)
    for good in ("/", "/data", "/data/clock", "/.hidden", "/a..b"):
        assert check(variant(STORAGE_ROOT=good)).STORAGE_ROOT == good


def test_gpio_options_are_whole_numbers_of_the_rp2040s_gpios():
    for option in ("BUZZER", "I2C_SDA", "I2C_SCL"):
        for bad in ("13", 13.0, True, False, -1, 30, 99):
            said = refused(variant(**{option: bad}))
            assert said == "board good: %s is %r, not a GPIO number 0..29" % (option, bad), said
    for bad in ("29", 29.0, True):
        assert refused(variant(BATTERY_ADC=bad)) == (
            "board good: BATTERY_ADC is %r, not a GPIO number 0..29" % (bad,)
        )
    assert refused(variant(BUTTONS={b.LEFT: 14, b.RIGHT: True, b.PLAY: 16})) == (
        "board good: BUTTONS[right] is True, not a GPIO number 0..29"
    )
    assert refused(variant(LEDS={b.LEFT: "20", b.RIGHT: 21})) == (
        "board good: LEDS[left] is '20', not a GPIO number 0..29"
    )
    assert refused(variant(BUTTONS={b.LEFT: 30, b.RIGHT: 15, b.PLAY: 16})) == (
        "board good: BUTTONS[left] is 30, not a GPIO number 0..29"
    )
    assert refused(variant(LEDS={b.LEFT: 20, b.RIGHT: -1})) == (
        "board good: LEDS[right] is -1, not a GPIO number 0..29"
    )
    assert refused(variant(BATTERY_ADC=30)) == (
        "board good: BATTERY_ADC is 30, not a GPIO number 0..29"
    )
    assert refused(variant(BUTTONS=[14, 15, 16])) == (
        "board good: BUTTONS is a dict of button -> GPIO"
    )
    assert refused(variant(LEDS=(20, 21))) == "board good: LEDS is a dict of button -> GPIO"
    assert refused(variant(BUTTONS={b.LEFT: 14, True: 15, b.PLAY: 16})) == (
        "board good: BUTTONS has an unknown key True"
    )
    for option in ("TM1637_LEFT_CLK", "TM1637_LEFT_DIO", "TM1637_RIGHT_CLK", "TM1637_RIGHT_DIO"):
        refusals(
            segments,
            option,
            (
                ("2", "'2', not a GPIO number 0..29"),
                (None, "None, not a GPIO number 0..29"),
                (True, "True, not a GPIO number 0..29"),
                (30, "30, not a GPIO number 0..29"),
            ),
        )


def test_the_i2c_block_is_0_or_1_and_its_pins_are_routed_to_it():
    refusals(
        variant,
        "I2C_ID",
        (
            ("0", "'0', not an I2C block (0 or 1)"),
            (True, "True, not an I2C block (0 or 1)"),
            (False, "False, not an I2C block (0 or 1)"),
            (None, "None, not an I2C block (0 or 1)"),
            (2, "2, not an I2C block (0 or 1)"),
            (-1, "-1, not an I2C block (0 or 1)"),
        ),
    )
    assert refused(variant(I2C_SDA=5, I2C_SCL=4)) == (
        "board good: I2C_SDA is GP5, not an SDA pin of I2C0 (GP0, GP4, ... GP28)"
    )
    assert refused(variant(I2C_SDA=6, I2C_SCL=7)) == (
        "board good: I2C_SDA is GP6, not an SDA pin of I2C0 (GP0, GP4, ... GP28)"
    )
    assert refused(variant(I2C_SDA=8, I2C_SCL=11)) == (
        "board good: I2C_SCL is GP11, not an SCL pin of I2C0 (GP1, GP5, ... GP29)"
    )
    assert refused(variant(I2C_ID=1)) == (
        "board good: I2C_SDA is GP4, not an SDA pin of I2C1 (GP2, GP6, ... GP26)"
    )
    assert refused(variant(I2C_ID=1, I2C_SDA=6, I2C_SCL=5)) == (
        "board good: I2C_SCL is GP5, not an SCL pin of I2C1 (GP3, GP7, ... GP27)"
    )
    for block, sda, scl in ((0, 0, 1), (0, 8, 9), (0, 28, 29), (1, 2, 3), (1, 6, 7), (1, 26, 27)):
        board = check(variant(I2C_ID=block, I2C_SDA=sda, I2C_SCL=scl, BATTERY_ADC=None))
        assert (board.I2C_SDA, board.I2C_SCL) == (sda, scl)


def test_the_i2c_frequency_is_a_whole_number_of_hz_in_reach():
    said = "not a frequency in Hz (10000..1000000)"
    refusals(
        variant,
        "I2C_FREQ",
        [(bad, "%r, %s" % (bad, said)) for bad in ("fast", 400000.0, True, None, 9999, 1000001)],
    )
    assert refused(variant(I2C_FREQ="fast")) == (
        "board good: I2C_FREQ is 'fast', not a frequency in Hz (10000..1000000)"
    )
    for good in (10000, 100000, 400000, 1000000):
        assert check(variant(I2C_FREQ=good)).I2C_FREQ == good


def test_the_oled_address_is_a_7_bit_address_shown_in_hex():
    said = "not a 7-bit I2C address 0x08..0x77 (OLEDs: 0x3C or 0x3D)"
    refusals(
        variant,
        "OLED_ADDRESS",
        (
            ("0x3C", "'0x3C', " + said),
            (60.0, "60.0, " + said),
            (True, "True, " + said),
            (0x78, "0x78, " + said),  # the 8-bit form printed on many modules
            (0x07, "0x07, " + said),
            (-1, "-1, " + said),
        ),
    )
    for good in (0x3C, 0x3D, 0x08, 0x77):
        assert check(variant(OLED_ADDRESS=good)).OLED_ADDRESS == good


def test_the_tm1637_delay_and_points_have_their_types_and_ranges():
    assert check(segments()).DISPLAY == "tm1637"
    said = "not a half clock period in us (0..100)"
    refusals(
        segments,
        "TM1637_DELAY_US",
        [(bad, "%r, %s" % (bad, said)) for bad in ("10", 10.5, True, None, -1, 101)],
    )
    for good in (0, 10, 100):
        assert check(segments(TM1637_DELAY_US=good)).TM1637_DELAY_US == good
    refusals(
        segments,
        "TM1637_POINTS",
        [(bad, "%r, not True or False" % (bad,)) for bad in (0, 1, "False", None)],
    )
    assert check(segments(TM1637_POINTS=True)).TM1637_POINTS is True
    options = dict(SEGMENTS)
    del options["TM1637_DELAY_US"], options["TM1637_POINTS"]
    bare = type("Bare", (), options)
    assert check(bare) is bare  # both optional


def test_a_segment_board_names_its_pins_used_twice():
    assert refused(segments(TM1637_RIGHT_DIO=2)) == (
        "board seg: GP2 is used twice: TM1637_LEFT_CLK and TM1637_RIGHT_DIO"
    )
    assert refused(segments(BUZZER=7)) == (
        "board seg: GP7 is used twice: TM1637_RIGHT_DIO and BUZZER"
    )


class GoodSpi:
    NAME = "goodspi"
    DISPLAY = "oled"
    OLED_BUS = "spi"
    SPI_ID = 0
    SPI_SCK = 2
    SPI_MOSI = 3
    SPI_FREQ = 10000000
    OLED_DC = 4
    OLED_CS = 5
    OLED_RES = 6
    BUTTONS = Good.BUTTONS
    LEDS = Good.LEDS
    BUZZER = 13
    BATTERY_ADC = 29
    WATCHDOG_MS = 5000
    STORAGE_ROOT = "/data"


def spi_variant(**changes):
    class Board(GoodSpi):
        pass

    for name, value in changes.items():
        setattr(Board, name, value)
    return Board


def test_an_spi_oled_needs_its_bus_pins_and_takes_no_i2c_options():
    assert check(GoodSpi) is GoodSpi
    assert check(spi_variant(OLED_RES=None)).OLED_RES is None
    del_dc = spi_variant()
    del GoodSpi.OLED_DC
    try:
        assert refused(del_dc) == "board goodspi: OLED_DC is missing (OLED_BUS spi needs it)"
    finally:
        GoodSpi.OLED_DC = 4
    assert refused(spi_variant(I2C_ID=0)) == "board goodspi: unknown option I2C_ID"
    assert refused(variant(SPI_ID=0)) == "board good: unknown option SPI_ID"
    assert refused(spi_variant(OLED_BUS="SPI")) == (
        "board goodspi: OLED_BUS is 'SPI'; it is 'i2c' or 'spi'"
    )
    assert refused(spi_variant(OLED_BUS=["spi"])) == (
        "board goodspi: OLED_BUS is ['spi']; it is 'i2c' or 'spi'"
    )
    assert check(variant(OLED_BUS="i2c")).OLED_BUS == "i2c"


def test_the_spi_block_frequency_and_pins_have_their_types_and_ranges():
    refusals(
        spi_variant,
        "SPI_ID",
        [(bad, "%r, not an SPI block (0 or 1)" % (bad,)) for bad in ("0", True, None, 2, -1)],
    )
    said = "not a frequency in Hz (100000..10000000: 10 MHz at most)"
    refusals(
        spi_variant,
        "SPI_FREQ",
        [(bad, "%r, %s" % (bad, said)) for bad in ("10MHz", 8e6, 99999, 10000001)],
    )
    for option in ("OLED_DC", "OLED_CS", "OLED_RES", "SPI_SCK", "SPI_MOSI"):
        assert refused(spi_variant(**{option: 30})) == (
            "board goodspi: %s is 30, not a GPIO number 0..29" % option
        )
    assert refused(spi_variant(OLED_CS=14)) == (
        "board goodspi: GP14 is used twice: OLED_CS and BUTTONS[left]"
    )
    assert (
        refused(spi_variant(OLED_RES=4))
        == "board goodspi: GP4 is used twice: OLED_DC and OLED_RES"
    )


def test_the_spi_pins_are_those_the_rp2040_routes_to_the_block():
    assert refused(spi_variant(SPI_SCK=3, SPI_MOSI=2)) == (
        "board goodspi: SPI_SCK is GP3, not an SCK pin of SPI0 (GP2, GP6, GP18, GP22)"
    )
    assert refused(spi_variant(SPI_MOSI=11)) == (
        "board goodspi: SPI_MOSI is GP11, not a MOSI pin of SPI0 (GP3, GP7, GP19, GP23)"
    )
    assert refused(spi_variant(SPI_ID=1)) == (
        "board goodspi: SPI_SCK is GP2, not an SCK pin of SPI1 (GP10, GP14, GP26)"
    )
    for block, sck, mosi in ((0, 6, 7), (0, 22, 23), (1, 10, 11), (1, 26, 27)):
        board = check(spi_variant(SPI_ID=block, SPI_SCK=sck, SPI_MOSI=mosi, OLED_RES=8))
        assert (board.SPI_SCK, board.SPI_MOSI) == (sck, mosi)


def test_a_wifi_board_keeps_off_the_wireless_chips_pins():
    from boards import picow_oled

    assert check(picow_oled).WIFI is True and picow_oled.BATTERY_ADC == 28
    assert check(variant(WIFI=False)).BATTERY_ADC == 29  # a plain Pico: GP29 is VSYS's alone
    assert refused(variant(WIFI=1)) == "board good: WIFI is 1, not True or False"
    assert refused(variant(WIFI=True)) == (
        "board good: BATTERY_ADC is GP29, a pin of the Pico W's wireless chip (GP23, GP24, GP25,"
        " GP29: WIFI is True)"
    )
    assert refused(variant(WIFI=True, BATTERY_ADC=None, LEDS={b.LEFT: 20, b.RIGHT: 25})) == (
        "board good: LEDS[right] is GP25, a pin of the Pico W's wireless chip (GP23, GP24, GP25,"
        " GP29: WIFI is True)"
    )
    assert check(variant(WIFI=True, BATTERY_ADC=28)).WIFI is True
