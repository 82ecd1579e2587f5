// SPDX-License-Identifier: MIT
// The hall page's reading of a clock's messages: each checked before use (a message that is not
// what a clock sends is refused with the reason, never half used), and a side's figures run from
// a state as the clock runs them (firmware/app/commands.py: `rate`, `rates`, `next_ms`, `then`).
// No DOM here: the page (hall.js) and the tests (node, Chromium) import it.

const PERIOD = 2 ** 30; // the clocks' ticks_ms wrap here
const HALF = 2 ** 29;
const MAX_MS = 10 * 24 * 3600 * 1000; // no figure of any clock comes near ten days
const MAX_COUNT = 1000000;
const SIDES = ["first", "second"];

export function ticksDiff(later, earlier) {
  return ((((later - earlier + HALF) % PERIOD) + PERIOD) % PERIOD) - HALF;
}

function two(value) {
  return String(value).padStart(2, "0");
}

// A time as the clock's display shows it (firmware/clock/display.py's render): SS.t under 20 s,
// MM:SS under an hour, then H:MM:SS; always truncated, as the display counts.
export function shown(ms) {
  ms = Math.max(0, Math.floor(ms));
  if (ms < 20000) {
    const seconds = Math.floor(ms / 1000);
    return (ms >= 10000 ? two(seconds) : String(seconds)) + "." + (Math.floor(ms / 100) % 10);
  }
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  if (!hours) return two(minutes) + ":" + two(seconds % 60);
  return hours + ":" + two(minutes) + ":" + two(seconds % 60);
}

// How long (ms) until the text of a figure moving at `rate` from `ms` changes.
export function untilChange(ms, rate) {
  if (!rate) return Infinity;
  const step = ms < 20000 || (rate > 0 && ms < 19900) ? 100 : 1000;
  if (rate < 0) return ms <= 0 ? Infinity : (ms % step) + 1;
  return step - (ms % step);
}

// --- a side's figures at an instant -----------------------------------------------------------

function moved(value, rate, elapsed) {
  return Math.min(MAX_MS, Math.max(0, value + rate * elapsed));
}

// The figures of `side` ("left", "right") `elapsed` ms of the clock's time after the state's
// stamp: {main, delay, reserve (null: none), segment (0: the state's own, 1: its `then`), until
// (ms after the stamp when this segment's rule ends, or null)}. Up to next_ms the state's rates
// hold; after it, `then`'s, up to its own next_ms, where the figures stop: the clock sends a new
// state there.
export function figures(state, side, elapsed) {
  let doc = state[side];
  let e = Math.max(0, elapsed);
  let segment = 0;
  let until = state.next_ms;
  if (until !== null && e >= until) {
    if (state.then) {
      doc = state.then[side];
      e -= until;
      segment = 1;
      const next = state.then.next_ms;
      if (next !== null && e > next) e = next;
      until = next === null ? null : until + next;
    } else {
      e = until;
    }
  }
  const rates = doc.rates || {};
  return {
    main: moved(doc.remaining_ms, doc.rate, e),
    delay: doc.delay_ms ? moved(doc.delay_ms, rates.delay_ms || 0, e) : 0,
    reserve: doc.reserve_ms === null ? null : moved(doc.reserve_ms, rates.reserve_ms || 0, e),
    segment,
    until,
    doc,
  };
}

// --- checks -----------------------------------------------------------------------------------

export class Refused extends Error {}

function fail(why) {
  throw new Refused(why);
}

function object(value, where) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail(where + ": expected an object");
  return value;
}

function whole(value, where, low, high) {
  if (!Number.isSafeInteger(value) || value < low || value > high) fail(`${where}: expected a whole number from ${low} to ${high}`);
  return value;
}

function maybeWhole(value, where, low, high) {
  return value === null || value === undefined ? null : whole(value, where, low, high);
}

function text(value, where, longest) {
  if (typeof value !== "string" || value.length > longest) fail(where + ": expected text of up to " + longest + " characters");
  return value;
}

function maybeText(value, where, longest) {
  return value === null || value === undefined ? null : text(value, where, longest);
}

function flag(value, where) {
  if (typeof value !== "boolean") fail(where + ": expected true or false");
  return value;
}

function rate(value, where) {
  if (value !== -1 && value !== 0 && value !== 1) fail(where + ": expected -1, 0 or 1");
  return value;
}

function oneOf(value, where, choices) {
  if (!choices.includes(value)) fail(where + ": expected one of " + choices.join(", "));
  return value;
}

// A side's figures (in a state, or in its `then`).
function figuresOf(raw, where) {
  raw = object(raw, where);
  const rates = raw.rates === undefined ? {} : object(raw.rates, where + ".rates");
  return {
    remaining_ms: whole(raw.remaining_ms, where + ".remaining_ms", 0, MAX_MS),
    rate: rate(raw.rate, where + ".rate"),
    rates: {
      delay_ms: rates.delay_ms === undefined ? 0 : rate(rates.delay_ms, where + ".rates.delay_ms"),
      reserve_ms: rates.reserve_ms === undefined ? 0 : rate(rates.reserve_ms, where + ".rates.reserve_ms"),
    },
    delay_ms: raw.delay_ms === undefined ? 0 : whole(raw.delay_ms, where + ".delay_ms", 0, MAX_MS),
    reserve_ms: maybeWhole(raw.reserve_ms, where + ".reserve_ms", 0, MAX_MS),
    periods_left: maybeWhole(raw.periods_left, where + ".periods_left", 0, MAX_COUNT),
    moves_left: maybeWhole(raw.moves_left, where + ".moves_left", 0, MAX_COUNT),
    stage: whole(raw.stage, where + ".stage", 0, 99),
    flagged: flag(raw.flagged, where + ".flagged"),
    player: oneOf(raw.player, where + ".player", SIDES),
  };
}

