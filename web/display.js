// SPDX-License-Identifier: MIT
// The clock's display drawn from the very frame bytes the firmware builds: the SSD1306's 1024
// bytes (MONO_VLSB: byte page * 128 + x, bit y & 7) pixel for pixel, the TM1637 frame (a byte
// per digit, bit 0 = segment a ... bit 6 = g, bit 7 the colon or a point, byte 8 the brightness),
// or the HT1621 LCD frame (12 digits, two modules of six, bit 7 the point after each digit).

export const OLED_WIDTH = 128;
export const OLED_HEIGHT = 64;
export const SCALE = 4; // canvas pixels per OLED pixel before the canvas is laid out
const LIT = "#7fd8ff";
const SEAM = "#69b9dc"; // between lit pixels: a lit area stays lit, seen close up as its dots
const DARK = "#02070c";
const SEG_ON = "#ff3b2f";
const SEG_OFF = "#2a0b09";

export function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

export function oledPixel(frame, x, y) {
  return (frame[(y >> 3) * OLED_WIDTH + x] >> (y & 7)) & 1;
}

// Screen pixels per OLED pixel where `canvas` is shown (its content box, at the screen's pixel
// ratio: a browser's zoom too), whole, at least 1. Drawn at that size the canvas is shown without
// being scaled down, which would blur a pixel into its neighbours.
export function cellSize(canvas) {
  const ratio = globalThis.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (!width || !height) return SCALE;
  return Math.max(1, Math.floor(Math.min(width / OLED_WIDTH, height / OLED_HEIGHT) * ratio));
}

// Each lit pixel fills its whole cell: its dot in LIT, and from cells of 3 screen pixels the seam
// at its right and bottom a little dimmer; a dark pixel stays dark to its edges. Text dark on a
// lit ground (PAUSE, the selected menu line, a flagged side's digits) is then dark strokes on a
// solid ground at any zoom, never a grey mesh of dark gaps.
export function drawOled(canvas, frame, cell = cellSize(canvas)) {
  canvas.width = OLED_WIDTH * cell;
  canvas.height = OLED_HEIGHT * cell;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = DARK;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const dot = cell >= 3 ? cell - 1 : cell;
  for (const [colour, size] of dot < cell ? [[SEAM, cell], [LIT, dot]] : [[LIT, cell]]) {
    ctx.fillStyle = colour;
    for (let y = 0; y < OLED_HEIGHT; y++) {
      for (let x = 0; x < OLED_WIDTH; x++) {
        if (oledPixel(frame, x, y)) ctx.fillRect(x * cell, y * cell, size, size);
      }
    }
  }
}

// The OLED's pixels read back from the canvas (inside each drawn dot): a test's eye.
export function readOled(canvas) {
  const cell = canvas.width / OLED_WIDTH;
  const inside = Math.floor((cell - 1) / 2);
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  const bits = [];
  for (let y = 0; y < OLED_HEIGHT; y++) {
    let row = "";
    for (let x = 0; x < OLED_WIDTH; x++) {
      const at = ((y * cell + inside) * canvas.width + x * cell + inside) * 4;
      row += data[at + 2] > 128 ? "1" : "0";
    }
    bits.push(row);
  }
  return bits;
}

// Segment a..g of a digit cell `w` wide at (x, y), as [x, y, width, height] bars.
const DIGIT_W = 60;
const DIGIT_H = 100;
const BAR = 12;
function segments(x, y) {
  const w = DIGIT_W;
  const h = DIGIT_H / 2;
  return [
    [x + BAR, y, w - 2 * BAR, BAR], // a
    [x + w - BAR, y + BAR, BAR, h - BAR], // b
    [x + w - BAR, y + h + BAR / 2, BAR, h - BAR], // c
    [x + BAR, y + 2 * h - BAR / 2, w - 2 * BAR, BAR], // d
    [x, y + h + BAR / 2, BAR, h - BAR], // e
    [x, y + BAR, BAR, h - BAR], // f
    [x + BAR, y + h - BAR / 2, w - 2 * BAR, BAR], // g
  ];
}

const GAP = 16; // between digits
const MODULE_GAP = 70; // between the two modules
const MARGIN = 20;

// Where digit `i` (0..7) sits: x of its cell.
export function digitX(i) {
  const module = i >> 2;
  const inModule = i & 3;
  const colonRoom = inModule >= 2 ? 2 * GAP : 0;
  return MARGIN + module * (4 * DIGIT_W + 3 * GAP + 2 * GAP + MODULE_GAP) + inModule * (DIGIT_W + GAP) + colonRoom;
}

