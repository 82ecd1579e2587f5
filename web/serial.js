// SPDX-License-Identifier: MIT
// The clock's serial protocol from the page (README "Presets over serial"), over one small
// transport: a channel with send(text) and an onText(handler) for what the clock writes. Two
// channels: the in-page clock's own serial port (the firmware's SerialChannel on the browser
// HAL) and a board's USB serial through Web Serial (Chromium). The same Link talks to both.

export class ClockError extends Error {}

// The in-page clock: bytes go to its serial port and the loop runs a pass at once. A channel is
// the line of one board's clock: once the chooser starts another, it is closed.
export class PageChannel {
  constructor(clock) {
    this.clock = clock;
    this.page = clock.page;
    this.handler = () => {};
    this.label = "the clock in this page";
  }
  onText(handler) {
    this.handler = handler;
  }
  async send(text) {
    if (this.clock.page !== this.page) throw new ClockError("the page's clock is another board's now");
    this.clock.serialIn(text);
  }
  received(text) {
    this.handler(text);
  }
  async close() {}
}

// A board on USB through Web Serial.
export class WebSerialChannel {
  constructor(port) {
    this.port = port;
    this.handler = () => {};
    const info = port.getInfo ? port.getInfo() : {};
    this.label = "the board on USB" + (info.usbVendorId === 0x2e8a ? " (RP2040)" : "");
    this.closed = false;
  }
  static supported() {
    return typeof navigator !== "undefined" && "serial" in navigator;
  }
  static async request() {
    const port = await navigator.serial.requestPort({ filters: [] });
    await port.open({ baudRate: 115200 });
    const channel = new WebSerialChannel(port);
    channel.readLoop();
    return channel;
  }
  onText(handler) {
    this.handler = handler;
  }
  async readLoop() {
    const decoder = new TextDecoder("ascii");
    while (!this.closed && this.port.readable) {
      this.reader = this.port.readable.getReader();
      try {
        for (;;) {
          const { value, done } = await this.reader.read();
          if (done) break;
          this.handler(decoder.decode(value, { stream: true }));
        }
      } catch (error) {
        this.handler("\n");
        this.lost = String(error);
      } finally {
        this.reader.releaseLock();
      }
    }
  }
  async send(text) {
    // One writer for the port's life: writes queue in order, and a reply may come before the
    // last write's promise settles.
    if (!this.writer) this.writer = this.port.writable.getWriter();
    await this.writer.write(new TextEncoder().encode(text));
  }
  async close() {
    this.closed = true;
    try {
      if (this.reader) await this.reader.cancel();
      if (this.writer) this.writer.releaseLock();
      await this.port.close();
    } catch (error) {
      /* the port is gone already */
    }
  }
}

const MULTI = /^(PRESET LIST|HELP)$/i;
const LISTED = /^(\d+) ([^=]*)=(.*)$/;
const LISTED_COUNT = /^OK (\d+) presets?$/;

// Commands and their answers, one at a time; EV lines go to onEvent.
export class Link {
  // What the page sends is folded to ASCII first (typographic quotes, primes, dashes, spaces that
  // do not break), as the clock's parsers read them: the page sets it to the clock's own fold.
  static fold = (text) => text;

  constructor(channel, timeoutMs = 3000) {
    this.channel = channel;
    this.timeoutMs = timeoutMs;
    this.partial = "";
    this.waiting = null; // {command, lines, resolve, reject, timer}
    this.queue = Promise.resolve();
    this.onEvent = () => {};
    this.onStray = () => {};
    channel.onText((text) => this.take(text));
  }

  take(text) {
    this.partial += text;
    const lines = this.partial.split(/\r\n|\r|\n/);
    this.partial = lines.pop();
    for (const line of lines) if (line !== "") this.line(line);
  }

  line(line) {
    if (line.startsWith("EV ")) {
      try {
        this.onEvent(JSON.parse(line.slice(3)));
      } catch (error) {
        this.onStray(line);
      }
      return;
    }
    const waiting = this.waiting;
    if (!waiting) {
      this.onStray(line);
      return;
    }
    if (/[^ -~]/.test(line) || (/^PRESET LIST$/i.test(waiting.command) && !LISTED.test(line) && !/^(OK|ERR)/.test(line))) {
      clearTimeout(waiting.timer);
      this.waiting = null;
      waiting.reject(
        new ClockError(
          `${this.channel.label} answered "${shorten(printable(line))}" to ${waiting.command}: not the clock's protocol (is the clock's firmware running there?)`,
        ),
      );
    } else if (line.startsWith("OK") || line.startsWith("ERR")) {
      clearTimeout(waiting.timer);
      this.waiting = null;
      waiting.resolve({ ok: line.startsWith("OK"), final: line, lines: waiting.lines });
    } else if (MULTI.test(waiting.command)) {
      waiting.lines.push(line);
    } else {
      clearTimeout(waiting.timer);
      this.waiting = null;
      waiting.reject(
        new ClockError(
          `${this.channel.label} answered "${shorten(printable(line))}" to ${waiting.command}: not the clock's protocol (is the clock's firmware running there?)`,
        ),
      );
    }
  }

