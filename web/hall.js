// SPDX-License-Identifier: MIT
// The arbiter's page: every clock of the hall as a tile, live from the broker's retained states
// (MQTT 5 over WebSockets, MQTT.js), each running clock run here between messages by the clock's
// own rules (hall_figure.js); the arbiter's commands, confirmed first, each with its fate (carried
// out, refused with the clock's reason, expired) in the audit; the round's finished games.
//
// No message can stop the page: each is checked before use (hall_figure.js), one that is not what
// a clock sends marks its own tile ("bad state from board 4: ...") and is otherwise ignored, and
// every message and every tile's drawing runs on its own, an error in one leaving the others be.
// A board not heard for 12 s (two heartbeats), or the broker gone, is stale: greyed, "last seen
// 12 s ago", its figures stopped where they were last known; it comes back live by itself.
import mqtt from "./node_modules/mqtt/dist/mqtt.esm.js";
import { Refused, checkAlive, checkAnswer, checkGame, checkState, figures, shown, ticksDiff, topicOf, untilChange } from "./hall_figure.js";

const STALE_MS = 12000; // two heartbeats and a margin
const MAX_COMMAND = 512; // bytes: what a clock takes (firmware/app/hall.py)
const ANSWER_GRACE_MS = 3000; // after a command's validity, for its answer to arrive
const TAKEN_OVER = 142; // MQTT 5: another connection of this account took its place
const BAD_PASSWORD = 134; // MQTT 5's CONNACK: bad user name or password
const NOT_AUTHORISED = 135;

const $ = (id) => document.getElementById(id);
const boards = new Map(); // board number -> entry (see boardEntry)
const tiles = new Map(); // tile element -> its entry
// Which tiles are on screen: only those are drawn; one coming into view is drawn at once.
const seen = new IntersectionObserver((changes) => {
  const now = performance.now();
  for (const change of changes) {
    const entry = tiles.get(change.target);
    if (!entry) continue;
    entry.visible = change.isIntersecting;
    if (entry.visible) draw(entry, now);
  }
});
const audit = [];
const results = new Map(); // "board/game" -> {board, game, version, result, plies, row}
const stats = { messages: 0, states: 0, refused: 0, errors: 0, closes: 0, said: [], updates: [] }; // updates: [board, plies, page epoch ms, event]
let client = null;
let connected = false;
let lostAt = 0; // page time the broker connection was lost
let hall = "";
let by = "";
let order = [];
let reorderAt = 0;

function plural(count, one, many) {
  return count + " " + (count === 1 ? one : many);
}

function settings() {
  const given = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
  for (const key of ["broker", "hall", "user", "password", "by"]) {
    if (given.get(key)) $(key).value = given.get(key);
  }
  if (!$("broker").value) $("broker").value = "ws://" + (location.hostname || "localhost") + ":9001";
  if (!$("hall").value) $("hall").value = "hall";
  return given.get("password") && given.get("user"); // connect at once when all was given
}

function connect() {
  if (client) client.end(true);
  hall = $("hall").value.trim();
  by = $("by").value.trim() || $("user").value.trim();
  $("hall-name").textContent = hall;
  document.body.classList.toggle("can-command", $("user").value.trim() === "arbiter");
  status("connecting to " + $("broker").value + "…");
  const user = $("user").value.trim();
  const mine = mqtt.connect($("broker").value.trim(), {
    username: user,
    password: $("password").value,
    protocolVersion: 5,
    reconnectPeriod: 1000,
    connectTimeout: 5000,
    clean: true,
  });
  client = mine;
  mine.on("connect", () => {
    if (client !== mine) return;
    connected = true;
    status("connected to " + $("broker").value + " as " + user);
    const base = "clock/" + hall + "/+/";
    mine.subscribe([base + "state", base + "alive", base + "answer", base + "game"], { qos: 1 });
    redrawAll();
  });
  mine.on("close", () => {
    if (client !== mine) return;
    stats.closes++;
    if (connected) lostAt = performance.now();
    connected = false;
    redrawAll();
  });
  mine.on("disconnect", (packet) => {
    if (packet && packet.reasonCode === TAKEN_OVER && client === mine) {
      // Another page signed in as this account: two would take each other's place for ever.
      mine.end(true);
      status("another page signed in as " + user + ": this one stopped (connect to take it back)");
    }
  });
  mine.on("reconnect", () => client === mine && status("the broker is gone: trying again…"));
  mine.on("error", (error) => {
    if (client !== mine) return;
    stats.said.push(error.message);
    if (error.code === BAD_PASSWORD || error.code === NOT_AUTHORISED) {
      // MQTT.js tries no more after a refused CONNECT: said once, plainly.
      status("the broker refused " + user + ": wrong user or password (connect again)");
    } else {
      status("broker: " + error.message);
    }
  });
  mine.on("message", received);
}

