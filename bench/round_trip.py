# SPDX-License-Identifier: MIT
# The round checked by a real pairing engine: bbpPairings (github.com/BieremaBoyzProgramming/
# bbpPairings, Apache-2.0) generates a random tournament (-g), pairs each round (-p); our round
# model loads the pairings (sim/rounds.py), results come in through its results API from a seeded
# source (a forfeit, a double forfeit, a half-point bye asked, the pairing-allocated bye, a result
# changed by the arbiter), our writer adds them to the tournament file (sim/trf_write.py), and
# bbpPairings checks the whole tournament (-c: no discrepancy) before it pairs the next round.
# docs/round.md has the figures. CI reaches no GitHub: bbpPairings is built here with make and g++
# from a clone (or a bare git folder) given as --source or BBPPAIRINGS_SOURCE, into build/; none of
# its code is in this repository.
#
#   python bench/round_trip.py --source PATH [--players 41] [--rounds 5] [--seed 7]
#                              [--dialect both|trf26|trf16] [--keep DIR]
import argparse
import datetime
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import sim  # noqa: E402,F401  (puts the firmware on the path)
from sim import round_out, round_store, rounds, trf, trf_write  # noqa: E402

BUILD = os.path.join(ROOT, "build", "bbpPairings")
# Names as a pairing file may carry them: letters with marks, apostrophes, and text that would be
# markup or a formula if anything ran it. Every one travels as data, through bbpPairings and back.
NAMES = [
    "Kowalski, Jan",
    "Müller, Jürgen",
    "Ødegaard, Sølvi",
    "O'Brien, Seán",
    "Nováková, Eva",
    "Nguyễn, Thị Hương",
    "<script>alert(1)</script>, X",
    '=HYPERLINK("x"), Eve',
    "Ștefănescu, Ioana",
    "Łukasiewicz, Paweł",
    "van der Berg, Pieter-Jan",
    "Nepomniachtchi, Ian",
]
FIRST_DAY = datetime.date(2026, 5, 2)


class Failed(Exception):
    pass


