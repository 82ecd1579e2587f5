# SPDX-License-Identifier: MIT
# The SSD1306 driver whose windows a DMA channel writes to IC_DATA_CMD, against the panel model:
# the glass shows the frame, send() returns before the bytes are out, and wait() waits for them.
from fake_devices import Ssd1306Panel, Ssd1309Panel
from fakes import fake_machine as m
from fakes.fake_rp2 import DMA
from hal.rp2040 import ssd1306_dma
from hal.rp2040.ssd1306_dma import Ssd1306Dma
from support import raises
from test_hal_ssd1306 import Windows, pattern


def setup(i2c_id=0, panel=None, external_vcc=False):
    m.reset()
    bus = m.bus(i2c_id)
    panel = bus.attach(0x3C, panel or Ssd1306Panel())
    pins = ((5, 4), (7, 6))[i2c_id]
    i2c = m.I2C(i2c_id, scl=m.Pin(pins[0]), sda=m.Pin(pins[1]), freq=400000)
    dma = DMA()
    oled = Ssd1306Dma(i2c, dma, m.mem32, i2c_id, 0x3C, external_vcc=external_vcc)
    bus.log = []
    bus.bytes = 0
    return bus, panel, oled, dma


def test_the_power_on_goes_by_machine_i2c_and_the_channel_is_set_for_the_tx_request():
    bus, panel, oled, dma = setup()
    assert panel.on and panel.charge_pump and panel.mode == 0 and panel.contrast == 0xCF
    assert m.state.words[0x40044000 + 0x88] == 2  # IC_DMA_CR: TDMAE
    assert dma.write == 0x40044010 and dma.ctrl >> 15 & 0x3F == 32  # IC_DATA_CMD, DREQ_I2C0_TX
    assert dma.ctrl >> 2 & 3 == 1 and not dma.ctrl & 1 << 5  # 16-bit words, one address
    bus1, _panel, _oled, dma1 = setup(1)
    assert dma1.write == 0x40048010 and dma1.ctrl >> 15 & 0x3F == 34
    assert m.state.words[0x40048000 + 0x88] == 2


def test_the_first_show_sends_the_whole_frame_as_two_windows_of_four_pages():
    bus, panel, oled, dma = setup()
    frame = pattern()
    assert oled.show(frame, Windows((0, 3, 0, 0))) == 2 * (8 + 2 + 512)
    assert panel.visible() == frame
    assert bus.bytes == 2 * (8 + 2 + 512) == ssd1306_dma.window_bytes(0, 127, 0, 7)
    assert bus.log[0] == (0x3C, bytes((0x00, 0x21, 0, 127, 0x22, 0, 3)))
    assert bus.log[1] == (0x3C, b"\x40" + bytes(frame[:512]))
    assert bus.log[2] == (0x3C, bytes((0x00, 0x21, 0, 127, 0x22, 4, 7)))
    assert bus.log[3] == (0x3C, b"\x40" + bytes(frame[512:]))


def test_windows_go_out_in_one_transfer_two_transactions_each():
    bus, panel, oled, dma = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    bus.bytes = 0
    started = dma.started
    for x in range(20, 32):
        for page in range(1, 5):
            frame[page * 128 + x] ^= 0xFF
    frame[126] ^= 1
    windows = Windows((20, 31, 1, 4), (126, 126, 0, 0))
    sent = oled.show(frame, windows)
    assert sent == (8 + 2 + 12 * 4) + (8 + 2 + 1) == bus.bytes
    assert sent == ssd1306_dma.window_bytes(20, 31, 1, 4) + ssd1306_dma.window_bytes(
        126, 126, 0, 0
    )
    assert windows.count == 0 and dma.started == started + 1
    rows = b"".join(bytes(frame[p * 128 + 20 : p * 128 + 32]) for p in range(1, 5))
    assert bus.log == [
        (0x3C, bytes((0x00, 0x21, 20, 31, 0x22, 1, 4))),
        (0x3C, b"\x40" + rows),
        (0x3C, bytes((0x00, 0x21, 126, 126, 0x22, 0, 0))),
        (0x3C, b"\x40" + bytes(frame[126:127])),
    ]
    assert panel.visible() == frame


