# SPDX-License-Identifier: MIT
# Run by the unix port (test_umqtt_host.py): board 12 on a real Mosquitto through micropython-lib's
# umqtt.simple, as the Wi-Fi board runs it. Prints one line of JSON per step for the host test.
#
#   micropython tests/hall/umqtt_clock.py PORT PASSWORD   (umqtt.simple's folder on sys.path)
import json
import sys
import time

from umqtt.simple import MQTTClient

from app import hall as halls
from app.hall_link import Link
from hal import buttons as b
from harness import Clock
from test_hall_heap_mp import locked_passes


def say(**fields):
    print(json.dumps(fields))


def main(port, password):
    clock = Clock(preset="Blitz 5+3")
    hall = halls.of(clock.app)
    hall.set(hall="club", board=12)
    transport = MQTTClient("umqtt-12", "127.0.0.1", port, "clock-12", password, keepalive=30)
    link = hall.link = Link(hall, transport, clock.hal.now)
    clock.press(b.RIGHT, 2000)
    clock.press(b.LEFT, 10000)
    clock.press(b.RIGHT, 22500)
    clock.run_until(23000)
    for _ in range(50):  # what the presses left to send
        clock.runner.step()
    say(step="played", online=link.online, sent=link.sent)
    # With nothing to send, passes poll the socket (ipoll) and allocate nothing (the game's
    # save every 10 s and the link's messages aside: test_hall_heap_mp.locked_passes).
    start = clock.hal.now
    sending = locked_passes(clock, 200)
    free = 200 - len(sending)
    assert clock.hal.now - start > 60000 and link.online
    say(step="locked", passes=free)
    # The host sends a pause: wait for it in real time, the clock running in virtual time.
    deadline = time.time() + 20
    answered = None
    while time.time() < deadline and clock.app.game.state() != 2:
        clock.run_until(clock.hal.now + 20)
        time.sleep(0.01)
    for _ in range(20):
        clock.runner.step()
    say(step="commanded", state=clock.app.state_name(), seq=hall.seq, refused=link.refused)
    transport.disconnect()


main(int(sys.argv[1]), sys.argv[2])