function status(text) {
  $("status").textContent = text;
}

// --- messages ---------------------------------------------------------------------------------

function received(topic, payload, packet) {
  stats.messages++;
  try {
    take(topic, payload, packet);
  } catch (error) {
    // Not a message's fault (those are refused below): a bug, said, and the page goes on.
    stats.errors++;
    console.error("hall: " + topic + ": " + error);
  }
}

function take(topic, payload, packet) {
  const where = topicOf(topic, hall);
  if (!where) return;
  const now = performance.now();
  const entry = boardEntry(where.board);
  let message;
  try {
    message = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload));
  } catch (error) {
    return refused(entry, where.kind, "not JSON", now);
  }
  const live = !packet.retain;
  try {
    if (where.kind === "state") {
      const state = checkState(message);
      stats.states++;
      const before = entry.state;
      entry.state = state;
      entry.bad = null;
      if (live) heard(entry, state.stamp, now);
      if (!before || before.plies !== state.plies || before.state !== state.state) {
        stats.updates.push([where.board, state.plies, performance.timeOrigin + now, state.event]);
        if (stats.updates.length > 100000) stats.updates.splice(0, 50000);
      }
    } else if (where.kind === "alive") {
      const alive = checkAlive(message);
      const was = entry.online && entry.sync !== null && now - entry.lastSeen <= STALE_MS;
      entry.online = alive.online;
      if (live && alive.online && alive.now !== null) heard(entry, alive.now, now);
      else if (!alive.online) entry.lastSeen = Math.min(entry.lastSeen, now);
      // A heartbeat that changes nothing shown (the board was live, is live): no drawing.
      if (was && entry.online && !entry.bad) return;
    } else if (where.kind === "answer") {
      answered(where.board, checkAnswer(message));
      return;
    } else if (where.kind === "game") {
      finished(where.board, checkGame(message));
      return;
    } else {
      return;
    }
  } catch (error) {
    if (error instanceof Refused) return refused(entry, where.kind, error.message, now);
    throw error;
  }
  const was = entry.phase;
  const wasFault = entry.fault;
  draw(entry, now);
  if (entry.phase !== was || entry.fault !== wasFault) reorderAt = Math.min(reorderAt, now + 250);
}

function heard(entry, clockNow, now) {
  entry.sync = { clock: clockNow, page: now };
  entry.lastSeen = now;
  entry.online = true;
}

// A message that is not what a clock sends: its tile says so; nothing of it is used.
function refused(entry, kind, why, now) {
  stats.refused++;
  entry.bad = "bad " + kind + " from board " + entry.board + ": " + why;
  draw(entry, now);
}

function boardEntry(board) {
  let entry = boards.get(board);
  if (!entry) {
    const tile = $("tile").content.firstElementChild.cloneNode(true);
    tile.dataset.board = board;
    tile.querySelector(".board").textContent = board;
    tile.querySelectorAll("button[data-do]").forEach((button) => {
      button.addEventListener("click", () => tileCommand(board, button.dataset.do));
    });
    entry = { board, state: null, sync: null, online: true, lastSeen: -Infinity, bad: null, tile, sentSeq: 0, shown: {}, parts: {}, drawAt: 0, rank: -1, phase: "unknown", moverMs: Infinity, low: false, flagged: false, fault: false, stale: false, visible: true };
    boards.set(board, entry);
    tiles.set(tile, entry);
    $("tiles").append(tile);
    seen.observe(tile);
    reorderAt = 0;
  }
  return entry;
}

// --- tiles --------------------------------------------------------------------------------------

function phase(state) {
  if (!state) return "unknown";
  if (state.result) return "finished";
  if (state.left.running || state.right.running) return "running";
  if (state.turn) return "paused";
  return "ready";
}

