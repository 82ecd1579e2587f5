# SPDX-License-Identifier: MIT
# A clock's finished games on a broker in memory: kept on flash as they end, sent on `game` until
# the recorder acknowledges them, through outages and restarts, bounded. Both interpreters.
import json

from app import hall as halls
from app.hall_outbox import MAX_GAMES, Outbox
from fakes.fake_mqtt import FakeBroker, FakeTransport
from hal import buttons as b
from harness import Clock
from hall_clock import TOPIC, hall_clock, settle, state

GAME = TOPIC + "game"


def finish(clock, start=None):
    """A Bullet 1+0 game from `start`: two plies, then the first player's flag."""
    start = clock.hal.now + 100 if start is None else start
    clock.press(b.RIGHT, start)
    clock.press(b.LEFT, start + 2000)
    clock.press(b.RIGHT, start + 3500)
    settle(clock, start + 64000)
    assert clock.app.game.state() == 3, clock.app.state_name()


def new_game(clock):
    clock.app.new_game(clock.hal.now)
    settle(clock, clock.hal.now + 10)


def games(broker):
    return [json.loads(payload) for payload in broker.on(GAME)]


def ack(broker, game, version=1):
    broker.deliver(TOPIC + "ack", json.dumps({"game": game, "version": version}))


def test_a_finished_game_goes_out_until_the_recorder_has_it():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker), preset="Bullet 1+0")
    finish(clock)
    sent = games(broker)
    assert len(sent) == 1, sent
    game = sent[0]
    tag = clock.app.record.tag
    assert (game["game"], game["version"], game["board"], game["hall"]) == (tag, 1, 12, "club")
    assert game["result"] == {"reason": "time", "loser": "first"}
    assert game["plies"] == 2 and game["spec"] == clock.app.record.spec
    assert game["left"] == "first" and game["complete"] is True
    kinds = [int(word.split(",")[0]) >> 1 for word in game["record"].split()]
    assert kinds == [0, 0, 5], game["record"]  # two plies, the end
    assert state(broker)["outbox"] == 1
    settle(clock, clock.hal.now + 31000)  # not acknowledged: again after 30 s
    assert len(games(broker)) == 2 and games(broker)[1] == game
    ack(broker, tag)
    settle(clock, clock.hal.now + 100)
    assert len(clock.app.hall.outbox) == 0
    settle(clock, clock.hal.now + 61000)
    assert len(games(broker)) == 2  # acknowledged: never again
    # on flash too: a restart does not keep it a second time
    again = Outbox(clock.storage)
    assert len(again) == 0 and again.holds(tag)


def test_games_that_end_while_the_broker_is_down_all_arrive_once_it_is_back():
    broker = FakeBroker()
    transport = FakeTransport(broker)
    clock = hall_clock(transport, preset="Bullet 1+0")
    settle(clock)
    broker.down = True
    transport.drop()
    tags = []
    for _ in range(3):
        finish(clock)
        tags.append(clock.app.record.tag)
        new_game(clock)
    assert games(broker) == [] and len(clock.app.hall.outbox) == 3
    broker.down = False
    settle(clock, clock.hal.now + 20000)  # back within 10 s; sent again only after 30 s
    assert [game["game"] for game in games(broker)] == tags
    for tag in tags:
        ack(broker, tag)
    settle(clock, clock.hal.now + 100)
    assert len(clock.app.hall.outbox) == 0


def test_an_acknowledgement_that_comes_while_a_clock_runs_is_stored_at_the_next_pause():
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker), preset="Bullet 1+0")
    finish(clock)
    tag = clock.app.record.tag
    new_game(clock)
    clock.press(b.RIGHT, clock.hal.now + 100)
    settle(clock, clock.hal.now + 500)
    ack(broker, tag)
    settle(clock, clock.hal.now + 100)
    assert len(clock.app.hall.outbox) == 0  # out of the list at once
    assert len(Outbox(clock.storage)) == 1  # still on flash: a clock runs
    clock.press(b.PLAY, clock.hal.now + 100)
    settle(clock, clock.hal.now + 500)
    assert clock.app.game.state() == 2
    assert len(Outbox(clock.storage)) == 0 and Outbox(clock.storage).holds(tag)


