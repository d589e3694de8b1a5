// The page of `ajedrecista serve`: play the automata, see their audits,
// browse the tables. Talks only to this server's JSON API (docs/web.md).
"use strict";

const FILES = "abcdefgh";
const SVG_NS = "http://www.w3.org/2000/svg";
const TORRES_LAMPS = [
  ["rook_a_file", "Rook to the a-file"],
  ["rook_h_file", "Rook to the h-file"],
  ["rook_down", "Rook one down"],
  ["rook_left", "Rook one left"],
  ["rook_right", "Rook one right"],
  ["king_down", "King one down"],
  ["king_left", "King one left"],
  ["king_right", "King one right"],
];

// Men drawn in a 100 x 100 box: [filled outline, lines].
const MEN = {
  k: ["M28 88 L72 88 L69 74 Q86 56 70 44 Q58 38 50 50 Q42 38 30 44 Q14 56 31 74 Z",
      "M50 10 L50 44 M41 20 L59 20 M31 74 L69 74"],
  r: ["M26 86 L74 86 L74 78 L66 74 L64 44 L70 40 L70 20 L61 20 L61 28 L55 28 L55 20 " +
      "L45 20 L45 28 L39 28 L39 20 L30 20 L30 40 L36 44 L34 74 L26 78 Z",
      "M36 44 L64 44 M34 74 L66 74"],
  q: ["M26 86 L74 86 L70 74 L82 28 L64 54 L58 20 L50 52 L42 20 L36 54 L18 28 L30 74 Z",
      "M30 74 L70 74"],
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function html(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return { ok: false, status: 0, body: { error: "the server cannot be reached" } };
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = { error: response.statusText }; }
  return { ok: response.ok, status: response.status, body: data };
}

// --- squares and boards ---

function squareName(file, rank) { return FILES[file] + (rank + 1); }
function fileOf(square) { return FILES.indexOf(square[0]); }
function rankOf(square) { return Number(square[1]) - 1; }

/** Men by square from the board part of a FEN. */
function parseBoard(fen) {
  const men = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else { men[squareName(file, 7 - i)] = ch; file += 1; }
    }
  });
  return men;
}

function boardFen(men) {
  const rows = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = "", empty = 0;
    for (let file = 0; file < 8; file++) {
      const man = men[squareName(file, rank)];
      if (man) { if (empty) row += empty; empty = 0; row += man; } else empty += 1;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join("/");
}

function manGroup(man, x, y) {
  const white = man === man.toUpperCase();
  const shape = MEN[man.toLowerCase()] || MEN.k;
  const g = el("g", { class: "piece", transform: `translate(${x} ${y}) scale(0.01)`, "data-man": man });
  g.append(el("path", { d: shape[0], class: white ? "w" : "b" }));
  g.append(el("path", { d: shape[1], class: white ? "wl" : "bl" }));
  return g;
}

/**
 * Draws a board into `container`: `men` by square, `marks` as
 * {class: [squares]}, optional animation {from, to} of the man now on `to`.
 * Returns the svg.
 */
function drawBoard(container, men, marks = {}, animate = null, label = "") {
  const svg = el("svg", { viewBox: "0 0 8 8", role: "img", "aria-label": label || "chess board" });
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const square = squareName(file, rank);
      svg.append(el("rect", {
        x: file, y: 7 - rank, width: 1, height: 1, "data-square": square,
        class: (file + rank) % 2 === 0 ? "sq-dark" : "sq-light",
      }));
    }
  }
  for (let i = 0; i < 8; i++) {
    svg.append(el("text", { x: i + 0.04, y: 7.96, class: "coord" }, FILES[i]));
    svg.append(el("text", { x: 7.86, y: 7 - i + 0.18, class: "coord" }, String(i + 1)));
  }
  for (const [cls, squares] of Object.entries(marks)) {
    for (const square of squares || []) {
      const x = fileOf(square), y = 7 - rankOf(square);
      if (cls === "mark-target" || cls === "mark-start") {
        svg.append(el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.16, class: cls, "data-mark": square }));
      } else {
        svg.append(el("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, class: cls, "data-mark": square }));
      }
    }
  }
  for (const [square, man] of Object.entries(men)) {
    const group = manGroup(man, fileOf(square), 7 - rankOf(square));
    group.setAttribute("data-square", square);
    svg.append(group);
  }
  container.replaceChildren(svg);
  if (animate && men[animate.to]) {
    const group = svg.querySelector(`g.piece[data-square="${animate.to}"]`);
    const from = [fileOf(animate.from), 7 - rankOf(animate.from)];
    const to = [fileOf(animate.to), 7 - rankOf(animate.to)];
    const start = performance.now();
    const duration = 450;
    const step = (now) => {
      const t = Math.min(1, (now - start) / duration);
      const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
      const x = from[0] + (to[0] - from[0]) * e, y = from[1] + (to[1] - from[1]) * e;
      group.setAttribute("transform", `translate(${x} ${y}) scale(0.01)`);
      if (t < 1) requestAnimationFrame(step);
      else document.body.dataset.animating = "false";
    };
    document.body.dataset.animating = "true";
    group.setAttribute("transform", `translate(${from[0]} ${from[1]}) scale(0.01)`);
    requestAnimationFrame(step);
  }
  return svg;
}