def build(source):
    """The path of a bbpPairings binary: `source` itself if it is one, else built from it (a
    clone or a bare git folder) into build/bbpPairings, once per commit."""
    if os.path.isfile(source) and os.access(source, os.X_OK):
        return os.path.abspath(source)
    bare = os.path.isdir(os.path.join(source, "objects")) and os.path.isfile(
        os.path.join(source, "HEAD")
    )
    git = ["git", "--git-dir", source] if bare else ["git", "-C", source]
    commit = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True)
    stamp = os.path.join(BUILD, "commit")
    binary = os.path.join(BUILD, "bbpPairings.exe")
    if commit.returncode == 0 and os.path.exists(binary) and os.path.exists(stamp):
        with open(stamp) as handle:
            if handle.read().strip() == commit.stdout.strip():
                return binary
    shutil.rmtree(BUILD, ignore_errors=True)
    os.makedirs(BUILD)
    if commit.returncode == 0:
        archive = subprocess.run(git + ["archive", "HEAD"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", BUILD], input=archive.stdout, check=True)
    elif os.path.isfile(os.path.join(source, "Makefile")):
        shutil.copytree(source, BUILD, dirs_exist_ok=True)
    else:
        raise Failed("--source %s: neither a bbpPairings binary, clone nor git folder" % source)
    print("building bbpPairings in %s (make, g++)" % BUILD, flush=True)
    made = subprocess.run(["make", "-j2"], cwd=BUILD, capture_output=True, text=True)
    if made.returncode != 0 or not os.path.exists(binary):
        raise Failed("make failed:\n" + made.stdout[-2000:] + made.stderr[-2000:])
    with open(stamp, "w") as handle:
        handle.write(commit.stdout.strip())
    return binary


def bbp(binary, *args, folder):
    done = subprocess.run([binary, "--dutch", *args], cwd=folder, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def first_file(binary, folder, players, rounds_total, seed, dialect):
    """The tournament file before round 1 in `dialect`: bbpPairings' random players (-g) with
    their ratings, our names on them, no results."""
    with open(os.path.join(folder, "generator.txt"), "w") as handle:
        handle.write("PlayersNumber=%d\nRoundsNumber=%d\n" % (players, rounds_total))
    status, out, err = bbp(
        binary, "-g", "generator.txt", "-o", "generated.trf", "-s", str(seed), folder=folder
    )
    if status != 0:
        raise Failed("bbpPairings -g: %s%s" % (out, err))
    with open(os.path.join(folder, "generated.trf"), "rb") as handle:
        generated = trf.read(handle.read(), "generated.trf")
    lines = []
    for player in generated.players.values():
        name = NAMES[(player.number - 1) % len(NAMES)]
        if player.number > len(NAMES):
            name = "%s %d" % (name, player.number)
        name = name[: trf.MAX_NAME]
        lines.append(
            "001 %4d %s%3s %-33s %4d %3s %11s %10s %4s %4d"
            % (player.number, "m", "", name, player.rating, "ITA", "", "", "0.0", player.number)
        )
    head = [
        "012 Round trip, bbpPairings seed %d" % seed,
        "022 Simulated hall",
        "032 ITA",
        "042 %s" % FIRST_DAY.strftime("%Y/%m/%d"),
        "092 Individual: Swiss-System",
    ]
    if dialect == "trf26":
        head += ["122 90 min + 30 s", "142 %d" % rounds_total, "152 W", "222 5400+30"]
        newline = "\r"
    else:
        head += ["122 90 min + 30 s", "XXR %d" % rounds_total, "XXC white1"]
        newline = "\r\n"
    path = os.path.join(folder, "round-0.trf")
    with open(path, "wb") as handle:
        handle.write((newline.join(head + lines) + newline).encode("utf-8"))
    return path


def outcome(chance, white, black):
    """A result drawn from the players' ratings: Elo's expected score, about a third drawn."""
    expected = 1 / (1 + 10 ** ((black["rating"] - white["rating"]) / 400))
    draw = 0.35 * (1 - abs(expected - 0.5))
    roll = chance.random()
    if roll < expected - draw / 2:
        return "1-0"
    if roll < expected + draw / 2:
        return "1/2-1/2"
    return "0-1"


def discrepancies(text):
    """The lines of bbpPairings -c's report that name a pairing it would not make."""
    count = 0
    listing = False
    for line in text.splitlines():
        if line.strip().startswith("Checker pairings"):
            listing = True
        elif not line.strip():
            listing = False
        elif listing:
            count += 1
        if "No valid pairing" in line:
            count += 1
    return count


def run(binary, folder, players, rounds_total, seed, dialect, say):
    store = round_store.Rounds(os.path.join(folder, "rounds"))
    path = first_file(binary, folder, players, rounds_total, seed, dialect)
    chance = random.Random(seed)
    figures = dict(
        players=players,
        rounds=0,
        games=0,
        results=0,
        at_clocks=0,
        by_arbiter=0,
        changed=0,
        forfeits=0,
        pab=0,
        asked=0,
        discrepancies=0,
        pairing_s=0.0,
    )
    for number in range(1, rounds_total + 1):
        if number == 3:  # a player asks a half-point bye for round 3 before it is paired
            tournament = trf.read_file(path)
            asker = max(tournament.players)  # the lowest rated
            text = trf_write.with_byes(tournament, number, {asker: "H"})
            with open(path, "wb") as handle:
                handle.write(trf_write.encoded(tournament, text))
        pairs = os.path.join(folder, "pairs-%d.txt" % number)
        started = time.monotonic()
        status, out, err = bbp(
            binary, os.path.basename(path), "-p", os.path.basename(pairs), folder=folder
        )
        figures["pairing_s"] += time.monotonic() - started
        if status != 0:
            raise Failed("bbpPairings -p, round %d: %s%s" % (number, out, err))
        day = FIRST_DAY + datetime.timedelta(days=number - 1)
        round_, notes = store.load_trf(number, path, pairs, "90+30", day, by="round trip")
        for note in notes:
            say("  note: " + note)
        for board in round_.boards:
            result = outcome(chance, board["white"], board["black"])
            by = "clock %d" % board["board"]
            if number == 2 and board["board"] == len(round_.boards):
                result, by = "1-0 forfeit", "arbiter"  # Black did not come
            if number == 4 and board["board"] == len(round_.boards) - 1:
                result, by = "0-0 forfeit", "arbiter"  # neither came
            store.enter(number, board["board"], result, by)
            figures["by_arbiter" if by == "arbiter" else "at_clocks"] += 1
            figures["forfeits"] += result.endswith("forfeit")
        if number == 2:  # a slip read wrong at the clock, set right by the arbiter
            held = store.get(number).result(1)["result"]
            other = "0-1" if held != "0-1" else "1-0"
            store.enter(number, 1, other, "arbiter", change=True)
            figures["changed"] += 1
        round_ = store.get(number)
        figures["pab"] += sum(1 for bye in round_.byes if bye["kind"] == "U")
        figures["asked"] += sum(1 for bye in round_.byes if bye["kind"] == "H")
        figures["games"] += len(round_.boards)
        figures["results"] += len(round_.boards)
        data = round_out.tournament_file(store, number)
        path = os.path.join(folder, "round-%d.trf" % number)
        with open(path, "wb") as handle:
            handle.write(data)
        back = trf.read(data, path)
        for player, cell in round_.cells().items():
            if back.players[player].cell(number) != cell:
                raise Failed("round %d: player %d's cell read back differs" % (number, player))
        with open(os.path.join(folder, "results-%d.csv" % number), "w", encoding="utf-8") as out:
            out.write(round_out.results_csv(round_))
        for board in round_.boards:
            round_out.game_pgn(round_, board["board"])
        status, out, err = bbp(binary, os.path.basename(path), "-c", folder=folder)
        if status != 0:
            raise Failed("bbpPairings -c, round %d: %s%s" % (number, out, err))
        found = discrepancies(out)
        figures["discrepancies"] += found
        figures["rounds"] = number
        byes = ", ".join("%d %s" % (bye["player"]["number"], bye["kind"]) for bye in round_.byes)
        say(
            "  round %d: %d boards, byes %s; results %d; bbpPairings -c: %d discrepanc%s"
            % (
                number,
                len(round_.boards),
                byes or "none",
                len(round_.boards),
                found,
                "y" if found == 1 else "ies",
            )
        )
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description="The bbpPairings round trip (docs/round.md).")
    parser.add_argument(
        "--source",
        default=os.environ.get("BBPPAIRINGS_SOURCE"),
        help="a bbpPairings clone, bare git folder or binary (default: $BBPPAIRINGS_SOURCE)",
    )
    parser.add_argument("--players", type=int, default=41)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dialect", choices=("both", "trf26", "trf16"), default="both")
    parser.add_argument(
        "--keep", metavar="DIR", help="keep the files here (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    if not args.source:
        print(
            "error: give --source PATH (or BBPPAIRINGS_SOURCE): a clone of bbpPairings",
            file=sys.stderr,
        )
        return 2
    if args.players < 40 or args.rounds < 5:
        print("error: the round trip is at least 40 players and 5 rounds", file=sys.stderr)
        return 2
    try:
        binary = build(args.source)
        total = 0
        for dialect in ("trf26", "trf16") if args.dialect == "both" else (args.dialect,):
            folder = (
                os.path.join(args.keep, dialect)
                if args.keep
                else tempfile.mkdtemp(prefix="round-trip-")
            )
            os.makedirs(folder, exist_ok=True)
            print(
                "%s, %d players, %d rounds, seed %d (%s):"
                % (dialect, args.players, args.rounds, args.seed, folder)
            )
            figures = run(binary, folder, args.players, args.rounds, args.seed, dialect, print)
            print(
                "  players %(players)d, rounds %(rounds)d, games %(games)d, results %(results)d"
                " (%(at_clocks)d as the clocks would enter them, %(by_arbiter)d by the arbiter,"
                " %(changed)d changed by the arbiter), forfeits %(forfeits)d, pairing-allocated"
                " byes %(pab)d, half-point byes asked %(asked)d, discrepancies %(discrepancies)d;"
                " bbpPairings paired the %(rounds)d rounds in %(pairing_s).2f s" % figures
            )
            total += figures["discrepancies"]
            if not args.keep:
                shutil.rmtree(folder)
    except (Failed, rounds.RoundError, trf.TrfError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 1
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
