# SPDX-License-Identifier: MIT
# The fake rp2 module's PIO: asm_pio assembles the program as rp2's does, and a StateMachine runs it.
#
# asm_pio(**options) turns a function written in rp2's PIO language into rp2's program list
# (the instruction words, offsets, EXECCTRL with the wrap, SHIFTCTRL, pins), the encodings of
# the RP2040 datasheet (3.4, the instruction set). A StateMachine runs those words on the fake
# machine's GPIO levels: JMP (every condition), WAIT (gpio, pin), IN, OUT, PUSH, PULL, MOV (with
# invert and reverse), IRQ (sets or clears the block's flags), SET, an RX FIFO of 4 words and a
# TX FIFO of 4. Time does not pass in it: whenever a GPIO changes level (and when it starts) it
# runs until its state comes back to one it had with nothing pushed in between, which is where
# a polling program waits for the next change; what it pushes goes to the DMA channels paced
# by its RX request at once (fake_rp2.DMA).
from array import array

from fakes import fake_machine as m

SHIFT_LEFT = 0
SHIFT_RIGHT = 1
JOIN_NONE = 0
JOIN_TX = 1
JOIN_RX = 2
_STEPS_MOST = 10000  # a program that never settles is a test's mistake, not a wait

_NAMES = {
    "gpio": 0,
    "pins": 0,
    "x": 1,
    "y": 2,
    "null": 3,
    "pindirs": 4,
    "pc": 5,
    "status": 5,
    "isr": 6,
    "osr": 7,
    "exec": 8,
    "not_x": 1,
    "x_dec": 2,
    "not_y": 3,
    "y_dec": 4,
    "x_not_y": 5,
    "pin": 6,
    "not_osre": 7,
    "noblock": 0x01,
    "block": 0x21,
    "iffull": 0x40,
    "ifempty": 0x40,
    "clear": 0x40,
}


class _Assembler:
    def __init__(
        self,
        in_shiftdir=SHIFT_LEFT,
        out_shiftdir=SHIFT_LEFT,
        autopush=False,
        autopull=False,
        push_thresh=32,
        pull_thresh=32,
        fifo_join=JOIN_NONE,
        **_pins,
    ):
        shiftctrl = fifo_join << 30 | (pull_thresh & 31) << 25 | (push_thresh & 31) << 20
        shiftctrl |= out_shiftdir << 19 | in_shiftdir << 18 | autopull << 17 | autopush << 16
        self.words = array("H")
        self.labels = {}
        self.execctrl = 0
        self.shiftctrl = shiftctrl
        self.wrapped = False
        self.final = False

    def word(self, value, label=None):
        if self.final:
            self.words.append(value | (self.labels[label] if label is not None else 0))
        else:
            self.words.append(0)
        return self

    def label(self, name):
        if not self.final:
            self.labels[name] = len(self.words)

    def wrap_target(self):
        if self.final:
            self.execctrl |= len(self.words) << 7

    def wrap(self):
        if self.final:
            self.execctrl |= (len(self.words) - 1) << 12
        self.wrapped = True

    def jmp(self, cond, label=None):
        if label is None:
            cond, label = 0, cond
        return self.word(cond << 5, label)

    def wait(self, polarity, source, index):
        source = 1 if source == 6 else (0 if source == 0 else 2)
        return self.word(0x2000 | polarity << 7 | source << 5 | index)

    def in_(self, source, bits):
        return self.word(0x4000 | source << 5 | bits & 31)

    def out(self, dest, bits):
        return self.word(0x6000 | (7 if dest == 8 else dest) << 5 | bits & 31)

    def push(self, first=0, second=0):
        value = first | second
        if not value & 1:
            value |= 0x20  # blocking unless noblock
        return self.word(0x8000 | value & 0x60)

    def pull(self, first=0, second=0):
        value = first | second
        if not value & 1:
            value |= 0x20
        return self.word(0x8080 | value & 0x60)

    def mov(self, dest, source):
        return self.word(0xA000 | (4 if dest == 8 else dest) << 5 | source)

    def irq(self, mod, index=None):
        if index is None:
            mod, index = 0, mod
        return self.word(0xC000 | mod & 0x60 | index)

    def set(self, dest, data):
        return self.word(0xE000 | dest << 5 | data)

    def nop(self):
        return self.word(0xA042)


