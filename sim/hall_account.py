# SPDX-License-Identifier: MIT
# Where a hall tool finds the broker and as whom it connects: the arguments, the password (a file
# or $HALL_PASSWORD), an accounts file, and a first connection that says at once, in one line,
# that the broker refused the account or cannot be reached (the tool then exits 2).
import os
import threading

from app.hall import check_hall_name

CHECK_S = 5.0


class AccountError(ValueError):
    """The broker's address, an account or its password is wrong: one line saying which."""


def broker_arguments(parser, user):
    parser.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT")
    parser.add_argument(
        "--hall", default="hall", help="the hall's name (the topics' second level)"
    )
    parser.add_argument("--user", default=user, help="the broker account (default %s)" % user)
    parser.add_argument(
        "--password-file",
        metavar="FILE",
        help="a file holding the account's password (else $HALL_PASSWORD)",
    )


def broker_address(args):
    """(host, port, user, password) of the broker arguments; AccountError saying what is
    wrong."""
    try:
        check_hall_name(args.hall)
    except ValueError as error:
        raise AccountError("--hall: %s" % error)
    host, _, port = args.broker.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise AccountError("--broker: HOST:PORT, e.g. 192.168.1.10:1883")
    if args.password_file:
        try:
            with open(args.password_file) as handle:
                password = handle.read().strip()
        except OSError as error:
            raise AccountError("--password-file %s: %s" % (args.password_file, error.strerror))
    else:
        password = os.environ.get("HALL_PASSWORD", "")
    if not password:
        raise AccountError("the broker needs a password: --password-file FILE or $HALL_PASSWORD")
    return host, int(port), args.user, password


def read_accounts(path):
    """{account: password} of a file of `name:password` lines (as mosquitto_passwd -U takes
    them before it hashes them); AccountError for a file that cannot be one."""
    try:
        with open(path) as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise AccountError("--accounts %s: %s" % (path, error.strerror))
    accounts = {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, colon, password = line.partition(":")
        if not colon or not name or not password:
            raise AccountError("--accounts %s, line %d: expected name:password" % (path, number))
        accounts[name] = password
    if not accounts:
        raise AccountError("--accounts %s: no account in it" % path)
    return accounts


def check(host, port, user, password):
    """Connect once as `user` and go: AccountError with the broker's refusal, or when it cannot
    be reached within 5 s."""
    import paho.mqtt.client as mqtt

    answered = threading.Event()
    said = []

    def on_connect(client, userdata, flags, reason, properties):
        said.append(reason)
        answered.set()

    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2,
        client_id=user,
        protocol=mqtt.MQTTv311,
        reconnect_on_failure=False,
    )
    client.username_pw_set(user, password)
    client.on_connect = on_connect
    try:
        client.connect(host, port, 30)
    except OSError as error:
        raise AccountError(
            "cannot reach the broker at %s:%d: %s" % (host, port, error.strerror or error)
        )
    client.loop_start()
    try:
        if not answered.wait(CHECK_S):
            raise AccountError(
                "the broker at %s:%d did not answer in %g s" % (host, port, CHECK_S)
            )
        if said[0].is_failure:
            raise AccountError(
                "the broker at %s:%d refused the account %s: %s" % (host, port, user, said[0])
            )
    finally:
        client.disconnect()
        client.loop_stop()