function squareAt(svg, clientX, clientY) {
  const box = svg.getBoundingClientRect();
  const file = Math.floor(((clientX - box.left) / box.width) * 8);
  const row = Math.floor(((clientY - box.top) / box.height) * 8);
  if (file < 0 || file > 7 || row < 0 || row > 7) return null;
  return squareName(file, 7 - row);
}

// --- the play view ---

const play = {
  strategies: [],
  game: null,
  selected: null,
  cursor: "e4",
  dragging: null,
  setup: false,
  setupMen: parseBoard("8/8/1k6/8/R7/8/5K2/8"),
};

function strategyInfo(name) { return play.strategies.find((s) => s.name === name); }

function setStatus(text, over = false) {
  $("status").textContent = text;
  $("status").classList.toggle("over", over);
}

function setLamp(lamp) {
  const on = Boolean(lamp);
  $("lamp").classList.toggle("on", on);
  $("lamp").dataset.on = String(on);
  $("lamp-reason").textContent = on ? lamp.reason : "off";
}

function setIllegalCount(illegal) {
  const { count, limit, stopped } = illegal;
  $("lamp-count").textContent = limit
    ? `${count} of ${limit} illegal moves${stopped ? ": the machine has stopped" : ""}`
    : `${count} illegal moves`;
}

function renderTorresLamps(lit = []) {
  const box = $("torres-lamps");
  box.replaceChildren();
  for (const [name, label] of TORRES_LAMPS) {
    const lamp = html("div", { class: "t-lamp" + (lit.includes(name) ? " on" : ""), "data-lamp": name });
    lamp.append(html("span", { class: "bulb", "aria-hidden": "true" }), html("span", {}, label));
    if (lit.includes(name)) lamp.setAttribute("aria-label", label + ": lit");
    box.append(lamp);
  }
}

// Seven segments a..g of each character.
const SEGMENTS = {
  "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg",
  "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", "E": "adefg",
  "C": "adef", "L": "def", "Г": "aef", " ": "",
};

/** Characters of `text` as display cells, a point joining the digit before. */
function displayCells(text) {
  const cells = [];
  for (const ch of text) {
    if (ch === "." || ch === ",") {
      if (cells.length === 0) cells.push({ ch: " ", dot: true });
      else cells[cells.length - 1].dot = true;
    } else cells.push({ ch, dot: false });
  }
  return cells;
}

/**
 * The MK-61's twelve places: the mantissa's sign, eight digits, the
 * exponent's sign and two digits. `text` is the mantissa and, after a
 * space, the exponent ("1. 25": 10^25).
 */
function mk61Cells(text) {
  const blank = () => ({ ch: " ", dot: false });
  const parts = (text || "").trim().split(/\s+/).filter(Boolean);
  const signed = (cells) => (cells.length > 1 && cells[0].ch === "-" ? cells : [blank(), ...cells]);
  const mantissa = signed(displayCells(parts[0] || "")).slice(0, 9);
  while (mantissa.length < 9) mantissa.push(blank());
  const exponent = parts.length > 1 ? signed(displayCells(parts[parts.length - 1])).slice(-3) : [];
  while (exponent.length < 3) exponent.unshift(blank());
  return [...mantissa, ...exponent];
}

