# SPDX-License-Identifier: MIT
# A fake RP2040 `machine` with real state (levels, edges, I2C and SPI devices, PWM, ADC, timers,
# sleeps, VBUS on GP24, IO_BANK0's dormant wake registers through mem32, the microsecond timer
# and the DMA channels' addresses through mem16, interrupts that can be masked, RAM that DMA
# writes into); reset() per test.
import micropython

_MASK = 0x3FFFFFFF


class _State:
    def __init__(self):
        self.lines = {}  # GPIO -> _Line
        self.buses = {}  # I2C id -> Bus
        self.spi_buses = {}  # SPI id -> SpiBus
        self.adc = [0, 0, 0, 0, 0]  # raw u16 per ADC channel (3 is VSYS/3 on a Pico)
        self.pwms = {}  # GPIO -> the last PWM made on it
        self.timers = []
        self.watchdogs = []
        self.timer_accepts_hard = (
            True  # False: Timer.init(hard=...) raises TypeError, as older rp2
        )
        self.idle_calls = 0
        self.idle_hook = None  # called by each idle(): move a clock, fire a timer, drive a pin
        self.idle_limit = 100000  # more idle() calls than this: nothing would ever wake the loop
        self.sleeps = []  # each lightsleep(): its ms, or None (dormant)
        # What a sleep lets happen: sleep_hook(ms) (-1: dormant, no time), else the world's
        # sleep(ms) (a FakeSelect: the clock moves to the stamp or the next scheduled interrupt,
        # which runs), else idle(). A dormant sleep must end with a pin armed in the dormant
        # wake registers changed, as nothing else wakes the chip.
        self.sleep_hook = None
        self.world = None  # the FakeSelect made last, which sets itself here
        self.dormant = False
        self.irqs_in_dormant = True  # False: an edge while dormant reaches no IRQ handler
        self.words = {}  # mem32: word address -> value (the aliases folded in)
        self.us = 0  # the timer's microseconds since boot (64 bits): TIMERAWH, TIMERAWL
        self.masked = False  # interrupts disabled (disable_irq): handlers wait in `pending`
        self.pending = []  # (handler, argument, hard) raised while masked, in order
        self.taken = 0  # of those, how many have run
        self.level_hooks = []  # hook(line) after any GPIO changes level (PIO state machines)
        self.batch = None  # lines that changed while drive_all() sets several at once
        self.dma = []  # fake_rp2.DMA channels, by number
        self.ram = []  # (object, address, bytes, item size) of what addressof() placed


state = _State()

VBUS = 24  # the Pico's VBUS sense (through its own divider): high while USB powers the board
I2C_BASES = (0x40044000, 0x40048000)  # I2C0, I2C1: their registers through mem32
TIMERAWH = 0x40054024
TIMERAWL = 0x40054028
DMA_BASE = 0x50000000  # channel n's registers at + 0x40 n: READ_ADDR, WRITE_ADDR, ...
RAM = 0x20000000
IC_TAR = 0x04  # the target address, which pico-sdk's writes leave set
IC_RAW_INTR_STAT = 0x34
IC_CLR_TX_ABRT = 0x54  # reading it clears TX_ABRT (0x40) in IC_RAW_INTR_STAT
IC_STATUS = 0x70  # 0x04: the TX FIFO is empty and the master idle
TX_ABRT = 0x40
SIO_GPIO_IN = 0xD0000004  # the level of every GPIO, one bit each (RP2040 datasheet 2.3.1.7)
ETIMEDOUT = 110  # rp2's machine.I2C: the transfer's timeout ran out (SCL held low)
EIO = 5  # ... no ACK, or the arbitration lost (SDA held low)
_IO_BANK0 = 0x40014000
_WAKE_INTE0 = _IO_BANK0 + 0x160


def set_vbus(on):
    """USB power present (True) or the board on battery (False)."""
    target = line(VBUS)
    target.external = 1 if on else 0
    target.settle()


