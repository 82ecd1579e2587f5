// SPDX-License-Identifier: MIT
// The page's figures for each case of tests/hall/check_hall_page.py's clocks (node runs the page's
// own module, web/hall_figure.js): reads the cases (a state, the clock's time, a side), writes
// what the page shows for each.   node tests/hall/hall_figures.mjs CASES.json OUT.json
import { readFileSync, writeFileSync } from "node:fs";
import { checkState, figures, shown, ticksDiff } from "../../web/hall_figure.js";

const [casesPath, out] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const seen = cases.map(({ state, now, side }) => {
  const checked = checkState(state);
  const got = figures(checked, side, ticksDiff(now, checked.stamp));
  return { main: got.main, delay: got.delay, reserve: got.reserve, text: shown(got.main) };
});
writeFileSync(out, JSON.stringify(seen));