function renderMk61(text) {
  const svg = $("mk61-display");
  svg.replaceChildren();
  $("mk61-text").textContent = text ? `display: ${text}` : "";
  const cells = mk61Cells(text);
  cells.slice(0, 12).forEach((cell, i) => {
    const x = 6 + i * 19.5, y = 6;
    const on = SEGMENTS[cell.ch] ?? "";
    const seg = (name, attrs) => svg.append(el("rect", { ...attrs, rx: 1, class: on.includes(name) ? "seg-on" : "seg-off" }));
    seg("a", { x: x + 2, y, width: 10, height: 2.4 });
    seg("b", { x: x + 12, y: y + 2, width: 2.4, height: 12 });
    seg("c", { x: x + 12, y: y + 16, width: 2.4, height: 12 });
    seg("d", { x: x + 2, y: y + 28, width: 10, height: 2.4 });
    seg("e", { x, y: y + 16, width: 2.4, height: 12 });
    seg("f", { x, y: y + 2, width: 2.4, height: 12 });
    seg("g", { x: x + 2, y: y + 14, width: 10, height: 2.4 });
    svg.append(el("circle", { cx: x + 16.5, cy: y + 29, r: 1.5, class: cell.dot ? "seg-on" : "seg-off" }));
  });
}

function speak(word) {
  if (!$("speech").checked || !("speechSynthesis" in window)) return;
  const utterance = new SpeechSynthesisUtterance(word);
  utterance.lang = "es-ES";
  window.speechSynthesis.speak(utterance);
}

function moveListItems(startFen, plies) {
  const fields = startFen.split(" ");
  let number = Number(fields[5] || 1);
  let white = fields[1] !== "b";
  const items = [];
  let current = null;
  for (const ply of plies) {
    if (white) { current = { number, text: ply.san }; items.push(current); }
    else if (!current) { current = { number, text: "... " + ply.san }; items.push(current); }
    else current.text += " " + ply.san;
    if (!white) { number += 1; current = null; }
    white = !white;
  }
  return items;
}

function renderGame(animate) {
  const game = play.game;
  const info = strategyInfo(game.strategy) || { label: game.strategy };
  const men = parseBoard(game.board);
  const marks = {};
  if (game.last_move) marks["mark-last"] = [game.last_move.slice(0, 2), game.last_move.slice(2, 4)];
  if (game.placing) marks["mark-start"] = game.start_squares;
  if (play.selected) {
    marks["mark-selected"] = [play.selected];
    marks["mark-target"] = game.black_moves.filter((m) => m.startsWith(play.selected)).map((m) => m.slice(2, 4));
  }
  if (document.activeElement === $("play-board")) marks["mark-cursor"] = [play.cursor];
  const replyAnimation = animate && game.last_reply ? { from: game.last_reply.from, to: game.last_reply.to } : null;
  const svg = drawBoard($("play-board"), men, marks, replyAnimation, `Game against ${info.label}`);
  svg.dataset.placing = String(game.placing);
  $("undo").disabled = !game.can_undo;

  const reply = game.last_reply;
  renderTorresLamps(reply ? reply.lamps : []);
  $("torres-lamps").hidden = game.strategy !== "torres";
  $("mk61").hidden = !game.strategy.startsWith("mk61");
  renderMk61(reply ? reply.display : "");
  $("reason").textContent = reply ? `${reply.san}: ${reply.reason}` : "";
  setIllegalCount(game.illegal);
  $("dtm").textContent = game.end ? "(the game is over)" : game.dtm === null ? "-" : `${game.dtm} moves`;

  const list = $("move-list");
  list.replaceChildren();
  for (const item of moveListItems(game.start_fen || "8/8/8/8/8/8/8/8 w - - 0 1", game.moves)) {
    list.append(html("li", { value: item.number }, item.text));
  }
  list.scrollTop = list.scrollHeight;

  $("pgn-copy").disabled = !game.pgn;
  $("pgn-download").disabled = !game.pgn;
  $("pgn").textContent = game.pgn || "";
  $("pgn").hidden = !game.end || !game.pgn;

  document.body.dataset.over = String(Boolean(game.end));
  if (game.end) setStatus(game.end.text, true);
  else if (game.placing) setStatus("Place the black king on one of the marked squares.");
  else setStatus(`Your move (${game.moves.length ? "the machine played " + (reply ? reply.san : "") : "Black to move"}).`);
}

