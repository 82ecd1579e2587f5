# SPDX-License-Identifier: MIT
# python -m sim round: the arbiter's round from the command line: load its pairings, enter and
# change results, keep the clocks' records, see where it stands, write the results out.
import argparse
import datetime
import json
import os
import sys

from sim import files, round_out, round_store, rounds, trf, trf_write

ABOUT = """\
The arbiter's round (docs/round.md): `load` takes the tournament file (TRF) and the pairing
engine's pairings, or a club's CSV; `result` enters or changes a board's result; `show` lists
the boards, those still playing first; `results` writes the tournament file with the round's
results added, a CSV and each game's PGN; `ask-bye` puts a bye asked for the next round in a
tournament file before it is paired."""


def add_command(commands):
    parser = commands.add_parser(
        "round",
        help="the arbiter's round: pairings in, results out (docs/round.md)",
        description=ABOUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=lambda args: parser.print_help() or 2)
    actions = parser.add_subparsers(dest="action")

    def action(name, function, text):
        sub = actions.add_parser(name, help=text, description=text)
        sub.set_defaults(run=lambda args: run(function, args))
        if name != "ask-bye":
            sub.add_argument(
                "--folder",
                default="rounds",
                metavar="DIR",
                help="where the rounds are kept (default: rounds)",
            )
        return sub

    load = action("load", load_command, "load a round's pairings")
    load.add_argument("--round", type=int, required=True, metavar="N")
    load.add_argument(
        "--trf", metavar="FILE", help="the tournament file the round was paired from"
    )
    load.add_argument("--pairings", metavar="FILE", help="the pairing engine's output (-p)")
    load.add_argument(
        "--csv", metavar="FILE", help="a club's CSV: board, White, Black, time control"
    )
    load.add_argument(
        "--tc", metavar="TEXT", help="the time control, as the clock reads it: 90+30"
    )
    load.add_argument("--date", metavar="YYYY-MM-DD", help="the round's date (default: today)")
    load.add_argument("--event", metavar="NAME", help="the event's name (a CSV round)")
    load.add_argument("--site", metavar="PLACE", help="where it is played (a CSV round)")
    load.add_argument("--by", default="command line", metavar="NAME", help="who loads it")
    load.add_argument("--replace", action="store_true", help="replace a round loaded already")
    show = action(
        "show", show_command, "the round's boards and results, those still playing first"
    )
    show.add_argument("--round", type=int, required=True, metavar="N")
    show.add_argument("--json", action="store_true", help="the round's file as it is kept")
    action("list", list_command, "the rounds kept, with how far each is")
    result = action("result", result_command, "enter or change a board's result")
    result.add_argument("--round", type=int, required=True, metavar="N")
    result.add_argument("--board", type=int, required=True, metavar="B")
    result.add_argument(
        "result", help="1-0, 0-1, 1/2-1/2, 0-0; forfeits 1-0f, 0-1f, 0-0f; '*' for none"
    )
    result.add_argument("--by", default="command line", metavar="NAME", help="who enters it")
    result.add_argument(
        "--change", action="store_true", help="confirm a change of a result entered already"
    )
    record = action("record", record_command, "keep a board's clock record (GAME's JSON)")
    record.add_argument("--round", type=int, required=True, metavar="N")
    record.add_argument("--board", type=int, required=True, metavar="B")
    record.add_argument("record", metavar="GAME.json")
    out = action("results", results_command, "write the round's results out")
    out.add_argument("--round", type=int, required=True, metavar="N")
    out.add_argument("--trf", metavar="FILE", help="the tournament file with the round's results")
    out.add_argument("--csv", metavar="FILE", help="the results as CSV")
    out.add_argument("--pgn", metavar="DIR", help="each game's PGN, and all of them in one")
    out.add_argument(
        "--rounds", type=int, metavar="N", help="the event's rounds, for a file that does not say"
    )
    bye = action("ask-bye", ask_bye_command, "a bye asked for the next round, into a TRF")
    bye.add_argument("--trf", required=True, metavar="FILE")
    bye.add_argument("--round", type=int, required=True, metavar="N")
    bye.add_argument("--player", type=int, required=True, metavar="P", help="starting rank")
    bye.add_argument("kind", choices=("H", "F", "Z"), help="half-point, full-point, zero-point")
    bye.add_argument("--out", metavar="FILE", help="where to write it (default: the TRF itself)")


class Stop(Exception):
    """What the command cannot do, said as one line."""


def run(function, args):
    try:
        function(args)
        sys.stdout.flush()
    except (rounds.RoundError, trf.TrfError, Stop) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    except BrokenPipeError:
        from sim.__main__ import reader_left

        return reader_left()
    return 0


def _date(text):
    if text is None:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise Stop("--date: expected YYYY-MM-DD, not %r" % text)


