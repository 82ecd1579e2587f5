# python -m sim: the simulator's command line.
import argparse
import sys

import sim  # noqa: F401  (puts the firmware on the path)
from notation import registry
from notation.errors import PresetError
from sim import replay as replaying


def replay_command(args):
    try:
        if args.pcn:
            setup, elapsed = load_record(args.pcn)
        else:
            if args.preset is None or args.moves is None:
                raise replaying.ReplayError("replay needs --preset and --moves, or --pcn RECORD")
            setup = registry.parse(
                args.preset, args.format, mode=args.mode, hourglass=args.hourglass, word=args.word
            )
            elapsed = replaying.parse_moves(args.moves)
    except (PresetError, replaying.ReplayError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    replaying.write(replaying.replay(setup, elapsed), sys.stdout)
    return 0


def load_record(path):
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise replaying.ReplayError("cannot read %s: %s" % (path, error.strerror))
    if path.endswith(".toml"):
        from notation import pcn_toml as reader
    else:
        from notation import pcn as reader
    setup, elapsed, _sides = reader.parse_record(text)
    for index, value in enumerate(elapsed):
        if value is None:
            raise replaying.ReplayError("%s: ply %d has no elapsed_ms" % (path, index + 1))
    return setup, elapsed


def build_parser():
    parser = argparse.ArgumentParser(prog="python -m sim", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    play = commands.add_parser("replay", help="replay a game's move times as JSON Lines")
    play.add_argument("--preset", help="the time control, in any supported notation")
    play.add_argument("--format", default="auto", choices=("auto",) + registry.FORMATS)
    play.add_argument("--mode", choices=registry.MODES, help="increment mode (chessclock)")
    play.add_argument("--hourglass", action="store_true", help="hourglass option (chessclock)")
    play.add_argument("--word", action="store_true", help="Word penalty option (chessclock)")
    play.add_argument("--moves", help="elapsed ms of each ply, first player first: 8000,12000")
    play.add_argument("--pcn", metavar="RECORD", help="a PCN game record (.json or .toml)")
    play.set_defaults(run=replay_command)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from sim import demo

        return demo.main()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