async function newGame(event) {
  if (event) event.preventDefault();
  const strategy = $("opponent").value;
  const body = { strategy };
  if (document.querySelector('input[name="start"]:checked').value === "fen") body.fen = $("start-fen").value.trim();
  busy(true);
  const response = await api("POST", "/api/games", body);
  busy(false);
  if (!response.ok) { setStatus(response.body.error || "the game cannot start"); return; }
  play.game = response.body;
  play.selected = null;
  play.setup = false;
  $("setup-tools").hidden = true;
  setLamp(null);
  renderGame(true);
  announce(play.game.last_reply);
}

function announce(reply) {
  if (!reply) return;
  if (reply.mate) speak("mate");
  else if (reply.check) speak("jaque");
}

function busy(on) { document.body.dataset.busy = String(on); }

async function sendMove(text) {
  const game = play.game;
  if (!game || document.body.dataset.busy === "true") return;
  busy(true);
  const response = await api("POST", `/api/games/${game.id}/moves`, { move: text });
  busy(false);
  play.selected = null;
  if (response.ok) {
    play.game = response.body.game;
    setLamp(null);
    renderGame(true);
    announce(play.game.last_reply);
  } else if (response.body && response.body.lamp) {
    play.game = response.body.game;
    setLamp(response.body.lamp);
    renderGame(false);
    if (response.body.lamp.stopped) setStatus("Three illegal moves: the machine stops.", true);
  } else {
    setStatus(response.body.error || "the move was not taken");
  }
}

function boardSquare(square) {
  const game = play.game;
  if (!game || play.setup) { if (play.setup) setupSquare(square); return; }
  if (game.end) return;
  if (game.placing) { sendMove(square); return; }
  const men = parseBoard(game.board);
  if (men[square] === "k") {
    play.selected = play.selected === square ? null : square;
    renderGame(false);
  } else if (play.selected) {
    sendMove(play.selected + square);
  } else {
    const king = Object.keys(men).find((s) => men[s] === "k");
    if (king) sendMove(king + square);
  }
}

function setupSquare(square) {
  const man = document.querySelector('input[name="setup-man"]:checked').value;
  if (man && man !== "R" && man !== "Q") {
    for (const [sq, m] of Object.entries(play.setupMen)) if (m === man) delete play.setupMen[sq];
  }
  if (man) play.setupMen[square] = man; else delete play.setupMen[square];
  updateSetupFen();
  drawSetup();
}

function updateSetupFen() {
  const side = $("setup-black").checked ? "b" : "w";
  $("start-fen").value = `${boardFen(play.setupMen)} ${side} - - 0 1`;
}

function drawSetup() {
  drawBoard($("play-board"), play.setupMen, { "mark-cursor": document.activeElement === $("play-board") ? [play.cursor] : [] }, null, "set-up board");
  setStatus("Setting up: click squares, then Start.");
}

function wirePlayBoard() {
  const board = $("play-board");
  board.addEventListener("pointerdown", (event) => {
    const svg = board.querySelector("svg");
    if (!svg || !play.game || play.setup || play.game.end || play.game.placing) return;
    const square = squareAt(svg, event.clientX, event.clientY);
    const men = parseBoard(play.game.board);
    if (square && men[square] === "k") {
      play.dragging = { from: square, x: event.clientX, y: event.clientY, moved: false };
      board.setPointerCapture(event.pointerId);
    }
  });
  board.addEventListener("pointermove", (event) => {
    const drag = play.dragging;
    if (!drag) return;
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) drag.moved = true;
    if (!drag.moved) return;
    const svg = board.querySelector("svg");
    const group = svg.querySelector(`g.piece[data-square="${drag.from}"]`);
    const box = svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * 8 - 0.5;
    const y = ((event.clientY - box.top) / box.height) * 8 - 0.5;
    if (group) group.setAttribute("transform", `translate(${x} ${y}) scale(0.01)`);
  });
  board.addEventListener("pointerup", (event) => {
    const drag = play.dragging;
    play.dragging = null;
    const svg = board.querySelector("svg");
    if (!svg) return;
    const square = squareAt(svg, event.clientX, event.clientY);
    if (drag && drag.moved) {
      if (square && square !== drag.from) sendMove(drag.from + square);
      else renderGame(false);
      return;
    }
    if (square) boardSquare(square);
  });
  board.addEventListener("keydown", (event) => {
    const moves = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (moves[event.key]) {
      event.preventDefault();
      const [df, dr] = moves[event.key];
      const file = Math.min(7, Math.max(0, fileOf(play.cursor) + df));
      const rank = Math.min(7, Math.max(0, rankOf(play.cursor) + dr));
      play.cursor = squareName(file, rank);
      redrawPlay();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      boardSquare(play.cursor);
    } else if (event.key === "Escape") {
      play.selected = null;
      redrawPlay();
    }
  });
  board.addEventListener("focus", redrawPlay);
  board.addEventListener("blur", redrawPlay);
}

