# SPDX-License-Identifier: MIT
# A fake `select` whose poll() asks Python objects' ioctl as rp2's C loop does, on a fake clock.
#
# ipoll(timeout) asks every registered object ioctl(MP_STREAM_POLL, mask); when none is ready
# it "sleeps" (moves the Clock) until the next scheduled interrupt or the end of the timeout,
# runs that interrupt's action (drive a pin, put bytes on a stream, or nothing) and asks again.
# CPython's select.poll cannot poll a Python object, hence this fake in both interpreters.
from fakes import fake_machine
from ticks import diff

POLLIN = 1
POLLOUT = 4
POLLERR = 8
POLLHUP = 16
MP_STREAM_POLL = 3
MP_STREAM_GET_FILENO = 10


class FakePoll:
    def __init__(self, world):
        self._world = world
        self.entries = []  # [stream, mask] in the order registered
        self.timeouts = []  # the timeout of each ipoll()/poll() call
        self.asks = 0  # rounds of ioctl questions (one per interrupt while waiting)

    def registered(self, stream):
        for entry in self.entries:
            if entry[0] is stream:
                return True
        return False

    def register(self, stream, mask=POLLIN | POLLOUT):
        # The unix port first asks for a file descriptor: anything but -1 is taken as one.
        fd = stream.ioctl(MP_STREAM_GET_FILENO, 0)
        if fd != -1:
            raise AssertionError("ioctl(10) answered %s: taken as a file descriptor" % fd)
        for entry in self.entries:
            if entry[0] is stream:
                entry[1] = mask
                return
        self.entries.append([stream, mask])

    def unregister(self, stream):
        for entry in self.entries:
            if entry[0] is stream:
                self.entries.remove(entry)
                return
        raise KeyError("not registered")  # CPython's answer; MicroPython ignores it

    def _ask(self):
        self.asks += 1
        ready = []
        for stream, mask in self.entries:
            events = stream.ioctl(MP_STREAM_POLL, mask)
            if events < 0:
                raise OSError("ioctl(MP_STREAM_POLL) failed")
            if events:
                ready.append((stream, events))
        return ready

    def ipoll(self, timeout=-1, flags=0):
        self.timeouts.append(timeout)
        world = self._world
        clock = world.clock
        start = clock.ms
        while True:
            ready = self._ask()
            if ready or timeout == 0:
                break
            left = -1
            if timeout > 0:
                left = timeout - diff(clock.ms, start)
                if left <= 0:
                    break
            world.sleep(left)
        world.returns += 1
        return ready

    poll = ipoll


class FakeSelect:
    """The module: poll(), the POLL* constants, and the world around the chip: a Clock and the
    interrupts scheduled on it. `returns` counts poll returns of every poller made."""

    POLLIN = POLLIN
    POLLOUT = POLLOUT
    POLLERR = POLLERR
    POLLHUP = POLLHUP

    def __init__(self, clock):
        self.clock = clock
        self.polls = []  # every poll object made
        self.schedule = []  # [stamp, action]: interrupts to come
        self.interrupts = 0  # interrupts that woke a sleeping poll
        self.returns = 0
        self.slept = 0  # ms spent sleeping in poll
        fake_machine.state.world = self  # a machine.lightsleep sleeps here too

    def poll(self):
        poller = FakePoll(self)
        self.polls.append(poller)
        return poller

    def at(self, stamp, action):
        """An interrupt at `stamp`: action() then runs, as an IRQ handler would."""
        self.schedule.append([stamp, action])

    def sleep(self, most):
        """WFE with a one-shot timer of `most` ms (-1: none): until the next interrupt or then.
        machine.lightsleep on the fake machine sleeps here too."""
        clock = self.clock
        soonest = None
        for entry in self.schedule:
            if soonest is None or diff(entry[0], soonest[0]) < 0:
                soonest = entry
        if soonest is None and most < 0:
            raise RuntimeError("poll sleeps forever: no interrupt would wake it")
        if soonest is not None:
            delay = max(0, diff(soonest[0], clock.ms))
            if most < 0 or delay <= most:
                self.schedule.remove(soonest)
                clock.advance(delay)
                self.slept += delay
                self.interrupts += 1
                soonest[1]()
                return
        clock.advance(most)
        self.slept += most


class FakeStream:
    """A byte source such as USB stdin (sys.stdin and its .buffer): readable while bytes wait;
    a read of a byte that is not there would block, and fails here."""

    def __init__(self):
        self.waiting = []
        self.buffer = self

    def ioctl(self, req, arg):
        if req == MP_STREAM_POLL:
            return arg & POLLIN if self.waiting else 0
        return -1

    def readinto(self, buf):
        assert self.waiting, "a blocking read of stdin"
        buf[0] = self.waiting.pop(0)
        return 1

    def arrive(self, data):
        self.waiting.extend(data)
