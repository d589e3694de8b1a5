// The audit view: the summary, the chart against perfect play and the
// longest game to replay.

import { drawBoard, parseBoard } from "./board.js";
import { $, FAILURES, START_SETS, api, el, html } from "./common.js";
import { fieldError, humanize, labelOf, strategyInfo } from "./play.js";

export const replay = { plies: [], start: "", index: 0 };

export let chartData = null;

export function drawChart(histogram, perfect) {
  chartData = [histogram, perfect];
  const svg = $("audit-chart");
  svg.replaceChildren();
  // A narrow chart on a narrow screen keeps its labels readable.
  const width = Math.round(Math.min(640, Math.max(300, svg.parentElement.clientWidth - 24)));
  svg.setAttribute("viewBox", `0 0 ${width} 260`);
  const maxMoves = Math.max(1, ...histogram.map((h) => h[0]), ...perfect.map((h) => h[0]));
  const maxCount = Math.max(1, ...histogram.map((h) => h[1]), ...perfect.map((h) => h[1]));
  const left = 50, right = width - 10, top = 10, bottom = 225;
  const slot = (right - left) / maxMoves;
  const height = (count) => ((bottom - top) * count) / maxCount;
  svg.append(el("line", { x1: left, y1: bottom, x2: right, y2: bottom, class: "axis" }));
  svg.append(el("line", { x1: left, y1: top, x2: left, y2: bottom, class: "axis" }));
  const series = [[perfect, "bar-p", 0, "perfect play"], [histogram, "bar-a", 0.5, "automaton"]];
  for (const [data, cls, offset, name] of series) {
    for (const [moves, count] of data) {
      const bar = el("rect", {
        x: left + (moves - 1) * slot + offset * slot, y: bottom - height(count),
        width: Math.max(0.8, slot / 2), height: height(count), class: cls,
      });
      bar.append(el("title", {}, `${name}: ${count} starts mated in ${moves}`));
      svg.append(bar);
    }
  }
  const step = maxMoves * 30 > right - left ? 10 : 5;
  for (let m = step; m <= maxMoves; m += step) {
    svg.append(el("text", { x: left + (m - 0.5) * slot, y: bottom + 16, "text-anchor": "middle" }, String(m)));
  }
  svg.append(el("text", { x: (left + right) / 2, y: 254, "text-anchor": "middle" }, "White's moves to mate"));
  svg.append(el("text", { x: left - 6, y: top + 10, "text-anchor": "end" }, String(maxCount)));
  svg.append(el("text", { x: left - 6, y: bottom, "text-anchor": "end" }, "0"));
}

export function showReplay() {
  if (!replay.start) { $("replay-board").replaceChildren(); $("replay-caption").textContent = ""; return; }
  const fen = replay.index === 0 ? replay.start : replay.plies[replay.index - 1].fen;
  const last = replay.index === 0 ? null : replay.plies[replay.index - 1].uci;
  const marks = last ? { "mark-last": [last.slice(0, 2), last.slice(2, 4)] } : {};
  drawBoard($("replay-board"), parseBoard(fen), marks, null, "The longest game");
  $("replay-slider").max = String(replay.plies.length);
  $("replay-slider").value = String(replay.index);
  $("replay-caption").textContent = replay.index === 0
    ? `Start: ${replay.start}`
    : `Ply ${replay.index} of ${replay.plies.length}: ${replay.plies[replay.index - 1].san}`;
}

export function clearAudit() {
  chartData = null;
  $("audit-summary").replaceChildren();
  $("audit-chart").replaceChildren();
  replay.plies = [];
  replay.start = "";
  showReplay();
}

export async function runAudit(event) {
  if (event) event.preventDefault();
  const name = $("audit-strategy").value;
  const query = `starts=${$("audit-starts").value}&side=${$("audit-side").value}`;
  clearAudit();
  fieldError("audit-error", "");
  $("audit-summary").textContent = "Auditing...";
  document.body.dataset.auditing = "true";
  const response = await api("GET", `/api/audit/${encodeURIComponent(name)}?${query}`);
  document.body.dataset.auditing = "false";
  if (!response.ok) {
    clearAudit();
    fieldError("audit-error", humanize(response.body.error));
    $("audit-summary").textContent = "No audit: see the message above.";
    return;
  }
  const audit = response.body;
  const summary = $("audit-summary");
  summary.replaceChildren(html("h2", {}, `${labelOf(audit.strategy)}: ${START_SETS[audit.starts_set] || audit.starts_set}, ${audit.side_to_move} to move`));
  const table = html("table");
  const rows = [
    ["starts", audit.starts],
    ["worst case", audit.worst_moves === null ? "no start is mated" : `${audit.worst_moves} moves`],
  ];
  if (audit.excess_over_perfect) {
    const e = audit.excess_over_perfect;
    rows.push(["perfect play's longest mate", `${e.perfect_worst} moves`]);
    rows.push(["excess over perfect play", `at most ${e.max} moves, ${e.mean.toFixed(2)} on average`]);
  }
  for (const [kind, count] of Object.entries(audit.failures)) if (count > 0) rows.push([`fails: ${FAILURES[kind] || kind}`, count]);
  for (const [k, v] of rows) {
    const tr = html("tr");
    tr.append(html("th", { scope: "row" }, k), html("td", {}, String(v)));
    table.append(tr);
  }
  summary.append(table);
  const note = (strategyInfo(audit.strategy) || {}).audit_note;
  if (note) summary.append(html("p", { class: "hint" }, note));
  drawChart(audit.histogram, audit.perfect_histogram);
  if (audit.longest) {
    replay.plies = audit.longest.plies;
    replay.start = audit.longest.start_fen;
    replay.index = 0;
    showReplay();
  }
}
