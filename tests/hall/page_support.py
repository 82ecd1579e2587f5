# SPDX-License-Identifier: MIT
# For the hall page's tests in headless Chromium (tier 6): the page served, Chromium driven a request
# at a time (page_driver.mjs), clocks run at the wall clock's pace.
import json
import os
import subprocess
import threading
import time

from sim import web

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Page:
    """A headless Chromium page; each call waits for the browser's answer."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["node", os.path.join(ROOT, "tests", "hall", "page_driver.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _ask(self, request):
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the browser went away"
        reply = json.loads(line)
        if not reply["ok"]:
            raise AssertionError("%s: %s" % (request, reply["error"]))
        return reply["value"]

    def goto(self, url):
        return self._ask({"do": "goto", "url": url})

    def eval(self, js):
        return self._ask({"do": "eval", "js": js})

    def wait(self, js, timeout=10.0):
        """The value of `js` once it is true (polled in the page), AssertionError after
        `timeout` seconds."""
        return self._ask({"do": "wait", "js": js, "timeout": int(timeout * 1000)})

    def click(self, selector):
        return self._ask({"do": "click", "selector": selector})

    def fill(self, selector, value):
        return self._ask({"do": "fill", "selector": selector, "value": value})

    def errors(self):
        return self._ask({"do": "errors"})

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.stdout.close()


class Served:
    """The web folder served on a free port."""

    def __init__(self):
        self.httpd = web.server("127.0.0.1", 0)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = "http://127.0.0.1:%d/hall.html" % self.httpd.server_address[1]

    def url(self, brokered, user="arbiter", extra=""):
        return "%s#broker=ws://127.0.0.1:%d&hall=club&user=%s&password=%s%s" % (
            self.base,
            brokered.ws_port,
            user,
            brokered.passwords[user],
            extra,
        )

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class RealTime(threading.Thread):
    """Runs the virtual-time clocks at the wall clock's pace, from `epoch` on."""

    def __init__(self, clocks):
        threading.Thread.__init__(self, daemon=True)
        self.clocks = clocks
        self.epoch = time.time()
        self.starts = [clock.hal.now for clock in clocks]
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def virtual(self, index, epoch_ms):
        return self.starts[index] + int(epoch_ms - self.epoch * 1000)

    def run(self):
        while not self.stop.is_set():
            with self.lock:
                for index, clock in enumerate(self.clocks):
                    clock.run_until(self.virtual(index, time.time() * 1000))
            self.stop.wait(0.005)

    def close(self):
        self.stop.set()
        self.join(5)


def tile(board, part):
    """A JS expression: the text of `part` (a selector) on board `board`'s tile."""
    return "document.querySelector('#tiles .tile[data-board=\"%d\"] %s').textContent" % (
        board,
        part,
    )
