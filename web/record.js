// SPDX-License-Identifier: MIT
// The game record panel: the current clock's record (GAME), live, and its files: JSON as the clock
// gives it, PGN and SGF by the project's annotate code on the page's server.
import { ClockError } from "./serial.js";
import { $, download, links, say } from "./shared.js";

function seconds(ms) {
  return ms === undefined || ms === null ? "" : (ms / 1000).toFixed(1) + " s";
}

let record = null; // the last GAME answer of the current link
let recordBusy = null;

// Ask the current clock for its record (GAME) and show it; one question at a time.
export function refreshRecord() {
  if (recordBusy) return recordBusy;
  const asked = links.current;
  if (!asked) return Promise.resolve();
  recordBusy = (async () => {
    try {
      const answer = await asked.command("GAME");
      if (asked !== links.current) return;
      if (!answer.ok) {
        record = null;
        $("record").tBodies[0].replaceChildren();
        $("record-state").textContent = "(" + answer.final.replace(/^ERR /, "") + ")";
        return;
      }
      record = JSON.parse(answer.final.slice(3));
      showRecord(record);
    } catch (error) {
      say($("record-answer"), error.message, true);
    } finally {
      recordBusy = null;
    }
  })();
  return recordBusy;
}

export function forgetRecord() {
  record = null;
}

function showRecord(game) {
  const clockField = game.clock || {};
  const result = clockField.result ? `, ${clockField.result.reason}${clockField.result.loser ? " (" + clockField.result.loser + " lost)" : ""}` : "";
  $("record-state").textContent = `(${clockField.name || clockField.preset || ""}: ${clockField.state}${result}, ${game.plies.length} plies)`;
  const rows = (clockField.log || []).map((entry) => {
    const tr = document.createElement("tr");
    const side = entry.side;
    const after = entry[side] ? seconds(entry[side].remaining_ms) : "";
    const what = entry.entry === "ply" ? seconds(entry.elapsed_ms) : entry.entry;
    for (const text of [entry.ply || "", side, what, after]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $("record").tBodies[0].replaceChildren(...rows.reverse());
}

async function annotated(kind) {
  await refreshRecord();
  if (!record) throw new ClockError("no game has started yet: there is no record");
  const response = await fetch("annotate", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ kind, record, moves: $("moves").value }),
  }).catch(() => null);
  if (!response || response.status === 404 || response.status === 501) {
    throw new ClockError(
      "PGN and SGF are written by the project's annotate code, which runs in the server of `python -m sim web` (make web): download the record (JSON) and run python -m sim annotate",
    );
  }
  const text = await response.text();
  if (!response.ok) throw new ClockError(text);
  return text;
}

$("download-json").addEventListener("click", async () => {
  await refreshRecord();
  if (!record) return say($("record-answer"), "no game has started yet: there is no record", true);
  download("clock-game.json", JSON.stringify(record) + "\n", "application/json");
  say($("record-answer"), "saved clock-game.json");
});
for (const kind of ["pgn", "sgf"]) {
  $("download-" + kind).addEventListener("click", async () => {
    try {
      download("clock-game." + kind, await annotated(kind));
      say($("record-answer"), `saved clock-game.${kind}`);
    } catch (error) {
      say($("record-answer"), error.message, true);
    }
  });
}
