# SPDX-License-Identifier: MIT
# A running game as OGS would send it: its time_control, clock and pause_control objects.
import json

from clock.game import PAUSED, Game
from clock.model import Setup
from notation import ogs

BLACK_ID = 1  # OGS names players by id; the first player is black, as in go
WHITE_ID = 2


def export(game, now_stamp, now_epoch_ms):
    """(time_control, clock, pause_control or None) for `game` at stamp `now_stamp`, which is
    `now_epoch_ms` on the viewer's calendar. PresetError if OGS cannot say the setup."""
    if not isinstance(game, Game):
        raise TypeError("export needs a Game")
    setup = game.setup
    plain = Setup(setup.first, setup.second, hourglass=setup.hourglass, word=setup.word)
    time_control = json.loads(ogs.format(plain))
    system = time_control["time_control"]
    mover = game.turn()
    last_move = now_epoch_ms - game.elapsed(now_stamp)
    clock = {
        "current_player": WHITE_ID if mover else BLACK_ID,
        "black_player_id": BLACK_ID,
        "white_player_id": WHITE_ID,
        "last_move": last_move,
        "now": now_epoch_ms,
    }
    if setup.start_ms and game.moves(mover) == 0:
        clock["start_mode"] = True
        clock["expiration"] = last_move + setup.start_ms
    if system != "none":
        for player, key in ((0, "black_time"), (1, "white_time")):
            clock[key] = _player_time(game, player, player == mover, system, last_move)
    pause_control = None
    if game.state() == PAUSED:
        clock["paused_since"] = now_epoch_ms
        pause_control = {"paused": {"pausing_player_id": clock["current_player"]}}
    return time_control, clock, pause_control


def _player_time(game, player, moving, system, last_move):
    stage, left, periods, in_stage = game.stage_state(player)
    stages = game.setup.control(player).stages
    overtime = stages[-1]
    in_main = len(stages) == 2 and stage == 0
    if system == "simple":
        return last_move + left if moving else 0
    if system in ("fischer", "absolute"):
        return {"thinking_time": left / 1000}
    if system == "byoyomi":
        return {
            "thinking_time": left / 1000 if in_main else 0,
            "periods": overtime.periods if in_main else periods,
            "period_time": overtime.duration_ms / 1000,
        }
    return {
        "thinking_time": left / 1000 if in_main else 0,
        "moves_left": overtime.moves - (0 if in_main else in_stage),
        "block_time": (overtime.duration_ms if in_main else left) / 1000,
    }