function redrawPlay() {
  if (play.setup) drawSetup();
  else if (play.game) renderGame(false);
}

function download(name, text) {
  const link = html("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// --- the audit view ---

const replay = { plies: [], start: "", index: 0 };

function drawChart(histogram, perfect) {
  const svg = $("audit-chart");
  svg.replaceChildren();
  const maxMoves = Math.max(1, ...histogram.map((h) => h[0]), ...perfect.map((h) => h[0]));
  const maxCount = Math.max(1, ...histogram.map((h) => h[1]), ...perfect.map((h) => h[1]));
  const left = 50, right = 630, top = 10, bottom = 225;
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
  const step = maxMoves > 40 ? 10 : 5;
  for (let m = step; m <= maxMoves; m += step) {
    svg.append(el("text", { x: left + (m - 0.5) * slot, y: bottom + 14, "text-anchor": "middle" }, String(m)));
  }
  svg.append(el("text", { x: (left + right) / 2, y: 252, "text-anchor": "middle" }, "White's moves to mate"));
  svg.append(el("text", { x: left - 6, y: top + 8, "text-anchor": "end" }, String(maxCount)));
  svg.append(el("text", { x: left - 6, y: bottom, "text-anchor": "end" }, "0"));
}

function showReplay() {
  const fen = replay.index === 0 ? replay.start : replay.plies[replay.index - 1].fen;
  const last = replay.index === 0 ? null : replay.plies[replay.index - 1].uci;
  const marks = last ? { "mark-last": [last.slice(0, 2), last.slice(2, 4)] } : {};
  drawBoard($("replay-board"), parseBoard(fen), marks, null, "longest game");
  $("replay-slider").max = String(replay.plies.length);
  $("replay-slider").value = String(replay.index);
  $("replay-caption").textContent = replay.index === 0
    ? `Start: ${replay.start}`
    : `Ply ${replay.index} of ${replay.plies.length}: ${replay.plies[replay.index - 1].san}`;
}

async function runAudit(event) {
  if (event) event.preventDefault();
  const name = $("audit-strategy").value;
  const query = `starts=${$("audit-starts").value}&side=${$("audit-side").value}`;
  $("audit-summary").textContent = "Auditing...";
  const response = await api("GET", `/api/audit/${encodeURIComponent(name)}?${query}`);
  if (!response.ok) { $("audit-summary").textContent = response.body.error; return; }
  const audit = response.body;
  const summary = $("audit-summary");
  summary.replaceChildren(html("h2", {}, `${audit.strategy}: ${audit.starts_set} starts, ${audit.side_to_move} to move`));
  const table = html("table");
  const rows = [
    ["starts", audit.starts],
    ["worst case", audit.worst_moves === null ? "no start is mated" : `${audit.worst_moves} moves`],
  ];
  if (audit.excess_over_perfect) {
    const e = audit.excess_over_perfect;
    rows.push(["perfect play's longest mate", `${e.perfect_worst} moves`]);
    rows.push(["excess over perfect play", `max ${e.max}, mean ${e.mean.toFixed(2)}`]);
  }
  for (const [kind, count] of Object.entries(audit.failures)) if (count > 0) rows.push([`failures: ${kind}`, count]);
  for (const [k, v] of rows) {
    const tr = html("tr");
    tr.append(html("th", {}, k), html("td", {}, String(v)));
    table.append(tr);
  }
  summary.append(table);
  drawChart(audit.histogram, audit.perfect_histogram);
  if (audit.longest) {
    replay.plies = audit.longest.plies;
    replay.start = audit.longest.start_fen;
    replay.index = 0;
    showReplay();
  }
}

// --- the tablebase view ---

async function probe(event) {
  if (event) event.preventDefault();
  const fen = $("probe-fen").value.trim();
  const fixed = $("probe-fixed").value.trim();
  let query = `fen=${encodeURIComponent(fen)}`;
  if (fixed) query += `&fixed_king=${encodeURIComponent(fixed)}`;
  $("probe-summary").textContent = "Probing...";
  const response = await api("GET", `/api/probe?${query}`);
  const body = $("probe-moves");
  body.replaceChildren();
  $("probe-pv").textContent = "";
  if (!response.ok) { $("probe-summary").textContent = response.body.error; return; }
  const view = response.body;
  drawBoard($("probe-board"), parseBoard(view.fen), {}, null, "probed position");
  const value = view.checkmate ? "checkmated" : view.stalemate ? "stalemate"
    : view.result === "draw" ? "draw" : `${view.result}, mate in ${view.dtm_moves} (${view.dtm_plies} plies)`;
  $("probe-summary").textContent = `${view.material} (${view.variant}), ${view.turn} to move: ${value}`;
  for (const move of view.moves) {
    const tr = html("tr");
    const cell = html("td");
    const button = html("button", { type: "button", title: "play this move" }, move.san);
    button.addEventListener("click", () => { $("probe-fen").value = move.fen; probe(); });
    cell.append(button);
    tr.append(cell, html("td", { class: `res-${move.result}` }, move.result),
      html("td", {}, move.dtm_moves ?? "-"), html("td", {}, move.dtm_plies ?? "-"));
    body.append(tr);
  }
  if (view.pv.length) $("probe-pv").textContent = `Principal variation: ${view.pv.join(" ")}`;
}

// --- tabs and start ---

function selectTab(tab) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  if (tab.id === "tab-audit" && !$("audit-summary").textContent) runAudit();
  if (tab.id === "tab-tables" && !$("probe-summary").textContent) probe();
}

function wireTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", (event) => {
      const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!delta) return;
      const next = tabs[(i + delta + tabs.length) % tabs.length];
      next.focus();
      selectTab(next);
    });
  });
}

