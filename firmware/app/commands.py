# SPDX-License-Identifier: MIT
# The serial commands: one line in, OK or ERR out; the clock's state as JSON (STATE, the stream).
import json

from app.clock_app import E_PRESS, EVENT_NAMES
from app.presets import MAX_PRESETS, check_name
from clock import report
from clock.game import OVER, PAUSED, RUNNING, View
from hal.storage import problem_text
from notation.errors import PresetError
import ticks

SIDES = report.SIDES
HELP = (
    "PRESET LIST                 the presets, numbered from 1",
    "PRESET ADD <name> = <spec>  add a preset (a name already there is refused)",
    "PRESET REPLACE <name> = <spec>  replace the preset of that name (or add it)",
    "PRESET DEL <n>              delete preset n (not the game in progress's)",
    "PRESET USE <n>              choose preset n for the next game (no game in progress)",
    "NEW                         a new game on the chosen preset (clears a finished game)",
    "STATE                       the clock as JSON",
    "GAME [SUM]                  the game's record as JSON (a PCN game record); SUM: its CRC-32",
    "SET MUTE ON|OFF             sound off or on",
    "SET BOARD <n>               this clock's board number in the hall (1 to 9999; 0: none)",
    "SET HALL <name>             the hall's name (letters, digits, - and _)",
    "SET BROKER <address> [<port> [<user> <password>]]  the MQTT broker (a Wi-Fi clock)",
    "SET WIFI <ssid> [<password>]  the Wi-Fi network (a Wi-Fi clock)",
    "HALL                        board, hall, broker and link as JSON",
    "HALL CMD <json>             obey an arbiter's command (the hall gateway), answer as JSON",
    "OUTBOX [GET <id>|ACK <id> <version>]  the finished games kept for the hall (the gateway)",
    "STREAM ON|OFF               an EV line of JSON at every press, pause, flag, start, end",
    "MEM                         the heap after a collection as JSON: used, free, largest block",
    "PING                        answers OK pong",
    "REPL                        reboot to the MicroPython REPL (no game in progress)",
    "HELP                        this list",
)
_CLOSE_MENU = "ERR close the menu on the clock first"
_IN_GAME = "ERR a game is in progress: finish it or start a new one first"
_DROP_ON_CLOCK = (
    "ERR a game is in progress: only the clock drops it (SET held 2.5 s, then SET: yes)"
)


def run(channel, text, now):
    """Obey one command line (printable ASCII, no line end); answer on `channel`."""
    words = text.split(None, 2)
    if not words:
        return
    verb = words[0].upper()
    send = channel.send
    app = channel.app
    if verb == "PRESET":
        _preset(channel, app, words, now)
    elif verb == "NEW" and len(words) == 1:
        _new(send, app)
    elif verb == "STATE" and len(words) == 1:
        send("OK " + json.dumps(state(app, now)))
    elif verb == "GAME" and (len(words) == 1 or len(words) == 2 and words[1].upper() == "SUM"):
        if app.record.owner is None:
            send("ERR no game has started yet")
        else:
            from app import game_record

            # A long game's record takes seconds on the chip (25 ms a ply on stock MicroPython,
            # 6 ms frozen): each piece feeds the watchdog, or its 5 s would reset the clock.
            # GAME SUM ends the line with the CRC-32 of the JSON as sent: a reader that lost a
            # byte (a full buffer on the way) knows it and asks again.
            part = channel.write_part
            feed = app.hal.feed

            def out(text):
                part(text)
                feed()

            part("OK ")
            summed = None
            if len(words) == 2:
                from app.hall_commands import Summed

                summed = Summed(channel)
            try:
                game_record.write(app, out)
            finally:
                end = "" if summed is None else summed.end()
            send(end)
    elif verb == "HALL":
        from app import hall_commands

        hall_commands.hall(channel, app, text, now)
    elif verb == "OUTBOX":
        from app import hall_commands

        hall_commands.outbox(channel, app, words)
    elif (
        verb == "SET"
        and len(words) > 1
        and words[1].upper() in ("BOARD", "HALL", "BROKER", "WIFI")
    ):
        from app import hall_commands

        hall_commands.setting(send, app, words[1].upper(), text)
    elif verb == "SET":
        if len(words) == 3 and words[1].upper() == "MUTE" and words[2].upper() in ("ON", "OFF"):
            muted = words[2].upper() == "ON"
            try:
                app.set_muted(muted)
            except OSError as error:
                send("ERR the setting could not be saved: %s" % problem_text(error))
                return
            send("OK mute " + ("on" if muted else "off"))
        else:
            send("ERR usage: SET MUTE ON|OFF")
    elif verb == "STREAM":
        if len(words) == 2 and words[1].upper() in ("ON", "OFF"):
            channel.streaming = words[1].upper() == "ON"
            send("OK stream " + ("on" if channel.streaming else "off"))
        else:
            send("ERR usage: STREAM ON|OFF")
    elif verb == "HELP" and len(words) == 1:
        for line in HELP:
            send(line)
        send("OK %d commands" % len(HELP))
    elif verb == "MEM" and len(words) == 1:
        send(_memory())
    elif verb == "PING" and len(words) == 1:
        send("OK pong")
    elif verb == "REPL" and len(words) == 1:
        if not channel.repl:
            send("ERR no REPL to go to here")
        elif app.in_progress():
            send(_IN_GAME)
        else:
            send("OK leaving for the REPL")
            channel.leave_for_repl()
    elif verb in ("STATE", "GAME", "HELP", "MEM", "PING", "REPL", "NEW"):
        send("ERR usage: " + verb)
    else:
        send("ERR unknown command %s (HELP lists the commands)" % _quote(words[0]))


