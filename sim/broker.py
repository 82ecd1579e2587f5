# SPDX-License-Identifier: MIT
# A hall's Mosquitto: its configuration, password file and ACL written for a run, started, stopped.
#
# No anonymous access, and a client's id is its account's name (use_username_as_clientid): no
# account can take another's place on the broker, whatever id it asks for. Accounts
# (docs/hall.md): `clock-N`, board N's (the Wi-Fi clock itself, or the USB gateway for it),
# publishes only under its board's topics and reads only its `cmd` and `ack`; `arbiter` reads
# everything and is the only one that publishes commands; `broadcast`, the hall's recorder,
# reads what the clocks publish and acknowledges their finished games; `viewer` reads what the
# clocks publish (neither of those two reads a command); `gateway`, the USB gateway's own
# connection, publishes only its heartbeat. A packet over 16 KB is refused by the broker itself
# (a finished game's message is 13 KB at most: 640 entries).
import ipaddress
import os
import secrets
import shutil
import socket
import subprocess
import time

MAX_PACKET = 16384
OUT_TOPICS = ("state", "event", "alive", "answer", "game")
READ_TOPICS = OUT_TOPICS  # what a viewer and the recorder read: never `cmd`
RECORDER = "broadcast"
READ_ONLY = ("viewer", RECORDER)


class BrokerError(RuntimeError):
    """Mosquitto is missing, or would not start: one line saying why."""


def mosquitto():
    """The mosquitto binary; BrokerError saying how to get one."""
    for path in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if path and os.path.exists(path):
            return path
    raise BrokerError(
        "no mosquitto: apt-get install mosquitto (make hall installs it when it is missing)"
    )


def free_port(host="127.0.0.1"):
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def acl(hall, boards):
    """The ACL's text: one account per clock, its own topics only."""
    base = "clock/%s" % hall
    lines = ["# The hall %s: written for this run (python -m sim hall)." % hall, ""]
    lines += ["user arbiter", "topic read %s/#" % base, "topic write %s/+/cmd" % base, ""]
    for name in READ_ONLY:
        lines.append("user " + name)
        lines += ["topic read %s/+/%s" % (base, topic) for topic in READ_TOPICS]
        if name == RECORDER:
            lines.append("topic write %s/+/ack" % base)
        lines.append("")
    lines += ["user gateway", "topic write %s/gateway/alive" % base, ""]
    for board in boards:
        lines.append("user clock-%d" % board)
        lines += ["topic write %s/%d/%s" % (base, board, topic) for topic in OUT_TOPICS]
        lines += ["topic read %s/%d/cmd" % (base, board), "topic read %s/%d/ack" % (base, board)]
        lines.append("")
    return "\n".join(lines)


def listener(port, host):
    """A listener's lines. A client's id is its account, whatever id it asks for (a setting of
    each listener's: before any listener it sets only the default one, which a configuration
    with listeners of its own does not have). On an IPv4 address the WebSockets listener needs
    socket_domain as well, or libwebsockets listens on every address (Mosquitto 2.0.11)."""
    lines = ["listener %d %s" % (port, host), "use_username_as_clientid true"]
    try:
        if ipaddress.ip_address(host).version == 4:
            lines.append("socket_domain ipv4")
    except ValueError:  # a name: Mosquitto resolves it for MQTT
        pass
    return lines


def config(folder, port, ws_port, host="127.0.0.1"):
    return "\n".join(
        [
            "# Written for this run by python -m sim hall.",
            "per_listener_settings false",
            "allow_anonymous false",
            "password_file %s" % os.path.join(folder, "passwd"),
            "acl_file %s" % os.path.join(folder, "acl"),
            # Sessions (the commands waiting for a clock away) and retained states outlive a
            # restart of the broker; written every 10 s and when it stops.
            "persistence true",
            "persistence_location %s/" % folder,
            "autosave_interval 10",
            # Run by root (CI), Mosquitto would become the user `mosquitto`, who cannot read a
            # folder of root's; by anyone else it stays who it is.
            "user %s" % ("root" if os.geteuid() == 0 else "mosquitto"),
            "max_packet_size %d" % MAX_PACKET,
            "max_queued_messages 1000",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_dest file %s" % os.path.join(folder, "mosquitto.log"),
        ]
        + listener(port, host)
        + listener(ws_port, host)
        + ["protocol websockets", ""]
    )


class Broker:
    """Mosquitto for a hall in `folder`: accounts for `boards` with passwords made for the run
    (`passwords`: name -> password), MQTT on `port` and WebSockets on `ws_port`."""

    def __init__(self, folder, hall, boards, host="127.0.0.1", port=0, ws_port=0):
        self.folder = folder
        self.hall = hall
        self.host = host
        self.port = port or free_port(host)
        self.ws_port = ws_port or free_port(host)
        self.process = None
        names = ["arbiter", "gateway"] + list(READ_ONLY) + ["clock-%d" % n for n in boards]
        self.passwords = {name: secrets.token_urlsafe(12) for name in names}
        os.makedirs(folder, exist_ok=True)
        passwd = os.path.join(folder, "passwd")
        # The accounts in clear (for the USB gateway's --accounts), then hashed for Mosquitto.
        self.accounts = os.path.join(folder, "accounts.txt")
        for path in (self.accounts, passwd):
            with open(path, "w") as handle:
                os.chmod(path, 0o600)
                handle.writelines("%s:%s\n" % item for item in self.passwords.items())
        tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
        hashed = subprocess.run([tool, "-U", passwd], capture_output=True, text=True)
        if hashed.returncode != 0:
            raise BrokerError("mosquitto_passwd -U refused: %s" % hashed.stderr.strip())
        with open(os.path.join(folder, "acl"), "w") as handle:
            handle.write(acl(hall, boards))
        self.conf = os.path.join(folder, "mosquitto.conf")
        with open(self.conf, "w") as handle:
            handle.write(config(folder, self.port, self.ws_port, host))

    def start(self, wait=5.0):
        self.process = subprocess.Popen(
            [mosquitto(), "-c", self.conf],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = self.process.stderr.read().decode(errors="replace").strip()
                raise BrokerError("mosquitto stopped at once: %s" % (said or self.log_tail()))
            if _listening(self.host, self.port) and _listening(self.host, self.ws_port):
                return self
            time.sleep(0.02)
        self.stop()
        raise BrokerError("mosquitto did not listen on %d within %g s" % (self.port, wait))

    def stop(self):
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None and process.stderr is not None:
            process.stderr.close()

    def kill(self):
        """Gone at once, as a crash or a power cut takes it (SIGKILL: nothing saved)."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        if process is not None and process.stderr is not None:
            process.stderr.close()

    def restart(self):
        self.stop()
        return self.start()

    def remove(self):
        """Stopped, and its run folder (accounts, ACL, log, saved sessions) gone."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_tail(self, lines=5):
        try:
            with open(os.path.join(self.folder, "mosquitto.log"), errors="replace") as handle:
                return " / ".join(handle.read().strip().splitlines()[-lines:])
        except OSError:
            return ""

    def __enter__(self):
        return self if self.process is not None else self.start()

    def __exit__(self, *exc):
        self.stop()


def _listening(host, port):
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False
