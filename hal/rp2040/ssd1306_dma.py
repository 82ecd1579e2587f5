# SPDX-License-Identifier: MIT
# The SSD1306 / SSD1309 on I2C with its bytes fed by DMA: send() starts the windows and returns,
# so the Python that follows runs while they go out.
#
# The I2C driver (ssd1306.py) waits in machine.I2C.writeto while each byte takes 22.5 us at
# 400 kHz: a lever press's 212 bytes hold the core 4.8 ms. Here the windows are staged as
# IC_DATA_CMD words (RP2040 datasheet 4.3, I2C: the byte in bits 0-7, STOP in bit 9) and one DMA
# channel, paced by the I2C's TX request (DREQ_I2C0_TX 32, DREQ_I2C1_TX 34; IC_DMA_CR.TDMAE set),
# writes them to IC_DATA_CMD: each window is two transactions to the target address that
# machine.I2C left in IC_TAR, its commands and its data, each ended by a STOP. The app sends a
# press's band first and builds the digits while the band is on the bus (app/clock_app.py).
#
# wait() returns when the last byte and its STOP are on the wire; show() is send() and wait().
# Anything else on the bus (init, contrast, power) waits first. A send() stages into the stage
# the DMA is not reading, and starts once the transfer before it is all in the FIFO. A panel
# that does not answer aborts the transaction (IC_RAW_INTR_STAT.TX_ABRT): a failed write, as the
# I2C driver counts and recovers from it (ssd1306.py).
#
# Every wait is bounded by the words under way: POLLS_PER_WORD polls of the channel a word (each
# poll a few us; a word takes 22.5 us at 400 kHz), so a transfer that never ends holds the loop
# about twice its own time on the bus, once. Then the lines say why (i2c_lines.py): one held low
# is the bus's fault, recovered as the I2C driver does (the block made again, its DMA control set
# again); both high, the block raises no DMA request, and the driver falls back for good to the
# I2C driver's blocking writes (`blocking`): the picture comes back, a press waits for its bytes.
# Nothing allocates once made: the register addresses (above 2**30, so not small ints) are kept.
import micropython
from array import array

from micropython import const

from hal.rp2040.ssd1306 import PAGES, WIDTH, Ssd1306, board_i2c, board_lines

try:
    ptr8  # viper's pointers: names only MicroPython's compiler knows
except NameError:
    ptr8 = ptr16 = memoryview  # elsewhere stage_window runs as plain Python

I2C_BASES = (0x40044000, 0x40048000)  # I2C0, I2C1
TX_DREQS = (32, 34)  # DREQ_I2C0_TX, DREQ_I2C1_TX
IC_DATA_CMD = const(0x10)
IC_RAW_INTR_STAT = const(0x34)
IC_CLR_TX_ABRT = const(0x54)  # reading it clears TX_ABRT
IC_STATUS = const(0x70)
IC_DMA_CR = const(0x88)
IC_DMA_TDLR = const(0x8C)
TX_ABRT = const(0x40)
TFE = const(0x04)  # IC_STATUS: the TX FIFO is empty
MST_ACTIVITY = const(0x20)  # IC_STATUS: the master is not idle (a STOP still to go)
TDMAE = const(0x02)
_TX_LEVEL = const(8)  # the DMA request holds while the FIFO has room for 8 more
STOP = const(0x200)
_COLUMNS = const(128)  # the frame's WIDTH, as a constant viper can use
WINDOW_WORDS = const(8)  # per window: 00 21 x0 x1 22 p0 p1, then the data control byte 40
_STAGE_DATA = const(512)  # bytes of display data a stage takes: half the frame
_STAGE_WORDS = const(_STAGE_DATA + 32)  # and the commands of a window, or of 4 pages apart
_WHOLE = bytes((0, WIDTH - 1, 0, PAGES - 1))  # the whole frame as a window (two on the bus)
_ABORTED = OSError(5)  # a transfer the panel did not acknowledge (EIO), as machine.I2C says it
_STOPPED = OSError(110)  # one that did not end (ETIMEDOUT): the block is made again
# A wait gives up after POLLS_PER_WORD polls of the channel for each word under way (at
# 400 kHz; as many more as a slower bus takes), and _POLLS_MORE besides.
POLLS_PER_WORD = const(16)
_POLLS_MORE = const(400)


