// The play view: a game against a machine (board, lamps, the MK-61
// display, the move list, the About panel), all from the catalog the
// server serves (/api/strategies) and the game's view.

import { boardFen, dragMan, drawBoard, fileOf, parseBoard, rankOf, squareAt, squareName } from "./board.js";
import { $, api, el, html, say, watchBuilds } from "./common.js";

export const play = {
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

/** The opponent chosen: the game's, or the selector's before a game exists. */
export function chosen() { return play.game ? play.game.strategy : $("opponent").value; }

export function strategyInfo(name) { return play.strategies.find((s) => s.name === name); }
export function labelOf(name) { return (strategyInfo(name) || { label: name }).label; }

/** A server message with every automaton's internal name replaced by its label. */
export function humanize(text) {
  let out = String(text || "");
  const names = play.strategies.map((s) => s.name).sort((a, b) => b.length - a.length);
  for (const name of names) {
    out = out.replace(new RegExp(`(^|[^\\w-])${name.replace(/-/g, "\\-")}(?![\\w-])`, "g"), `$1${labelOf(name)}`);
  }
  return out;
}

export function setStatus(text, kind = "") {
  $("status").textContent = text;
  $("status").className = kind;
  $("board-lamp").classList.toggle("on", kind === "lamp-text");
}


export function setLamp(lamp) {
  play.lamp = lamp;
  const on = Boolean(lamp);
  $("lamp").classList.toggle("on", on);
  $("lamp").dataset.on = String(on);
  $("lamp-reason").textContent = on ? humanize(lamp.reason) : "off";
  // Kept for a reload: the lamp's reason is the game's, not the page's.
  if (play.game) {
    const key = `lamp-${play.game.id}`;
    if (on) sessionStorage.setItem(key, JSON.stringify(lamp)); else sessionStorage.removeItem(key);
  }
}

export function setIllegalCount(illegal) {
  const { count, limit, stopped, rule } = illegal;
  $("lamp-count").textContent = limit
    ? `${count} of ${limit} illegal moves${stopped ? ": the machine has stopped" : ""} (${rule})`
    : `${count} illegal moves`;
}

/** The machine's panel lamps (the catalog's), those of its move lit. */
export function renderLamps1912(lit = []) {
  const box = $("lamps-1912");
  box.replaceChildren();
  const info = strategyInfo(chosen());
  for (const { lamp: name, label } of info ? info.panel_lamps : []) {
    const on = lit.includes(name);
    const lamp = html("div", { class: "t-lamp" + (on ? " on" : ""), "data-lamp": name });
    // "lit" for screen readers only: the bulb shows it, and the grid keeps its size.
    lamp.append(html("span", { class: "bulb", "aria-hidden": "true" }), html("span", {}, label),
      html("span", { class: "sr-only" }, on ? " (lit)" : ""));
    box.append(lamp);
  }
}

// Seven segments a..g of each glyph of the MK-61's indicator: the digits,
// minus, L, C, Г, Е, blank. The Cyrillic О and З of the error words are the
// digits 0 and 3 on the indicator (ЗГГОГ is 3.ГГ0Г, with the point); the
// Latin E is the same glyph as Е.
export const SEGMENTS = {
  "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg",
  "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", "L": "def",
  "C": "adef", "Г": "aef", "Е": "adefg", " ": "",
};
export const GLYPH_OF = { "E": "Е", "О": "0", "O": "0", "З": "3" };

/** Characters of `text` as display cells, a point joining the digit before. */
export function displayCells(text) {
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
export function drawMk61(svg, state) {
  drawCells(svg, state ? placeCells(state.places) : []);
  svg.dataset.text = state ? state.text : "";
}

/** The server's places as cells. */
export function placeCells(places) {
  return places.map((p) => ({ ch: GLYPH_OF[p.glyph] || p.glyph, dot: p.point }));
}

/** Twelve places {ch, dot} in seven segments and a point each. */
export function drawCells(svg, cells) {
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
export function renderMk61(states, animate) {
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
    const next = i + 1 < states.length && state.then ? `, then, ${state.then}, the next display` : "";
    const note = i + 1 === states.length && play.game && play.game.last_reply ? play.game.last_reply.display_note : null;
    // A display that ends in its decimal point ends the sentence too: "76.", not "76..".
    const sentence = state ? `Display: ${state.text}${next}` : "";
    const stop = sentence.endsWith(".") ? "" : ".";
    $("reply-display-text").textContent = state ? `${sentence}${stop}${note ? " " + note : ""}` : "";
    if (i + 1 < states.length) play.displayTimer = setTimeout(() => show(i + 1), 2000);
  };
  show(animate ? 0 : Math.max(0, states.length - 1));
}

export function speak(word) {
  if (!$("speech").checked || !("speechSynthesis" in window)) return;
  const utterance = new SpeechSynthesisUtterance(word);
  utterance.lang = "es-ES";
  window.speechSynthesis.speak(utterance);
}

export function moveListItems(startFen, plies) {
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

export function blackKing(men) { return Object.keys(men).find((s) => men[s] === "k"); }

export function renderHeading() {
  const name = chosen();
  $("opponent-heading").textContent = `Playing against ${labelOf(name)}`;
  renderAbout(name);
  const info = strategyInfo($("opponent").value);
  $("start-rule").textContent = info ? `Starts it takes: ${info.start_rule}` : "";
}

/** The machine's own start before any game exists: its men, the squares the black king may take. The game is made on the first move. */
export function renderPending() {
  const info = strategyInfo($("opponent").value);
  if (!info) return;
  const marks = { "mark-start": info.start_squares };
  const board = $("play-board");
  const cursor = play.keyboard && document.activeElement === board;
  if (cursor) marks["mark-cursor"] = [play.cursor];
  const svg = drawBoard(board, parseBoard(info.white_men), marks, null, `Game against ${info.label}`, "sq-");
  svg.dataset.placing = "true";
  if (cursor) board.setAttribute("aria-activedescendant", "sq-" + play.cursor);
  else board.removeAttribute("aria-activedescendant");
  renderHeading();
  renderLamps1912([]);
  $("lamps-1912").hidden = info.panel !== "lamps";
  $("mk61").hidden = info.panel !== "display";
  renderMk61([], false);
  $("reason").textContent = "";
  setIllegalCount({ count: 0, limit: 3, stopped: false, rule: "as in 1912, the machine stops after three illegal moves" });
  $("dtm").textContent = "Once the black king stands, this line says how fast perfect play would mate from here.";
  $("move-list").replaceChildren();
  for (const id of ["pgn-copy", "pgn-download", "undo"]) $(id).disabled = true;
  $("pgn").hidden = true;
  $("again").hidden = true;
  $("move-input").disabled = false;
  document.body.dataset.over = "false";
  document.body.dataset.ply = "0";
  setStatus("Place the black king on one of the marked squares.");
}

export function renderGame(animate) {
  const game = play.game;
  const men = parseBoard(game.board);
  const marks = {};
  const reply = game.last_reply;
  if (game.last_move) marks["mark-last"] = [game.last_move.slice(0, 2), game.last_move.slice(2, 4)];
  if (reply && (reply.check || reply.mate) && game.last_move === reply.uci && blackKing(men)) {
    marks[reply.mate ? "mark-mate" : "mark-check"] = [blackKing(men)];
  }
  if (game.placing && !game.end) marks["mark-start"] = game.start_squares;
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

  renderLamps1912(reply ? reply.lamps : []);
  $("again").hidden = !game.end;
  $("move-input").disabled = Boolean(game.end) || play.stale;
  const panel = (strategyInfo(game.strategy) || { panel: "board" }).panel;
  $("lamps-1912").hidden = panel !== "lamps";
  $("mk61").hidden = panel !== "display";
  renderMk61(reply ? reply.displays : [], animate);
  $("reason").textContent = reply ? `${reply.san}: ${reply.reason}${reply.reason_note ? ` (${reply.reason_note})` : ""}` : "";
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
    const why = game.placing ? ` It counts: ${lamp.rule}.` : "";
    setStatus(`Illegal: ${humanize(lamp.reason)} (${lamp.count} of ${lamp.limit}).${why}`, "lamp-text");
  } else if (game.placing) setStatus("Place the black king on one of the marked squares.");
  else setStatus(reply && game.moves.length
    ? `Your move. The machine played ${reply.san}${reply.mate ? ", mate" : reply.check ? ", check" : ""}.`
    : "Your move (Black to move).");
}

/** The game's id and the view, in the address: a reload resumes, Back and Forward move between views. */
export function urlFor(view, gameId) {
  const params = new URLSearchParams();
  if (view && view !== "play") params.set("view", view);
  if (gameId) params.set("game", gameId);
  // Each view's own state: the probed position, the calculator.
  // The analysis board's position and what goes with it (js/tables.js), else the field's FEN.
  const fen = $("probe-fen").value.trim();
  const probed = new URLSearchParams(document.body.dataset.probeAddress || "");
  if (view === "tables" && probed.has("fen")) for (const [key, value] of probed) params.set(key, value);
  else if (view === "tables" && fen) params.set("fen", fen);
  const { calc: calcId, calcMen } = document.body.dataset;
  if (view === "calculator" && calcId) params.set("calc", calcId);
  if (view === "calculator" && calcId && calcMen) params.set("men", calcMen);
  const query = params.toString();
  return location.pathname + (query ? "?" + query : "");
}

export function currentView() {
  const tab = document.querySelector('[role="tab"][aria-selected="true"]');
  return tab ? tab.id.replace("tab-", "") : "play";
}

export function rememberGame() {
  const id = play.game ? play.game.id : null;
  history.replaceState({ view: currentView(), game: id }, "", urlFor(currentView(), id));
}

export function setStale(stale) {
  play.stale = stale;
  $("play-board").classList.toggle("stale", stale);
  $("play-board").setAttribute("aria-disabled", String(stale));
  $("move-input").disabled = stale || Boolean(play.game && play.game.end);
}

export function showGame(game, animate) {
  play.game = game;
  play.selected = null;
  play.setup = false;
  $("setup-tools").hidden = true;
  $("game-missing").hidden = true;
  $("opponent").value = game.strategy;
  $("opponent-confirm").hidden = true;
  setStale(false);
  const kept = sessionStorage.getItem(`lamp-${game.id}`);
  setLamp(!animate && kept && game.illegal.count > 0 ? JSON.parse(kept) : null);
  renderGame(animate);
  rememberGame();
}

/** No game yet: the chosen machine's own start, waiting for the first move. */
export function showPending() {
  play.game = null;
  play.selected = null;
  play.setup = false;
  play.lamp = null;
  $("setup-tools").hidden = true;
  $("opponent-confirm").hidden = true;
  setStale(false);
  setLamp(null);
  renderPending();
  rememberGame();
}

export function fieldError(id, text) {
  $(id).textContent = text || "";
  const input = { "start-fen-error": "start-fen", "probe-error": "probe-fen", "audit-error": "audit-strategy" }[id];
  if (input) $(input).setAttribute("aria-invalid", String(Boolean(text)));
}

export async function newGame(event) {
  if (event) event.preventDefault();
  const fromFen = document.querySelector('input[name="start"]:checked').value === "fen";
  fieldError("start-fen-error", "");
  fieldError("new-game-error", "");
  $("start-suggest").hidden = true;
  $("game-missing").hidden = true;
  // The machine's own start: no game until the first move.
  if (!fromFen) { showPending(); return; }
  await createGame({ strategy: $("opponent").value, fen: $("start-fen").value.trim() });
}

/** Creates a game on the server; false (and says why) if it is refused. */
export async function createGame(body) {
  busy(true);
  const watching = watchBuilds("play");
  const response = await api("POST", "/api/games", body);
  watching.stop();
  if (!response.ok) {
    const error = humanize(response.body.error || "the game cannot start");
    fieldError(body.fen ? "start-fen-error" : "new-game-error", error);
    if (body.fen) await suggestMachines(body.fen);
    // Busy until the refusal is shown whole, the machines that take it too.
    busy(false);
    // The heading names the machine that refused, as the selector and its start rule do.
    $("opponent-heading").textContent = `${labelOf(body.strategy)} does not take this position`;
    if (play.game) {
      setStale(true);
      setStatus(`No new game: ${error}. The board shows your previous game, greyed out.`, "error");
    } else {
      $("play-board").classList.remove("stale");
      setStatus(`No game: ${error}.`, "error");
    }
    say(`No game: ${error}.`);
    return false;
  }
  busy(false);
  showGame(response.body, true);
  announce(play.game.last_reply);
  return true;
}

/** After a refused start: the machines that take it, from the server's catalog. */
export async function suggestMachines(fen) {
  const box = $("start-suggest");
  box.replaceChildren();
  const response = await api("GET", `/api/starts?fen=${encodeURIComponent(fen)}`);
  if (!response.ok) { box.hidden = true; return; }
  const taking = response.body.filter((answer) => answer.accepts);
  if (!taking.length) {
    box.append(html("p", {}, "No machine here takes this position."));
  } else {
    box.append(html("p", {}, "These machines take it:"));
    for (const answer of taking) {
      const button = html("button", { type: "button", "data-strategy": answer.name }, `Play it against ${answer.label}`);
      button.addEventListener("click", () => {
        $("opponent").value = answer.name;
        $("opponent-confirm").hidden = true;
        newGame();
      });
      box.append(button);
    }
  }
  box.hidden = false;
}

/** A game of the address: resumed, or a notice that it is gone. */
export async function loadGame(id) {
  const response = await api("GET", `/api/games/${encodeURIComponent(id)}`);
  if (response.ok) { showGame(response.body, false); return true; }
  showPending();
  gameGone(response.status === 404 || response.status === 400
    ? "That game is not on the server: it never existed, or it expired after an hour without moves, or the server restarted. The board below is a new game: place your king to start it."
    : `That game cannot be loaded: ${humanize(response.body.error)}.`);
  return false;
}

export function announce(reply) {
  if (!reply) return;
  const end = play.game && play.game.end ? ` ${humanize(play.game.end.text)}` : "";
  say(`The machine played ${reply.san}${reply.mate ? ", mate" : reply.check ? ", check" : ""}.${end}`);
  if (reply.mate) speak("mate");
  else if (reply.check) speak("jaque");
}

export function busy(on) { document.body.dataset.busy = String(on); }

export async function sendMove(text) {
  if (play.stale || document.body.dataset.busy === "true") return;
  // The first move makes the game: a page load alone makes none.
  if (!play.game && !(await createGame({ strategy: $("opponent").value }))) return;
  const game = play.game;
  // After the end nothing is sent: the machine has stopped.
  if (game.end) { say(`The game is over. ${humanize(game.end.text)}`); return; }
  busy(true);
  const watching = watchBuilds("play");
  const response = await api("POST", `/api/games/${game.id}/moves`, { move: text });
  watching.stop();
  busy(false);
  play.selected = null;
  if (response.ok && response.body.hint) {
    play.game = response.body.game;
    renderGame(false);
    const hint = `Not a move: ${humanize(response.body.hint)}. It does not count; the lamp stays off.`;
    setStatus(hint, "error");
    say(hint);
  } else if (response.ok && response.body.lamp) {
    play.game = response.body.game;
    setLamp(response.body.lamp);
    renderGame(false);
    say($("status").textContent);
  } else if (response.ok) {
    play.game = response.body.game;
    setLamp(null);
    renderGame(true);
    announce(play.game.last_reply);
  } else if (response.status === 404) {
    await renewGame(game, text);
  } else {
    setStatus(humanize(response.body.error || "the move was not taken"), "error");
    say($("status").textContent);
  }
}

/**
 * A game the server no longer has (left too long without a move, or
 * dropped to make room for other visitors' games): a new game against the
 * same machine from the same position, or else from the game's start, or
 * else its own start, said in words; `move`, if given, is played in it
 * when the position is the same.
 */
export async function renewGame(lost, move = null) {
  const tries = [...new Set([lost.fen, lost.start_fen, null])];
  for (const fen of tries) {
    const body = { strategy: lost.strategy };
    if (fen) body.fen = fen;
    busy(true);
    const response = await api("POST", "/api/games", body);
    busy(false);
    if (!response.ok) continue;
    showGame(response.body, false);
    const same = fen === lost.fen;
    const from = same ? "the same position" : fen ? "the game's start" : "the machine's own start";
    const played = same && move ? " and your move is played in it" : "";
    gameGone(`Your game is no longer on the server: a game left without a move for a while, or the oldest when many visitors play, is dropped. A new game from ${from} has begun${played}.`);
    if (same && move) await sendMove(move);
    return;
  }
  showPending();
  gameGone("Your game is no longer on the server, and no new game could start from its position: place your king to start a new one.");
}

/** The notice over the board that the game of the address or in play is gone. */
function gameGone(text) {
  $("game-missing-text").textContent = text;
  $("game-missing").hidden = false;
  say(text);
}

export function boardSquare(square) {
  const game = play.game;
  if (play.setup) { setupSquare(square); return; }
  if (!game) { if (!play.stale) sendMove(square); return; }
  if (play.stale || game.end) return;
  if (game.placing) { sendMove(square); return; }
  const men = parseBoard(game.board);
  if (men[square] === "k") {
    play.selected = play.selected === square ? null : square;
    renderGame(false);
    if (play.selected) {
      const targets = game.black_moves.filter((m) => m.startsWith(square)).map((m) => m.slice(2, 4));
      say(`Black king on ${square} picked up. Legal targets: ${targets.join(", ") || "none"}.`);
    } else say(`Black king put back on ${square}.`);
  } else if (play.selected) {
    sendMove(play.selected + square);
  } else {
    // A tap far from the king, with the king not picked up (a white man,
    // say), is no move: only a step of the king is sent as one.
    const king = blackKing(men);
    if (king && kingStep(king, square)) sendMove(king + square);
    else if (king) say("Pick up the black king first, or tap a square next to it.");
  }
}

/** Whether `to` is a square next to `from`. */
function kingStep(from, to) {
  const files = Math.abs(from.charCodeAt(0) - to.charCodeAt(0));
  const ranks = Math.abs(Number(from[1]) - Number(to[1]));
  return Math.max(files, ranks) === 1;
}

export function setupSquare(square) {
  const man = document.querySelector('input[name="setup-man"]:checked').value;
  if (man === "K" || man === "k") {
    for (const [sq, m] of Object.entries(play.setupMen)) if (m === man) delete play.setupMen[sq];
  }
  if (man) play.setupMen[square] = man; else delete play.setupMen[square];
  updateSetupFen();
  drawSetup();
}

export function updateSetupFen() {
  // A new set-up: the last refusal no longer applies.
  fieldError("start-fen-error", "");
  $("start-suggest").hidden = true;
  const side = $("setup-black").checked ? "b" : "w";
  $("start-fen").value = `${boardFen(play.setupMen)} ${side} - - 0 1`;
}

/** The setup board's men without the black king, and the side to move: what its start squares depend on. */
function setupKey() {
  const men = Object.fromEntries(Object.entries(play.setupMen).filter(([, man]) => man !== "k"));
  return `board=${encodeURIComponent(boardFen(men))}&side=${$("setup-black").checked ? "black" : "white"}`;
}

/** Where every machine takes the black king against the men set up (the server's answer, kept per board). */
const setupStarts = new Map();

async function fetchSetupStarts(key) {
  const response = await api("GET", `/api/starts/squares?${key}`);
  setupStarts.set(key, response.ok ? response.body : []);
  if (play.setup && setupKey() === key) drawSetup();
}

export function drawSetup() {
  const key = setupKey();
  const answers = setupStarts.get(key);
  if (!answers && !setupStarts.has(key)) { setupStarts.set(key, null); fetchSetupStarts(key); }
  const info = strategyInfo($("opponent").value);
  const mine = answers && info ? answers.find((a) => a.name === info.name) : null;
  const marks = { "mark-start": mine ? mine.squares : [] };
  const cursor = play.keyboard && document.activeElement === $("play-board");
  if (cursor) marks["mark-cursor"] = [play.cursor];
  const svg = drawBoard($("play-board"), play.setupMen, marks, null, "Setting up", "sq-");
  svg.dataset.startsFor = mine ? mine.name : "";
  // The board shows the set-up, not a game left behind: not greyed out.
  $("play-board").classList.remove("stale");
  if (info) $("opponent-heading").textContent = `Setting up a game against ${info.label}`;
  const rule = $("setup-rule");
  if (!info) rule.textContent = "";
  else if (!mine) rule.textContent = `Finding where ${info.label} takes the black king against these men...`;
  else {
    const king = blackKing(play.setupMen);
    const count = mine.squares.length;
    const where = count
      ? `${info.label} takes the black king on the ${count} marked square${count === 1 ? "" : "s"} against these men`
      : `${info.label} takes the black king nowhere against these men`;
    const verdict = !king ? "" : mine.squares.includes(king)
      ? ` The black king on ${king}: it takes this start.`
      : ` The black king on ${king}: it does not take this start.`;
    rule.textContent = `${where}, because: ${info.start_rule}${verdict}`;
  }
  setStatus("Setting up: click squares, then Start.");
}

export function wirePlayBoard() {
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
    dragMan(board.querySelector("svg"), drag.from, event);
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
      const label = document.getElementById("sq-" + play.cursor);
      say(label ? label.getAttribute("aria-label") : play.cursor);
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

export function redrawPlay() {
  $("play-board").classList.toggle("stale", play.stale && !play.setup);
  if (play.setup) drawSetup();
  else if (play.game) renderGame(false);
  else renderPending();
}

export function download(name, text) {
  const link = html("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

/** A change of opponent: at once if no game is in play, else after asking. */
export function opponentChanged() {
  const name = $("opponent").value;
  // The start rule follows the selector at once, whatever comes of the change.
  renderHeading();
  const fen = $("start-fen");
  const previous = play.game ? strategyInfo(play.game.strategy) : null;
  if (!fen.value.trim() || (previous && fen.value === previous.demo_fen) || play.strategies.some((s) => s.demo_fen === fen.value)) {
    fen.value = strategyInfo(name).demo_fen;
  }
  const inPlay = play.game && !play.game.end && play.game.moves.length > 0 && !play.stale;
  // Setting up: the board marks the new machine's starts; Start makes the game.
  if (play.setup) { $("opponent-confirm").hidden = true; renderAbout(name); drawSetup(); return; }
  if (!play.game) { showPending(); return; }
  if (name === play.game.strategy) { $("opponent-confirm").hidden = true; return; }
  if (!inPlay) { newGame(); return; }
  $("opponent-confirm-text").textContent = `Start a new game against ${labelOf(name)}? The game in play will be left.`;
  $("opponent-confirm").hidden = false;
  renderAbout(name);
}

// --- about the machine ---

export function renderAbout(name) {
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