export const SEG_WIDTH = digitX(7) + DIGIT_W + GAP + MARGIN;
export const SEG_HEIGHT = DIGIT_H + 2 * MARGIN + BAR;

// The centre of segment `s` of digit `i`, and of its mark (colon dot or point): a test's eye.
export function segmentCentre(i, s) {
  const [x, y, w, h] = segments(digitX(i), MARGIN)[s];
  return [x + w / 2, y + h / 2];
}
function markSpots(i, points) {
  const x = digitX(i);
  if (points) return [[x + DIGIT_W + GAP / 2, MARGIN + DIGIT_H]];
  if ((i & 3) !== 1) return [];
  const cx = x + DIGIT_W + GAP * 1.5;
  return [[cx, MARGIN + DIGIT_H * 0.3], [cx, MARGIN + DIGIT_H * 0.75]];
}
export function markCentres(i, points) {
  return markSpots(i, points);
}

export function drawSeg(canvas, frame, points) {
  canvas.width = SEG_WIDTH;
  canvas.height = SEG_HEIGHT;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const level = frame.length > 8 ? frame[8] : 7;
  ctx.globalAlpha = 0.45 + (0.55 * Math.min(level, 7)) / 7;
  for (let i = 0; i < 8; i++) {
    const byte = frame[i];
    segments(digitX(i), MARGIN).forEach(([x, y, w, h], s) => {
      ctx.fillStyle = (byte >> s) & 1 ? SEG_ON : SEG_OFF;
      ctx.fillRect(x, y, w, h);
    });
    for (const [x, y] of markSpots(i, points)) {
      ctx.fillStyle = byte & 0x80 ? SEG_ON : SEG_OFF;
      ctx.beginPath();
      ctx.arc(x, y, BAR * 0.6, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;
}

// The 8 digit bytes read back from the canvas (bit 7: the colon or points as drawn).
export function readSeg(canvas, points) {
  const ctx = canvas.getContext("2d");
  const lit = ([x, y]) => ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data[0] > 80;
  const bytes = [];
  for (let i = 0; i < 8; i++) {
    let byte = 0;
    for (let s = 0; s < 7; s++) if (lit(segmentCentre(i, s))) byte |= 1 << s;
    const marks = markSpots(i, points);
    if (marks.length && marks.every(lit)) byte |= 0x80;
    bytes.push(byte);
  }
  return bytes;
}

// Two six-digit LCD modules: dark segments on a grey-green glass, a point after every digit.
const LCD_GLASS = "#b7c4a5";
const LCD_ON = "#1b2016";
const LCD_OFF = "#a9b797";
const LCD_MODULE_GAP = 60;

export function lcdDigitX(i) {
  const module = Math.floor(i / 6);
  return MARGIN + module * (6 * (DIGIT_W + GAP) + LCD_MODULE_GAP) + (i % 6) * (DIGIT_W + GAP);
}

export const LCD_WIDTH = lcdDigitX(11) + DIGIT_W + GAP + MARGIN;

function lcdPoint(i) {
  return [lcdDigitX(i) + DIGIT_W + GAP / 2, MARGIN + DIGIT_H];
}

export function drawLcd(canvas, frame) {
  canvas.width = LCD_WIDTH;
  canvas.height = SEG_HEIGHT;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = LCD_GLASS;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (let i = 0; i < 12; i++) {
    const byte = frame[i] || 0;
    segments(lcdDigitX(i), MARGIN).forEach(([x, y, w, h], s) => {
      ctx.fillStyle = (byte >> s) & 1 ? LCD_ON : LCD_OFF;
      ctx.fillRect(x, y, w, h);
    });
    const [x, y] = lcdPoint(i);
    ctx.fillStyle = byte & 0x80 ? LCD_ON : LCD_OFF;
    ctx.beginPath();
    ctx.arc(x, y, BAR * 0.5, 0, 2 * Math.PI);
    ctx.fill();
  }
}

// The 12 digit bytes read back from the canvas (a segment is lit where it is dark): a test's eye.
export function readLcd(canvas) {
  const ctx = canvas.getContext("2d");
  const lit = ([x, y]) => ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data[0] < 80;
  const bytes = [];
  for (let i = 0; i < 12; i++) {
    let byte = 0;
    segments(lcdDigitX(i), MARGIN).forEach(([x, y, w, h], s) => {
      if (lit([x + w / 2, y + h / 2])) byte |= 1 << s;
    });
    if (lit(lcdPoint(i))) byte |= 0x80;
    bytes.push(byte);
  }
  return bytes;
}
