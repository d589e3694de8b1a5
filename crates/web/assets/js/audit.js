// The audit view: the summary, the chart against perfect play and the
// longest game to replay.

import { drawBoard, parseBoard } from "./board.js";
import { $, EVERY_START, api, el, html } from "./common.js";
import { fieldError, humanize, labelOf, play, strategyInfo } from "./play.js";

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
    const info = strategyInfo(name);
    const stand = standIn(name);
    // A refusal of the catalog's is told in its words, the command as a command.
    fieldError("audit-error", info && info.audit_refused ? `No audit of ${info.label} here: ${info.audit_refused}.` : humanize(response.body.error));
    $("audit-summary").textContent = "No audit: see the message above.";
    if (stand) {
      const button = html("button", { type: "button", id: "audit-stand-in" }, `Run the audit of ${stand.label}`);
      button.addEventListener("click", () => { $("audit-strategy").value = stand.name; labelStartSets(); runAudit(); });
      $("audit-summary").append(" ", button, " or, in a terminal: ", html("code", {}, `ajedrecista audit ${name}`));
    }
    return;
  }
  const audit = response.body;
  const summary = $("audit-summary");
  summary.replaceChildren(html("h2", {}, `${labelOf(audit.strategy)}: ${startSetWords(audit.strategy, audit.starts_set)}, ${audit.side_to_move} to move`));
  const table = html("table");
  const rows = [
    ["starts", audit.starts],
    ["worst case", audit.worst_moves === null ? "no start is mated" : `${audit.worst_moves} moves`],
    ["starts where the defence lasts beyond move 50", audit.beyond_fifty_moves],
  ];
  if (audit.excess_over_perfect) {
    const e = audit.excess_over_perfect;
    rows.push(["perfect play's longest mate", `${e.perfect_worst} moves`]);
    rows.push(["perfect play from the worst start", `${e.perfect_at_worst_start} moves`]);
    rows.push(["excess over perfect play", `at most ${e.max} moves, ${e.mean.toFixed(2)} on average`]);
  }
  const failed = Object.values(audit.failures).reduce((sum, n) => sum + n, 0);
  rows.push(["failures", failed]);
  for (const [kind, count] of Object.entries(audit.failures)) {
    const hopeless = audit.failures_without_a_win[kind] || 0;
    if (count > hopeless) rows.push([`fails: ${audit.failure_words[kind]}`, count - hopeless]);
    if (hopeless > 0) rows.push([`no win for anyone (perfect play too): ${audit.failure_words[kind]}`, hopeless]);
  }
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

/** The start sets in words: "the machine's own" as the catalog says it for this machine. */
export function startSetWords(name, set) {
  if (set !== "machine") return EVERY_START;
  const info = strategyInfo(name);
  return info ? info.own_starts : "the machine's own starts";
}

export function labelStartSets() {
  const option = $("audit-starts").querySelector('option[value="machine"]');
  option.textContent = startSetWords($("audit-strategy").value, "machine");
}

/** The machine whose audit stands for a refused one: named in the catalog's refusal. */
export function standIn(name) {
  const info = strategyInfo(name);
  return info && info.audit_stand_in ? strategyInfo(info.audit_stand_in) : null;
}

function mean(histogram) {
  const starts = histogram.reduce((sum, [, n]) => sum + n, 0);
  return starts ? histogram.reduce((sum, [m, n]) => sum + m * n, 0) / starts : null;
}

function worst(histogram) { return histogram.length ? histogram[histogram.length - 1][0] : null; }

/** Every automaton of the catalog beside perfect play, over the starts it takes, White to move. */
export async function renderComparison() {
  const body = $("compare-rows");
  if (body.dataset.filled === "true" || document.body.dataset.comparing === "true") return;
  document.body.dataset.comparing = "true";
  body.replaceChildren();
  // The claims' measured figures, for the audits too slow to run here.
  const claims = await api("GET", "/api/claims");
  for (const info of play.strategies) {
    const tr = html("tr", { "data-strategy": info.name });
    tr.append(html("th", { scope: "row" }, info.label));
    body.append(tr);
    if (info.audit_refused) {
      const stand = standIn(info.name);
      const claim = (claims.ok ? claims.body : []).find((c) => c.check.audit && c.check.audit.strategy === info.name);
      if (stand || !claim) tr.append(html("td", { colspan: "5" }, stand ? `as ${stand.label} (the same answer at every start)` : "not run here"));
      else {
        const f = claim.figures;
        tr.dataset.measured = "claims";
        tr.append(html("td", {}, `${f.starts} (measured with ${claim.command}: minutes of work, not run here)`),
          html("td", {}, String(f.worst_moves)), html("td", {}, "-"), html("td", {}, `${f.perfect_worst}, -`),
          html("td", {}, `${f.failures}: no win for anyone (perfect play too)`));
      }
      continue;
    }
    $("compare-status").textContent = `Auditing ${info.label}...`;
    // Where its own starts are all it accepts, the audit over all (kept by the server for the claims too).
    const set = info.has_own_starts ? "machine" : "all";
    const response = await api("GET", `/api/audit/${encodeURIComponent(info.name)}?starts=${set}&side=white`);
    if (!response.ok) { tr.append(html("td", { colspan: "5" }, humanize(response.body.error))); continue; }
    const a = response.body;
    const fmt = (x) => (x === null ? "-" : x.toFixed(1));
    const failures = Object.entries(a.failures).filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n}: ${a.failure_words[kind]}`).join("; ") || "none";
    tr.append(html("td", {}, `${a.starts} (${startSetWords(info.name, "machine")})`),
      html("td", {}, a.worst_moves === null ? "-" : String(a.worst_moves)),
      html("td", {}, fmt(mean(a.histogram))),
      html("td", {}, `${worst(a.perfect_histogram) ?? "-"}, ${fmt(mean(a.perfect_histogram))}`),
      html("td", {}, failures));
  }
  $("compare-status").textContent = "Moves are White's, mate included, against the longest defence; means over the starts mated.";
  body.dataset.filled = "true";
  document.body.dataset.comparing = "false";
}

export function wireAudit() {
  $("audit-strategy").addEventListener("change", labelStartSets);
  labelStartSets();
}
