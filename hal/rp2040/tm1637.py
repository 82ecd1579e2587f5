# Our own TM1637 driver (bit-banged two-wire bus) and a pair of four-digit modules as one display.
#
# The wire (TM1637 datasheet): DIO may change only while CLK is low; the chip samples it on
# the rising edge, least significant bit first. Start: DIO falls while CLK is high; stop: DIO
# rises while CLK is high. After the 8th falling CLK edge the chip pulls DIO low (ACK) until
# the 9th falling edge. DIO is open-drain (1 releases the line to the pull-ups, which the
# modules carry), so the chip's ACK never fights our output.
# One write: [start 0x40 stop] [start 0xC0|pos data... stop] [start 0x88|brightness stop].
# The control command goes out with every write, so a module that lost power comes back lit.
# Four digits: 7 bytes, 63 clocks; ~1.5 ms of the 10 us delays alone, ~2.5 ms with the pin calls.
from micropython import const

_DATA_AUTO = const(0x40)  # data command: write the display registers, address auto-increment
_ADDRESS = const(0xC0)  # address command, | the first grid 0..5
_CONTROL = const(0x80)  # display control, | _ON | brightness 0..7
_ON = const(0x08)
_GRIDS = const(6)
DELAY_US = const(10)  # half a clock period; modules carry RC filters on CLK and DIO


class Tm1637:
    """One TM1637 on injected CLK and DIO machine.Pins; `sleep_us` is time.sleep_us on the board."""

    def __init__(self, clk, dio, sleep_us, brightness=7, delay_us=DELAY_US):
        self._clk = clk
        self._dio = dio
        self._sleep = sleep_us
        self._delay = delay_us
        if not 0 <= brightness <= 7:
            raise ValueError("brightness is 0..7")
        self._level = brightness
        self._on = True
        self.acked = True  # every byte of the last write was acknowledged
        self.naks = 0  # bytes not acknowledged since power-on (a module missing or miswired)
        dio.init(dio.OPEN_DRAIN, dio.PULL_UP, value=1)  # first: rising under a high CLK = stop
        clk.init(clk.OUT, value=1)
        self.write(bytearray(_GRIDS))  # blank: the registers hold noise after power-on

    def _start(self):
        self._dio.value(0)
        self._sleep(self._delay)
        self._clk.value(0)

    def _stop(self):
        self._dio.value(0)
        self._sleep(self._delay)
        self._clk.value(1)
        self._sleep(self._delay)
        self._dio.value(1)
        self._sleep(self._delay)

    def _byte(self, byte):
        clk = self._clk
        dio = self._dio
        sleep = self._sleep
        delay = self._delay
        for bit in range(8):
            dio.value((byte >> bit) & 1)
            sleep(delay)
            clk.value(1)
            sleep(delay)
            clk.value(0)
        dio.value(1)  # let go: the chip pulls low to acknowledge
        sleep(delay)
        clk.value(1)
        sleep(delay)
        if dio.value():
            self.acked = False
            self.naks += 1
        clk.value(0)

    def _command(self, command):
        self._start()
        self._byte(command)
        self._stop()

    def _control(self):
        self._command(_CONTROL | (_ON if self._on else 0) | self._level)

    def brightness(self, level):
        if not 0 <= level <= 7:
            raise ValueError("brightness is 0..7")
        self._level = level
        self.acked = True
        self._control()

    def power(self, on):
        self._on = bool(on)
        self.acked = True
        self._control()

    def write(self, segments, pos=0):
        """Segment bytes (bit 0 = a .. bit 6 = g, bit 7 = dot or colon) to grids pos, pos + 1..."""
        if pos < 0 or pos + len(segments) > _GRIDS:
            raise ValueError("a TM1637 has six grids")
        self.acked = True
        self._command(_DATA_AUTO)
        self._start()
        self._byte(_ADDRESS | pos)
        for byte in segments:
            self._byte(byte)
        self._stop()
        self._control()


class TwoModules:
    """Two four-digit modules as one display: show() takes an 8-byte frame (0..3 the left module,
    4..7 the right) and writes only a module whose four bytes changed."""

    def __init__(self, left, right):
        self.left = left
        self.right = right
        self._held = bytearray(8)
        held = memoryview(self._held)
        self._halves = (held[0:4], held[4:8])
        self._modules = (left, right)
        self._known = False  # False until both modules were written once

    def show(self, frame):
        if len(frame) != 8:
            raise ValueError("a frame is 8 bytes")
        held = self._held
        written = 0
        for half in range(2):
            base = half * 4
            changed = not self._known
            for i in range(base, base + 4):
                if frame[i] != held[i]:
                    held[i] = frame[i]
                    changed = True
            if changed:
                self._modules[half].write(self._halves[half])
                written += 1
        self._known = True
        return written

    def brightness(self, level):
        self.left.brightness(level)
        self.right.brightness(level)

    def power(self, on):
        self.left.power(on)
        self.right.power(on)
