# The SSD1306 driver against a panel model: the panel shows the frame; only changed pages go out.
from fake_devices import Ssd1306Panel
from fakes import fake_machine as m
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


def test_the_first_show_sends_every_page_and_the_panel_holds_the_frame():
    bus, panel, oled = setup()
    frame = pattern()
    assert oled.show(frame) == 8
    assert panel.ram == frame
    # Per page: [addr] 00 21 00 7F 22 p p, then [addr] 40 + 128 bytes: 8 + 130 bytes.
    assert bus.bytes == 8 * (8 + 130)
    assert bus.log[0] == (0x3C, bytes((0x00, 0x21, 0, 127, 0x22, 0, 0)))
    assert bus.log[1][1][0] == 0x40 and len(bus.log[1][1]) == 129


def test_a_second_show_of_the_same_frame_sends_nothing():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    assert oled.show(frame) == 0
    assert bus.log == []


def test_a_changed_pixel_sends_only_its_page():
    bus, panel, oled = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    frame[5 * 128 + 17] ^= 0x10  # pixel (17, 44): page 5, bit 4
    assert oled.show(frame) == 1
    assert len(bus.log) == 2
    assert bus.log[0] == (0x3C, bytes((0x00, 0x21, 0, 127, 0x22, 5, 5)))
    assert bus.log[1][1] == b"\x40" + bytes(frame[640:768])
    assert panel.ram == frame


def test_a_new_frame_object_is_compared_with_what_the_panel_holds():
    bus, panel, oled = setup()
    oled.show(pattern())
    other = pattern()
    other[1023] ^= 0xFF
    assert oled.show(other) == 1
    assert panel.ram == other


def test_a_failed_write_is_retried_on_the_next_show():
    bus, panel, oled = setup()
    frame = pattern()
    del bus.devices[0x3C]  # the panel drops off the bus
    assert oled.show(frame) == 0
    assert oled.errors == 8
    bus.attach(0x3C, panel)
    assert oled.show(frame) == 8
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
    assert oled.show(frame) == 8


def test_a_panel_missing_at_power_on_is_configured_by_a_later_show():
    m.reset()
    bus = m.bus(0)
    oled = Ssd1306(m.I2C(0, scl=m.Pin(5), sda=m.Pin(4)), 0x3C)
    assert oled.errors == 1
    frame = pattern()
    assert oled.show(frame) == 0 and oled.errors == 2
    oled.contrast(0x20)  # counted, not raised: a menu must not crash on a loose wire
    assert oled.errors == 3
    panel = bus.attach(0x3C, Ssd1306Panel())
    assert oled.show(frame) == 8
    assert panel.on and panel.ram == frame and panel.charge_pump