  // No more commands: the one waiting is refused at once (its board was switched away from).
  close(why = "the page's clock is another board's now") {
    this.closed = why;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new ClockError(why));
    }
  }

  // {ok, final, lines}; rejects with a ClockError when there is no answer in time, or garbage.
  command(command) {
    command = Link.fold(command);
    if (this.closed) return Promise.reject(new ClockError(this.closed));
    if (!/^[ -~]*$/.test(command)) {
      return Promise.reject(new ClockError("only printable ASCII goes over the serial line"));
    }
    const run = () =>
      new Promise((resolve, reject) => {
        if (this.closed) return reject(new ClockError(this.closed));
        const timer = setTimeout(() => {
          this.waiting = null;
          reject(
            new ClockError(
              `no answer from ${this.channel.label} in ${this.timeoutMs / 1000} s to ${command}: is it the clock's firmware, and is the port free?`,
            ),
          );
        }, this.timeoutMs);
        this.waiting = { command, lines: [], resolve, reject, timer };
        this.channel.send(command + "\n").catch((error) => {
          clearTimeout(timer);
          this.waiting = null;
          reject(new ClockError(`cannot write to ${this.channel.label}: ${error}`));
        });
      });
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  async ok(command) {
    const answer = await this.command(command);
    if (!answer.ok) throw new ClockError(answer.final.replace(/^ERR /, ""));
    return answer.final.replace(/^OK ?/, "");
  }

  async json(command) {
    const text = await this.ok(command);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ClockError(`${command} answered what is not JSON: ${shorten(text)}`);
    }
  }

  // [{number, name, spec}] of the clock's list, checked whole: a garbled list is an error.
  async presets() {
    const answer = await this.command("PRESET LIST");
    if (!answer.ok) throw new ClockError(answer.final.replace(/^ERR /, ""));
    const count = LISTED_COUNT.exec(answer.final);
    const found = answer.lines.map((line, index) => {
      const listed = LISTED.exec(line);
      if (!listed || Number(listed[1]) !== index + 1) {
        throw new ClockError(`PRESET LIST answered "${shorten(line)}", not "n name = spec"`);
      }
      return { number: index + 1, name: listed[2].trim(), spec: listed[3].trim() };
    });
    if (!count || Number(count[1]) !== found.length) {
      throw new ClockError(`PRESET LIST said "${answer.final}" after ${found.length} lines`);
    }
    return found;
  }

  // Make the clock's list `entries` ([{name, spec}]) in their order with PRESET DEL and REPLACE, as
  // the desktop tool restores a backup: the presets past the names both lists start with go,
  // then the rest is added (the clock never holds none: its first stays until the new first is
  // in). Each command is one atomic write on the clock; `say(line)` tells each answer. Returns
  // how many were refused.
  async restore(entries, say = () => {}) {
    const clock = await this.presets();
    let refused = 0;
    const obey = async (command) => {
      const answer = await this.command(command);
      if (!answer.ok) refused += 1;
      say(`${command.split(" = ")[0]}: ${answer.final}`);
    };
    let kept = 0;
    while (kept < Math.min(clock.length, entries.length) && clock[kept].name === entries[kept].name) {
      kept += 1;
    }
    for (let number = clock.length; number > Math.max(kept, 1); number--) {
      await obey(`PRESET DEL ${number}`);
    }
    let start = 0;
    if (kept === 0) {
      await obey(`PRESET REPLACE ${entries[0].name} = ${entries[0].spec}`);
      await obey("PRESET DEL 1");
      start = 1;
    }
    for (const entry of entries.slice(start)) await obey(`PRESET REPLACE ${entry.name} = ${entry.spec}`);
    return refused;
  }

  // The presets file a backup is: what `python -m sim.serial_cli presets list` prints.
  static listing(presets) {
    return presets.map((p) => `${p.number} ${p.name} = ${p.spec}`).join("\n") + `\nOK ${presets.length} presets\n`;
  }
}

function printable(text) {
  return text.replace(/[^ -~]/g, (c) => "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0"));
}

function shorten(text) {
  return text.length > 80 ? text.slice(0, 77) + "..." : text;
}
