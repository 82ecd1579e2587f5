# SPDX-License-Identifier: MIT
# The SSD1306 driver against a panel model: the panel shows the frame; only changed windows go out.
from fake_devices import Ssd1306Panel, Ssd1309Panel
from fakes import fake_machine as m
from hal.rp2040 import ssd1306
from hal.rp2040.ssd1306 import Ssd1306
from support import raises


def setup(flip=False):
    m.reset()
    bus = m.bus(0)
    panel = bus.attach(0x3C, Ssd1306Panel())
    oled = Ssd1306(m.I2C(0, scl=m.Pin(5), sda=m.Pin(4), freq=400000), 0x3C, flip)
    bus.log = []
    bus.bytes = 0
    return bus, panel, oled


def pattern():
    frame = bytearray(1024)
    for i in range(1024):
        frame[i] = (i * 7 + i // 128) & 0xFF
    return frame


def test_init_switches_the_panel_on_with_the_charge_pump_and_64_lines():
    bus, panel, oled = setup()
    assert panel.on and panel.charge_pump
    assert panel.multiplex == 63 and panel.mode == 0
    assert panel.remap and panel.scan_reversed and not panel.inverted
    assert panel.contrast == 0xCF


def test_flip_turns_the_picture_by_180_degrees():
    bus, panel, oled = setup(flip=True)
    assert not panel.remap and not panel.scan_reversed


class Windows:
    """What the OLED screen hands the driver: windows (x0, x1, p0, p1), `whole`, clear()."""

    def __init__(self, *boxes):
        self.boxes = bytearray(b"".join(bytes(box) for box in boxes))
        self.count = len(boxes)
        self.whole = False

    def clear(self):
        self.count = 0


def test_the_first_show_sends_every_page_and_the_panel_holds_the_frame():
    bus, panel, oled = setup()
    frame = pattern()
    assert oled.show(frame, Windows((0, 3, 0, 0))) == 8 * (8 + 130)  # unknown panel: all of it
    assert panel.ram == frame
    # Per page: [addr] 00 21 00 7F 22 p p, then [addr] 40 + 128 bytes: 8 + 130 bytes.
    assert bus.bytes == 8 * (8 + 130)
    assert bus.log[0] == (0x3C, bytes((0x00, 0x21, 0, 127, 0x22, 0, 0)))
    assert bus.log[1][1][0] == 0x40 and len(bus.log[1][1]) == 129


def test_a_window_sends_its_columns_of_its_pages_and_nothing_else():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    bus.bytes = 0
    for x in range(20, 32):
        for page in range(1, 5):
            frame[page * 128 + x] ^= 0xFF
    windows = Windows((20, 31, 1, 4))
    assert oled.show(frame, windows) == 8 + 2 + 12 * 4
    assert windows.count == 0  # taken
    assert bus.bytes == 8 + 2 + 12 * 4
    assert bus.log[0] == (0x3C, bytes((0x00, 0x21, 20, 31, 0x22, 1, 4)))
    rows = b"".join(bytes(frame[p * 128 + 20 : p * 128 + 32]) for p in range(1, 5))
    assert bus.log[1] == (0x3C, b"\x40" + rows)  # page by page, as horizontal addressing takes it
    assert panel.ram == frame
    assert ssd1306.window_bytes(20, 31, 1, 4) == 8 + 2 + 12 * 4


def test_a_window_goes_out_exactly_as_wide_as_it_is():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    frame[126] ^= 1
    frame[5 * 128 + 3] ^= 0x80
    assert oled.show(frame, Windows((126, 126, 0, 0), (1, 3, 4, 5))) == 8 + 2 + 1 + 8 + 2 + 6
    assert bus.log[0][1] == bytes((0x00, 0x21, 126, 126, 0x22, 0, 0))
    assert bus.log[1][1] == b"\x40" + bytes(frame[126:127])
    assert bus.log[2][1] == bytes((0x00, 0x21, 1, 3, 0x22, 4, 5))
    assert bus.log[3][1] == b"\x40" + bytes(
        frame[4 * 128 + 1 : 4 * 128 + 4] + frame[5 * 128 + 1 : 5 * 128 + 4]
    )
    assert panel.ram == frame


def test_a_window_past_the_glass_is_cut_to_it():
    """copy_rows checks no bounds on the board (viper): the driver must never pass it one."""
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    frame[7 * 128 + 127] ^= 0x81
    sent = oled.show(frame, Windows((120, 250, 6, 30), (130, 140, 1, 1)))
    assert sent == 8 + 2 + 8 * 2
    assert bus.log[0][1] == bytes((0x00, 0x21, 120, 127, 0x22, 6, 7))
    assert panel.ram == frame


def test_no_windows_send_nothing_and_none_sends_the_whole_frame():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    assert oled.show(frame, Windows()) == 0 and bus.log == []
    frame[1023] ^= 0xFF
    assert oled.show(frame) == 8 * (8 + 130)
    assert panel.ram == frame


def test_a_failed_write_sends_the_whole_frame_on_the_next_show():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    del bus.devices[0x3C]  # the panel drops off the bus
    frame[5] ^= 0xFF
    frame[900] ^= 0xFF
    assert oled.show(frame, Windows((5, 5, 0, 0))) == 0
    assert oled.errors == 1
    bus.attach(0x3C, panel)
    assert oled.show(frame, Windows((0, 0, 0, 0))) == 8 * (8 + 130)
    assert panel.ram == frame


def test_contrast_power_and_bad_frames():
    bus, panel, oled = setup()
    oled.contrast(0x10)
    assert panel.contrast == 0x10
    oled.power(False)
    assert not panel.on
    oled.power(True)
    assert panel.on
    raises(ValueError, oled.contrast, 256)
    raises(ValueError, oled.show, bytearray(1023))


def test_init_again_resends_every_page():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    oled.init()
    assert oled.show(frame, Windows()) == 8 * (8 + 130)


def test_a_panel_missing_at_power_on_is_configured_by_a_later_show():
    m.reset()
    bus = m.bus(0)
    oled = Ssd1306(m.I2C(0, scl=m.Pin(5), sda=m.Pin(4)), 0x3C)
    assert oled.errors == 1
    frame = pattern()
    assert oled.show(frame) == 0 and oled.errors == 2
    oled.contrast(0x20)  # kept for the panel's set-up, not raised: a menu must not crash
    assert oled.errors == 2 and oled.health() == (False, 1, 0, 2)
    panel = bus.attach(0x3C, Ssd1306Panel())
    assert oled.show(frame) == 8 * (8 + 130)
    assert panel.on and panel.ram == frame and panel.charge_pump and panel.contrast == 0x20
    assert oled.health() == (True, 1, 1, 2)


def test_the_ssd1306_power_on_bytes_are_the_datasheet_sequence():
    bus, panel, oled = setup()
    oled.init()
    # fmt: off
    assert bus.log[-1] == (0x3C, bytes((
        0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8,
        0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0x2E, 0xA4, 0xA6, 0xAF,
    )))
    # fmt: on


def ssd1309():
    m.reset()
    bus = m.bus(0)
    panel = bus.attach(0x3C, Ssd1309Panel())  # refuses the SSD1306's charge pump command
    oled = Ssd1306(m.I2C(0, scl=m.Pin(5), sda=m.Pin(4)), 0x3C, external_vcc=True)
    return bus, panel, oled


def test_an_ssd1309_is_set_up_for_its_external_vcc_and_shows_the_frame():
    bus, panel, oled = ssd1309()
    assert oled.errors == 0 and panel.on and not panel.charge_pump
    assert (panel.precharge, panel.vcomh) == (0x22, 0x34)
    assert panel.mode == 0 and panel.remap and panel.scan_reversed and panel.contrast == 0xCF
    frame = pattern()
    assert oled.show(frame) == 8 * (8 + 130)
    frame[200] ^= 0xFF
    assert oled.show(frame, Windows((72, 72, 1, 1))) == 8 + 2 + 1
    assert panel.visible() == frame


def test_the_ssd1306_panel_model_refuses_what_its_chip_lacks():
    panel = Ssd1309Panel()
    raises(ValueError, panel.receive, b"\x00\x8d\x14")  # no charge pump on an SSD1309
    raises(ValueError, Ssd1306Panel().receive, b"\x00\xb0")  # no page command model here