def asm_pio(**options):
    """rp2.asm_pio: the decorated function's names (mov, x, ...) are the PIO language's while it
    runs (its module's globals are swapped for them, twice: labels, then words)."""
    assembler = _Assembler(**options)

    def assemble(function):
        space = function.__globals__
        saved = dict(space)
        space.clear()
        try:
            space.update(_NAMES)
            space["invert"] = lambda source: source | 0x08
            space["reverse"] = lambda source: source | 0x10
            space["rel"] = lambda index: index | 0x10
            for name in (
                "word",
                "label",
                "wrap_target",
                "wrap",
                "jmp",
                "wait",
                "in_",
                "out",
                "push",
                "pull",
                "mov",
                "irq",
                "set",
                "nop",
            ):
                space[name] = getattr(assembler, name)
            function()
            if not assembler.wrapped:
                assembler.wrap()
            assembler.final = True
            assembler.words = array("H")
            assembler.wrapped = False
            function()
            if not assembler.wrapped:
                assembler.wrap()
        finally:
            space.clear()
            space.update(saved)
        return [
            assembler.words,
            -1,
            -1,
            -1,
            assembler.execctrl,
            assembler.shiftctrl,
            None,
            None,
            None,
        ]

    return assemble


class PIO:
    SHIFT_LEFT = SHIFT_LEFT
    SHIFT_RIGHT = SHIFT_RIGHT
    JOIN_NONE = JOIN_NONE
    JOIN_TX = JOIN_TX
    JOIN_RX = JOIN_RX
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    IRQ_SM0 = 0x100

    def __init__(self, block):
        self.block = block


def _reverse(value):
    out = 0
    for _ in range(32):
        out = out << 1 | value & 1
        value >>= 1
    return out


