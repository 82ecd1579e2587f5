# SPDX-License-Identifier: MIT
# A clock of the test harness in a hall: board 12 of hall "club", its link on a given transport.
import json

from app import hall as halls
from app.hall_link import Link
from harness import Clock

TOPIC = "clock/club/12/"


def hall_clock(transport, preset="Blitz 5+3", start=1000):
    clock = Clock(preset=preset, start=start)
    hall = halls.of(clock.app)
    hall.set(hall="club", board=12)
    hall.link = Link(hall, transport, start)
    return clock


def settle(clock, until=None):
    """Run the clock until its link has nothing left to send (or to `until`)."""
    hal = clock.hal
    clock.run_until(hal.now if until is None else until)
    for _ in range(200):
        link = clock.app.hall.link
        if link.wake_by(hal.now + 100000, hal.now) != hal.now:
            return
        clock.runner.step()
    raise AssertionError("the link never settles")


def command(broker, clock, **fields):
    """Send a command as the arbiter; run the clock; its answer (a dict)."""
    before = len(broker.on(TOPIC + "answer"))
    broker.deliver(TOPIC + "cmd", json.dumps(fields))
    settle(clock)
    answers = broker.on(TOPIC + "answer")
    assert len(answers) == before + 1, answers
    return json.loads(answers[-1])


def state(broker):
    return json.loads(broker.retained[(TOPIC + "state").encode()])


def log_of(broker):
    """The record's log as the event messages carried it, entry by entry at its index."""
    log = []
    for payload in broker.on(TOPIC + "event"):
        event = json.loads(payload)
        start = event["from"]
        if start < len(log):
            del log[start:]
        assert start == len(log), (start, len(log))
        log.extend(event["log"])
    return log
