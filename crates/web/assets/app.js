// The page of `ajedrecista serve`: play the automata, see their audits,
// browse the tables. Talks only to this server's JSON API (docs/web.md).
"use strict";

const FILES = "abcdefgh";
const SVG_NS = "http://www.w3.org/2000/svg";
const LAMPS_1912 = [
  ["rook_a_file", "Rook to the a-file"],
  ["rook_h_file", "Rook to the h-file"],
  ["rook_down", "Rook one down"],
  ["rook_left", "Rook one left"],
  ["rook_right", "Rook one right"],
  ["king_down", "King one down"],
  ["king_left", "King one left"],
  ["king_right", "King one right"],
];

// What the audit's failure kinds mean, in words.
const FAILURES = {
  cycle: "the defence makes the machine repeat itself",
  lost_piece: "the black king takes the white man",
  stalemate: "stalemate",
  illegal_move: "the machine asks for an illegal move",
  wrong_display: "the calculator shows no move",
  refusal: "the machine refuses the position",
  outside_rules: "a position its rules do not cover",
};

// What a rule's short name means, where it does not say so itself.
const REASON_NOTES = {
  "rule 4: tempo": "a waiting move: the rook steps one file along its rank, and the black king must move",
};

const START_SETS = { all: "every legal start", machine: "the machine's own starts" };

// Men drawn in a 100 x 100 box: [filled outline, lines].
const MEN = {
  k: ["M28 88 L72 88 L69 74 Q86 56 70 44 Q58 38 50 50 Q42 38 30 44 Q14 56 31 74 Z",
      "M50 10 L50 44 M41 20 L59 20 M31 74 L69 74"],
  r: ["M26 86 L74 86 L74 78 L66 74 L64 44 L70 40 L70 20 L61 20 L61 28 L55 28 L55 20 " +
      "L45 20 L45 28 L39 28 L39 20 L30 20 L30 40 L36 44 L34 74 L26 78 Z",
      "M36 44 L64 44 M34 74 L66 74"],
  q: ["M26 86 L74 86 L70 74 L82 28 L64 54 L58 20 L50 52 L42 20 L36 54 L18 28 L30 74 Z",
      "M30 74 L70 74"],
  b: ["M28 86 L72 86 L68 76 L60 72 Q72 56 62 38 L52 50 L57 33 Q54 26 50 22 " +
      "Q36 32 38 50 Q30 62 40 72 L32 76 Z",
      "M40 72 L60 72"],
  n: ["M30 86 L74 86 L72 64 Q72 30 48 18 L44 26 L36 30 L20 50 L26 58 L38 52 L44 56 " +
      "Q30 68 30 86 Z",
      "M34 38 L40 38"],
  // Pawns, for the tables with pawns (a promotion turns one into q, r, b or n).
  p: ["M30 86 L70 86 L66 74 L58 60 Q63 52 58 46 A12 12 0 1 0 42 46 Q37 52 42 60 L34 74 Z",
      "M34 74 L66 74"],
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

const MAN_NAMES = {
  K: "white king", Q: "white queen", R: "white rook", B: "white bishop", N: "white knight", P: "white pawn",
  k: "black king", q: "black queen", r: "black rook", b: "black bishop", n: "black knight", p: "black pawn",
};

/** The men in words: "white king a8, white rook b7, black king d6". */
function describeMen(men) {
  const order = ["K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p"];
  const list = Object.entries(men).sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]));
  return list.length ? list.map(([square, man]) => `${MAN_NAMES[man] || man} ${square}`).join(", ") : "empty board";
}

/**
 * Draws a board into `container`: `men` by square, `marks` as
 * {class: [squares]}, optional animation {from, to} of the man now on `to`.
 * With `squareIds` (a prefix) every square is labelled for screen readers
 * and has the id prefix + square. Returns the svg.
 */