def _memory():
    """The heap after a collection: bytes used, free, and the largest block one allocation gets
    (found by trying sizes); an error where the interpreter gives no heap figures."""
    import gc

    gc.collect()
    try:
        used, free = gc.mem_alloc(), gc.mem_free()
    except AttributeError:
        return "ERR no heap figures here"
    low, high = 0, free
    while low < high:
        size = (low + high + 1) // 2
        try:
            bytearray(size)
            low = size
        except MemoryError:
            high = size - 1
    gc.collect()
    return "OK " + json.dumps({"used": used, "free": free, "largest": low})


def _preset(channel, app, words, now):
    send = channel.send
    action = words[1].upper() if len(words) > 1 else ""
    presets = app.presets
    if action == "LIST" and len(words) == 2:
        for index, item in enumerate(presets.items):
            send("%d %s = %s" % (index + 1, item.name, item.spec))
        send("OK %d presets" % len(presets.items))
        return
    if action in ("ADD", "REPLACE") and len(words) == 3:
        if app.editing_presets():
            send(_CLOSE_MENU)
            return
        name, equals, spec = words[2].partition("=")
        if not equals:
            send("ERR usage: PRESET %s <name> = <spec>" % action)
            return
        _add(send, app, name, spec, action == "REPLACE")
        return
    if action in ("DEL", "USE") and len(words) == 3:
        number = words[2].strip()
        count = len(presets.items)
        if not number.isdigit() or not 1 <= int(number) <= count:
            send("ERR no preset %s (they are 1 to %d)" % (_quote(number), count))
        elif app.editing_presets():
            send(_CLOSE_MENU)
        elif action == "DEL":
            _delete(send, app, int(number) - 1)
        else:
            _use(send, app, int(number) - 1)
        return
    send(
        "ERR usage: PRESET LIST | PRESET ADD <name> = <spec> | PRESET REPLACE <name> = <spec>"
        " | PRESET DEL <n> | PRESET USE <n>"
    )


def _add(send, app, name, spec, replace):
    """ADD refuses a name already there unless both texts read alike (then it replaces);
    REPLACE replaces it, or adds the preset when there is none of that name."""
    presets = app.presets
    try:
        name = check_name(name)
        index = presets.index_of(name)
        if index < 0 and len(presets.items) >= MAX_PRESETS:
            send(
                "ERR the list is full: %d presets at most; PRESET DEL <n> makes room" % MAX_PRESETS
            )
            return
        if index >= 0 and not replace:
            ours = _reading(spec)
            try:
                theirs = _reading(presets.items[index].spec)
            except PresetError:  # stored by an older firmware that read it differently
                theirs = "nothing this firmware reads"
            if theirs != ours:
                send(
                    "ERR preset %d %s reads %s; this reads %s: PRESET REPLACE %s = %s replaces"
                    " it, or give another name"
                    % (index + 1, name, theirs, ours, name, spec.strip())
                )
                return
        added = index < 0
        index = app.add_preset(name, spec, True)
    except PresetError as error:
        send("ERR %s" % error)
        return
    except OSError as error:  # flash full or failing: the list stays as storage has it
        send("ERR the presets could not be saved: %s" % problem_text(error))
        return
    preset = presets.items[index]
    send("OK %s %d %s: %s" % ("added" if added else "replaced", index + 1, name, preset.summary()))


def _reading(spec):
    """How the clock reads `spec` (PresetError as the parser says it)."""
    import notation
    from notation.describe import describe

    try:
        return describe(notation.parse(notation.prefixed(spec.strip())))
    finally:
        notation.forget()


def _delete(send, app, index):
    presets = app.presets
    name = presets.items[index].name
    if len(presets.items) == 1:
        send("ERR the last preset cannot be deleted")
        return
    chosen = app.chosen_index()
    try:
        app.delete_preset(index)
    except ValueError:
        send(
            "ERR preset %d is the game in progress's: finish it or start a new one first"
            % (index + 1)
        )
        return
    except OSError as error:
        send("ERR the presets could not be saved: %s" % problem_text(error))
        return
    tail = ""
    if index == chosen:
        tail = "; chosen now: 1 " + presets.items[0].name
    send("OK deleted %d %s%s" % (index + 1, name, tail))