class _Mem32:
    """machine.mem32 over peripheral registers: a write to a register's XOR, SET or CLEAR alias
    (+0x1000, +0x2000, +0x3000) changes the register's bits as the RP2040's bus does."""

    def __getitem__(self, address):
        if address == SIO_GPIO_IN:  # every pin's level, whatever drives it
            value = 0
            for gpio, target in state.lines.items():
                value |= target.level << gpio
            return value
        address &= ~0x3000
        value = state.words.get(address, 0)
        for base in I2C_BASES:
            if address == base + IC_CLR_TX_ABRT:
                raw = base + IC_RAW_INTR_STAT
                state.words[raw] = state.words.get(raw, 0) & ~TX_ABRT
        return value

    def __setitem__(self, address, value):
        base = address & ~0x3000
        alias = address >> 12 & 3
        old = state.words.get(base, 0)
        value &= 0xFFFFFFFF
        state.words[base] = (
            (old, old ^ value, old | value, old & ~value)[alias] if alias else value
        )


mem32 = _Mem32()


class _Mem16:
    """machine.mem16 reads: the timer's raw halves, the DMA channels' READ_ADDR and WRITE_ADDR
    (as each channel has them now), else the halves of mem32's words."""

    def __getitem__(self, address):
        word = address & ~3
        if word == TIMERAWL:
            value = state.us & 0xFFFFFFFF
        elif word == TIMERAWH:
            value = state.us >> 32 & 0xFFFFFFFF
        elif DMA_BASE <= word < DMA_BASE + 0x40 * len(state.dma) and word & 0x3F < 8:
            channel = state.dma[(word - DMA_BASE) >> 6]
            value = channel.write if word & 4 else channel.read
        else:
            value = state.words.get(word, 0)
        return value >> 16 if address & 2 else value & 0xFFFF


mem16 = _Mem16()


def ticks_ms():
    """time.ticks_ms() of the timer's microseconds, as rp2 has it (time_us_64() // 1000)."""
    return state.us // 1000 & _MASK


def disable_irq():
    """Mask interrupts: what they raise waits until enable_irq(). Returns the state before."""
    was = state.masked
    state.masked = True
    if state.taken == len(state.pending):
        state.pending = []
        state.taken = 0
    return was


def enable_irq(was=False):
    """Interrupts back as `was` left them; unmasked, the ones raised meanwhile run, in order
    (allocating nothing: a test may hold the heap lock around it)."""
    state.masked = was
    pending = state.pending
    while not state.masked and state.taken < len(pending):
        handler, argument, hard = pending[state.taken]
        state.taken += 1
        _call(handler, argument, hard)


def addressof(thing):
    """uctypes.addressof: where `thing` (a bytearray or an array) lies in the fake RAM. The
    addresses are deliberately not aligned beyond 4 bytes (as the board's heap gives them)."""
    for placed, address, _size, _item in state.ram:
        if placed is thing:
            return address
    size = len(bytes(thing))
    item = size // len(thing) if len(thing) else 1
    address = RAM + 0x10000 * (len(state.ram) + 1) + 0x34
    state.ram.append((thing, address, size, item))
    return address


