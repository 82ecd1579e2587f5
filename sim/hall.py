# SPDX-License-Identifier: MIT
# `python -m sim hall`: a simulated hall on its own Mosquitto with the arbiter's page; `hall
# gateway` (clocks on USB onto a broker) and `hall broadcast` (one PGN per board) (docs/hall.md).
import os
import signal
import subprocess
import sys
import tempfile
import threading

import sim  # noqa: F401  (puts the firmware on the path)
from app.hall import check_hall_name
from sim.hall_account import broker_arguments

EXIT_INPUT = 2


def hall_command(args):
    action = getattr(args, "hall_action", None)
    if action == "gateway":
        from sim import hall_gateway

        return hall_gateway.run(args)
    if action == "broadcast":
        from sim import hall_broadcast

        return hall_broadcast.run(args)
    return simulate(args)


def simulate(args):
    from sim import web
    from sim.broker import Broker, BrokerError
    from sim.hall_sim import SimHall

    try:
        check_hall_name(args.hall)
        if not 1 <= args.clocks <= 2000:
            raise ValueError("--clocks: 1 to 2000")
        folder = tempfile.mkdtemp(prefix="clock-broker-")
        broker = Broker(folder, args.hall, range(1, args.clocks + 1), args.host)
        broker.start()
    except (ValueError, BrokerError, OSError) as error:
        print("error: %s" % error, file=sys.stderr)
        return EXIT_INPUT
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    httpd = None
    hall = None
    try:
        httpd = web.server(args.host, args.web_port)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
        page = "http://%s:%d/hall.html" % (host, httpd.server_address[1])
        ws = "ws://%s:%d" % (broker.host, broker.ws_port)
        hall = SimHall(broker, args.clocks, args.hall, args.virtual, not args.arbiter_starts)
        print(
            "the hall's page (arbiter): %s#broker=%s&hall=%s&user=arbiter&password=%s&by=arbiter"
            % (page, ws, args.hall, broker.passwords["arbiter"])
        )
        print(
            "read-only: %s#broker=%s&hall=%s&user=viewer&password=%s"
            % (page, ws, args.hall, broker.passwords["viewer"])
        )
        print(
            "broker: mqtt://%s:%d (WebSockets %s), read-only user viewer, password %s"
            % (broker.host, broker.port, ws, broker.passwords["viewer"])
        )
        print("accounts and ACL: %s (passwd, acl, mosquitto.conf)" % folder)
        print(
            "%d clocks in hall %s%s; Ctrl-C stops"
            % (args.clocks, args.hall, ", virtual time" if args.virtual else "")
        )
        sys.stdout.flush()
        hall.run(args.seconds)
    except KeyboardInterrupt:
        pass
    except OSError as error:
        print("error: %s" % error, file=sys.stderr)
        return 1
    finally:
        if hall is not None:
            hall.close()
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        broker.stop()
    return 0


def add_command(commands):
    hall = commands.add_parser(
        "hall", help="a simulated hall on a local Mosquitto with the arbiter's page (docs/hall.md)"
    )
    hall.add_argument("--clocks", type=int, default=20, help="how many clocks (default 20)")
    hall.add_argument("--hall", default="club", help="the hall's name (default club)")
    hall.add_argument("--virtual", action="store_true", help="virtual time, as fast as it goes")
    hall.add_argument(
        "--arbiter-starts", action="store_true", help="the clocks wait for the page's start"
    )
    hall.add_argument("--host", default="127.0.0.1", help="the address the broker and page use")
    hall.add_argument("--web-port", type=int, default=8000, help="the page's port (0: any)")
    hall.add_argument("--seconds", type=float, help="stop after this long")
    hall.set_defaults(run=hall_command)
    actions = hall.add_subparsers(dest="hall_action")
    gateway = actions.add_parser(
        "gateway", help="follow clocks on USB and publish each on a broker"
    )
    broker_arguments(gateway, "gateway")
    gateway.add_argument(
        "--port",
        dest="ports",
        action="append",
        default=[],
        metavar="[BOARD=]PATH",
        help="a clock's serial port, and the board number it stands for when the clock has none",
    )
    gateway.add_argument(
        "--scan", action="store_true", help="also every /dev/ttyACM* that appears (a USB hub)"
    )
    gateway.add_argument(
        "--accounts",
        metavar="FILE",
        help="the boards' accounts, clock-N:password lines (the gateway publishes each board as"
        " its own account)",
    )
    gateway.add_argument("--timeout", type=float, default=5.0, help="seconds to wait per answer")
    broadcast = actions.add_parser(
        "broadcast", help="keep one PGN per board with %%clk and %%emt, from the broker"
    )
    broker_arguments(broadcast, "broadcast")
    broadcast.add_argument(
        "--out", required=True, metavar="DIR", help="round-R/board-B-N.pgn and results go here"
    )
    broadcast.add_argument("--round", type=int, default=1, help="the round's number (default 1)")
    broadcast.add_argument("--moves", metavar="DIR", help="board-N.pgn with the moves, merged")
    broadcast.add_argument("--seconds", type=float, help="stop after this long")