function put(entry, selector, text) {
  if (entry.shown[selector] !== text) {
    entry.shown[selector] = text;
    let part = entry.parts[selector];
    if (!part) part = entry.parts[selector] = entry.tile.querySelector(selector);
    part.textContent = text;
  }
}

// Why a board is not live now, and since when (page time); null when it is.
function staleness(entry, now) {
  if (!connected) return { since: Math.min(lostAt, entry.lastSeen), why: "the broker is gone" };
  if (!entry.online) return { since: entry.lastSeen, why: "offline" };
  if (!entry.sync) return { since: now, why: "syncing" };
  if (now - entry.lastSeen > STALE_MS) return { since: entry.lastSeen, why: "silent" };
  return null;
}

function ago(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 120 ? seconds + " s" : Math.round(seconds / 60) + " min";
}

function draw(entry, now) {
  try {
    drawTile(entry, now);
  } catch (error) {
    stats.errors++;
    entry.bad = "cannot show board " + entry.board + ": " + error.message;
    entry.tile.classList.add("bad");
    entry.tile.querySelector(".bad-note").textContent = entry.bad;
    entry.drawAt = now + 1000;
  }
}

// What a tile shows at `now`, worked out without the DOM: the phase, staleness, the figures,
// whether the mover is in time trouble, and when anything shown changes next.
function measure(entry, now) {
  const state = entry.state;
  const stale = staleness(entry, now);
  const current = phase(state);
  // The clock's time now, as the page knows it; stopped where it was last known when stale, and
  // the state's own figures while no heartbeat has said what the clock's time is (syncing).
  const at = !stale ? now : stale.why === "syncing" ? null : stale.since;
  let elapsed = 0;
  if (entry.sync && at !== null && Number.isFinite(at)) {
    elapsed = ticksDiff(entry.sync.clock + Math.round(at - entry.sync.page), state.stamp);
  }
  const counting = current === "running" && !stale;
  const mover = state.turn ? (state.left.player === state.turn ? "left" : "right") : null;
  const trouble = Number($("trouble").value || 60) * 1000;
  const sides = {};
  let next = Infinity;
  for (const name of ["left", "right"]) {
    const got = (sides[name] = figures(state, name, elapsed));
    if (counting) {
      next = Math.min(next, untilChange(got.main, got.doc.rate));
      if (got.delay) next = Math.min(next, untilChange(got.delay, got.doc.rates.delay_ms));
      if (got.reserve !== null) next = Math.min(next, untilChange(got.reserve, got.doc.rates.reserve_ms));
      if (got.until !== null) next = Math.min(next, Math.max(1, got.until - elapsed));
    }
  }
  entry.moverMs = mover ? sides[mover].main : Infinity;
  entry.low = mover !== null && entry.moverMs < trouble && (current === "running" || current === "paused");
  entry.phase = current;
  entry.stale = !!stale && stale.why !== "syncing";
  entry.fault = (state.display !== null && !state.display.showing) || state.store !== null;
  entry.flagged = state.left.flagged || state.right.flagged || (state.result !== null && state.result.reason === "time");
  // Next drawn when a figure's text changes, or each second while stale (its "last seen").
  entry.drawAt = now + (stale ? 1000 : Math.max(next, 20));
  return { stale, current, mover, sides };
}

