// SPDX-License-Identifier: MIT
// The arbiter's page: every clock of the hall as a tile, live from the broker's retained states
// (MQTT over WebSockets, MQTT.js), each running clock run here between messages from the
// message's stamps; the arbiter's commands, confirmed first, audited with the clock's answer.
import mqtt from "./node_modules/mqtt/dist/mqtt.esm.js";

const PERIOD = 2 ** 30; // the clocks' ticks_ms wrap here
const HALF = 2 ** 29;

export function ticksDiff(later, earlier) {
  return ((((later - earlier + HALF) % PERIOD) + PERIOD) % PERIOD) - HALF;
}

function two(value) {
  return String(value).padStart(2, "0");
}

// A time as the clock's display shows it (firmware/clock/display.py's render): SS.t under
// 20 s, MM:SS under an hour, then H:MM:SS; always truncated, as the display counts.
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

// A side's main figure at `pageNow`: the state's figure moved by its rate for the time since the
// state's stamp (the clock's ticks, through the last sync), no further than next_ms.
export function figure(state, side, sync, pageNow) {
  const fields = state[side];
  if (!fields.rate || !sync) return fields.remaining_ms;
  let elapsed = ticksDiff(sync.clock, state.stamp) + (pageNow - sync.page);
  if (state.next_ms !== null && state.next_ms !== undefined) elapsed = Math.min(elapsed, state.next_ms);
  return Math.max(0, fields.remaining_ms + fields.rate * Math.max(0, elapsed));
}

export function phase(state) {
  if (!state) return "unknown";
  if (state.result) return "finished";
  if (state.left.running || state.right.running) return "running";
  if (state.turn) return "paused";
  return "ready";
}

const $ = (id) => document.getElementById(id);
const boards = new Map(); // board number -> {state, sync, online, tile, sentSeq, shown}
const audit = [];
const stats = { messages: 0, states: 0, updates: [] }; // updates: [board, plies, page epoch ms]
let client = null;
let hall = "";
let by = "";
let order = [];
let reorderAt = 0;

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
  client = mqtt.connect($("broker").value.trim(), {
    username: $("user").value.trim(),
    password: $("password").value,
    protocolVersion: 4,
    reconnectPeriod: 1000,
    connectTimeout: 5000,
    clean: true,
  });
  client.on("connect", () => {
    status("connected to " + $("broker").value + " as " + $("user").value.trim());
    const base = "clock/" + hall + "/+/";
    client.subscribe([base + "state", base + "alive", base + "answer"]);
  });
  client.on("reconnect", () => status("the broker is gone: trying again…"));
  client.on("error", (error) => status("broker: " + error.message));
  client.on("message", received);
}

function status(text) {
  $("status").textContent = text;
}

function received(topic, payload, packet) {
  stats.messages++;
  const parts = topic.split("/");
  const board = Number(parts[2]);
  const kind = parts[3];
  let message;
  try {
    message = JSON.parse(new TextDecoder().decode(payload));
  } catch (error) {
    console.warn("hall: not JSON on " + topic);
    return;
  }
  if (!Number.isInteger(board) || typeof message !== "object" || message === null) return;
  const now = performance.now();
  const entry = boardEntry(board);
  if (kind === "state") {
    stats.states++;
    const before = entry.state;
    entry.state = message;
    if (!packet.retain) entry.sync = { clock: message.stamp, page: now };
    entry.online = entry.online !== false || !packet.retain;
    if (!before || before.plies !== message.plies || before.state !== message.state) {
      stats.updates.push([board, message.plies, performance.timeOrigin + now, message.event]);
      if (stats.updates.length > 100000) stats.updates.splice(0, 50000);
    }
    draw(entry, now);
    if (!before || phase(before) !== entry.phase) reorderAt = Math.min(reorderAt, now + 250);
  } else if (kind === "alive") {
    entry.online = message.online === true;
    if (entry.online && !packet.retain && Number.isInteger(message.now)) {
      entry.sync = { clock: message.now, page: now };
    }
    if (entry.state) draw(entry, now);
  } else if (kind === "answer") {
    answered(board, message);
  }
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
    entry = { board, state: null, sync: null, online: true, tile, sentSeq: 0, shown: {}, parts: {}, drawAt: 0, rank: -1 };
    boards.set(board, entry);
    $("tiles").append(tile);
    reorderAt = 0;
  }
  return entry;
}

function put(entry, selector, text) {
  if (entry.shown[selector] !== text) {
    entry.shown[selector] = text;
    let part = entry.parts[selector];
    if (!part) part = entry.parts[selector] = entry.tile.querySelector(selector);
    part.textContent = text;
  }
}

// How long (ms) until the text of a figure moving at `rate` from `ms` changes: a tile is drawn
// again only then, not at every tick.
function untilChange(ms, rate) {
  if (!rate) return Infinity;
  const step = ms < 20000 || (rate > 0 && ms < 19900) ? 100 : 1000;
  if (rate < 0) return (ms % step) + 1;
  return step - (ms % step);
}

function side(state, name) {
  return state[name].player === "first" ? "1st" : "2nd";
}

