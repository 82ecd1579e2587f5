# SPDX-License-Identifier: MIT
# Under the MicroPython unix port: a clock on a broker allocates nothing in a pass with nothing to
# send, and a press noted for the broker allocates nothing; the hall's serial commands leave
# nothing of theirs on the heap.
import micropython

from fakes.fake_mqtt import FakeBroker, FakeTransport
from hal import buttons as b
from hall_clock import hall_clock, settle


class CountingDisplay:
    def show(self, frame, dirty=None):
        if dirty is not None:
            dirty.clear()


class CountingBuzzer:
    def play(self, hz, ms, now):
        pass

    def update(self, now):
        pass

    def stop(self):
        pass


def locked_passes(clock, count):
    """`count` passes with the heap locked, but for the game's saves and the passes in which the
    link has a message to send (a heartbeat every 5 s; the state after a press): those stamps."""
    clock.hal.display = CountingDisplay()
    clock.app.sounds.buzzer = CountingBuzzer()
    app = clock.app
    link = app.hall.link
    save, send = app._save, link.send
    sending = []

    def save_unlocked(now):
        micropython.heap_unlock()
        try:
            save(now)
        finally:
            micropython.heap_lock()

    def send_unlocked(now):
        if link.wake_by(now + 100000, now) != now and link._beat_at - now > 0:
            send(now)  # nothing to send: under the lock
            return
        micropython.heap_unlock()
        try:
            send(now)
            sending.append(now)
        finally:
            micropython.heap_lock()

    app._save = save_unlocked
    link.send = send_unlocked
    for _ in range(count):
        micropython.heap_lock()
        try:
            clock.runner.step()
        finally:
            micropython.heap_unlock()
    del app._save
    del link.send
    return sending


def test_a_running_clock_on_a_broker_allocates_nothing_but_its_messages():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    clock.press(b.RIGHT, 2000)
    settle(clock, 2500)
    start = clock.hal.now
    sending = locked_passes(clock, 300)
    elapsed = clock.hal.now - start
    assert elapsed > 60000, elapsed  # a minute or more of play, a pass a second at least
    # a heartbeat each 5 s, and nothing else
    assert len(sending) <= elapsed // 5000 + 1, (len(sending), elapsed)
    assert all(b - a >= 5000 for a, b in zip(sending, sending[1:])), sending


def test_a_press_with_a_link_allocates_nothing_till_the_frame_is_drawn():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker))
    clock.press(b.RIGHT, 2000)
    settle(clock, 2500)
    clock.press(b.LEFT, 6000)
    clock.press(b.RIGHT, 9000)
    sending = locked_passes(clock, 40)
    assert clock.app.game.plies() == 2
    assert 6000 in sending and 9000 in sending  # the state, then the event, after each press


def test_a_wifi_clock_on_its_broker_allocates_nothing_but_its_messages():
    from hall_clock import wifi_clock

    clock = wifi_clock()
    clock.press(b.RIGHT, 8000)
    settle(clock, 9000)
    assert clock.net.up and clock.app.hall.link.online
    clock.air.record = False
    start = clock.hal.now
    sending = locked_passes(clock, 300)  # the network's status polled every 5 s among them
    elapsed = clock.hal.now - start
    assert elapsed > 60000 and clock.net.up, elapsed
    assert len(sending) <= elapsed // 5000 + 1, (len(sending), elapsed)


def test_games_waiting_in_the_outbox_and_a_delay_cost_nothing_between_their_messages():
    """A US delay game (a state at each delay's end) on a clock whose outbox holds a game the
    recorder has not acknowledged (sent again every 30 s): the passes between those messages
    allocate nothing, and each message is one the clock owes."""
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker), preset="US delay G/5 d5")
    app = clock.app
    clock.press(b.RIGHT, 2000)  # a game, ended by the arbiter: it waits in the outbox
    clock.press(b.LEFT, 4000)
    clock.run_until(4100)
    app.game.pause(4100)
    app.end_by_arbiter(4100)
    settle(clock, 4200)
    assert len(app.hall.outbox) == 1
    app.new_game(4300)
    clock.press(b.RIGHT, 5000)
    settle(clock, 5500)
    start = clock.hal.now
    sending = locked_passes(clock, 300)
    elapsed = clock.hal.now - start
    assert elapsed > 60000, elapsed
    # heartbeats (5 s), the delay's end (once), the game again (30 s): nothing else
    assert len(sending) <= elapsed // 5000 + 1 + 1 + elapsed // 30000 + 1, (len(sending), elapsed)


def test_the_hall_serial_commands_leave_nothing_on_the_heap():
    import gc
    import sys

    from serial_fakes import SerialClock

    clock = SerialClock()
    assert clock.ask("SET BOARD 12") == ["OK board 12"]
    assert "app.hall_commands" not in sys.modules  # unloaded once it answered
    used = []
    for _ in range(3):
        for _ in range(40):
            assert clock.ask("OUTBOX") == ["OK []"]
        gc.collect()
        used.append(gc.mem_alloc())
    assert used[2] <= used[0], used
    assert "app.hall_commands" not in sys.modules