function drawTile(entry, now) {
  const tile = entry.tile;
  const state = entry.state;
  if (!state) {
    put(entry, ".bad-note", entry.bad || "");
    tile.classList.toggle("bad", !!entry.bad);
    entry.drawAt = Infinity;
    return;
  }
  const { stale, current, mover, sides } = measure(entry, now);
  if (!entry.visible) {
    // Off screen: nothing drawn (hundreds of tiles would cost the page its frames); drawn again
    // the moment it scrolls into view. Its order and filters go by what measure() found.
    entry.drawAt = stale || current === "running" ? now + 2000 : Infinity;
    return;
  }
  put(entry, ".bad-note", entry.bad || "");
  tile.classList.toggle("bad", !!entry.bad);
  for (const name of ["left", "right"]) {
    const got = sides[name];
    put(entry, "." + name + " .time", shown(got.main));
    put(entry, "." + name + " .who", (state[name].player === "first" ? "1st" : "2nd") + (name === mover ? " ▶" : ""));
    const fields = got.doc;
    const extra = [];
    if (got.delay) extra.push("D " + shown(got.delay));
    if (got.reserve !== null) extra.push("R " + shown(got.reserve));
    if (fields.periods_left !== null) extra.push(fields.periods_left + "×");
    if (fields.moves_left !== null) extra.push(fields.moves_left + " mv");
    if (fields.flagged) extra.push("⚑");
    put(entry, "." + name + " .extra", extra.join(" "));
  }
  put(entry, ".move", "move " + (Math.floor(state.plies / 2) + 1) + " (" + plural(state.plies, "ply", "plies") + ")");
  const stage = Math.max(state.left.stage, state.right.stage);
  put(entry, ".stage", stage ? "stage " + (stage + 1) : "");
  put(entry, ".preset", state.preset || state.spec || "");
  const flags = [];
  if (entry.stale) {
    flags.push((stale.why === "the broker is gone" ? "broker gone" : stale.why === "offline" ? "offline" : "silent") + (Number.isFinite(stale.since) ? ", last seen " + ago(now - stale.since) + " ago" : ""));
  }
  if (current === "paused") flags.push("paused");
  if (current === "finished") flags.push(resultText(state.result));
  if (state.dropped) flags.push(state.dropped + " dropped");
  const health = faults(state);
  if (health) flags.push(health);
  if (state.outbox) flags.push(plural(state.outbox, "result", "results") + " not yet recorded");
  if (stale && stale.why === "syncing" && current === "running") flags.push("syncing");
  put(entry, ".flags", flags.join(" · "));
  tile.dataset.plies = state.plies;
  tile.dataset.phase = current;
  tile.classList.toggle("trouble", entry.low);
  tile.classList.toggle("flagged", entry.flagged);
  tile.classList.toggle("fault", entry.fault);
  tile.classList.toggle("offline", entry.stale);
  tile.classList.toggle("running", current === "running" && !stale);
}

// What is wrong with the clock itself: its display dark (the players see no time: the arbiter
// is needed at the board), or lost and back, its store refusing writes.
function faults(state) {
  const said = [];
  const display = state.display;
  if (display && !display.showing) said.push("display dark");
  else if (display && display.lost) said.push("display lost " + plural(display.lost, "time", "times") + ", back");
  if (state.store) said.push("storage: " + state.store);
  return said.join(" · ");
}

function resultText(result) {
  if (result.reason === "time" && result.loser) return (result.loser === "first" ? "1st" : "2nd") + " lost on time";
  return "over (" + result.reason + ")";
}

function redrawAll() {
  const now = performance.now();
  for (const entry of boards.values()) draw(entry, now);
}

function shownNow(entry) {
  const filter = $("filter").value;
  if (filter === "all") return true;
  if (filter === "trouble") return entry.low;
  if (filter === "flagged") return entry.flagged;
  if (filter === "paused") return entry.phase === "paused";
  if (filter === "finished") return entry.phase === "finished";
  if (filter === "offline") return entry.stale;
  if (filter === "bad") return !!entry.bad;
  if (filter === "fault") return entry.fault;
  return true;
}

const RANK = { running: 0, paused: 0, ready: 1, finished: 2, unknown: 3 };

function reorder() {
  const now = performance.now();
  const entries = [...boards.values()];
  for (const entry of entries) {
    if (!entry.visible && entry.state) measure(entry, now); // off screen: their order still
  }
  const byTrouble = $("sort").value === "trouble";
  entries.sort((a, b) => {
    if (byTrouble) {
      if (a.fault !== b.fault) return a.fault ? -1 : 1; // a dark display first: go there
      const rank = RANK[a.phase] - RANK[b.phase];
      if (rank) return rank;
      if (a.moverMs !== b.moverMs) return a.moverMs - b.moverMs;
    }
    return a.board - b.board;
  });
  let count = 0;
  order = [];
  entries.forEach((entry, rank) => {
    const visible = shownNow(entry);
    if (entry.tile.hidden === visible) entry.tile.hidden = !visible;
    if (visible) {
      count++;
      order.push(entry.board);
    }
    if (entry.rank !== rank) {
      entry.rank = rank;
      entry.tile.style.order = rank; // the grid places it: no node moves
    }
  });
  $("counts").textContent = count + " of " + plural(boards.size, "board", "boards");
}