function sideOf(raw, where) {
  const side = figuresOf(raw, where);
  side.running = flag(raw.running, where + ".running");
  side.moves = whole(raw.moves, where + ".moves", 0, MAX_COUNT);
  return side;
}

// A clock's state (its `state` topic) as the page uses it; an Error saying why it is not one.
export function checkState(raw) {
  raw = object(raw, "the state");
  const state = {
    state: text(raw.state, "state", 20),
    preset: maybeText(raw.preset, "preset", 100),
    spec: maybeText(raw.spec, "spec", 300),
    turn: raw.turn === null ? null : oneOf(raw.turn, "turn", SIDES),
    plies: whole(raw.plies, "plies", 0, MAX_COUNT),
    left: sideOf(raw.left, "left"),
    right: sideOf(raw.right, "right"),
    stamp: whole(raw.stamp, "stamp", 0, PERIOD - 1),
    next_ms: maybeWhole(raw.next_ms, "next_ms", 0, MAX_MS),
    then: null,
    result: null,
    seq: raw.seq === undefined ? 0 : whole(raw.seq, "seq", 0, PERIOD - 1),
    dropped: raw.dropped === undefined ? 0 : whole(raw.dropped, "dropped", 0, MAX_COUNT),
    outbox: raw.outbox === undefined ? 0 : whole(raw.outbox, "outbox", 0, 1000),
    game: raw.game === undefined ? null : whole(raw.game, "game", 0, 2 ** 53),
    event: raw.event === undefined ? "hello" : text(raw.event, "event", 20),
    display: null,
    store: maybeText(raw.store, "store", 200),
  };
  if (raw.display !== null && raw.display !== undefined) {
    // The panel's health as its driver counts it (app/clock_app.py display_health); null: a
    // display that cannot fail.
    const display = object(raw.display, "display");
    state.display = {
      showing: flag(display.showing, "display.showing"),
      lost: whole(display.lost, "display.lost", 0, MAX_COUNT * 1000),
      recovered: whole(display.recovered, "display.recovered", 0, MAX_COUNT * 1000),
      failed_writes: whole(display.failed_writes, "display.failed_writes", 0, 2 ** 53),
    };
  }
  if (state.left.player === state.right.player) fail("left and right are the same player");
  if (raw.then !== null && raw.then !== undefined) {
    const then = object(raw.then, "then");
    state.then = {
      left: figuresOf(then.left, "then.left"),
      right: figuresOf(then.right, "then.right"),
      next_ms: maybeWhole(then.next_ms, "then.next_ms", 0, MAX_MS),
    };
  }
  if (raw.result !== null && raw.result !== undefined) {
    const result = object(raw.result, "result");
    state.result = { reason: text(result.reason, "result.reason", 20) };
    if (result.loser !== undefined) state.result.loser = oneOf(result.loser, "result.loser", SIDES);
  }
  return state;
}

// A heartbeat (`alive`): {online, now (the clock's ticks, or null)}.
export function checkAlive(raw) {
  raw = object(raw, "the heartbeat");
  return { online: flag(raw.online, "online"), now: maybeWhole(raw.now, "now", 0, PERIOD - 1) };
}

// An answer (`answer`): {seq (null: what was not a command), ok, said, by, error}.
export function checkAnswer(raw) {
  raw = object(raw, "the answer");
  return {
    seq: maybeWhole(raw.seq, "seq", 0, PERIOD - 1),
    do: maybeText(raw.do, "do", 20),
    ok: flag(raw.ok, "ok"),
    said: text(raw.said, "said", 300),
    by: maybeText(raw.by, "by", 40),
    error: raw.error === true,
  };
}

// A finished game (`game`): what the page shows of it, its result.
export function checkGame(raw) {
  raw = object(raw, "the game");
  const game = {
    game: whole(raw.game, "game", 0, 2 ** 53),
    version: whole(raw.version, "version", 1, 1000000),
    plies: whole(raw.plies, "plies", 0, MAX_COUNT),
    preset: maybeText(raw.preset, "preset", 100),
    result: null,
  };
  if (raw.result !== null && raw.result !== undefined) {
    const result = object(raw.result, "result");
    game.result = { reason: text(result.reason, "result.reason", 20) };
    if (result.loser !== undefined) game.result.loser = oneOf(result.loser, "result.loser", SIDES);
  }
  return game;
}

// A message's board number from its topic, clock/<hall>/<board>/<kind>: {board, kind} or null.
export function topicOf(topic, hall) {
  const parts = topic.split("/");
  if (parts.length !== 4 || parts[0] !== "clock" || parts[1] !== hall) return null;
  if (!/^[1-9][0-9]{0,3}$/.test(parts[2])) return null;
  return { board: Number(parts[2]), kind: parts[3] };
}