@micropython.viper
def stage_window(stage: ptr16, at: int, frame: ptr8, x0: int, x1: int, p0: int, p1: int) -> int:
    """Write window x0..x1, p0..p1 of `frame` into `stage` from word `at` as the two I2C
    transactions that show it; return the word after them."""
    stage[at] = 0x00  # control byte: commands follow
    stage[at + 1] = 0x21
    stage[at + 2] = x0
    stage[at + 3] = x1
    stage[at + 4] = 0x22
    stage[at + 5] = p0
    stage[at + 6] = p1 | STOP
    stage[at + 7] = 0x40  # control byte: display data follows
    at += WINDOW_WORDS
    page = p0
    while page <= p1:
        i = page * _COLUMNS + x0
        last = page * _COLUMNS + x1
        while i <= last:
            stage[at] = frame[i]
            at += 1
            i += 1
        page += 1
    stage[at - 1] = stage[at - 1] | STOP
    return at


def window_bytes(x0, x1, p0, p1):
    """Bytes on the bus (address bytes included) that show() spends on window x0..x1, p0..p1."""
    width = x1 - x0 + 1
    pages = p1 - p0 + 1
    step = _STAGE_DATA // width  # pages in one part
    return (pages + step - 1) // step * (WINDOW_WORDS + 2) + width * pages