function tick() {
  const now = performance.now();
  for (const entry of boards.values()) {
    if (now >= entry.drawAt) draw(entry, now);
  }
  for (const row of audit) {
    if (!row.answer && !row.fate && now > row.expiresAt + ANSWER_GRACE_MS) {
      row.fate = "expired";
      drawRow(row);
    }
  }
  if (now >= reorderAt) {
    reorder();
    reorderAt = now + 2000;
  }
}

// --- commands ---------------------------------------------------------------------------------

function ask(text, fields = []) {
  const dialog = $("confirm");
  const form = dialog.querySelector("form");
  form.querySelectorAll(".field").forEach((field) => field.remove());
  for (const field of fields) {
    const label = document.createElement("label");
    label.className = "field";
    label.textContent = field.label + " ";
    let input;
    if (field.options) {
      input = document.createElement("select");
      for (const option of field.options) input.add(new Option(option, option));
    } else {
      input = document.createElement("input");
      input.type = "number";
    }
    input.name = field.name;
    input.value = field.value;
    label.append(input);
    form.insertBefore(label, $("confirm-yes"));
  }
  $("confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        if (dialog.returnValue !== "yes") return resolve(null);
        const values = {};
        for (const field of fields) {
          const input = form.querySelector('[name="' + field.name + '"]');
          values[field.name] = field.options ? input.value : Number(input.value);
        }
        resolve(values);
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
  });
}

function validity() {
  const seconds = Math.round(Number($("validity").value));
  return Number.isFinite(seconds) && seconds >= 5 ? Math.min(seconds, 3600) : 60;
}

function send(board, body) {
  const entry = boardEntry(board);
  const seq = Math.max(entry.state ? entry.state.seq : 0, entry.sentSeq) + 1;
  const command = Object.assign({ seq, by }, body);
  const text = JSON.stringify(command);
  const bytes = new TextEncoder().encode(text).length;
  const seconds = validity();
  const now = performance.now();
  const row = { sent: new Date().toISOString(), who: by + " (" + $("user").value.trim() + ")", board, command: body, seq, answer: null, later: null, fate: null, valid_s: seconds, expiresAt: now + seconds * 1000 };
  audit.push(row);
  row.element = document.createElement("tr");
  $("audit").tBodies[0].prepend(row.element);
  if (bytes > MAX_COMMAND) {
    row.fate = "not sent: " + bytes + " bytes, over the " + MAX_COMMAND + " a clock takes";
  } else if (!client || !connected) {
    row.fate = "not sent: the broker is gone";
  } else {
    entry.sentSeq = seq;
    // QoS 1, and the broker drops it unread once its validity is over: a clock away for longer
    // never carries it out late, and the page says it expired.
    client.publish("clock/" + hall + "/" + board + "/cmd", text, { qos: 1, properties: { messageExpiryInterval: seconds } });
  }
  drawRow(row);
}

function fateText(row) {
  if (row.answer) {
    const said = (row.answer.ok ? "carried out: " : row.answer.error ? "not a command: " : "refused: ") + row.answer.said.replace(/^not a command: /, "");
    const late = row.fate === "expired" ? " (the answer came after the page had given it up)" : "";
    return said + late + (row.later ? "; " + row.later : "");
  }
  if (row.fate === "expired") return "expired: no answer within " + row.valid_s + " s (the board was away); not carried out";
  if (row.fate) return row.fate;
  return "waiting… (valid " + row.valid_s + " s)";
}

function drawRow(row) {
  const cells = [row.sent.slice(11, 19), row.who, row.board, row.command === null ? "?" : JSON.stringify(row.command), row.seq === null ? "?" : row.seq, fateText(row)];
  row.element.replaceChildren(...cells.map((text) => Object.assign(document.createElement("td"), { textContent: String(text) })));
  row.element.className = row.answer ? (row.answer.ok ? "ok" : "refused") : row.fate ? "expired" : "waiting";
}