def test_the_outbox_keeps_eight_games_and_says_when_it_drops_the_oldest():
    broker = FakeBroker()
    transport = FakeTransport(broker)
    clock = hall_clock(transport, preset="Bullet 1+0")
    settle(clock)
    broker.down = True
    transport.drop()
    tags = []
    for _ in range(MAX_GAMES + 1):
        finish(clock)
        tags.append(clock.app.record.tag)
        new_game(clock)
    outbox = clock.app.hall.outbox
    assert [item[1] for item in outbox.games] == tags[1:]
    assert outbox.dropped == 1
    assert [n for n in clock.app.hall.notes if "full, the oldest game" in n]
    assert [item[1] for item in Outbox(clock.storage).games] == tags[1:]


def test_a_game_that_ended_before_the_hall_knew_it_is_kept_at_the_next_start():
    clock = Clock(preset="Bullet 1+0")
    halls.HallSettings(clock.storage).store(hall="club", board=12)
    clock.press(b.RIGHT, 2000)
    clock.run_until(65000)
    assert clock.app.game.state() == 3 and clock.app.hall is None  # no hall yet
    tag = clock.app.record.tag
    again = Clock(fs=clock.fs)  # a restart: the finished game is on the clock again
    halls.boot(again.app)
    again.run_until(again.hal.now + 100)
    assert [item[1] for item in again.app.hall.outbox.games] == [tag]
    third = Clock(fs=clock.fs)  # and once only
    halls.boot(third.app)
    third.run_until(third.hal.now + 100)
    assert [item[1] for item in third.app.hall.outbox.games] == [tag]
    third.app.hall.acknowledged(tag, 1)
    third.run_until(third.hal.now + 100)
    fourth = Clock(fs=clock.fs)  # acknowledged, and the result still on the clock: not again
    halls.boot(fourth.app)
    fourth.run_until(fourth.hal.now + 100)
    assert len(fourth.app.hall.outbox) == 0


def test_a_clock_in_no_hall_keeps_nothing_and_one_a_gateway_follows_keeps_its_games():
    clock = Clock(preset="Bullet 1+0")
    halls.boot(clock.app)
    assert clock.app.hall is None  # no board number: in no hall, nothing kept
    clock.press(b.RIGHT, 2000)
    clock.run_until(65000)
    assert clock.app.game.state() == 3 and not clock.storage.within("outbox").names()
    hall = halls.of(clock.app)  # a gateway's HALL: the result on the clock is kept now
    clock.run_until(65100)
    assert [item[1] for item in hall.outbox.games] == [clock.app.record.tag]
    assert json.loads(hall.outbox.read(hall.outbox.games[0]))["board"] == 0  # the gateway's


def test_a_command_sent_while_the_clock_was_away_is_carried_out_when_it_is_back():
    broker = FakeBroker()
    transport = FakeTransport(broker)
    clock = hall_clock(transport)
    clock.press(b.RIGHT, 2000)
    settle(clock, 3000)
    transport.drop()  # away (a Wi-Fi gone): the broker keeps its session
    broker.deliver(TOPIC + "cmd", json.dumps({"seq": 1, "do": "pause", "by": "Anna"}))
    assert clock.app.game.state() == 1
    settle(clock, clock.hal.now + 61000)
    assert transport.session and clock.app.game.state() == 2
    answer = json.loads(broker.on(TOPIC + "answer")[-1])
    assert (answer["seq"], answer["ok"], answer["said"]) == (1, True, "paused")


def test_the_state_is_sent_again_when_its_figures_change_rule():
    """A US delay's end: the main figure runs from then on; the state said so ahead (`then`)
    and says it again at that instant."""
    broker = FakeBroker()
    clock = hall_clock(FakeTransport(broker), preset="US delay G/5 d5")
    clock.press(b.RIGHT, 2000)
    settle(clock, 2100)
    first = state(broker)
    side = first["left"]
    assert first["stamp"] == 2000 and first["event"] == "start"
    assert side["running"] and side["rate"] == 0 and side["delay_ms"] == 5000
    assert side["rates"] == {"delay_ms": -1} and first["next_ms"] == 5000
    then = first["then"]["left"]
    assert (then["remaining_ms"], then["rate"], then["delay_ms"]) == (300000, -1, 0)
    settle(clock, 7000)
    later = state(broker)
    assert later["stamp"] == 7000 and later["event"] == first["event"]  # no new event: the rule
    assert later["left"]["rate"] == -1 and later["left"]["remaining_ms"] == 300000