async function start() {
  wireTabs();
  wirePlayBoard();
  renderTorresLamps();
  $("new-game").addEventListener("submit", newGame);
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value;
    $("move-input").value = "";
    sendMove(text);
  });
  $("undo").addEventListener("click", async () => {
    if (!play.game) return;
    const response = await api("POST", `/api/games/${play.game.id}/undo`);
    if (response.ok) { play.game = response.body; setLamp(null); renderGame(false); }
    else setStatus(response.body.error);
  });
  for (const radio of document.querySelectorAll('input[name="start"]')) {
    radio.addEventListener("change", () => { $("fen-start").hidden = radio.value !== "fen" || !radio.checked; });
  }
  $("setup-toggle").addEventListener("click", () => {
    play.setup = !play.setup;
    $("setup-tools").hidden = !play.setup;
    if (play.setup) {
      const text = $("start-fen").value.trim();
      if (text) play.setupMen = parseBoard(text);
      updateSetupFen();
      drawSetup();
    } else if (play.game) renderGame(false);
  });
  $("setup-black").addEventListener("change", updateSetupFen);
  $("pgn-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(play.game.pgn); setStatus("PGN copied."); }
    catch (err) { $("pgn").hidden = false; setStatus("Select the PGN below to copy it."); }
  });
  $("pgn-download").addEventListener("click", () => download("ajedrecista.pgn", play.game.pgn));
  $("audit-form").addEventListener("submit", runAudit);
  $("probe-form").addEventListener("submit", probe);
  $("replay-first").addEventListener("click", () => { replay.index = 0; showReplay(); });
  $("replay-last").addEventListener("click", () => { replay.index = replay.plies.length; showReplay(); });
  $("replay-prev").addEventListener("click", () => { replay.index = Math.max(0, replay.index - 1); showReplay(); });
  $("replay-next").addEventListener("click", () => { replay.index = Math.min(replay.plies.length, replay.index + 1); showReplay(); });
  $("replay-slider").addEventListener("input", () => { replay.index = Number($("replay-slider").value); showReplay(); });

  const response = await api("GET", "/api/strategies");
  play.strategies = response.ok ? response.body : [];
  for (const select of [$("opponent"), $("audit-strategy")]) {
    for (const s of play.strategies) select.append(html("option", { value: s.name }, s.label));
  }
  await newGame();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