function answered(board, answer) {
  if (answer.seq !== null) {
    for (let index = audit.length - 1; index >= 0; index--) {
      const row = audit[index];
      if (row.board === board && row.seq === answer.seq && row.command !== null) {
        if (row.answer) row.later = (answer.ok ? "" : "refused: ") + answer.said;
        else row.answer = answer;
        drawRow(row);
        return;
      }
    }
  }
  if (!answer.error) return; // another page's command: its own audit has it
  // What a clock could not read as a command: a row of its own, so nothing is lost in silence.
  const row = { sent: new Date().toISOString(), who: answer.by || "?", board, command: null, seq: answer.seq, answer, later: null, fate: null, valid_s: 0, expiresAt: Infinity };
  audit.push(row);
  row.element = document.createElement("tr");
  $("audit").tBodies[0].prepend(row.element);
  drawRow(row);
}

// --- finished games ---------------------------------------------------------------------------

function finished(board, game) {
  const key = board + "/" + game.game;
  let known = results.get(key);
  if (known && known.version >= game.version) return; // taken once, by id; a newer version replaces
  if (!known) {
    known = { board, row: document.createElement("tr") };
    results.set(key, known);
    $("results").tBodies[0].prepend(known.row);
  }
  Object.assign(known, game);
  const cells = [board, game.game, game.version, game.preset || "", plural(game.plies, "ply", "plies"), game.result ? resultText(game.result) : "?"];
  known.row.replaceChildren(...cells.map((text) => Object.assign(document.createElement("td"), { textContent: String(text) })));
  $("results-count").textContent = plural(results.size, "game", "games");
}

function picked() {
  return [...boards.values()].filter((entry) => !entry.tile.hidden && entry.tile.querySelector(".pick").checked).map((entry) => entry.board);
}

async function tileCommand(board, what) {
  if (what === "adjust") {
    const values = await ask("Board " + board + ": add or take time (in a pause)", [
      { name: "side", label: "side", options: ["left", "right"], value: "left" },
      { name: "seconds", label: "seconds (negative takes away)", value: 60 },
    ]);
    if (values && values.seconds) send(board, { do: "adjust", side: values.side, ms: Math.round(values.seconds * 1000) });
    return;
  }
  if (what === "moves") {
    const values = await ask("Board " + board + ": correct a move counter (in a pause)", [
      { name: "side", label: "side", options: ["left", "right"], value: "left" },
      { name: "moves", label: "moves", value: 0 },
    ]);
    if (values) send(board, { do: "moves", side: values.side, moves: values.moves });
    return;
  }
  const words = { pause: "Pause", resume: "Resume", end: "End the game on" };
  if (await ask(words[what] + " board " + board + "?")) send(board, { do: what });
}

async function manyCommand(body, text) {
  const chosen = picked();
  if (!chosen.length) return status("select boards first (their check boxes)");
  if (await ask(text + " on " + plural(chosen.length, "board", "boards") + " (" + chosen.join(", ") + ")?")) {
    for (const board of chosen) send(board, body);
  }
}

function download() {
  const rows = audit.map(({ element, ...row }) => Object.assign(row, { fate: fateText(row) }));
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(rows, null, 1)], { type: "application/json" }));
  link.download = "hall-audit.json";
  link.click();
}

function start() {
  $("login").addEventListener("submit", (event) => {
    event.preventDefault();
    connect();
  });
  for (const id of ["filter", "sort", "trouble"]) $(id).addEventListener("change", () => (reorderAt = 0));
  $("select-all").addEventListener("click", () => boards.forEach((e) => (e.tile.querySelector(".pick").checked = !e.tile.hidden)));
  $("select-none").addEventListener("click", () => boards.forEach((e) => (e.tile.querySelector(".pick").checked = false)));
  $("push-preset").addEventListener("click", () => {
    const spec = $("preset-spec").value.trim();
    if (!spec) return status("type the round's preset first");
    manyCommand({ do: "preset", spec, name: $("preset-name").value.trim() || "Round" }, "Push preset " + spec);
  });
  $("start").addEventListener("click", () => {
    const seconds = Number($("start-in").value || 0);
    manyCommand({ do: "start", in_ms: Math.round(seconds * 1000) }, "Start the clocks in " + seconds + " s");
  });
  $("new-game").addEventListener("click", () => manyCommand({ do: "new" }, "A new game"));
  $("audit-download").addEventListener("click", download);
  setInterval(tick, 50);
  if (settings()) connect();
}

window.hall = { boards, audit, results, stats, shown, figures, ticksDiff, order: () => order, reorder, connected: () => connected };
start();
