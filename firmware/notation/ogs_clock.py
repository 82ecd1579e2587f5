# SPDX-License-Identifier: MIT
# OGS clock display: the seed's "Putting it all together" algorithm as a pure function of time.
import math

from notation.ogs import NAME, fail, from_object, number_table, system_of
from notation.pcn import load, show

_INTEGERS = ("current_player", "black_player_id", "white_player_id", "last_move", "now")
# Each system's black_time / white_time object: its keys, and which of them are counts.
_PLAYER_KEYS = {
    "fischer": ("thinking_time", "skip_bonus"),
    "absolute": ("thinking_time",),
    "byoyomi": ("thinking_time", "periods", "period_time"),
    "canadian": ("thinking_time", "moves_left", "block_time"),
}
_COUNTS = ("periods", "moves_left")
_MAX_SECONDS = 1000000000  # about 31 years
_MAX_EPOCH = 10000000000000  # epoch ms in the year 2286


def parse_clock(text):
    """A game object's (time_control, clock, pause_control) as checked dicts; pause_control may
    be None. Other keys of the game object are ignored."""
    game = load(text, NAME, "JSON")
    if not isinstance(game, dict):
        fail(text, "expected a game object, found " + show(game))
    if "time_control" not in game or "clock" not in game:
        fail(text, 'a game object needs "time_control" and "clock"')
    tc = game["time_control"]
    from_object(tc, text, number_table(text))
    clock = game["clock"]
    _check_clock(clock, system_of(tc, text), text)
    pause = game.get("pause_control")
    if pause is not None and not isinstance(pause, dict):
        fail(text, "pause_control: expected an object, found " + show(pause))
    return tc, clock, pause


def _check_clock(clock, system, text):
    if not isinstance(clock, dict):
        fail(text, "clock: expected an object, found " + show(clock))
    for key in _INTEGERS + ("expiration",):
        if key in _INTEGERS or key in clock:
            _whole(clock.get(key), "clock." + key, text)
    if clock["black_player_id"] == clock["white_player_id"]:
        fail(text, "clock: black_player_id and white_player_id are the same player")
    if clock["current_player"] not in (clock["black_player_id"], clock["white_player_id"]):
        fail(text, "clock.current_player: neither black_player_id nor white_player_id")
    start = clock.get("start_mode", False)
    if not isinstance(start, bool):
        fail(text, "clock.start_mode: expected true or false, found " + show(start))
    if start and "expiration" not in clock:
        fail(text, "clock: start_mode needs expiration")
    if "paused_since" in clock:
        _number(clock["paused_since"], "clock.paused_since", False, _MAX_EPOCH, text)
    if system == "none":
        return
    for side in ("black_time", "white_time"):
        where = "clock." + side
        if side not in clock:
            fail(text, "%s: missing (a %s clock has one per player)" % (where, system))
        if system == "simple":  # the deadline in epoch ms (0 for the waiting side)
            _number(clock[side], where, False, _MAX_EPOCH, text)
        else:
            _check_player(clock[side], _PLAYER_KEYS[system], where, text)