class Ssd1306Dma(Ssd1306):
    """The Ssd1306 on an injected machine.I2C (bus `i2c_id`), its windows written by an injected
    rp2.DMA channel `dma` through `mem32` (machine.mem32). show(), contrast(), power() and the
    frame as the I2C driver takes them; send() and wait() besides."""

    overlaps = True  # send() returns while the bytes go out (until it falls back: blocking)
    PAGE_WORDS = 0  # a window's commands once; a panel with page addressing: per page

    def __init__(
        self,
        i2c,
        dma,
        mem32,
        i2c_id=0,
        address=0x3C,
        flip=False,
        external_vcc=False,
        lines=None,
        freq=400000,
    ):
        self._dma = dma
        self._mem32 = mem32
        base = I2C_BASES[i2c_id]
        self._data_cmd = base + IC_DATA_CMD
        self._raw_status = base + IC_RAW_INTR_STAT
        self._clear_abort = base + IC_CLR_TX_ABRT
        self._status = base + IC_STATUS
        self._per_word = POLLS_PER_WORD * 400000 // freq
        self.blocking = False  # the block raised no DMA request: the I2C driver's writes
        # Two stages: one is staged while the DMA reads the other, and its transfer starts the
        # moment the other's last word is in the FIFO, so the bus does not pause between them.
        self._stages = (array("H", bytes(2 * _STAGE_WORDS)), array("H", bytes(2 * _STAGE_WORDS)))
        self._words = self._stages[0]  # the stage send() fills next
        self._stager = stage_window  # a function, kept: it writes a window's words
        self._in_flight = 0  # words started and not waited for
        # init() writes: IC_TAR is set
        Ssd1306.__init__(self, i2c, address, flip, external_vcc, lines)
        self._bus_made()
        dma.config(
            read=self._words,
            write=self._data_cmd,
            count=0,
            ctrl=dma.pack_ctrl(size=1, inc_write=False, treq_sel=TX_DREQS[i2c_id], irq_quiet=1),
        )

    def _bus_made(self):
        """The block's DMA control, which a reset of the block clears: the TX request."""
        base = self._data_cmd - IC_DATA_CMD  # made only when the block is: it may allocate
        self._mem32[base + IC_DMA_TDLR] = _TX_LEVEL
        self._mem32[base + IC_DMA_CR] = TDMAE

    def init(self):
        self.wait()
        Ssd1306.init(self)

    def _send(self, count, command, argument=0):
        self.wait()
        Ssd1306._send(self, count, command, argument)

    def show(self, frame, dirty=None):
        """send(), then wait() for its bytes: returns the bytes it put on the bus."""
        sent = self.send(frame, dirty)
        self.wait()
        return sent

    def send(self, frame, dirty=None):
        """Start sending what changed of `frame` (show()'s windows) and return the bytes it will
        put on the bus, before they are out: wait() waits for them. Bytes still going out from
        the send() before are not waited for: these follow them on the bus."""
        if self.blocking:
            return Ssd1306.show(self, frame, dirty)
        if (frame is not self._frame or not self._ready) and not self._begin(frame):
            return 0
        words = self._words
        stage = self._stager
        per_page = self.PAGE_WORDS  # 0: a window's commands once (WINDOW_WORDS), else per page
        at = 0
        sent = 0
        if dirty is None or dirty.whole or not self._known:
            self._known = True
            boxes = _WHOLE
            count = 1
        else:
            boxes = dirty.boxes
            count = dirty.count
        for i in range(0, 4 * count, 4):
            # stage_window checks no bounds on the board: a window is cut to the glass first.
            x0 = boxes[i]
            x1 = boxes[i + 1]
            p0 = boxes[i + 2]
            p1 = boxes[i + 3]
            if x1 >= WIDTH:
                x1 = WIDTH - 1
            if p1 >= PAGES:
                p1 = PAGES - 1
            if x0 > x1:
                continue
            width = x1 - x0 + 1
            while p0 <= p1:  # a window larger than a stage goes as several, some pages each
                last = p0 + _STAGE_DATA // width - 1
                if last > p1:
                    last = p1
                pages = last - p0 + 1
                if per_page:
                    need = pages * (per_page + width)
                else:
                    need = WINDOW_WORDS + width * pages
                if at + need > _STAGE_WORDS:
                    self._start(at)
                    words = self._words
                    at = 0
                at = stage(words, at, frame, x0, x1, p0, last)
                sent += need + (2 * pages if per_page else 2)  # an address byte a transaction
                p0 = last + 1
        if dirty is not None:
            dirty.clear()
        if at:
            self._start(at)
        self.sent += sent
        return sent

    def _start(self, count):
        """Start the transfer of the stage's first `count` words once the one before is all
        in the FIFO; the next send() fills the other stage."""
        dma = self._dma
        if self._in_flight:
            polls = self._per_word * self._in_flight + _POLLS_MORE
            while dma.active() and polls:
                polls -= 1
            if not polls:
                self._give_up()
                return
        words = self._words
        self._words = self._stages[1] if words is self._stages[0] else self._stages[0]
        self._in_flight += count
        dma.config(read=words, count=count, trigger=True)

    def wait(self):
        """Return once what send() started is on the wire, its last STOP included."""
        if not self._in_flight:
            return
        polls = self._per_word * self._in_flight + _POLLS_MORE
        self._in_flight = 0
        dma = self._dma
        mem32 = self._mem32
        while dma.active() and polls:
            polls -= 1
        while mem32[self._status] & (TFE | MST_ACTIVITY) != TFE and polls:
            polls -= 1
        if not polls:
            self._give_up()
        elif mem32[self._raw_status] & TX_ABRT:
            mem32[self._clear_abort]  # the read is what clears it
            self._fail(_ABORTED)

    def _give_up(self):
        """A transfer did not end in its time: it is stopped and counted as a failed write. With
        the bus's lines high the block is not asking for words: the I2C driver's blocking
        writes from now on. The next show() sends the whole frame."""
        self._in_flight = 0
        self._dma.active(0)
        self._mem32[self._clear_abort]
        lines = self._bus_lines()
        if lines is not None and not lines.held():
            self.blocking = True
        self._fail(_STOPPED)


def from_board(machine, board, sleep_us, external_vcc=False):
    """The board's panel on its I2C pins, fed by DMA where the port has rp2.DMA, else the I2C
    driver's (ui/kinds.py: the driver of the "oled" kind on I2C)."""
    i2c = board_i2c(machine, board)
    lines = board_lines(machine, board, sleep_us)
    try:
        from rp2 import DMA
    except ImportError:
        return Ssd1306(i2c, board.OLED_ADDRESS, external_vcc=external_vcc, lines=lines)
    return Ssd1306Dma(
        i2c,
        DMA(),
        machine.mem32,
        board.I2C_ID,
        board.OLED_ADDRESS,
        external_vcc=external_vcc,
        lines=lines,
        freq=board.I2C_FREQ,
    )
