// The tablebase view as an analysis board: a position's value and every
// move's; a clicked move is played, the line so far listed, Back and
// Forward step through it, and the position is in the address.

import { dragMan, drawBoard, parseBoard, squareAt } from "./board.js";
import { $, api, html, watchBuilds } from "./common.js";
import { fieldError, humanize } from "./play.js";
import { SetupBoard } from "./setup.js";

export const line = { fens: [], sans: [], ucis: [], index: 0, flipped: false };
// The answers of older probes are dropped: only the last asked is shown.
let probesAsked = 0;
// The progress of a table built in the background for the position shown, watched across probes.
let backgroundBuild = null;
let setup = null;
// The moves of the position shown (the last probe's), and the square of the man picked to play one.
let shownMoves = [];
let picked = null;
// Set for the moment after a drag ends, so that its click picks nothing.
let dragEnded = false;

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

/**
 * The position in the address (view=tables&fen=...), with what goes with
 * it: the fixed king's square (`fixed`), the board turned (`flip=1`) and
 * the line played from its first position (`from`, `line` as UCI moves),
 * so that it can be shared and reloaded.
 */
function rememberPosition(fen, push) {
  const own = new URLSearchParams({ fen });
  const fixed = $("probe-fixed").value.trim();
  if (fixed) own.set("fixed", fixed);
  if (line.flipped) own.set("flip", "1");
  if (line.ucis.length) { own.set("from", line.fens[0]); own.set("line", line.ucis.join(" ")); }
  document.body.dataset.probeAddress = own.toString();
  const params = new URLSearchParams(location.search);
  params.set("view", "tables");
  for (const key of ["fen", "fixed", "flip", "from", "line"]) params.delete(key);
  for (const [key, value] of own) params.set(key, value);
  const url = `${location.pathname}?${params}`;
  if (push) history.pushState({ view: "tables", fen }, "", url); else history.replaceState({ view: "tables", fen }, "", url);
}

/** The fixed king's field, from the address: a position without one clears it. */
export function fixedFromAddress(params) {
  $("probe-fixed").value = params.get("fixed") || "";
}

/**
 * The line of the address played again from its first position, move by
 * move as the server lists them (so every FEN and SAN is the server's),
 * up to the position shown; a move that is not there ends it.
 */
async function lineFromAddress(params) {
  const from = params.get("from");
  const moves = (params.get("line") || "").split(" ").filter(Boolean);
  line.fens = [from || $("probe-fen").value.trim()]; line.sans = []; line.ucis = []; line.index = 0;
  if (!from) return;
  const fixed = $("probe-fixed").value.trim();
  for (const uci of moves) {
    const query = `fen=${encodeURIComponent(line.fens[line.fens.length - 1])}${fixed ? `&fixed_king=${encodeURIComponent(fixed)}` : ""}`;
    const response = await api("GET", `/api/probe?${query}`);
    const move = response.ok ? response.body.moves.find((m) => m.uci === uci) : null;
    if (!move) break;
    line.fens.push(move.fen); line.sans.push(move.san); line.ucis.push(move.uci);
  }
  const at = line.fens.indexOf($("probe-fen").value.trim());
  line.index = at >= 0 ? at : 0;
  $("probe-fen").value = line.fens[line.index];
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
  // The whole line listed, as PGN with each move's value (made by the server).
  const pgn = new URLSearchParams({ fen: line.fens[0] || "", moves: line.ucis.join(",") });
  const fixed = $("probe-fixed").value.trim();
  if (fixed) pgn.set("fixed_king", fixed);
  $("probe-pgn").href = `/api/probe/pgn?${pgn}`;
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
  $("probe-board").addEventListener("click", boardClicked);
  wireDrag($("probe-board"));
  document.addEventListener("keydown", lineKey);
  $("probe-flip").addEventListener("click", () => { line.flipped = !line.flipped; probe(null, { keepLine: true }); });
  const params = new URLSearchParams(location.search);
  if (params.get("fen")) $("probe-fen").value = params.get("fen");
  fixedFromAddress(params);
  line.flipped = params.get("flip") === "1";
}