def test_send_returns_before_the_bytes_are_out_and_the_next_follows_them_from_its_own_stage():
    bus, panel, oled, dma = setup()
    frame = pattern()
    oled.show(frame)
    dma.polls = 50
    frame[300] ^= 0xFF
    oled.send(frame, Windows((44, 44, 2, 2)))
    assert dma.active() and panel.ram[300] != frame[300]  # under way: not on the glass yet
    frame[301] ^= 0xFF
    oled.send(frame, Windows((45, 45, 2, 2)))  # staged aside, started once the first is out
    assert panel.ram[300] == frame[300] and panel.ram[301] != frame[301]
    frame[302] ^= 0xFF
    oled.send(frame, Windows((46, 46, 2, 2)))  # back in the first stage, whose bytes are out
    oled.wait()
    assert not dma.active() and panel.visible() == frame
    oled.show(frame, Windows())  # nothing to send: waits, sends nothing
    assert dma.started == 2 + 3  # the whole frame in two, then three windows


def test_contrast_and_power_wait_for_the_bytes_under_way():
    bus, panel, oled, dma = setup()
    frame = pattern()
    oled.show(frame)
    dma.polls = 50
    frame[0] ^= 0xFF
    oled.send(frame, Windows((0, 0, 0, 0)))
    oled.contrast(0x10)
    assert panel.ram[0] == frame[0] and panel.contrast == 0x10
    oled.power(False)
    assert not panel.on


def test_a_panel_that_does_not_answer_is_counted_and_sent_whole_next_time():
    bus, panel, oled, dma = setup()
    frame = pattern()
    oled.show(frame)
    del bus.devices[0x3C]
    frame[5] ^= 0xFF
    oled.show(frame, Windows((5, 5, 0, 0)))
    assert oled.errors == 1
    assert not m.state.words[0x40044000 + 0x34] & 0x40  # TX_ABRT read, so cleared
    bus.attach(0x3C, panel)
    bus.bytes = 0
    assert oled.show(frame, Windows((5, 5, 0, 0))) == 2 * (8 + 2 + 512)
    assert panel.visible() == frame


def test_a_channel_that_never_ends_is_given_up_not_waited_for_for_ever():
    bus, panel, oled, dma = setup()
    frame = pattern()
    oled.show(frame)
    m.state.words[0x40044000 + 0x88] = 0  # no TX request: the channel waits for ever
    frame[5] ^= 0xFF
    oled.show(frame, Windows((5, 5, 0, 0)))
    assert dma.aborted == 1 and oled.errors == 1
    m.state.words[0x40044000 + 0x88] = 2
    oled.show(frame, Windows((5, 5, 0, 0)))
    assert panel.visible() == frame


def test_windows_past_the_glass_are_cut_and_overlapping_ones_past_a_frame_go_in_parts():
    bus, panel, oled, dma = setup()
    frame = pattern()
    oled.show(frame)
    bus.log = []
    frame[7 * 128 + 127] ^= 0x81
    assert oled.show(frame, Windows((120, 250, 6, 30), (130, 140, 1, 1))) == 8 + 2 + 8 * 2
    assert bus.log[0][1] == bytes((0x00, 0x21, 120, 127, 0x22, 6, 7))
    started = dma.started
    frame[0] ^= 0xFF
    sent = oled.show(frame, Windows((0, 127, 0, 7), (0, 127, 0, 3)))  # 1,536 bytes of data
    assert sent == 3 * (10 + 512) and dma.started == started + 3  # a stage holds 512 bytes
    assert panel.visible() == frame


def test_an_ssd1309_on_dma_is_set_up_for_its_external_vcc():
    bus, panel, oled, dma = setup(panel=Ssd1309Panel(), external_vcc=True)
    frame = pattern()
    oled.show(frame)
    assert panel.on and panel.visible() == frame


def test_bad_frames_are_refused():
    bus, panel, oled, dma = setup()
    raises(ValueError, oled.show, bytearray(100))
    raises(ValueError, oled.send, bytearray(1025))


def test_the_board_gets_the_dma_driver_where_the_port_has_rp2_dma():
    import sys

    from fakes import fake_rp2

    class Board:
        I2C_ID = 0
        I2C_SDA = 4
        I2C_SCL = 5
        I2C_FREQ = 400000
        OLED_ADDRESS = 0x3C

    m.reset()
    m.bus(0).attach(0x3C, Ssd1306Panel())
    saved = sys.modules.get("rp2")
    sys.modules["rp2"] = fake_rp2
    try:
        assert type(ssd1306_dma.from_board(m, Board, None)) is Ssd1306Dma
    finally:
        if saved is None:
            del sys.modules["rp2"]
        else:
            sys.modules["rp2"] = saved
    if saved is None:  # the unix port and CPython have no rp2: the waiting I2C driver
        assert type(ssd1306_dma.from_board(m, Board, None)).__name__ == "Ssd1306"
