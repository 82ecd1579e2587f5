# SPDX-License-Identifier: MIT
# GAME: the game's record as one line of JSON, a PCN game record with the clock's own `clock` field
# (docs/records.md). Written in pieces, an entry at a time: a whole record is tens of KB, more
# than the board should hold at once. Loaded at the first GAME or streamed press.
import json

from clock.game import OVER, PLAYING, REASON_NAMES, STATE_NAMES, TIME
from clock.record import AMOUNT, AT, END, KIND_NAMES, LEFT, PLY, UNDO
import notation
from notation.errors import PresetError

SIDES = ("first", "second")


def write(app, out):
    """Write the record of the game in progress or last played with out(text), without a line
    end; False (nothing written) when no game has started since the clock was set up."""
    record = app.record
    game = record.owner
    if game is None:
        return False
    setup = game.setup
    periods, reads = _preset_forms(setup)
    head = {}
    if periods is not None:
        head["periods"] = [_period(*period) for period in periods]
    out(json.dumps(head)[:-1] + (", " if head else "") + '"plies": [')
    standing = record.plies()
    for number, index in enumerate(standing):
        out(("" if number == 0 else ", ") + '{"elapsed_ms": %d}' % record.field(index, AT))
    if game is app.game or game.state() == OVER:
        state = STATE_NAMES[game.state()]
    else:
        state = "abandoned"
    clock = {
        "record": 1,
        "preset": record.spec,
        "reads": reads,
        "name": app.presets.name_of(record.spec),
        "state": state,
        "result": _result(game.reason(), game.loser()),
        "complete": not record.cut,
    }
    out('], "clock": ' + json.dumps(clock)[:-1] + ', "log": [')
    plies = number = 0
    for index in range(record.length):
        kind = record.kind(index)
        if kind == PLY:
            plies += 1
            number = plies
        elif kind == UNDO:
            number = plies
            plies -= 1
        out(("" if index == 0 else ", ") + json.dumps(entry(setup, record, index, number)))
    out("]}}")
    return True


def entry(setup, record, index, ply):
    """One entry of the log as a dict; `ply` is the ply's number for a ply or an undo."""
    kind = record.kind(index)
    player = record.player(index)
    item = {"entry": KIND_NAMES[kind], "side": SIDES[player]}
    at = record.field(index, AT)
    amount = record.field(index, AMOUNT)
    if kind == PLY:
        item["ply"] = ply
        item["elapsed_ms"] = at
    elif kind == UNDO:
        item["ply"] = ply
    else:
        item["at_ms"] = at
        if kind == END:
            item["result"] = _result(amount, player)
        else:
            item[("amount_ms", "time_ms", "moves")[kind - 2]] = amount
    for side in (0, 1):
        item[SIDES[side]] = _figures(setup.control(side), record, index, side)
    return item


def _figures(control, record, index, side):
    left = record.field(index, LEFT + side)
    figures = {"remaining_ms": left, "stage": record.stage(index, side)}
    if control.move_ms is not None:
        figures["remaining_ms"] = control.move_ms
        figures["reserve_ms"] = left
    count = record.count(index, side)
    if count >= 0:
        stage = control.stages[record.stage(index, side)]
        figures["periods_left" if stage.is_period() else "moves_left"] = count
    return figures


def _result(reason, loser):
    """As STATE gives it (clock.report.result), from the reason and the loser alone."""
    if reason == PLAYING:
        return None
    if reason == TIME:
        return {"reason": "time", "loser": SIDES[loser]}
    return {"reason": REASON_NAMES[reason]}


def _preset_forms(setup):
    """(the PCN periods or None, the description) of a setup; the notation modules are
    unloaded again after (notation.forget), as after a parse."""
    from notation import pcn
    from notation.describe import describe

    try:
        try:
            periods = pcn.periods_of(pcn.after_the_move(setup))
        except PresetError:
            periods = None
        return periods, describe(setup)
    finally:
        notation.forget()


def _period(duration, increment, plies):
    period = {"duration_ms": duration}
    if increment:
        period["increment_ms"] = increment
    if plies:
        period["plies"] = plies
    return period


def last_ply(app, entries):
    """The log entry of the last ply among the record's first `entries` (for the stream's press
    event), or None."""
    record = app.record
    if record.cut:  # the ply may not be in it
        return None
    standing = record.plies(entries)
    if not standing:
        return None
    return entry(record.owner.setup, record, standing[-1], len(standing))
