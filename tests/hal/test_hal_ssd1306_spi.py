# SPDX-License-Identifier: MIT
# The SSD1306 / SSD1309 driver on 4-wire SPI against a panel model: commands with D/C low, the
# frame's windows with D/C high, only what changed, nothing allocated once a window was seen.
import micropython
from boards import pico_oled_spi, pico_ssd1309_spi
from fake_devices import Ssd1306Panel, Ssd1309Panel
from fakes import fake_machine as m
from hal.rp2040 import ssd1306_spi
from hal.rp2040.ssd1306_spi import Ssd1306Spi
from support import raises
from ui.dirty import Dirty

DC, CS, RES = 4, 5, 6


def setup(panel_class=Ssd1306Panel, external_vcc=False, res=RES):
    m.reset()
    clock = m.Clock()
    bus = m.spi_bus(0)
    panel = bus.attach(panel_class(), DC, CS)
    panel.watch_reset(m.line(RES))
    spi = m.SPI(0, 10000000, sck=m.Pin(2), mosi=m.Pin(3), miso=None)
    pins = [m.Pin(DC, m.Pin.OUT, value=0), m.Pin(CS, m.Pin.OUT, value=1)]
    pins.append(None if res is None else m.Pin(res, m.Pin.OUT, value=1))
    oled = Ssd1306Spi(spi, *pins, sleep_us=clock.sleep_us, external_vcc=external_vcc)
    bus.log = []
    bus.bytes = 0
    return bus, panel, oled