def _check_player(player, keys, where, text):
    if not isinstance(player, dict):
        fail(text, "%s: expected an object, found %s" % (where, show(player)))
    for key in sorted(player):
        if key not in keys:
            fail(text, '%s: unknown key "%s"' % (where, key))
    for key in keys:
        if key == "skip_bonus":  # the server's, unchecked
            continue
        if key not in player:
            fail(text, "%s.%s: missing" % (where, key))
        if key in _COUNTS:
            value = player[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                expected = "a whole number >= 0"
                fail(text, "%s.%s: expected %s, found %s" % (where, key, expected, show(value)))
        else:
            _number(player[key], where + "." + key, key == "period_time", _MAX_SECONDS, text)


def _whole(value, where, text):
    if not isinstance(value, int) or isinstance(value, bool):
        fail(text, "%s: expected a whole number, found %s" % (where, show(value)))


def _number(value, where, positive, high, text):
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not 0 <= value <= high or (positive and _ms(value) < 1):
        expected = "more than 0 seconds" if positive else "a number >= 0"
        fail(text, "%s: expected %s, found %s" % (where, expected, show(value)))


def display(time_control, clock, pause_control, now_ms, received_ms=None):
    """What each side's clock shows at the viewer's epoch time `now_ms` (dicts as parse_clock).

    Returns {"black": {...}, "white": {...}}, each with "mode" ("start", "paused", "running" or
    "waiting"), "ms" (None without time control), "expired", and for byo-yomi "periods_left"
    (counting the period in use) or for Canadian "moves_left", with "overtime".

    The seed's `now_delta = NOW() - clock.now` corrects the viewer's clock to the server's; its
    NOW() there is the viewer's time when the clock arrived (`received_ms`), while the `- now`
    further down is the time of display (`now_ms`). Read at the same instant (received_ms None,
    the default) the two cancel and the display shows the clock as of the server's `now`.
    """
    system = time_control.get("time_control", time_control.get("system"))
    skew = (now_ms if received_ms is None else received_ms) - clock["now"]
    server_now = _round(now_ms - skew)
    black_moves = clock["current_player"] == clock["black_player_id"]
    paused = bool(pause_control)  # an empty {} is left behind by a pause that ended
    result = {}
    for side, to_move in (("black", black_moves), ("white", not black_moves)):
        player = clock.get(side + "_time")
        if clock.get("start_mode"):
            if to_move:
                left = clock["expiration"] - server_now
                result[side] = {"mode": "start", "ms": max(0, left), "expired": left < 0}
                continue
            view = _side(system, time_control, player, None, clock["last_move"])
            mode = "waiting"
        elif paused:
            # The seed only says "Paused". The side to move shows its time frozen at
            # paused_since (seconds in the seed, ms from newer servers, told apart as OGS's own
            # client does); without it, as stored at the last move.
            at = None
            if to_move and "paused_since" in clock:
                since = clock["paused_since"]
                since = _round(since * 1000 if since < 2000000000 else since)
                at = max(since, clock["last_move"])
            view = _side(system, time_control, player, at, clock["last_move"])
            mode = "paused"
        else:
            at = server_now if to_move else None
            view = _side(system, time_control, player, at, clock["last_move"])
            mode = "running" if to_move else "waiting"
        view["mode"] = mode
        result[side] = view
    return result


def _side(system, tc, player, at, last_move):
    """One side at server time `at` (None: as stored at the last move, i.e. the waiting side)."""
    view = {"ms": None, "expired": False}
    if system == "none":
        return view
    if system == "simple":
        # The seed: `time_left = player_time - NOW()`, player_time being the deadline in epoch
        # ms; it is server time, so NOW() is corrected as above. The waiting side's value is 0
        # (the seed), so it shows the full per_move, as newer OGS clients do.
        left = _ms(tc["per_move"]) if at is None else _round(player) - at
    else:
        if at is None:
            at = last_move
        thinking = _ms(player["thinking_time"])
        left = last_move + thinking - at
        if system == "canadian":
            view["moves_left"] = player["moves_left"]
            view["overtime"] = left < 0 or thinking == 0
            if view["overtime"]:
                left = last_move + thinking + _ms(player["block_time"]) - at
        elif system == "byoyomi":
            view["overtime"] = left < 0 or thinking == 0
            periods = player["periods"]
            if view["overtime"]:
                left, periods = _byoyomi(-left, _ms(player["period_time"]), periods)
            view["periods_left"] = periods
    view["ms"] = max(0, left)
    view["expired"] = left < 0
    return view


def _byoyomi(over, period, periods):
    """(time left in the period in use, periods left counting it) after `over` ms of overtime.

    The seed's floor((-left / 1000) / period_time) and `while left < 0` disagree with the
    project's flag rule at exact multiples of the period (and show 0 at the very start of a
    period); docs/time-controls.md "Byo-yomi" is followed instead: a period is used up only when its
    time goes below zero, so `ceil(over / period) - 1` periods are used up. The seed's
    periods_left leaves out the period in use; here it is counted, as on the OGS client.
    Expired (all used up): -1 ms, 0 periods.
    """
    used = (over + period - 1) // period - 1 if over > 0 else 0
    if used >= periods:
        return -1, 0
    return (used + 1) * period - max(0, over), periods - used


def _ms(seconds):
    return _round(seconds * 1000)


def _round(value):
    """Whole ms, rounding a float to the nearest."""
    return value if isinstance(value, int) else int(math.floor(value + 0.5))