/** The tablebase view opened from its address: the position, with its line played again. */
export async function openTables() {
  const params = new URLSearchParams(location.search);
  if (params.get("line")) await lineFromAddress(params);
  await probe(null, { keepLine: Boolean(params.get("line")) });
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
  if (!options.keepLine && !options.move) { line.fens = [fen]; line.sans = []; line.ucis = []; line.index = 0; }
  // A position typed whose white king is not on the fixed king's square is of the ordinary game.
  const whiteKing = Object.entries(parseBoard(fen)).find(([, man]) => man === "K");
  if (event && whiteKing && whiteKing[0] !== $("probe-fixed").value.trim()) $("probe-fixed").value = "";
  const fixed = $("probe-fixed").value.trim();
  let query = `fen=${encodeURIComponent(fen)}`;
  if (fixed) query += `&fixed_king=${encodeURIComponent(fixed)}`;
  shownMoves = [];
  picked = null;
  // The old position stays in view, marked busy, until the answer comes.
  $("probe-moves").replaceChildren();
  $("probe-pv").textContent = "";
  $("probe-board").classList.add("probing");
  $("probe-board").setAttribute("aria-busy", "true");
  fieldError("probe-error", "");
  if (!options.again) $("probe-summary").textContent = "Probing...";
  const asked = ++probesAsked;
  // A build in the background keeps its progress bar from one look to the next.
  const watching = backgroundBuild || watchBuilds("probe");
  backgroundBuild = null;
  const response = await api("GET", `/api/probe?${query}`);
  if (asked !== probesAsked) { watching.stop(); return; }
  if (response.status === 202) {
    backgroundBuild = watching;
    awaitBuild(response.body, fen, options, asked);
    return;
  }
  watching.stop();
  $("probe-board").classList.remove("probing");
  $("probe-board").setAttribute("aria-busy", "false");
  if (!response.ok) {
    clearProbe();
    // A position that was read but is refused (illegal, or a table not built here) is still drawn.
    if (setup.active) setup.draw();
    else if (response.status !== 400) drawBoard($("probe-board"), parseBoard(fen), {}, null, "Position not probed", null, line.flipped);
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
  shownMoves = view.moves;
  picked = null;
  const body = $("probe-moves");
  for (const move of view.moves) {
    const tr = html("tr");
    const cell = html("td");
    const button = html("button", { type: "button", title: "play this move" }, move.san);
    button.addEventListener("click", () => playMove(move));
    cell.append(button);
    tr.append(cell, html("td", { class: `res-${move.result}` }, move.result),
      html("td", {}, move.dtm_moves ?? "-"), html("td", {}, move.dtm_plies ?? "-"));
    body.append(tr);
  }
  const fifty = view.pv_fifty_moves_ply ? ` (fifty moves without a capture or pawn move by ply ${view.pv_fifty_moves_ply}, where either side may claim a draw)` : "";
  if (view.pv.length) $("probe-pv").textContent = `Principal variation: ${view.pv.join(" ")}${fifty}`;
}

/**
 * A table built in the background for the position asked (a 202 and its
 * ticket): the position is drawn, the wait said in words, and the probe
 * asked again until the value comes (or another position is asked).
 */
function awaitBuild(ticket, fen, options, asked) {
  if (!setup.active) drawBoard($("probe-board"), parseBoard(fen), {}, null, "Position whose table is being built", null, line.flipped);
  const minutes = ticket.estimate_seconds >= 120 ? `about ${Math.round(ticket.estimate_seconds / 60)} minutes` : `about ${ticket.estimate_seconds} seconds`;
  const place = ticket.queue_position === 0 ? `being built, ${minutes} left`
    : `waiting for ${ticket.queue_position === 1 ? "one build" : `${ticket.queue_position} builds`} ahead, then ${minutes}`;
  $("probe-summary").textContent = `Building the table ${ticket.table} for this position: ${place}. The value shows once it is built.`;
  document.body.dataset.probeBuilding = ticket.table;
  // A newer probe has taken the progress bar over, or this one asks again.
  setTimeout(() => { if (asked === probesAsked) probe(null, { ...options, keepLine: true, again: true }); }, 1000);
}

/**
 * A move played: the line goes on from here. The same move as the line's
 * next steps forward, keeping what came after; another move drops it.
 */
function playMove(move) {
  leaveSetup();
  picked = null;
  if (line.ucis[line.index] === move.uci) { stepTo(line.index + 1); return; }
  line.fens = line.fens.slice(0, line.index + 1).concat([move.fen]);
  line.sans = line.sans.slice(0, line.index).concat([move.san]);
  line.ucis = line.ucis.slice(0, line.index).concat([move.uci]);
  line.index += 1;
  $("probe-fen").value = move.fen;
  probe(null, { move: true });
}

/** The position shown, with the man picked and his squares marked. */
function drawShown() {
  const marks = picked ? {
    "mark-selected": [picked],
    "mark-target": shownMoves.filter((m) => m.uci.startsWith(picked)).map((m) => m.uci.slice(2, 4)),
  } : {};
  drawBoard($("probe-board"), parseBoard($("probe-fen").value), marks, null, "Probed position", null, line.flipped);
}

/**
 * A click on the analysis board: a man of the side to move picked, then
 * one of his squares plays the move (a promotion to a queen; the list
 * has the others).
 */
function boardClicked(event) {
  const svg = $("probe-board").querySelector("svg");
  if (dragEnded || setup.active || !svg || !shownMoves.length) return;
  const square = squareAt(svg, event.clientX, event.clientY);
  if (!square) return;
  const move = picked && shownMoves.find((m) => m.uci === picked + square || m.uci === `${picked}${square}q`);
  if (move) { playMove(move); return; }
  picked = shownMoves.some((m) => m.uci.startsWith(square)) ? square : null;
  drawShown();
}

/**
 * A man of the side to move dragged to one of his squares plays the move
 * (pointer events: a mouse, a pen or a finger); dropped elsewhere, he goes
 * back. A press without a move is left to the click.
 */
function wireDrag(board) {
  let drag = null;
  board.addEventListener("pointerdown", (event) => {
    const svg = board.querySelector("svg");
    if (setup.active || !svg || !shownMoves.length) return;
    const square = squareAt(svg, event.clientX, event.clientY);
    if (!square || !shownMoves.some((m) => m.uci.startsWith(square))) return;
    drag = { from: square, x: event.clientX, y: event.clientY, moved: false };
    board.setPointerCapture(event.pointerId);
  });
  board.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) drag.moved = true;
    if (!drag.moved) return;
    document.body.dataset.dragging = "true";
    dragMan(board.querySelector("svg"), drag.from, event);
  });
  const end = (event) => {
    const ended = drag;
    drag = null;
    if (!ended || !ended.moved) return;
    document.body.dataset.dragging = "false";
    // The click that follows a drag is not a pick.
    dragEnded = true;
    setTimeout(() => { dragEnded = false; }, 0);
    const svg = board.querySelector("svg");
    const square = svg && event.type === "pointerup" ? squareAt(svg, event.clientX, event.clientY) : null;
    const move = square && shownMoves.find((m) => m.uci === ended.from + square || m.uci === `${ended.from}${square}q`);
    picked = null;
    if (move) playMove(move);
    else drawShown();
  };
  board.addEventListener("pointerup", end);
  board.addEventListener("pointercancel", end);
}

/** Left and right arrows step back and forward along the line, outside the fields and the set-up. */
function lineKey(event) {
  if ($("view-tables").hidden || setup.active || event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowLeft" && line.index > 0) { event.preventDefault(); stepTo(line.index - 1); }
  if (event.key === "ArrowRight" && line.index < line.fens.length - 1) { event.preventDefault(); stepTo(line.index + 1); }
}

/** Syzygy's answer in words: "cursed win, DTZ 113, best move Rb7+". */
function syzygyText(answer) {
  const best = answer.best_move ? `, best move ${answer.best_move.san}` : "";
  return `${answer.wdl.replace("-", " ")}, DTZ ${answer.dtz}${best}`;
}
