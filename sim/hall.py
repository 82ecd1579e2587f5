# SPDX-License-Identifier: MIT
# `python -m sim hall`: a simulated hall on its own Mosquitto with the arbiter's page; `hall
# gateway` (clocks on USB onto a broker) and `hall broadcast` (one PGN per board) (docs/hall.md).
import os
import shutil
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
    # Each clock's firmware unloads its notation modules after a parse (the board's RAM is
    # small): with no bytecode written (PYTHONDONTWRITEBYTECODE) each import would compile them.
    sys.dont_write_bytecode = False
    from sim import web
    from sim.broker import Broker, BrokerError
    from sim.hall_sim import USB_BOARD, SimHall

    folder = None
    try:
        check_hall_name(args.hall)
        if not 1 <= args.clocks <= 2000:
            raise ValueError("--clocks: 1 to 2000")
        wifi = args.clocks if args.board == "picow_oled" else args.wifi
        usb_board = USB_BOARD if args.board in (None, "picow_oled") else args.board
        from sim import boards

        if getattr(boards.load(usb_board), "WIFI", False):  # ValueError: no such board
            raise ValueError(
                "--board %s: a Wi-Fi board; --wifi N puts clocks on Wi-Fi" % usb_board
            )
        if not 0 <= wifi <= args.clocks:
            raise ValueError("--wifi: 0 to the number of clocks")
        if wifi:
            from sim.hall_wifi import client_class

            client_class()  # NoUmqtt, said at once, when umqtt.simple is not here
        folder = tempfile.mkdtemp(prefix="clock-broker-")
        broker = Broker(folder, args.hall, range(1, args.clocks + 1), args.host)
        broker.start()
    except (ValueError, BrokerError, OSError, RuntimeError) as error:
        print("error: %s" % error, file=sys.stderr)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        return EXIT_INPUT
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    httpd = None
    hall = None
    recorder = None
    try:
        httpd = web.server(args.host, args.web_port)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
        page = "http://%s:%d/hall.html" % (host, httpd.server_address[1])
        ws = "ws://%s:%d" % (broker.host, broker.ws_port)
        hall = SimHall(
            broker,
            args.clocks,
            args.hall,
            args.virtual,
            not args.arbiter_starts,
            wifi=wifi,
            board_name=usb_board,
        )
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
        print("accounts and ACL: %s (accounts.txt, passwd, acl, mosquitto.conf)" % folder)
        if args.out:
            recorder = subprocess.Popen(
                [sys.executable, "-m", "sim", "hall", "broadcast", "--hall", args.hall]
                + ["--broker", "%s:%d" % (broker.host, broker.port), "--out", args.out],
                env=dict(os.environ, HALL_PASSWORD=broker.passwords["broadcast"]),
            )
        if recorder is not None:
            print("the recorder: %s (round-1/: a PGN per game, results.json)" % args.out)
        else:
            print(
                "finished games wait on their clocks until a recorder takes them: --out DIR, or"
                " python -m sim hall broadcast --user broadcast (password %s)"
                % broker.passwords["broadcast"]
            )
        print(
            "%d clock%s in hall %s%s%s; Ctrl-C stops"
            % (
                args.clocks,
                "" if args.clocks == 1 else "s",
                args.hall,
                " (%d on Wi-Fi)" % wifi if wifi else "",
                ", virtual time" if args.virtual else "",
            )
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
        if recorder is not None:
            recorder.terminate()
            recorder.wait(10)
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        broker.remove()  # its run folder too: accounts and passwords are for this run only
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
    hall.add_argument(
        "--wifi",
        type=int,
        default=0,
        metavar="N",
        help="boards 1 to N are Wi-Fi clocks (picow_oled): the firmware's own network and MQTT"
        " code through umqtt.simple, on a simulated Wi-Fi",
    )
    hall.add_argument(
        "--board",
        help="the USB clocks' board (default pico_tm1637: the simulator draws its 9-byte frame"
        " fastest); picow_oled: every clock on Wi-Fi",
    )
    hall.add_argument(
        "--out", metavar="DIR", help="run the recorder too (hall broadcast): the games go here"
    )
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