function drawBoard(container, men, marks = {}, animate = null, label = "", squareIds = null) {
  const title = `${label || "chess board"}: ${describeMen(men)}`;
  const svg = el("svg", squareIds ? { viewBox: "0 0 8 8", role: "group", "aria-label": title }
    : { viewBox: "0 0 8 8", role: "img", "aria-label": title });
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const square = squareName(file, rank);
      const attrs = {
        x: file, y: 7 - rank, width: 1, height: 1, "data-square": square,
        class: (file + rank) % 2 === 0 ? "sq-dark" : "sq-light",
      };
      if (squareIds) {
        attrs.id = squareIds + square;
        attrs.role = "img";
        attrs["aria-label"] = `${square}: ${MAN_NAMES[men[square]] || "empty"}`;
      }
      svg.append(el("rect", attrs));
    }
  }
  for (let i = 0; i < 8; i++) {
    svg.append(el("text", { x: i + 0.04, y: 7.96, class: "coord", "aria-hidden": "true" }, FILES[i]));
    svg.append(el("text", { x: 7.86, y: 7 - i + 0.18, class: "coord", "aria-hidden": "true" }, String(i + 1)));
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
  // The cursor is drawn only after the board is used by keyboard.
  keyboard: false,
  dragging: null,
  setup: false,
  setupMen: parseBoard("8/8/1k6/8/R7/8/5K2/8"),
  // The board shows a game that a failed request has left behind.
  stale: false,
  // The calculator display's turn shown, and the timer of its next state.
  displayShown: null,
  displayTimer: null,
  // The lamp of the last move, while it is lit.
  lamp: null,
};

function strategyInfo(name) { return play.strategies.find((s) => s.name === name); }
function labelOf(name) { return (strategyInfo(name) || { label: name }).label; }

/** A server message with every automaton's internal name replaced by its label. */
function humanize(text) {
  let out = String(text || "");
  const names = play.strategies.map((s) => s.name).sort((a, b) => b.length - a.length);
  for (const name of names) {
    out = out.replace(new RegExp(`(^|[^\\w-])${name.replace(/-/g, "\\-")}(?![\\w-])`, "g"), `$1${labelOf(name)}`);
  }
  return out;
}

function setStatus(text, kind = "") {
  $("status").textContent = text;
  $("status").className = kind;
  $("board-lamp").classList.toggle("on", kind === "lamp-text");
}

/** The machine stops after this many illegal moves, as in 1912. */
function limitText(limit) {
  return `as in 1912, the machine stops after ${limit === 3 ? "three" : limit} illegal moves`;
}

function setLamp(lamp) {
  play.lamp = lamp;
  const on = Boolean(lamp);
  $("lamp").classList.toggle("on", on);
  $("lamp").dataset.on = String(on);
  $("lamp-reason").textContent = on ? humanize(lamp.reason) : "off";
}

function setIllegalCount(illegal) {
  const { count, limit, stopped } = illegal;
  $("lamp-count").textContent = limit
    ? `${count} of ${limit} illegal moves${stopped ? ": the machine has stopped" : ""} (${limitText(limit)})`
    : `${count} illegal moves`;
}

function renderTorresLamps(lit = []) {
  const box = $("lamps-1912");
  box.replaceChildren();
  for (const [name, label] of LAMPS_1912) {
    const lamp = html("div", { class: "t-lamp" + (lit.includes(name) ? " on" : ""), "data-lamp": name });
    lamp.append(html("span", { class: "bulb", "aria-hidden": "true" }), html("span", {}, label + (lit.includes(name) ? " (lit)" : "")));
    box.append(lamp);
  }
}

// Seven segments a..g of each glyph of the MK-61's indicator: the digits,
// minus, L, C, Г, Е, blank. The Cyrillic О and З of the error words are the
// digits 0 and 3 on the indicator (ЗГГОГ is 3.ГГ0Г, with the point); the
// Latin E is the same glyph as Е.
const SEGMENTS = {
  "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg",
  "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", "L": "def",
  "C": "adef", "Г": "aef", "Е": "adefg", " ": "",
};
const GLYPH_OF = { "E": "Е", "О": "0", "O": "0", "З": "3" };

/** Characters of `text` as display cells, a point joining the digit before. */
function displayCells(text) {
  const cells = [];
  for (const ch of text) {
    if (ch === ".") {
      if (cells.length === 0) cells.push({ ch: " ", dot: true });
      else cells[cells.length - 1].dot = true;
    } else cells.push({ ch: GLYPH_OF[ch] || ch, dot: ch === "З" });
  }
  return cells;
}

/** One display state (text and twelve places, as the server reads it). */
function drawMk61(svg, state) {
  drawCells(svg, state ? placeCells(state.places) : []);
  svg.dataset.text = state ? state.text : "";
}