def pattern():
    frame = bytearray(1024)
    for i in range(1024):
        frame[i] = (i * 7 + i // 128) & 0xFF
    return frame


class Windows:
    """What the OLED screen hands the driver: windows (x0, x1, p0, p1), `whole`, clear()."""

    def __init__(self, *boxes):
        self.boxes = bytearray(b"".join(bytes(box) for box in boxes))
        self.count = len(boxes)
        self.whole = False

    def clear(self):
        self.count = 0


def test_power_on_resets_the_panel_and_sends_the_datasheet_sequence_as_commands():
    bus, panel, oled = setup()
    assert panel.resets == 1 and m.line(RES).level == 1
    assert panel.on and panel.charge_pump and panel.mode == 0 and panel.contrast == 0xCF
    assert panel.commands[0] == (0xAE,) and panel.commands[-1] == (0xAF,)
    assert m.line(CS).level == 1  # deselected between writes
    assert oled.errors == 0


def test_the_first_show_sends_the_whole_frame_in_one_write():
    bus, panel, oled = setup()
    frame = pattern()
    assert oled.show(frame, Windows((0, 3, 0, 0))) == 6 + 1024  # an unknown panel: all of it
    assert bus.log == [(0, bytes((0x21, 0, 127, 0x22, 0, 7))), (1, bytes(frame))]
    assert panel.visible() == frame and bus.bytes == 1030


def test_a_window_sends_its_columns_of_its_pages_and_nothing_else():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    for x in range(20, 32):
        for page in range(1, 5):
            frame[page * 128 + x] ^= 0xFF
    frame[5 * 128 + 3] ^= 0x80
    windows = Windows((20, 31, 1, 4), (1, 3, 4, 5))
    assert oled.show(frame, windows) == 6 + 12 * 4 + 6 + 3 * 2
    assert windows.count == 0
    rows = b"".join(bytes(frame[p * 128 + 20 : p * 128 + 32]) for p in range(1, 5))
    assert bus.log[0] == (0, bytes((0x21, 20, 31, 0x22, 1, 4)))
    assert bus.log[1] == (1, rows)  # page by page, as horizontal addressing takes it
    assert bus.log[2] == (0, bytes((0x21, 1, 3, 0x22, 4, 5)))
    assert panel.visible() == frame
    assert ssd1306_spi.window_bytes(20, 31, 1, 4) == 6 + 48


def test_a_window_past_the_glass_is_cut_to_it_and_none_sends_nothing():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    frame[7 * 128 + 127] ^= 0x81
    assert oled.show(frame, Windows((120, 250, 6, 30), (130, 140, 1, 1))) == 6 + 8 * 2
    assert bus.log[0][1] == bytes((0x21, 120, 127, 0x22, 6, 7))
    assert oled.show(frame, Windows()) == 0
    assert panel.visible() == frame


def test_another_device_on_the_bus_hears_nothing_of_the_panels_writes():
    bus, panel, oled = setup()
    other = bus.attach(Ssd1306Panel(), 8, 9)
    m.Pin(9, m.Pin.OUT, value=1)
    oled.show(pattern())
    oled.contrast(0x10)
    assert other.data_bytes == 0 and other.commands == [] and panel.contrast == 0x10


def test_contrast_power_init_and_bad_frames():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    oled.power(False)
    assert not panel.on
    oled.power(True)
    assert panel.on
    raises(ValueError, oled.contrast, 256)
    raises(ValueError, oled.show, bytearray(1023))
    oled.init()
    assert oled.show(frame, Windows()) == 6 + 1024  # init forgets what the panel shows


def test_an_ssd1309_gets_no_charge_pump_and_shows_the_frame():
    bus, panel, oled = setup(Ssd1309Panel, external_vcc=True)  # the model refuses 0x8D
    assert panel.on and not panel.charge_pump and (panel.precharge, panel.vcomh) == (0x22, 0x34)
    frame = pattern()
    oled.show(frame)
    frame[200] ^= 0xFF
    assert oled.show(frame, Windows((72, 72, 1, 1))) == 6 + 1
    assert panel.visible() == frame


def test_a_panel_without_its_reset_wired_is_not_pulsed():
    bus, panel, oled = setup(res=None)
    assert panel.resets == 0 and panel.on


def test_showing_windows_allocates_nothing():
    bus, panel, oled = setup()
    bus.log = None
    panel.commands = None
    frame = bytearray(1024)
    dirty = Dirty()
    oled.show(frame, dirty)  # the first sight of a frame, and of each window shape, allocates
    dirty.add(40, 51, 8, 39)
    dirty.add(0, 5, 0, 7)
    oled.show(frame, dirty)
    frame[700] = 0x81
    frame[3] = 0x18
    micropython.heap_lock()
    try:
        dirty.add(40, 51, 8, 39)
        dirty.add(0, 5, 0, 7)
        sent = oled.show(frame, dirty)
        nothing = oled.show(frame, dirty)
    finally:
        micropython.heap_unlock()
    assert (sent, nothing) == (6 + 12 * 4 + 6 + 6, 0)
    assert panel.ram[3] == 0x18 and panel.ram[700] == 0


def test_the_board_files_build_the_driver_on_their_spi_pins():
    for board, panel_class in ((pico_oled_spi, Ssd1306Panel), (pico_ssd1309_spi, Ssd1309Panel)):
        m.reset()
        panel = m.spi_bus(board.SPI_ID).attach(panel_class(), board.OLED_DC, board.OLED_CS)
        panel.watch_reset(m.line(board.OLED_RES))
        make = getattr(board, "make_display", ssd1306_spi.from_board)
        oled = make(m, board, m.Clock().sleep_us)
        frame = pattern()
        oled.show(frame)
        assert panel.resets == 1 and panel.visible() == frame
        assert m.spi_bus(board.SPI_ID).baudrate == board.SPI_FREQ


def test_the_fake_spi_refuses_what_rp2_would_get_wrong():
    m.reset()
    raises(ValueError, m.SPI, 0, sck=m.Pin(3), mosi=m.Pin(2), miso=None)  # swapped
    raises(ValueError, m.SPI, 1, sck=m.Pin(2), mosi=m.Pin(3), miso=None)  # SPI0's pins
    raises(ValueError, m.SPI, 0, sck=m.Pin(2), mosi=m.Pin(3))  # rp2 would take GP16 for MISO


def test_the_first_wake_asks_the_bus_for_its_rate_again_and_no_other():
    # v1.28.0's light sleep leaves clk_peri at 125 MHz: the divider set at 48 MHz is worked out
    # again once; later wakes find clk_peri where the first left it.
    for board in (pico_oled_spi, pico_ssd1309_spi):
        m.reset()
        m.spi_bus(board.SPI_ID).attach(Ssd1306Panel(), board.OLED_DC, board.OLED_CS)
        make = getattr(board, "make_display", ssd1306_spi.from_board)
        oled = make(m, board, m.Clock().sleep_us)
        bus = m.spi_bus(board.SPI_ID)
        assert bus.inits == 0
        oled.wake()
        oled.wake()
        assert bus.inits == 1 and bus.baudrate == board.SPI_FREQ
    _, _, bare = setup()
    bare.wake()  # built without a rate to ask again: nothing to do
    assert m.spi_bus(0).inits == 0


def test_on_battery_the_face_is_dimmer_and_an_ssd1309_dimmer_still():
    from hal.rp2040.ssd1306 import CONTRAST, SAVING_CONTRAST, SAVING_CONTRAST_EXTERNAL

    for panel_class, external_vcc, saving in (
        (Ssd1306Panel, False, SAVING_CONTRAST),
        (Ssd1309Panel, True, SAVING_CONTRAST_EXTERNAL),
    ):
        _, panel, oled = setup(panel_class, external_vcc)
        oled.power_save(True)
        assert panel.contrast == saving
        oled.power_save(False)
        assert panel.contrast == CONTRAST
    assert SAVING_CONTRAST_EXTERNAL < SAVING_CONTRAST < CONTRAST
