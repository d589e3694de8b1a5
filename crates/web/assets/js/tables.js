// The tablebase view as an analysis board: a position's value and every
// move's; a clicked move is played, the line so far listed, Back and
// Forward step through it, and the position is in the address.

import { drawBoard, parseBoard } from "./board.js";
import { $, api, html } from "./common.js";
import { fieldError, humanize } from "./play.js";
import { SetupBoard } from "./setup.js";

export const line = { fens: [], sans: [], index: 0, flipped: false };
// The answers of older probes are dropped: only the last asked is shown.
let probesAsked = 0;
let setup = null;

/** The position set up by hand: in the field and the address, then probed. */
function setupChanged() {
  const fen = setup.fen($("probe-side").value);
  $("probe-fen").value = fen;
  rememberPosition(fen, false);
  probe(null);
}

/** Setting up ends where a move is played or stepped to. */
function leaveSetup() {
  if (!setup.active) return;
  $("probe-setup").hidden = true;
  $("probe-setup-toggle").setAttribute("aria-expanded", "false");
  setup.close();
}

function toggleSetup(on) {
  $("probe-setup").hidden = !on;
  $("probe-setup-toggle").setAttribute("aria-expanded", String(on));
  if (on) {
    const fen = $("probe-fen").value.trim();
    $("probe-side").value = fen.split(/\s+/)[1] === "b" ? "b" : "w";
    setup.open(parseBoard(fen));
  } else {
    setup.close();
    probe(null, { keepLine: true });
  }
}

/** The position in the address (view=tables&fen=...), so that it can be shared and reloaded. */
function rememberPosition(fen, push) {
  const params = new URLSearchParams(location.search);
  params.set("view", "tables");
  params.set("fen", fen);
  const url = `${location.pathname}?${params}`;
  if (push) history.pushState({ view: "tables", fen }, "", url); else history.replaceState({ view: "tables", fen }, "", url);
}

/** The line in chess style: an item a move number, White's move and
 * Black's reply in it ("1. Ra5 Ke6"; a line that starts with Black's
 * move "1... Kd4 2. Ra5"), each move a button. */
function renderLine() {
  const list = $("probe-line");
  list.replaceChildren();
  const fields = (line.fens[0] || "").split(" ");
  let number = Number(fields[5] || 1);
  let white = fields[1] !== "b";
  let item = null;
  line.sans.forEach((san, i) => {
    if (white || !item) {
      item = html("li", { value: String(number) });
      if (!white) item.append("… ");
      list.append(item);
    }
    const button = html("button", { type: "button", "aria-current": String(i + 1 === line.index) }, san);
    button.addEventListener("click", () => stepTo(i + 1));
    item.append(button, " ");
    if (!white) { number += 1; item = null; }
    white = !white;
  });
  $("probe-back").disabled = line.index === 0;
  $("probe-forward").disabled = line.index >= line.fens.length - 1;
}

export function stepTo(index) {
  leaveSetup();
  line.index = index;
  $("probe-fen").value = line.fens[index];
  probe(null, { keepLine: true });
}

export function wireTables() {
  setup = new SetupBoard({
    board: $("probe-board"), palette: $("probe-palette"), name: "probe-man",
    label: "Setting up the position", region: $("probe-setup-announce"), onChange: setupChanged, flipped: () => line.flipped,
  });
  $("probe-setup-toggle").addEventListener("click", () => toggleSetup($("probe-setup").hidden));
  $("probe-setup-done").addEventListener("click", () => toggleSetup(false));
  $("probe-side").addEventListener("change", setupChanged);
  $("probe-clear").addEventListener("click", () => { setup.men = {}; setup.changed("The board is empty"); });
  $("probe-back").addEventListener("click", () => { if (line.index > 0) stepTo(line.index - 1); });
  $("probe-forward").addEventListener("click", () => { if (line.index < line.fens.length - 1) stepTo(line.index + 1); });
  $("probe-flip").addEventListener("click", () => { line.flipped = !line.flipped; probe(null, { keepLine: true }); });
  const fen = new URLSearchParams(location.search).get("fen");
  if (fen) $("probe-fen").value = fen;
}

/**
 * While a probe is answered, the table builds under way (the tables'
 * own progress reports, /api/builds) as a progress bar.
 */