def load_command(args):
    store = round_store.Rounds(args.folder)
    date = _date(args.date)
    how = {"by": args.by, "replace": args.replace}
    if args.csv is not None:
        if args.trf or args.pairings:
            raise Stop("a round comes from --trf and --pairings, or from --csv: not both")
        round_, notes = store.load_csv(
            args.round, args.csv, args.tc, date, args.event, args.site, **how
        )
    else:
        if not (args.trf and args.pairings):
            raise Stop("load needs --trf FILE and --pairings FILE (or --csv FILE)")
        if args.event or args.site:
            raise Stop("--event and --site go with --csv: a tournament file says its own")
        round_, notes = store.load_trf(args.round, args.trf, args.pairings, args.tc, date, **how)
    byes = ", ".join(
        "%s %s" % (rounds.shown(bye["player"]), rounds.BYES[bye["kind"]]) for bye in round_.byes
    )
    print(
        "round %d loaded into %s: %d board%s%s; time control %s"
        % (
            round_.number,
            args.folder,
            len(round_.boards),
            "s" if len(round_.boards) != 1 else "",
            "; byes: " + byes if byes else "",
            _about(round_.doc["time_control"]),
        )
    )
    for note in notes:
        print("note: " + note)


def _about(time_control):
    """A time control as given and as the clock reads it: "90+30 (90 min + 30 s/move)"."""
    if not time_control:
        return "not given (the clocks keep theirs)"
    from notation import registry
    from notation.describe import describe

    return "%s (%s)" % (time_control, describe(registry.parse(time_control)))


def show_command(args):
    store = round_store.Rounds(args.folder)
    round_ = store.get(args.round)
    if args.json:
        print(json.dumps(round_.doc, ensure_ascii=False, indent=1))
        return
    done, total = round_.progress()
    event = round_.doc["event"]["name"] or "round"
    print(
        "%s, round %d, %s: %d of %d finished"
        % (event, round_.number, round_.doc["date"], done, total)
    )
    rows = round_.rows()
    width = max([len(name) for row in rows for name in row[1:3]] + [5])
    print("board  %-*s  %-*s  %-15s  %s" % (width, "White", width, "Black", "result", "entered"))
    for board, white, black, result, by, at in rows:
        entered = "%s, %s" % (by, at.replace("T", " ")) if by else ""
        line = "%5d  %-*s  %-*s  %-15s  %s" % (board, width, white, width, black, result, entered)
        print(line.rstrip())
    for bye in round_.byes:
        print("bye    %s: %s" % (rounds.shown(bye["player"]), rounds.BYES[bye["kind"]]))
    for number, board in store.unfinished(before=round_.number):
        print("still playing: round %d board %d" % (number, board))


def list_command(args):
    store = round_store.Rounds(args.folder)
    numbers = store.numbers()
    if not numbers:
        print("no round in %s" % args.folder)
    for number in numbers:
        round_ = store.get(number)
        done, total = round_.progress()
        print("round %d (%s): %d of %d finished" % (number, round_.doc["date"], done, total))


def result_command(args):
    store = round_store.Rounds(args.folder)
    said = store.enter(args.round, args.board, args.result, args.by, change=args.change)
    held = store.get(args.round).result(args.board)
    print(
        "round %d board %d: %s (%s)"
        % (args.round, args.board, held["result"] if held else "no result", said)
    )


def record_command(args):
    from sim import records

    store = round_store.Rounds(args.folder)
    try:
        record = records.load(args.record)
    except records.RecordError as error:
        raise Stop(str(error))
    round_ = store.get(args.round)
    round_out.game_pgn(round_, args.board, record)  # a record that cannot be written is refused
    store.attach(args.round, args.board, record)
    print("round %d board %d: the clock's record kept" % (args.round, args.board))


def results_command(args):
    if not (args.trf or args.csv or args.pgn):
        raise Stop("results: say what to write: --trf FILE, --csv FILE, --pgn DIR")
    store = round_store.Rounds(args.folder)
    round_ = store.get(args.round)
    date = datetime.date.fromisoformat(round_.doc["date"])
    outputs = []
    if args.trf:
        outputs.append((args.trf, round_out.tournament_file(store, args.round, date, args.rounds)))
    if args.csv:
        outputs.append((args.csv, round_out.results_csv(round_).encode("utf-8")))
    if args.pgn:
        kept = store.records(args.round)
        games = []
        for board in round_.boards:
            number = board["board"]
            text = round_out.game_pgn(round_, number, kept.get(number))
            games.append(text)
            outputs.append((os.path.join(args.pgn, "board-%d.pgn" % number), text.encode()))
        every = "\n".join(games).encode("utf-8")
        outputs.append((os.path.join(args.pgn, "round-%d.pgn" % args.round), every))
    for path, data in outputs:
        try:
            if os.path.dirname(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
            files.replace(path, data)
        except OSError as error:
            raise Stop("cannot write %s: %s" % (path, error.strerror))
    done, total = round_.progress()
    print(
        "round %d (%d of %d finished): %s"
        % (args.round, done, total, ", ".join(p for p in (args.trf, args.csv, args.pgn) if p))
    )


def ask_bye_command(args):
    tournament = trf.read_file(args.trf)
    text = trf_write.with_byes(tournament, args.round, {args.player: args.kind})
    out = args.out or args.trf
    try:
        files.replace(out, trf_write.encoded(tournament, text))
    except OSError as error:
        raise Stop("cannot write %s: %s" % (out, error.strerror))
    print(
        "round %d: player %d asks a %s (%s)"
        % (args.round, args.player, rounds.BYES[args.kind], out)
    )
