# SPDX-License-Identifier: MIT
# The SH1106 driver against its panel model: 132 columns of RAM with an offset of 2, page
# addressing only, windows sent page by page (by machine.I2C, or as the board does by DMA); the
# glass shows the frame the app built.
import micropython
from fake_devices import Sh1106Panel
from fakes import fake_machine as m
from hal.rp2040 import sh1106
from fakes.fake_rp2 import DMA
from hal.rp2040.sh1106 import Sh1106, Sh1106Dma
from support import raises
from test_hal_ssd1306 import Windows, pattern


def setup(flip=False, dma=False):
    """The panel on bus 0 and its driver: the waiting one, or with `dma` the one whose pages a
    DMA channel writes (Sh1106Dma, as on the board)."""
    m.reset()
    bus = m.bus(0)
    panel = bus.attach(0x3C, Sh1106Panel())
    i2c = m.I2C(0, scl=m.Pin(5), sda=m.Pin(4), freq=400000)
    if dma:
        oled = Sh1106Dma(i2c, DMA(), m.mem32, 0, 0x3C, flip)
    else:
        oled = Sh1106(i2c, 0x3C, flip)
    bus.log = []
    bus.bytes = 0
    return bus, panel, oled


def test_init_turns_on_the_dc_dc_and_sends_no_ssd1306_only_command():
    bus, panel, oled = setup()  # the model raises on 0x20, 0x21, 0x22, 0x2E and 0x8D
    assert oled.errors == 0 and panel.on and panel.dc_dc and panel.multiplex == 63
    assert panel.remap and panel.scan_reversed and panel.contrast == 0xCF
    bus, panel, oled = setup(flip=True)
    assert not panel.remap and not panel.scan_reversed


def test_the_whole_frame_goes_page_by_page_at_column_2():
    for dma in (False, True):
        whole_frame(dma)


def whole_frame(dma):
    bus, panel, oled = setup(dma=dma)
    frame = pattern()
    assert oled.show(frame) == 8 * (5 + 130)
    assert bus.bytes == 8 * (5 + 130)
    assert panel.visible() == frame
    assert bus.log[0] == (0x3C, bytes((0x00, 0xB0, 0x02, 0x10)))  # page 0, column 2
    assert bus.log[1] == (0x3C, b"\x40" + bytes(frame[:128]))
    assert bus.log[14] == (0x3C, bytes((0x00, 0xB7, 0x02, 0x10)))
    assert bytes(panel.ram[0:2]) == b"\x00\x00"  # the two hidden columns stay untouched


def test_a_window_sends_its_columns_on_each_of_its_pages():
    for dma in (False, True):
        a_window(dma)


def a_window(dma):
    bus, panel, oled = setup(dma=dma)
    frame = pattern()
    oled.show(frame)
    bus.log = []
    bus.bytes = 0
    for x in range(20, 32):
        for page in range(1, 5):
            frame[page * 128 + x] ^= 0xFF
    windows = Windows((20, 31, 1, 4))
    assert oled.show(frame, windows) == 4 * (5 + 2 + 12)
    assert windows.count == 0
    assert bus.bytes == 4 * (5 + 2 + 12) == sh1106.window_bytes(20, 31, 1, 4)
    column = 20 + 2
    for page in range(1, 5):
        command, data = bus.log[2 * (page - 1)], bus.log[2 * (page - 1) + 1]
        assert command == (0x3C, bytes((0x00, 0xB0 | page, column & 15, 0x10 | column >> 4)))
        assert data == (0x3C, b"\x40" + bytes(frame[page * 128 + 20 : page * 128 + 32]))
    assert panel.visible() == frame


def test_a_window_at_the_right_edge_stays_on_the_glass():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    frame[7 * 128 + 127] ^= 0x81
    assert oled.show(frame, Windows((127, 127, 7, 7))) == 5 + 2 + 1
    assert bus.log[0][1] == bytes((0x00, 0xB7, (127 + 2) & 15, 0x10 | (127 + 2) >> 4))
    assert bus.log[1][1] == bytes((0x40, frame[7 * 128 + 127]))
    assert panel.visible() == frame


def test_a_window_past_the_glass_is_cut_to_it():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    frame[7 * 128 + 127] ^= 0x81
    assert oled.show(frame, Windows((126, 250, 7, 30), (130, 140, 1, 1))) == 5 + 2 + 2
    assert panel.visible() == frame


def test_a_lost_panel_gets_the_whole_frame_once_it_answers_again():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    del bus.devices[0x3C]
    frame[300] ^= 0xFF
    assert oled.show(frame, Windows((44, 44, 2, 2))) == 0 and oled.errors == 1
    bus.attach(0x3C, panel)
    assert oled.show(frame, Windows()) == 8 * (5 + 130)
    assert panel.visible() == frame


def test_contrast_and_power_use_the_shared_commands():
    bus, panel, oled = setup()
    oled.contrast(0x30)
    oled.power(False)
    assert panel.contrast == 0x30 and not panel.on
    raises(ValueError, oled.contrast, -1)


def test_the_model_refuses_horizontal_addressing_and_writes_past_the_ram():
    panel = Sh1106Panel()
    raises(ValueError, panel.receive, b"\x00\x20\x00")
    for transaction in (b"\x00\xb0\x00\x18", b"\x40\x01\x02\x03\x04"):  # columns 128..131
        panel.begin()
        panel.receive(transaction)
    assert bytes(panel.ram[128:132]) == b"\x01\x02\x03\x04"
    panel.begin()
    raises(ValueError, panel.receive, b"\x40\x05")


def test_a_changed_window_is_sent_without_allocating():
    for dma in (False, True):
        a_window_without_allocating(dma)


def a_window_without_allocating(dma):
    bus, panel, oled = setup(dma=dma)
    frame = pattern()
    oled.show(frame)
    windows = Windows((8, 19, 2, 5))
    oled.show(frame, windows)  # the window's shape, made once
    bus.log = None
    panel.commands = None
    windows.count = 1
    frame[2 * 128 + 10] ^= 0xFF
    micropython.heap_lock()
    try:
        sent = oled.show(frame, windows)
    finally:
        micropython.heap_unlock()
    assert sent == 4 * (5 + 2 + 12) and panel.visible() == frame