class StateMachine:
    """rp2.StateMachine(id, program, freq, in_base=...) on the fake machine's GPIOs."""

    RX_DEPTH = 4

    def __init__(self, id, program=None, freq=-1, *, in_base=None, **_options):
        if not 0 <= id < 8:
            raise ValueError("invalid StateMachine")
        self.id = id
        machines = _machines()
        if id in machines and machines[id] is not self and machines[id].program is not None:
            machines[id].active(0)
        machines[id] = self
        self.running = False
        self.program = None
        if program is not None:
            self.init(program, freq, in_base=in_base)

    def init(self, program, freq=-1, *, in_base=None, **_options):
        self.program = list(program[0])
        execctrl = program[4]
        self.wrap_top = execctrl >> 12 & 31
        self.wrap_bottom = execctrl >> 7 & 31
        self.shiftctrl = program[5]
        self.in_base = 0 if in_base is None else in_base.id
        self.rx = []
        self.tx = []
        self.pc = 0
        self.x = self.y = 0
        self.isr = self.isr_count = 0
        self.osr = 0
        self.osr_count = 32
        self.stalls = 0  # pushes dropped on a full RX FIFO (FDEBUG RXSTALL)
        self.steps = 0

    @property
    def rx_dreq(self):
        return 4 + 8 * (self.id // 4) + self.id % 4

    def active(self, value=None):
        if value is None:
            return self.running
        self.running = bool(value)
        hooks = m.state.level_hooks
        if self.running:
            if self._sample not in hooks:
                hooks.append(self._sample)
            self.settle()
        elif self._sample in hooks:
            hooks.remove(self._sample)
        return self.running

    def rx_fifo(self):
        return len(self.rx)

    def get(self):
        return self.rx.pop(0)

    def pull_rx(self):
        """A DMA read of RXF: the oldest word (0 when empty, as the block reads it)."""
        return self.rx.pop(0) if self.rx else 0

    def _sample(self, _line):
        self.settle()

    def _pins(self):
        value = 0
        for bit in range(32):
            gpio = (self.in_base + bit) % 32
            if gpio < 30 and m.line(gpio).level:
                value |= 1 << bit
        return value

    def _state(self):
        return (self.pc, self.x, self.y, self.isr, self.isr_count, self.osr, self.osr_count)

    def settle(self):
        """Run until the state comes back to one seen since the last push: the machine then loops
        with nothing to do until a level changes."""
        seen = set()
        for _ in range(_STEPS_MOST):
            state = self._state()
            if state in seen:
                return
            seen.add(state)
            if self._step():
                seen = set()
        raise RuntimeError("the PIO program did not settle in %d steps" % _STEPS_MOST)

    def _source(self, code):
        return (self._pins(), self.x, self.y, 0, 0, 0, self.isr, self.osr)[code]

    def _shift_in(self, value, bits):
        value &= (1 << bits) - 1 if bits < 32 else 0xFFFFFFFF
        if self.shiftctrl >> 18 & 1:  # right
            self.isr = (self.isr >> bits | value << (32 - bits)) & 0xFFFFFFFF
        else:
            self.isr = (self.isr << bits | value) & 0xFFFFFFFF
        self.isr_count = min(self.isr_count + bits, 32)

    def _push(self):
        """Push the ISR (no blocking); whether a word left the machine."""
        pushed = len(self.rx) < self.RX_DEPTH
        if pushed:
            self.rx.append(self.isr)
        else:
            self.stalls += 1
        self.isr = self.isr_count = 0
        if pushed:
            from fakes import fake_rp2

            fake_rp2.requested(self.rx_dreq)
        return pushed

    def _step(self):
        """One instruction; whether it did something outside the machine (a push)."""
        self.steps += 1
        op = self.program[self.pc]
        kind = op >> 13
        arg = op & 0xFF
        follow = True
        outside = False
        if kind == 0:  # JMP
            cond = arg >> 5
            take = True
            if cond == 1:
                take = self.x == 0
            elif cond == 2:
                take = self.x != 0
                self.x = (self.x - 1) & 0xFFFFFFFF
            elif cond == 3:
                take = self.y == 0
            elif cond == 4:
                take = self.y != 0
                self.y = (self.y - 1) & 0xFFFFFFFF
            elif cond == 5:
                take = self.x != self.y
            elif cond == 6:
                raise NotImplementedError("jmp pin: no EXECCTRL.JMP_PIN here")
            elif cond == 7:
                take = self.osr_count < 32
            if take:
                self.pc = arg & 31
                follow = False
        elif kind == 1:  # WAIT
            polarity = arg >> 7
            source = arg >> 5 & 3
            index = arg & 31
            gpio = index if source == 0 else (self.in_base + index) % 32
            if source == 2:
                raise NotImplementedError("wait irq")
            if m.line(gpio).level != polarity:
                return False  # stays on this instruction
        elif kind == 2:  # IN
            bits = arg & 31 or 32
            self._shift_in(self._source(arg >> 5), bits)
        elif kind == 3:  # OUT
            raise NotImplementedError("out")
        elif kind == 4:  # PUSH / PULL
            if arg & 0x80:
                if self.tx:
                    self.osr = self.tx.pop(0)
                else:
                    self.osr = self.x
                self.osr_count = 0
            else:
                outside = self._push()
        elif kind == 5:  # MOV
            value = self._source(arg & 7)
            operation = arg >> 3 & 3
            if operation == 1:
                value = ~value & 0xFFFFFFFF
            elif operation == 2:
                value = _reverse(value)
            dest = arg >> 5 & 7
            if dest == 1:
                self.x = value
            elif dest == 2:
                self.y = value
            elif dest == 6:
                self.isr = value
                self.isr_count = 0
            elif dest == 7:
                self.osr = value
                self.osr_count = 0
            elif dest == 5:
                self.pc = value & 31
                follow = False
            elif dest != 3:
                raise NotImplementedError("mov to %d" % dest)
        elif kind == 6:  # IRQ: the block's flags are not modelled beyond this
            pass
        else:  # SET
            dest = arg >> 5
            if dest == 1:
                self.x = arg & 31
            elif dest == 2:
                self.y = arg & 31
            else:
                raise NotImplementedError("set to %d" % dest)
        if follow:
            self.pc = self.wrap_bottom if self.pc == self.wrap_top else (self.pc + 1) & 31
        return outside


def _machines():
    machines = getattr(m.state, "pio_machines", None)
    if machines is None:
        machines = m.state.pio_machines = {}
    return machines


def machine_at(fifo_address):
    """The state machine whose RX FIFO register is at `fifo_address` (PIO0 0x50200020...)."""
    for block, base in enumerate((0x50200000, 0x50300000)):
        number = fifo_address - base - 0x20
        if 0 <= number < 16 and number % 4 == 0:
            return _machines().get(block * 4 + number // 4)
    return None
