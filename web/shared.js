// SPDX-License-Identifier: MIT
// What the page's modules share: element lookup, messages, downloads, and which clock they talk to.
export const $ = (id) => document.getElementById(id);

// The Links (web/serial.js) of the page: `page` to this page's own clock, `current` the one the
// record and the preset manager talk to (the page's, or a board's over Web Serial).
export const links = { page: null, current: null };

export function note(text) {
  const notes = $("notes");
  if (!notes.hidden && notes.textContent.includes(text)) return; // said already
  notes.hidden = false;
  notes.textContent = (notes.textContent ? notes.textContent + " · " : "") + text;
}

export function say(element, text, bad = false) {
  element.textContent = text;
  element.classList.toggle("bad", bad);
}

export function download(name, text, type = "text/plain") {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