/** The server's places as cells. */
function placeCells(places) {
  return places.map((p) => ({ ch: GLYPH_OF[p.glyph] || p.glyph, dot: p.point }));
}

/** Twelve places {ch, dot} in seven segments and a point each. */
function drawCells(svg, cells) {
  svg.replaceChildren();
  cells.slice(0, 12).forEach((cell, i) => {
    const x = 6 + i * 19.5, y = 6;
    const on = SEGMENTS[cell.ch] ?? "";
    const place = el("g", { "data-place": i });
    const seg = (name, attrs) => place.append(el("rect", { ...attrs, rx: 1, "data-seg": name, class: on.includes(name) ? "seg-on" : "seg-off" }));
    seg("a", { x: x + 2, y, width: 10, height: 2.4 });
    seg("b", { x: x + 12, y: y + 2, width: 2.4, height: 12 });
    seg("c", { x: x + 12, y: y + 16, width: 2.4, height: 12 });
    seg("d", { x: x + 2, y: y + 28, width: 10, height: 2.4 });
    seg("e", { x, y: y + 16, width: 2.4, height: 12 });
    seg("f", { x, y: y + 2, width: 2.4, height: 12 });
    seg("g", { x: x + 2, y: y + 14, width: 10, height: 2.4 });
    place.append(el("circle", { cx: x + 16.5, cy: y + 29, r: 1.5, "data-seg": "p", class: cell.dot ? "seg-on" : "seg-off" }));
    svg.append(place);
  });
}

