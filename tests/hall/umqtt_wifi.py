# SPDX-License-Identifier: MIT
# Run by the unix port (test_wifi_host.py): a Wi-Fi clock as main.py makes it (app/hall_net.start)
# on a fake `network` and the unix port's own sockets, publishing through micropython-lib's
# umqtt.simple to a real Mosquitto, which the host stops and starts again. One line of JSON per
# step; the host's answer to a step is a line on stdin.
#
#   micropython tests/hall/umqtt_wifi.py PORT PASSWORD   (umqtt.simple's folder on sys.path)
import json
import select
import socket
import sys
import time

from umqtt.simple import MQTTClient

from app import hall as halls
from app import hall_net
from fakes.fake_network import Air
from hal import buttons as b
from harness import Clock
from hall_clock import KEY, SSID

# The clock runs in virtual time, 100 ms a pass of the pump (4 ms of real time), 10 ms while the
# link may be connecting: the broker answers in real time, within the connection's 5 s.
FAST_MS = 100
SLOW_MS = 10


class Timed:
    """The clock's loop with each pass timed in real time: a network step never blocks it."""

    def __init__(self, clock):
        self.longest_us = 0
        self._step = clock.runner.step
        clock.runner.step = self.step

    def step(self):
        start = time.ticks_us()
        self._step()
        took = time.ticks_diff(time.ticks_us(), start)
        if took > self.longest_us:
            self.longest_us = took

    def reset(self):
        longest = self.longest_us
        self.longest_us = 0
        return longest / 1000


def say(**fields):
    print(json.dumps(fields))


def pump(clock, done, seconds=20):
    link = clock.app.hall.link
    deadline = time.time() + seconds
    while not done() and time.time() < deadline:
        connecting = not link.online and link.transport.sock is not None  # a step under way
        clock.run_until(clock.hal.now + (SLOW_MS if connecting else FAST_MS))
        time.sleep_ms(4)
    return done()


def settled(clock, link):
    """Whether the link has nothing left to send."""
    now = clock.hal.now
    return link.wake_by(now + 99999, now) != now


def same_game(clock, presses):
    """Whether a clock in no hall given the same presses has the same game now."""
    alone = Clock(preset="Blitz 5+3", start=clock.start)
    for button, stamp in presses:
        alone.press(button, stamp)
    alone.run_until(clock.hal.now)
    now = clock.hal.now
    return clock.app.game.snapshot(now) == alone.app.game.snapshot(now)


def main(port, password):
    clock = Clock(preset="Blitz 5+3")
    clock.start = clock.hal.now
    app = clock.app
    hall = halls.of(app)
    hall.set(hall="club", board=12, ssid=SSID, wifi=KEY, broker="127.0.0.1", port=port)
    hall.set(user="clock-12", password="wrong")
    air = Air(lambda: clock.hal.now)
    air.open(SSID, KEY)
    net = hall_net.start(app, air, socket, select, MQTTClient, clock.hal.now)
    link = hall.link
    timed = Timed(clock)
    pump(clock, lambda: net.up)
    pump(clock, lambda: hall.notes[-1].startswith("broker:"))
    say(step="refused", note=hall.notes[-1], online=link.online)
    hall.set(password=password)  # SET BROKER again, right this time: the link tries at once
    pump(clock, lambda: link.online)
    presses = []
    for button, after in ((b.RIGHT, 500), (b.LEFT, 8000), (b.RIGHT, 12500)):
        presses.append((button, clock.hal.now + after))
        clock.press(*presses[-1])
    pump(clock, lambda: app.game.plies() == 2 and settled(clock, link))
    say(step="played", online=link.online, word=app.status.message, longest_ms=timed.reset())
    sys.stdin.readline()  # the host stopped the broker
    for button, after in ((b.LEFT, 3000), (b.RIGHT, 7000)):
        presses.append((button, clock.hal.now + after))
        clock.press(*presses[-1])
    pump(clock, lambda: not link.online and app.game.plies() == 4)
    pump(clock, lambda: False, 0.5)  # connecting again, refused, meanwhile
    say(
        step="alone",
        online=link.online,
        word=app.status.message,
        plies=app.game.plies(),
        same=same_game(clock, presses),
        note=[note for note in hall.notes if note.startswith("broker: lost")],
        longest_ms=timed.reset(),
    )
    sys.stdin.readline()  # the host started the broker again
    pump(clock, lambda: link.online, 30)
    pump(clock, lambda: settled(clock, link))
    say(step="back", online=link.online, word=app.status.message, longest_ms=timed.reset())
    link.transport.disconnect()


main(int(sys.argv[1]), sys.argv[2])