def ram_write(address, value):
    """A DMA write of the 32-bit `value` at `address`, into what addressof() placed there."""
    for thing, base, size, item in state.ram:
        if base <= address and address + 4 <= base + size:
            at = address - base
            if item == 1:
                for i in range(4):
                    thing[at + i] = value >> 8 * i & 0xFF
            elif item == 2:
                thing[at // 2] = value & 0xFFFF
                thing[at // 2 + 1] = value >> 16 & 0xFFFF
            else:
                thing[at // 4] = value & 0xFFFFFFFF
            return
    raise RuntimeError("DMA write to 0x%08x: nothing placed there" % address)


def drive_all(levels):
    """Drive several lines from outside at the same instant ({GPIO: 0, 1 or None}): a PIO
    state machine sees them change in one sample."""
    state.batch = []
    try:
        for gpio, level in levels.items():
            target = line(gpio)
            target.external = None if level is None else (1 if level else 0)
            target.settle()
    finally:
        changed, state.batch = state.batch, None
    for target in changed:
        for hook in state.level_hooks:
            hook(target)
    for target in changed:
        target.signal()


def _armed(gpio):
    """The dormant wake bits of a GPIO: 1 level low, 2 level high, 4 edge low, 8 edge high."""
    return state.words.get(_WAKE_INTE0 + 4 * (gpio >> 3), 0) >> 4 * (gpio & 7) & 15


def _sleep(most):
    if state.sleep_hook is not None:
        state.sleep_hook(most)
    elif state.world is not None:
        state.world.sleep(most)
    else:
        idle()


def lightsleep(ms=None):
    state.sleeps.append(ms)
    if ms is not None:
        _sleep(ms)
        return
    levels = {gpio: target.level for gpio, target in state.lines.items()}
    state.dormant = True
    try:
        _sleep(-1)
    finally:
        state.dormant = False
    for gpio, target in state.lines.items():
        was = levels.get(gpio, target.level)
        if was == target.level:
            continue
        if _armed(gpio) & ((8 | 2) if target.level else (4 | 1)):
            return
    raise RuntimeError("dormant: no armed pin changed; the chip would sleep for ever")


def reset():
    global state
    state = _State()


def line(gpio):
    lines = state.lines
    if gpio not in lines:
        lines[gpio] = _Line(gpio)
    return lines[gpio]


def bus(i2c_id):
    if i2c_id not in state.buses:
        state.buses[i2c_id] = Bus()
    return state.buses[i2c_id]


def spi_bus(spi_id):
    if spi_id not in state.spi_buses:
        state.spi_buses[spi_id] = SpiBus()
    return state.spi_buses[spi_id]


def set_adc(channel, raw):
    if not 0 <= raw <= 0xFFFF:
        raise ValueError("raw ADC reading is 16 bits")
    state.adc[channel] = raw


def idle():
    state.idle_calls += 1
    if state.idle_calls > state.idle_limit:
        raise RuntimeError("idle() forever: nothing wakes the loop")
    hook = state.idle_hook
    if hook is not None:
        hook()


def _call(handler, arg, hard):
    # A hard IRQ may not allocate: run the handler with the heap locked (a no-op on CPython).
    if state.masked:
        state.pending.append((handler, arg, hard))
        return
    if hard:
        micropython.heap_lock()
    try:
        handler(arg)
    finally:
        if hard:
            micropython.heap_unlock()


class _Line:
    """One GPIO: output latch, what the outside drives (None: nothing), and the level they make."""

    def __init__(self, gpio):
        self.gpio = gpio
        self.mode = None  # None until configured; Pin.IN, Pin.OUT or Pin.OPEN_DRAIN
        self.pull = None
        self.latch = 0
        self.external = None
        self.handler = None
        self.trigger = 0
        self.hard = False
        self.irq_pin = None
        self.listeners = []  # device models: listener(line) after each level change
        self.contention = 0  # times the outside drove against our output
        self.writes = 0  # Pin.value(level) calls: what a driver sent, changed or not
        self.level = 0
        self.settle()

    def settle(self):
        external = self.external
        if self.mode == Pin.OUT:
            if external is not None and external != self.latch:
                self.contention += 1
            level = self.latch
        elif self.mode == Pin.OPEN_DRAIN:
            level = 0 if self.latch == 0 or external == 0 else 1
        elif external is not None:
            level = external
        else:
            level = 1 if self.pull == Pin.PULL_UP else 0
        if level == self.level:
            return
        self.level = level
        if state.batch is not None:
            state.batch.append(self)
            return
        for hook in state.level_hooks:  # a PIO samples in nanoseconds, before any IRQ runs
            hook(self)
        self.signal()

    def signal(self):
        """The level's edge interrupt and the device models that follow the line."""
        level = self.level
        edge = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
        reaches = not state.dormant or state.irqs_in_dormant
        if self.handler is not None and self.trigger & edge and reaches:
            _call(self.handler, self.irq_pin, self.hard)
        for listener in self.listeners:
            listener(self)


class _Irq:
    def __init__(self, line):
        self._line = line

    def trigger(self):
        return self._line.trigger


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        if not isinstance(id, int) or not 0 <= id <= 29:
            raise ValueError("invalid pin")
        self.id = id
        self._line = line(id)
        if mode != -1 or pull != -1 or value is not None:
            self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        target = self._line
        if mode != -1:
            if mode not in (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN):
                raise ValueError("invalid pin mode")
            target.mode = mode
        if pull != -1:
            if pull not in (None, Pin.PULL_UP, Pin.PULL_DOWN):
                raise ValueError("invalid pull")
            target.pull = pull
        if value is not None:
            target.latch = 1 if value else 0
        target.settle()

    def value(self, level=None):
        target = self._line
        if level is None:
            return target.level
        target.writes += 1
        target.latch = 1 if level else 0  # on an input this sets the latch only, as on rp2
        target.settle()

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        target = self._line
        # Stricter than rp2: an interrupt on an output pin is a wiring mistake here.
        if target.mode not in (Pin.IN, Pin.OPEN_DRAIN):
            raise ValueError("irq on a pin that is not an input")
        if trigger == 0 or trigger & ~(Pin.IRQ_FALLING | Pin.IRQ_RISING):
            raise ValueError("invalid trigger")
        target.handler = handler
        target.trigger = trigger if handler is not None else 0
        target.hard = bool(hard)
        target.irq_pin = self
        return _Irq(target)

    # Test side: what the world outside the chip does to the line.
    def drive(self, level):
        """Drive the line from outside (0 or 1; None lets it float to its pull)."""
        target = self._line
        target.external = None if level is None else (1 if level else 0)
        target.settle()


class Bus:
    """One I2C bus: its devices by address, a log of (address, bytes) per transaction, and its
    two lines (the GPIOs the last machine.I2C took). A line held low stops every transfer as the
    RP2040's I2C block meets it: SCL held, the master waits for it until the transfer's timeout
    (OSError ETIMEDOUT, `timeouts`); SDA held, it loses the arbitration (OSError EIO)."""

    def __init__(self):
        self.devices = {}
        self.log = []  # None: record nothing (for heap-locked runs)
        self.bytes = 0  # bytes on the wire, address bytes included
        self.freq = 0
        self.timeout = 0  # us: machine.I2C's timeout
        self.inits = 0  # machine.I2C made on this bus (each resets the block)
        self.timeouts = 0  # transfers that waited their whole timeout for SCL
        self.sda = self.scl = None  # the lines, once a machine.I2C took them

    def attach(self, address, device):
        self.devices[address] = device
        return device

    def _device(self, address):
        if self.scl is not None and self.scl.level == 0:
            self.timeouts += 1
            raise OSError(ETIMEDOUT)
        if self.sda is not None and self.sda.level == 0:
            raise OSError(EIO)  # the arbitration lost at the first 1 of the address
        device = self.devices.get(address)
        if device is None:
            raise OSError(EIO)  # no ACK, as rp2 reports it
        return device

    def held(self):
        """Whether a line of the bus is low while no transfer runs (each transfer ends with both
        high): 1 SDA, 2 SCL."""
        return (self.sda is not None and self.sda.level == 0) | 2 * (
            self.scl is not None and self.scl.level == 0
        )


class StuckDevice:
    """A device that holds a line low from outside: for good (`release()` lets go), or, given
    `clocks`, SDA until it has seen that many rising edges on SCL (a device cut off halfway
    through a byte, which the I2C specification's bus clear frees)."""

    def __init__(self, gpio, scl_gpio=None, clocks=0):
        self.line = line(gpio)
        self.clocks = clocks
        self.seen = 0  # rising edges of SCL while holding
        self._scl_was = 1
        if scl_gpio is not None and clocks:
            scl = line(scl_gpio)
            self._scl_was = scl.level
            scl.listeners.append(self._scl_changed)
        self.line.external = 0
        self.line.settle()

    def _scl_changed(self, scl):
        rising = scl.level == 1 and self._scl_was == 0
        self._scl_was = scl.level
        if rising and self.line.external == 0:
            self.seen += 1
            if self.seen >= self.clocks:
                self.release()

    def release(self):
        self.line.external = None
        self.line.settle()


def _gpio(pin):
    return pin.id if isinstance(pin, Pin) else pin


class I2C:
    def __init__(self, id, *, scl, sda, freq=400000, timeout=50000):
        if id not in (0, 1):
            raise ValueError("I2C doesn't exist")
        # RP2040: GPIO n carries I2C((n >> 1) & 1), SDA on even n, SCL on odd n.
        for pin, odd, name in ((sda, 0, "SDA"), (scl, 1, "SCL")):
            gpio = pin.id if isinstance(pin, Pin) else pin
            if gpio & 1 != odd or (gpio >> 1) & 1 != id:
                raise ValueError("bad %s pin" % name)
        if not 0 < freq <= 1000000:
            raise ValueError("freq out of range")
        self.bus = bus(id)
        self.bus.freq = freq
        self.bus.timeout = timeout
        self.bus.inits += 1
        self._base = I2C_BASES[id]
        # As rp2's i2c_init: the block reset (its DMA control too), the pins its own, pulled up.
        for gpio, name in ((_gpio(sda), "sda"), (_gpio(scl), "scl")):
            target = line(gpio)
            target.mode = None
            target.pull = Pin.PULL_UP
            target.settle()
            setattr(self.bus, name, target)
        state.words[self._base + IC_STATUS] = 0x04
        state.words[self._base + 0x88] = 0  # IC_DMA_CR
        state.words[self._base + IC_RAW_INTR_STAT] = 0

    def writeto(self, addr, buf, stop=True):
        state.words[self._base + IC_TAR] = addr
        bus = self.bus
        device = bus._device(addr)
        device.begin()
        device.receive(buf)
        device.end()
        bus.bytes += 1 + len(buf)
        if bus.log is not None:
            bus.log.append((addr, bytes(buf)))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        state.words[self._base + IC_TAR] = addr
        bus = self.bus
        device = bus._device(addr)
        device.begin()
        count = 0
        for part in vector:
            device.receive(part)
            count += len(part)
        device.end()
        bus.bytes += 1 + count
        if bus.log is not None:
            bus.log.append((addr, b"".join([bytes(part) for part in vector])))
        return count

    def scan(self):
        return sorted(self.bus.devices)


class SpiBus:
    """One SPI block's wires: its devices, each with its D/C and CS lines, and a log of (D/C level,
    bytes) per write."""

    def __init__(self):
        self.devices = []  # (device, D/C line, CS line)
        self.log = []  # None: record nothing (for heap-locked runs)
        self.bytes = 0  # bytes clocked out
        self.baudrate = 0

    def attach(self, device, dc, cs):
        """`device` takes spi_receive(buf, dc_level) while GPIO `cs` is low."""
        self.devices.append((device, line(dc), line(cs)))
        return device


class SPI:
    MSB = 0
    LSB = 1

    def __init__(
        self, id, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=0, sck, mosi, miso=-1
    ):
        if id not in (0, 1):
            raise ValueError("SPI(%d) doesn't exist" % id)
        # RP2040: GPIO n carries SPI((n >> 3) & 1); of each four, RX, CSn, SCK, TX.
        for pin, role, name in ((sck, 2, "SCK"), (mosi, 3, "MOSI"), (miso, 0, "MISO")):
            if pin is None:
                continue
            if pin == -1:  # stricter than rp2, which would take SPIn's default MISO pin
                raise ValueError("miso not given: rp2 takes the block's default MISO pin")
            gpio = pin.id if isinstance(pin, Pin) else pin
            if gpio % 4 != role or (gpio >> 3) & 1 != id:
                raise ValueError("bad %s pin" % name)
        if bits != 8 or firstbit != SPI.MSB or not 0 < baudrate <= 62500000:
            raise ValueError("bad SPI settings")
        self.bus = spi_bus(id)
        self.bus.baudrate = baudrate
        self.bus.inits = 0  # init(baudrate=...) calls after construction
        self.mode = (polarity, phase)

    def init(self, *, baudrate):
        if not 0 < baudrate <= 62500000:
            raise ValueError("bad SPI settings")
        self.bus.baudrate = baudrate
        self.bus.inits += 1

    def write(self, buf):
        bus = self.bus
        for device, dc, cs in bus.devices:
            if cs.level == 0:
                device.spi_receive(buf, dc.level)
        bus.bytes += len(buf)
        if bus.log is not None:
            bus.log.append((bus.devices[0][1].level if bus.devices else 0, bytes(buf)))


class PWM:
    def __init__(self, dest, *, freq=None, duty_u16=None):
        self.gpio = dest.id if isinstance(dest, Pin) else dest
        self._freq = 0
        self._duty = 0
        self.freq_set = False
        self.duty_set = False
        self.enabled = False  # what the slice does: set by freq and duty, cleared by deinit()
        state.pwms[self.gpio] = self
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if value < 8:
            raise ValueError("freq too small")
        if value > 62500000:
            raise ValueError("freq too large")
        self._freq = value
        self.freq_set = True
        self._start()

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        if not 0 <= value <= 65535:
            raise ValueError("duty_u16 must be from 0 to 65535")
        self._duty = value
        self.duty_set = True
        self._start()

    def _start(self):
        # rp2 starts (or restarts after deinit) the slice once both freq and duty are set.
        if self.freq_set and self.duty_set:
            self.enabled = True

    def deinit(self):
        self.enabled = False


class ADC:
    CORE_TEMP = 4

    def __init__(self, source):
        gpio = source.id if isinstance(source, Pin) else source
        if isinstance(source, Pin) and not 26 <= gpio <= 29:
            raise ValueError("Pin doesn't have ADC capabilities")
        if 26 <= gpio <= 29:
            self.channel = gpio - 26
        elif 0 <= gpio <= 4:
            self.channel = gpio
        else:
            raise ValueError("invalid ADC channel")

    def read_u16(self):
        return state.adc[self.channel]


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, **kwargs):
        if id != -1:
            raise ValueError("Timer doesn't exist")  # rp2 has virtual timers only
        self.running = False
        self.mode = self.freq = self.period = self.callback = None
        self.hard = False
        self.inits = 0
        state.timers.append(self)
        if kwargs:
            self.init(**kwargs)

    def init(self, *, mode=PERIODIC, callback=None, period=-1, tick_hz=1000, freq=None, hard=None):
        if hard is not None and not state.timer_accepts_hard:
            raise TypeError("unexpected keyword argument 'hard'")
        if mode not in (Timer.ONE_SHOT, Timer.PERIODIC):
            raise ValueError("invalid mode")
        if freq is None and period < 0:
            raise ValueError("freq or period needed")
        self.mode, self.callback, self.freq, self.period = mode, callback, freq, period
        self.hard = bool(hard)
        self.running = True
        self.inits += 1

    def deinit(self):
        self.running = False

    def fire(self):
        """Test side: the timer expires once."""
        if not self.running:
            raise RuntimeError("timer not running")
        if self.mode == Timer.ONE_SHOT:
            self.running = False
        if self.callback is not None:
            _call(self.callback, self, self.hard)


class WDT:
    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT doesn't exist")
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout exceeds 8388")  # the RP2040 watchdog's longest, in ms
        self.timeout = timeout
        self.feeds = 0
        state.watchdogs.append(self)

    def feed(self):
        self.feeds += 1


class Clock:
    """A ticks_ms the test moves (wrapping at 2**30, as on the board), and a sleep_us that counts."""

    def __init__(self, ms=0):
        self.ms = ms & _MASK
        self.slept_us = 0

    def ticks_ms(self):
        return self.ms

    def advance(self, ms):
        self.ms = (self.ms + ms) & _MASK

    def sleep_us(self, us):
        self.slept_us += us