function draw(entry, now) {
  const state = entry.state;
  if (!state) return;
  const tile = entry.tile;
  const mover = state.turn ? (state.left.player === state.turn ? "left" : "right") : null;
  const trouble = Number($("trouble").value || 60) * 1000;
  let low = false;
  let next = Infinity;
  for (const name of ["left", "right"]) {
    const ms = figure(state, name, entry.sync, now);
    if (entry.sync) next = Math.min(next, untilChange(ms, state[name].rate));
    put(entry, "." + name + " .time", shown(ms));
    put(entry, "." + name + " .who", side(state, name) + (name === mover ? " ▶" : ""));
    const fields = state[name];
    const extra = [];
    if (fields.periods_left !== null && fields.periods_left !== undefined) extra.push(fields.periods_left + "×");
    if (fields.moves_left !== null && fields.moves_left !== undefined) extra.push(fields.moves_left + " mv");
    if (fields.flagged) extra.push("⚑");
    put(entry, "." + name + " .extra", extra.join(" "));
    if (name === mover && ms < trouble) low = true;
  }
  const current = phase(state);
  put(entry, ".move", "move " + (Math.floor(state.plies / 2) + 1) + " (" + state.plies + " plies)");
  const stage = Math.max(state.left.stage, state.right.stage);
  put(entry, ".stage", stage ? "stage " + (stage + 1) : "");
  put(entry, ".preset", state.preset || state.spec || "");
  const flags = [];
  if (!entry.online) flags.push("offline");
  if (current === "paused") flags.push("paused");
  if (current === "finished") flags.push(resultText(state.result));
  if (state.dropped) flags.push(state.dropped + " dropped");
  if (!entry.sync && current === "running") flags.push("syncing");
  put(entry, ".flags", flags.join(" · "));
  tile.dataset.plies = state.plies;
  tile.dataset.phase = current;
  tile.classList.toggle("trouble", low && (current === "running" || current === "paused"));
  tile.classList.toggle("flagged", state.left.flagged || state.right.flagged || (state.result && state.result.reason === "time"));
  tile.classList.toggle("offline", !entry.online);
  tile.classList.toggle("running", current === "running");
  entry.low = low;
  entry.phase = current;
  entry.drawAt = now + Math.max(next, 20);
  entry.moverMs = mover ? figure(state, mover, entry.sync, now) : Infinity;
}

function resultText(result) {
  if (result.reason === "time") return (result.loser === "first" ? "1st" : "2nd") + " lost on time";
  return "over (" + result.reason + ")";
}

function shownNow(entry) {
  const filter = $("filter").value;
  if (filter === "all") return true;
  if (filter === "trouble") return entry.low && (entry.phase === "running" || entry.phase === "paused");
  if (filter === "flagged") return entry.tile.classList.contains("flagged");
  if (filter === "paused") return entry.phase === "paused";
  if (filter === "finished") return entry.phase === "finished";
  if (filter === "offline") return !entry.online;
  return true;
}

const RANK = { running: 0, paused: 0, ready: 1, finished: 2, unknown: 3 };

function reorder() {
  const entries = [...boards.values()];
  const byTrouble = $("sort").value === "trouble";
  entries.sort((a, b) => {
    if (byTrouble) {
      const rank = RANK[a.phase || "unknown"] - RANK[b.phase || "unknown"];
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
  $("counts").textContent = count + " of " + boards.size + " boards";
}

function tick() {
  const now = performance.now();
  for (const entry of boards.values()) {
    if (entry.phase === "running" && now >= entry.drawAt) draw(entry, now);
  }
  if (now >= reorderAt) {
    reorder();
    reorderAt = now + 2000;
  }
}

// --- commands ---------------------------------------------------------------------------

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

function send(board, body) {
  const entry = boardEntry(board);
  const seq = Math.max(entry.state ? entry.state.seq : 0, entry.sentSeq) + 1;
  entry.sentSeq = seq;
  const command = Object.assign({ seq, by }, body);
  const row = { sent: new Date().toISOString(), who: by + " (" + $("user").value.trim() + ")", board, command: body, seq, answer: null };
  audit.push(row);
  row.element = document.createElement("tr");
  $("audit").tBodies[0].prepend(row.element);
  drawRow(row);
  client.publish("clock/" + hall + "/" + board + "/cmd", JSON.stringify(command));
}

function drawRow(row) {
  const answer = row.answer ? (row.answer.ok ? "ok: " : "refused: ") + row.answer.said : "waiting…";
  const cells = [row.sent.slice(11, 19), row.who, row.board, JSON.stringify(row.command), row.seq, answer + (row.later ? "; " + row.later : "")];
  row.element.replaceChildren(...cells.map((text) => Object.assign(document.createElement("td"), { textContent: String(text) })));
  row.element.className = row.answer ? (row.answer.ok ? "ok" : "refused") : "waiting";
}

function answered(board, answer) {
  for (let index = audit.length - 1; index >= 0; index--) {
    const row = audit[index];
    if (row.board === board && row.seq === answer.seq) {
      if (row.answer) row.later = (answer.ok ? "" : "refused: ") + answer.said;
      else row.answer = answer;
      drawRow(row);
      return;
    }
  }
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
  if (await ask(text + " on " + chosen.length + " boards (" + chosen.join(", ") + ")?")) {
    for (const board of chosen) send(board, body);
  }
}

function download() {
  const rows = audit.map(({ element, ...row }) => row);
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

window.hall = { boards, audit, stats, shown, figure, ticksDiff, order: () => order };
start();