function watchBuilds() {
  let running = true;
  const poll = async () => {
    if (!running) return;
    const response = await api("GET", "/api/builds");
    if (!running) return;
    const build = response.ok ? response.body[0] : null;
    $("probe-build").hidden = !build;
    if (build) {
      const bar = $("probe-progress");
      if (build.total) { bar.max = build.total; bar.value = build.done; } else bar.removeAttribute("value");
      $("probe-build-text").textContent = `Building the table ${build.table}: ${build.text}.`;
      document.body.dataset.buildSeen = build.stage;
    }
    setTimeout(poll, 250);
  };
  setTimeout(poll, 100);
  return { stop: () => { running = false; $("probe-build").hidden = true; } };
}

export function clearProbe() {
  // While setting up, the board stays: the position is not finished.
  if (!setup || !setup.active) $("probe-board").replaceChildren();
  $("probe-moves").replaceChildren();
  $("probe-pv").textContent = "";
}

export async function probe(event, options = {}) {
  if (event) event.preventDefault();
  const fen = $("probe-fen").value.trim();
  // A FEN typed while setting up: the men to go on from.
  if (event && setup.active) { setup.men = parseBoard(fen); $("probe-side").value = fen.split(/\s+/)[1] === "b" ? "b" : "w"; }
  if (!options.keepLine && !options.move) { line.fens = [fen]; line.sans = []; line.index = 0; }
  const fixed = $("probe-fixed").value.trim();
  let query = `fen=${encodeURIComponent(fen)}`;
  if (fixed) query += `&fixed_king=${encodeURIComponent(fixed)}`;
  clearProbe();
  fieldError("probe-error", "");
  $("probe-summary").textContent = "Probing...";
  const asked = ++probesAsked;
  const watching = watchBuilds();
  const response = await api("GET", `/api/probe?${query}`);
  watching.stop();
  if (asked !== probesAsked) return;
  if (!response.ok) {
    clearProbe();
    fieldError("probe-error", humanize(response.body.error));
    $("probe-summary").textContent = "No position: see the message above.";
    return;
  }
  const view = response.body;
  rememberPosition(view.fen, Boolean(options.move));
  renderLine();
  if (setup.active) setup.draw();
  else drawBoard($("probe-board"), parseBoard(view.fen), {}, null, "Probed position", null, line.flipped);
  const value = view.checkmate ? "checkmated" : view.stalemate ? "stalemate"
    : view.source === "syzygy" ? `Syzygy: ${syzygyText(view.syzygy)} (the DTM table is not built: ajedrecista solve ${view.material})`
    : view.result === "draw" ? "draw" : `${view.result}, mate in ${view.dtm_moves} (${view.dtm_plies} plies)`;
  const beside = view.source === "tables" && view.syzygy ? `; Syzygy: ${syzygyText(view.syzygy)}` : "";
  const variant = view.variant === "standard" ? "" : ` (${view.variant.replace(/^fixed-king-/, "white king fixed on ")})`;
  $("probe-summary").textContent = `${view.material}${variant}, ${view.turn} to move: ${value}${beside}`;
  const body = $("probe-moves");
  for (const move of view.moves) {
    const tr = html("tr");
    const cell = html("td");
    const button = html("button", { type: "button", title: "play this move" }, move.san);
    button.addEventListener("click", () => {
      // A move played: the line goes on from here (what came after is dropped).
      leaveSetup();
      line.fens = line.fens.slice(0, line.index + 1).concat([move.fen]);
      line.sans = line.sans.slice(0, line.index).concat([move.san]);
      line.index += 1;
      $("probe-fen").value = move.fen;
      probe(null, { move: true });
    });
    cell.append(button);
    tr.append(cell, html("td", { class: `res-${move.result}` }, move.result),
      html("td", {}, move.dtm_moves ?? "-"), html("td", {}, move.dtm_plies ?? "-"));
    body.append(tr);
  }
  const fifty = view.pv_fifty_moves_ply ? ` (fifty moves without a capture or pawn move by ply ${view.pv_fifty_moves_ply}, where either side may claim a draw)` : "";
  if (view.pv.length) $("probe-pv").textContent = `Principal variation: ${view.pv.join(" ")}${fifty}`;
}

/** Syzygy's answer in words: "cursed win, DTZ 113, best move Rb7+". */
function syzygyText(answer) {
  const best = answer.best_move ? `, best move ${answer.best_move.san}` : "";
  return `${answer.wdl.replace("-", " ")}, DTZ ${answer.dtz}${best}`;
}