/** Shows the turn's displays one after the other, 2 s apart. */
function renderMk61(states, animate) {
  const key = states.map((state) => state.text).join(", ");
  // A redraw of the same turn leaves its states running.
  if (!animate && key === play.displayShown) return;
  play.displayShown = key;
  clearTimeout(play.displayTimer);
  const svg = $("reply-display");
  const show = (i) => {
    const state = states[i] || null;
    drawMk61(svg, state);
    svg.dataset.step = `${i + 1}/${Math.max(1, states.length)}`;
    const next = i + 1 < states.length ? ", then, after С/П, the next display" : "";
    $("reply-display-text").textContent = state ? `Display: ${state.text}${next}` : "";
    if (i + 1 < states.length) play.displayTimer = setTimeout(() => show(i + 1), 2000);
  };
  show(animate ? 0 : Math.max(0, states.length - 1));
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

function blackKing(men) { return Object.keys(men).find((s) => men[s] === "k"); }

function renderHeading() {
  const name = play.game ? play.game.strategy : $("opponent").value;
  $("opponent-heading").textContent = `Playing against ${labelOf(name)}`;
  renderAbout(name);
}

function renderGame(animate) {
  const game = play.game;
  const men = parseBoard(game.board);
  const marks = {};
  const reply = game.last_reply;
  if (game.last_move) marks["mark-last"] = [game.last_move.slice(0, 2), game.last_move.slice(2, 4)];
  if (reply && (reply.check || reply.mate) && game.last_move === reply.uci && blackKing(men)) {
    marks[reply.mate ? "mark-mate" : "mark-check"] = [blackKing(men)];
  }
  if (game.placing) marks["mark-start"] = game.start_squares;
  if (play.selected) {
    marks["mark-selected"] = [play.selected];
    marks["mark-target"] = game.black_moves.filter((m) => m.startsWith(play.selected)).map((m) => m.slice(2, 4));
  }
  const board = $("play-board");
  const cursor = play.keyboard && document.activeElement === board;
  if (cursor) marks["mark-cursor"] = [play.cursor];
  const replyAnimation = animate && reply ? { from: reply.from, to: reply.to } : null;
  const svg = drawBoard(board, men, marks, replyAnimation, `Game against ${labelOf(game.strategy)}`, "sq-");
  svg.dataset.placing = String(game.placing);
  if (cursor) board.setAttribute("aria-activedescendant", "sq-" + play.cursor);
  else board.removeAttribute("aria-activedescendant");
  $("undo").disabled = !game.can_undo;
  renderHeading();

  renderTorresLamps(reply ? reply.lamps : []);
  const panel = (strategyInfo(game.strategy) || { panel: "board" }).panel;
  $("lamps-1912").hidden = panel !== "lamps";
  $("mk61").hidden = panel !== "display";
  renderMk61(reply ? reply.displays : [], animate);
  $("reason").textContent = reply ? `${reply.san}: ${reply.reason}${REASON_NOTES[reply.reason] ? ` (${REASON_NOTES[reply.reason]})` : ""}` : "";
  setIllegalCount(game.illegal);
  $("dtm").textContent = game.end
    ? "The game is over."
    : game.dtm === null
      ? "Once the black king stands, this line says how fast perfect play would mate from here."
      : `From here perfect play (the tables) mates in ${game.dtm} moves, whatever Black does.`;

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
  document.body.dataset.ply = String(game.moves.length);
  const lamp = play.lamp;
  if (lamp && lamp.stopped) setStatus(`Illegal: ${humanize(lamp.reason)}. ${humanize(game.end ? game.end.text : "")}`, "lamp-text");
  else if (game.end) setStatus(humanize(game.end.text), "over");
  else if (lamp) {
    const why = game.placing ? ` It counts: ${limitText(lamp.limit)}.` : "";
    setStatus(`Illegal: ${humanize(lamp.reason)} (${lamp.count} of ${lamp.limit}).${why}`, "lamp-text");
  } else if (game.placing) setStatus("Place the black king on one of the marked squares.");
  else setStatus(reply && game.moves.length
    ? `Your move. The machine played ${reply.san}${reply.mate ? ", mate" : reply.check ? ", check" : ""}.`
    : "Your move (Black to move).");
}

/** The game's id and the view, in the address: a reload resumes, Back and Forward move between views. */
function urlFor(view, gameId) {
  const params = new URLSearchParams();
  if (view && view !== "play") params.set("view", view);
  if (gameId) params.set("game", gameId);
  const query = params.toString();
  return location.pathname + (query ? "?" + query : "");
}

function currentView() {
  const tab = document.querySelector('[role="tab"][aria-selected="true"]');
  return tab ? tab.id.replace("tab-", "") : "play";
}

function rememberGame() {
  const id = play.game ? play.game.id : null;
  history.replaceState({ view: currentView(), game: id }, "", urlFor(currentView(), id));
}

function setStale(stale) {
  play.stale = stale;
  $("play-board").classList.toggle("stale", stale);
  $("play-board").setAttribute("aria-disabled", String(stale));
  $("move-input").disabled = stale;
}

function showGame(game, animate) {
  play.game = game;
  play.selected = null;
  play.setup = false;
  $("setup-tools").hidden = true;
  $("game-missing").hidden = true;
  $("opponent").value = game.strategy;
  $("opponent-confirm").hidden = true;
  setStale(false);
  setLamp(null);
  renderGame(animate);
  rememberGame();
}

function fieldError(id, text) {
  $(id).textContent = text || "";
  const input = { "start-fen-error": "start-fen", "probe-error": "probe-fen", "audit-error": "audit-strategy" }[id];
  if (input) $(input).setAttribute("aria-invalid", String(Boolean(text)));
}

async function newGame(event) {
  if (event) event.preventDefault();
  const strategy = $("opponent").value;
  const body = { strategy };
  const fromFen = document.querySelector('input[name="start"]:checked').value === "fen";
  if (fromFen) body.fen = $("start-fen").value.trim();
  fieldError("start-fen-error", "");
  fieldError("new-game-error", "");
  busy(true);
  const response = await api("POST", "/api/games", body);
  busy(false);
  if (!response.ok) {
    const error = humanize(response.body.error || "the game cannot start");
    fieldError(fromFen ? "start-fen-error" : "new-game-error", error);
    if (play.game) {
      setStale(true);
      setStatus(`No new game: ${error}. The board shows your previous game, greyed out.`, "error");
    } else setStatus(`No game: ${error}.`, "error");
    return;
  }
  showGame(response.body, true);
  announce(play.game.last_reply);
}

/** A game of the address: resumed, or a notice that it is gone. */
async function loadGame(id) {
  const response = await api("GET", `/api/games/${encodeURIComponent(id)}`);
  if (response.ok) { showGame(response.body, false); return true; }
  play.game = null;
  setStale(false);
  $("play-board").replaceChildren();
  $("game-missing-text").textContent = response.status === 404 || response.status === 400
    ? "That game is not on the server: it never existed, or it expired after an hour without moves, or the server restarted."
    : `That game cannot be loaded: ${humanize(response.body.error)}.`;
  $("game-missing").hidden = false;
  setStatus("No game.", "error");
  renderHeading();
  return false;
}

function announce(reply) {
  if (!reply) return;
  $("machine-say").textContent = `The machine played ${reply.san}${reply.mate ? ", mate" : reply.check ? ", check" : ""}.`;
  if (reply.mate) speak("mate");
  else if (reply.check) speak("jaque");
}

function busy(on) { document.body.dataset.busy = String(on); }

async function sendMove(text) {
  const game = play.game;
  if (!game || play.stale || document.body.dataset.busy === "true") return;
  busy(true);
  const response = await api("POST", `/api/games/${game.id}/moves`, { move: text });
  busy(false);
  play.selected = null;
  if (response.ok && response.body.lamp) {
    play.game = response.body.game;
    setLamp(response.body.lamp);
    renderGame(false);
    $("machine-say").textContent = $("status").textContent;
  } else if (response.ok) {
    play.game = response.body.game;
    setLamp(null);
    renderGame(true);
    announce(play.game.last_reply);
  } else {
    setStatus(humanize(response.body.error || "the move was not taken"), "error");
  }
}

function boardSquare(square) {
  const game = play.game;
  if (play.setup) { setupSquare(square); return; }
  if (!game || play.stale || game.end) return;
  if (game.placing) { sendMove(square); return; }
  const men = parseBoard(game.board);
  if (men[square] === "k") {
    play.selected = play.selected === square ? null : square;
    renderGame(false);
  } else if (play.selected) {
    sendMove(play.selected + square);
  } else {
    const king = blackKing(men);
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
  const cursor = play.keyboard && document.activeElement === $("play-board");
  drawBoard($("play-board"), play.setupMen, { "mark-cursor": cursor ? [play.cursor] : [] }, null, "Setting up", "sq-");
  setStatus("Setting up: click squares, then Start.");
}

function wirePlayBoard() {
  const board = $("play-board");
  board.addEventListener("pointerdown", (event) => {
    play.keyboard = false;
    const svg = board.querySelector("svg");
    if (!svg || !play.game || play.stale || play.setup || play.game.end || play.game.placing) return;
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
      play.keyboard = true;
      redrawPlay();
      const men = play.setup ? play.setupMen : play.game ? parseBoard(play.game.board) : {};
      $("cursor-say").textContent = `${play.cursor}: ${MAN_NAMES[men[play.cursor]] || "empty"}`;
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      play.keyboard = true;
      boardSquare(play.cursor);
    } else if (event.key === "Escape") {
      play.selected = null;
      redrawPlay();
    }
  });
  // Focus by Tab shows the cursor; focus by a click does not.
  board.addEventListener("focus", () => { play.keyboard = board.matches(":focus-visible"); redrawPlay(); });
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

/** A change of opponent: at once if no game is in play, else after asking. */
function opponentChanged() {
  const name = $("opponent").value;
  const fen = $("start-fen");
  const previous = play.game ? strategyInfo(play.game.strategy) : null;
  if (!fen.value.trim() || (previous && fen.value === previous.demo_fen) || play.strategies.some((s) => s.demo_fen === fen.value)) {
    fen.value = strategyInfo(name).demo_fen;
  }
  const inPlay = play.game && !play.game.end && play.game.moves.length > 0 && !play.stale;
  if (!play.game || name === play.game.strategy) { $("opponent-confirm").hidden = true; return; }
  if (!inPlay) { newGame(); return; }
  $("opponent-confirm-text").textContent = `Start a new game against ${labelOf(name)}? The game in play will be left.`;
  $("opponent-confirm").hidden = false;
  renderAbout(name);
}

// --- about the machine ---

function renderAbout(name) {
  const info = strategyInfo(name);
  if (!info) return;
  const about = info.about;
  $("about-title").textContent = `About: ${info.label}`;
  $("about-text").replaceChildren(...about.text.map((line) => html("p", {}, line)));
  $("about-lamps").replaceChildren(...about.lamps.map((line) => html("p", {}, line)));
  $("about-caption").textContent = about.caption;
  const marks = about.start_squares.length ? { "mark-start": about.start_squares } : {};
  const svg = drawBoard($("about-board"), parseBoard(about.board), marks, null, about.caption);
  svg.dataset.board = about.board;
}

// --- the audit view ---

const replay = { plies: [], start: "", index: 0 };

let chartData = null;

function drawChart(histogram, perfect) {
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

function showReplay() {
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

function clearAudit() {
  chartData = null;
  $("audit-summary").replaceChildren();
  $("audit-chart").replaceChildren();
  replay.plies = [];
  replay.start = "";
  showReplay();
}

async function runAudit(event) {
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

// --- the tablebase view ---

function clearProbe() {
  $("probe-board").replaceChildren();
  $("probe-moves").replaceChildren();
  $("probe-pv").textContent = "";
}

async function probe(event) {
  if (event) event.preventDefault();
  const fen = $("probe-fen").value.trim();
  const fixed = $("probe-fixed").value.trim();
  let query = `fen=${encodeURIComponent(fen)}`;
  if (fixed) query += `&fixed_king=${encodeURIComponent(fixed)}`;
  clearProbe();
  fieldError("probe-error", "");
  $("probe-summary").textContent = "Probing...";
  const response = await api("GET", `/api/probe?${query}`);
  if (!response.ok) {
    clearProbe();
    fieldError("probe-error", humanize(response.body.error));
    $("probe-summary").textContent = "No position: see the message above.";
    return;
  }
  const view = response.body;
  drawBoard($("probe-board"), parseBoard(view.fen), {}, null, "Probed position");
  const value = view.checkmate ? "checkmated" : view.stalemate ? "stalemate"
    : view.result === "draw" ? "draw" : `${view.result}, mate in ${view.dtm_moves} (${view.dtm_plies} plies)`;
  const variant = view.variant === "standard" ? "" : ` (${view.variant.replace(/^fixed-king-/, "white king fixed on ")})`;
  $("probe-summary").textContent = `${view.material}${variant}, ${view.turn} to move: ${value}`;
  const body = $("probe-moves");
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

// --- the clickable MK-61 ---

// The keyboard, row by row: [token sent, label, F label, K label].
const CALC_KEYS = [
  [["F", "F", "", ""], ["SHR", "ШГ→", "x<0", ""], ["SHL", "←ШГ", "x=0", ""], ["VO", "В/О", "x≥0", ""], ["SP", "С/П", "x≠0", ""]],
  [["K", "K", "", ""], ["PX", "П→X", "L0", ""], ["XP", "X→П", "L1", ""], ["BP", "БП", "L2", ""], ["PP", "ПП", "L3", ""]],
  [["7", "7", "sin", "[x]"], ["8", "8", "cos", "{x}"], ["9", "9", "tg", "max"], ["-", "−", "√", ""], ["/", "÷", "1/x", ""]],
  [["4", "4", "sin⁻¹", "|x|"], ["5", "5", "cos⁻¹", "ЗН"], ["6", "6", "tg⁻¹", "°←′"], ["+", "+", "π", "°→′"], ["*", "×", "x²", ""]],
  [["1", "1", "eˣ", ""], ["2", "2", "lg", ""], ["3", "3", "ln", "°←′″"], ["XY", "↔", "xʸ", "°→′″"], ["UP", "В↑", "Bx", "СЧ"]],
  [["0", "0", "10ˣ", "НОП"], [".", ".", "⟳", "∧"], ["NEG", "/-/", "АВТ", "∨"], ["VP", "ВП", "ПРГ", "⊕"], ["CX", "Cx", "CF", "ИНВ"]],
];

/** What to key on a calculator just switched on (a chess program brings its own help). */
const CALC_HELP = "A calculator just switched on: every key works as on the real one, run by the emulator on the server.";

const calc = { id: null, program: null, men: {}, busy: false };

function showCalculator(view) {
  calc.id = view.id;
  const cells = view.places.map((p) => ({ ch: GLYPH_OF[p.glyph] || p.glyph, dot: p.point }));
  drawCells($("calc-display"), cells);
  $("calc-display").dataset.text = view.display;
  $("calc-text").textContent = `Display: ${view.display.trim() || "blank"}`;
  for (const radio of document.querySelectorAll('input[name="calc-switch"]')) radio.checked = radio.value === view.switch;
}

/**
 * The program's board, as the person kept it in 1987: the black king on
 * the square keyed before С/П, the white man where the display says (the
 * server reads the display: `shown`); the tables say whether it is mate.
 */
async function followGame(token, view) {
  if (!calc.program || token !== "SP") return;
  if (view.keyed) calc.men.king = view.keyed;
  const shown = view.shown || { kind: "unreadable" };
  if (shown.kind === "piece" || shown.kind === "piece_check") calc.men.man = shown.square;
  else if (shown.kind === "king") calc.men.white = shown.square;
  const moved = ["piece", "piece_check", "king"].includes(shown.kind);
  const men = calcMen();
  if (!calc.men.king || !moved) {
    drawBoard($("calc-board"), men, {}, null, "The program's game");
    const signal = ["error", "mate_in_two", "bad_position"].includes(shown.kind);
    $("calc-status").textContent = signal ? "The calculator signals: answer it as the help says." : "";
    return;
  }
  const fixed = calc.program.fixed_king ? `&fixed_king=${calc.program.fixed_king}` : "";
  const response = await api("GET", `/api/probe?fen=${encodeURIComponent(boardFen(men) + " b - - 0 1")}${fixed}`);
  const mate = response.ok && response.body.checkmate;
  drawBoard($("calc-board"), men, mate ? { "mark-mate": [calc.men.king] } : {}, null, "The program's game");
  const state = !response.ok ? `(${humanize(response.body.error)})`
    : mate ? "checkmate" : response.body.stalemate ? "stalemate" : "black to move";
  $("calc-status").textContent = `Black king ${calc.men.king}; white: ${describeMen(men).replace(/, black king.*/, "")}: ${state}.`;
}

function calcMen() {
  const men = { [calc.men.white]: "K", [calc.men.man]: calc.program.man_letter };
  if (calc.men.king) men[calc.men.king] = "k";
  return men;
}

async function calcPress(token) {
  if (!calc.id || calc.busy) return;
  calc.busy = true;
  document.body.dataset.calcBusy = "true";
  const response = await api("POST", `/api/calculators/${calc.id}/press`, { key: token });
  if (response.ok) {
    fieldError("calc-error", response.body.stopped ? "" : "The program is still running (stopped by the server's limit).");
    showCalculator(response.body);
    await followGame(token, response.body);
  } else fieldError("calc-error", humanize(response.body.error));
  calc.busy = false;
  document.body.dataset.calcBusy = "false";
}

async function calcLoad(program) {
  fieldError("calc-error", "");
  document.body.dataset.calcBusy = "true";
  const response = await api("POST", "/api/calculators", program ? { program } : {});
  document.body.dataset.calcBusy = "false";
  if (!response.ok) { fieldError("calc-error", humanize(response.body.error)); return; }
  calc.program = response.body.program;
  if (calc.program) calc.men = { white: calc.program.white_king, man: calc.program.man, king: null };
  showCalculator(response.body);
  $("calc-help").textContent = calc.program ? calc.program.help : CALC_HELP;
  $("calc-status").textContent = "";
  if (program) drawBoard($("calc-board"), calcMen(), {}, null, "The program's game");
  else $("calc-board").replaceChildren();
}

function wireCalculator() {
  const box = $("calc-keys");
  for (const row of CALC_KEYS) {
    for (const [token, label, f, k] of row) {
      const button = html("button", {
        type: "button", class: "calc-key" + (token === "F" ? " key-f" : token === "K" ? " key-k" : ""),
        "data-key": token, title: label + (f ? `; F ${f}` : "") + (k ? `; K ${k}` : ""),
      });
      // The key's own label first for screen readers; the F label is drawn above it.
      button.append(html("span", { class: "main" }, label),
        html("span", { class: "shift-f" }, f ? ` ${f}` : "\u00a0"),
        html("span", { class: "shift-k" }, k ? ` ${k}` : "\u00a0"));
      button.addEventListener("click", () => calcPress(token));
      box.append(button);
    }
  }
  for (const radio of document.querySelectorAll('input[name="calc-switch"]')) {
    radio.addEventListener("change", async () => {
      if (!calc.id) return;
      const response = await api("POST", `/api/calculators/${calc.id}/press`, { switch: radio.value });
      if (response.ok) showCalculator(response.body); else fieldError("calc-error", humanize(response.body.error));
    });
  }
  $("calc-queen").addEventListener("click", () => calcLoad("queen"));
  $("calc-rook").addEventListener("click", () => calcLoad("rook"));
  $("calc-off").addEventListener("click", () => calcLoad(null));
}

// --- the claims ---

/** The claims as the server serves them (the data README's table is made of). */
async function renderClaims() {
  const response = await api("GET", "/api/claims");
  const body = $("claims-rows");
  body.replaceChildren();
  for (const claim of response.ok ? response.body : []) {
    const tr = html("tr");
    const action = html("td");
    const check = claim.check;
    if (check.audit) {
      const button = html("button", { type: "button" }, `Run the audit of ${labelOf(check.audit.strategy)}`);
      button.addEventListener("click", () => {
        $("audit-strategy").value = check.audit.strategy;
        $("audit-starts").value = check.audit.starts;
        $("audit-side").value = check.audit.side;
        selectTab($("tab-audit"), true, false);
        runAudit();
      });
      action.append(button);
    } else if (check.longest) {
      const button = html("button", { type: "button" }, "Open a longest mate in the tablebase");
      button.addEventListener("click", () => {
        $("probe-fen").value = check.longest.record_fen;
        $("probe-fixed").value = check.longest.fixed_king || "";
        selectTab($("tab-tables"), true, false);
        probe();
      });
      action.append(button);
    } else action.append("The page probes one square of the king at a time; for all of them: ",
      html("code", {}, claim.command));
    tr.append(html("td", {}, claim.source), html("td", {}, claim.claim), html("td", {}, claim.finding), action);
    body.append(tr);
  }
}

// --- tabs and start ---

/** Shows a view; `push` records it in the history, `autoload` fills an empty view. */
function selectTab(tab, push = true, autoload = true) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  const view = tab.id.replace("tab-", "");
  document.body.dataset.view = view;
  if (push) {
    const id = play.game ? play.game.id : new URLSearchParams(location.search).get("game");
    history.pushState({ view, game: id }, "", urlFor(view, id));
  }
  if (view === "audit" && chartData) drawChart(...chartData);
  if (!autoload) return;
  if (view === "audit" && !$("audit-summary").textContent) runAudit();
  if (view === "tables" && !$("probe-summary").textContent) probe();
  if (view === "calculator" && !calc.id) calcLoad("queen");
}

function wireTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => { if (tab.getAttribute("aria-selected") !== "true") selectTab(tab); });
    tab.addEventListener("keydown", (event) => {
      const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!delta) return;
      const next = tabs[(i + delta + tabs.length) % tabs.length];
      next.focus();
      selectTab(next);
    });
  });
  window.addEventListener("popstate", async () => {
    const params = new URLSearchParams(location.search);
    const tab = $("tab-" + (params.get("view") || "play")) || $("tab-play");
    selectTab(tab, false);
    const id = params.get("game");
    if (id && (!play.game || play.game.id !== id)) await loadGame(id);
  });
}

async function start() {
  wireTabs();
  wirePlayBoard();
  wireCalculator();
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
    else setStatus(humanize(response.body.error), "error");
  });
  for (const radio of document.querySelectorAll('input[name="start"]')) {
    radio.addEventListener("change", () => { $("fen-start").hidden = radio.value !== "fen" || !radio.checked; });
  }
  $("opponent").addEventListener("change", opponentChanged);
  window.addEventListener("resize", () => { if (chartData && !$("view-audit").hidden) drawChart(...chartData); });
  $("opponent-confirm-yes").addEventListener("click", () => { $("opponent-confirm").hidden = true; newGame(); });
  $("opponent-confirm-no").addEventListener("click", () => {
    $("opponent-confirm").hidden = true;
    if (play.game) $("opponent").value = play.game.strategy;
    renderHeading();
  });
  $("game-missing-new").addEventListener("click", () => newGame());
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
  await renderClaims();
  const params = new URLSearchParams(location.search);
  const tab = $("tab-" + (params.get("view") || "play")) || $("tab-play");
  selectTab(tab, false);
  const id = params.get("game");
  if (id) await loadGame(id);
  else await newGame();
  history.replaceState({ view: currentView(), game: play.game ? play.game.id : id }, "", location.href);
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