def _use(send, app, index):
    if app.in_progress():
        send(_IN_GAME)
        return
    preset = app.presets.items[index]
    try:
        summary = preset.summary()
    except PresetError as error:  # stored by an older firmware that read it differently
        send("ERR %s" % error)
        return
    over = app.game.state() == OVER
    try:
        app.choose_preset(index)
    except OSError as error:
        send("ERR the choice could not be saved: %s" % problem_text(error))
        return
    if over:  # a finished game's result is cleared only by NEW or the clock's own question
        send(
            "OK chosen %d %s for the next game: %s; the result stays on the clock until NEW"
            % (index + 1, preset.name, summary)
        )
    else:
        send("OK using %d %s: %s" % (index + 1, preset.name, summary))


def _new(send, app):
    """A new game on the chosen preset where one press on the clock could not lose a game:
    after a result (NEW is the confirmation) or when the clock is ready."""
    if app.in_progress():
        send(_DROP_ON_CLOCK)
        return
    if app.editing_presets():
        send(_CLOSE_MENU)
        return
    app.new_game()
    index = app.chosen_index()
    preset = app.presets.items[index]
    send("OK new game on %d %s" % (index + 1, preset.name))


def _quote(text):
    return '"' + (text if len(text) <= 20 else text[:17] + "...") + '"'


# --- the clock as JSON: the field names of sim/replay.py's side(), per side -------------------


def side(game, player, now):
    view, fields = report.side(game, player, now)
    fields["player"] = report.SIDES[player]
    fields["running"] = view.running
    fields["moves"] = view.moves
    fields["delay_ms"] = view.delay_ms
    return fields


def state(app, now):
    game = app.game
    started = game.state() in (RUNNING, PAUSED)
    doc = {
        "state": app.state_name(now),
        "preset": app.game_preset_name(),
        "spec": app.spec,
        "chosen": app.chosen_index() + 1,
        "muted": app.settings.muted,
        "turn": SIDES[game.turn()] if started else None,
        "plies": game.plies(),
        "left": side(game, app.player_on(0), now),
        "right": side(game, app.player_on(1), now),
        "result": report.result(game),
        "entries": app.record.length,
        "stamp": now,
        "store": app.store_problem,
        "game": app.record.tag,
        "saves": app.store.mode(),
        "slots": app.store.ready(),
        "display": app.display_health(),
    }
    hall = app.hall
    if hall is not None:  # a clock in a hall: its board, its last command, its finished games
        doc["board"] = hall.board
        doc["seq"] = hall.seq
        doc["outbox"] = len(hall.outbox)
    reference = getattr(app.hal, "reference", None)  # a board that sleeps on a 32.768 kHz one
    if reference is not None:
        doc["reference"] = {
            "sleeps": reference.sleeps,
            "faults": reference.faults,
            "lost": reference.lost,
        }
    _rates(game, now, doc)
    return doc


# The figures a follower runs between messages: the main one (`remaining_ms`, its `rate`) and
# those beside it that can run (`rates`: the delay, an Arimaa reserve).
_NOT_THEN = ("penalty_ms", "soft_timeout", "running", "moves")  # `then` has only the figures


def _rates(game, now, doc):
    """How each side's figures move from `now` (`rate`: -1 down, 1 up, 0 still; `rates` for the
    delay and the reserve) and until when that holds (`next_ms`: a flag, a stage, a period, the
    end of a delay; null: no end); `then`, each side's figures and rates from that instant on,
    up to the change after it (`next_ms` of its own). So a follower runs the clock between
    messages as the clock does, across the next change of rule too; the clock sends a state at
    each such change anyway."""
    due = game.next_event(now) if game.state() == RUNNING else None
    doc["next_ms"] = None if due is None else ticks.diff(due, now)
    _moving(game, now, due, doc)
    then = None
    if due is not None:
        then = {}
        for name in ("left", "right"):
            fields = side(game, report.SIDES.index(doc[name]["player"]), due)
            for key in _NOT_THEN:
                del fields[key]
            then[name] = fields
        after = game.next_event(due)
        then["next_ms"] = None if after is None else ticks.diff(after, due)
        _moving(game, due, after, then)
    doc["then"] = then


def _moving(game, at, due, doc):
    step = 1000 if due is None else min(1000, ticks.diff(due, at))
    for name in ("left", "right"):
        fields = doc[name]
        rate = 0
        rates = {}
        if step > 0:
            player = report.SIDES.index(fields["player"])
            later = game.view(player, ticks.add(at, step), View())
            rate = _sign(later.time_ms - fields["remaining_ms"])
            for key, value in (("delay_ms", later.delay_ms), ("reserve_ms", later.reserve_ms)):
                if fields.get(key) is not None:
                    moved = _sign(value - fields[key])
                    if moved:
                        rates[key] = moved
        fields["rate"] = rate
        fields["rates"] = rates


def _sign(value):
    return 1 if value > 0 else -1 if value < 0 else 0


def event_json(app, event, stamp, entries):
    """STATE's fields, the event's name, `entries` (the number of entries in the game's record
    when it happened), and for a press that ply's entry of the record (docs/records.md)."""
    record = state(app, stamp)
    record["event"] = EVENT_NAMES[event]
    record["entries"] = entries
    if event == E_PRESS:
        from app import game_record

        record["entry"] = game_record.last_ply(app, entries)
    return json.dumps(record)
