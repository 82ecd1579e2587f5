# SPDX-License-Identifier: MIT
# A hall's Mosquitto: its configuration, password file and ACL written for a run, started, stopped.
#
# No anonymous access. Accounts (docs/hall.md): `clock-N` may publish only under its own board's
# topics and read only its own `cmd`; `gateway` publishes for every board of the hall and reads
# their `cmd`; `arbiter` reads everything and is the only one that publishes commands; `viewer`
# reads everything and publishes nothing. A packet over 8 KB is refused by the broker itself.
import os
import secrets
import shutil
import socket
import subprocess
import time

MAX_PACKET = 8192
OUT_TOPICS = ("state", "event", "alive", "answer")
READ_ONLY = ("viewer", "broadcast")


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


def acl(hall, boards, gateway=True):
    """The ACL's text: one account per clock, its own topics only."""
    base = "clock/%s" % hall
    lines = ["# The hall %s: written for this run (python -m sim hall)." % hall, ""]
    lines += ["user arbiter", "topic read %s/#" % base, "topic write %s/+/cmd" % base, ""]
    for name in READ_ONLY:
        lines += ["user " + name, "topic read %s/#" % base, ""]
    if gateway:
        lines.append("user gateway")
        lines += ["topic write %s/+/%s" % (base, topic) for topic in OUT_TOPICS]
        lines += ["topic read %s/+/cmd" % base, ""]
    for board in boards:
        lines.append("user clock-%d" % board)
        lines += ["topic write %s/%d/%s" % (base, board, topic) for topic in OUT_TOPICS]
        lines += ["topic read %s/%d/cmd" % (base, board), ""]
    return "\n".join(lines)


def config(folder, port, ws_port, host="127.0.0.1"):
    return "\n".join(
        [
            "# Written for this run by python -m sim hall.",
            "per_listener_settings false",
            "allow_anonymous false",
            "password_file %s" % os.path.join(folder, "passwd"),
            "acl_file %s" % os.path.join(folder, "acl"),
            "persistence false",
            # Run by root (CI), Mosquitto would become the user `mosquitto`, who cannot read a
            # folder of root's; by anyone else it stays who it is.
            "user %s" % ("root" if os.geteuid() == 0 else "mosquitto"),
            "max_packet_size %d" % MAX_PACKET,
            "max_queued_messages 1000",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_dest file %s" % os.path.join(folder, "mosquitto.log"),
            "listener %d %s" % (port, host),
            "listener %d %s" % (ws_port, host),
            "protocol websockets",
            "",
        ]
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
        with open(passwd, "w") as handle:
            handle.writelines("%s:%s\n" % item for item in self.passwords.items())
        os.chmod(passwd, 0o600)
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

    def restart(self):
        self.stop()
        return self.start()

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
