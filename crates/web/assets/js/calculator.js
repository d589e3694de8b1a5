// The clickable MK-61: a calculator on the server, key by key, and the
// program's game as the server reads its display.

import { boardFen, describeMen, drawBoard } from "./board.js";
import { $, api, html } from "./common.js";
import { GLYPH_OF, busy, drawCells, fieldError, humanize } from "./play.js";

// The keyboard, row by row: [token sent, label, F label, K label].
export const CALC_KEYS = [
  [["F", "F", "", ""], ["SHR", "ШГ→", "x<0", ""], ["SHL", "←ШГ", "x=0", ""], ["VO", "В/О", "x≥0", ""], ["SP", "С/П", "x≠0", ""]],
  [["K", "K", "", ""], ["PX", "П→X", "L0", ""], ["XP", "X→П", "L1", ""], ["BP", "БП", "L2", ""], ["PP", "ПП", "L3", ""]],
  [["7", "7", "sin", "[x]"], ["8", "8", "cos", "{x}"], ["9", "9", "tg", "max"], ["-", "−", "√", ""], ["/", "÷", "1/x", ""]],
  [["4", "4", "sin⁻¹", "|x|"], ["5", "5", "cos⁻¹", "ЗН"], ["6", "6", "tg⁻¹", "°←′"], ["+", "+", "π", "°→′"], ["*", "×", "x²", ""]],
  [["1", "1", "eˣ", ""], ["2", "2", "lg", ""], ["3", "3", "ln", "°←′″"], ["XY", "↔", "xʸ", "°→′″"], ["UP", "В↑", "Bx", "СЧ"]],
  [["0", "0", "10ˣ", "НОП"], [".", ".", "⟳", "∧"], ["NEG", "/-/", "АВТ", "∨"], ["VP", "ВП", "ПРГ", "⊕"], ["CX", "Cx", "CF", "ИНВ"]],
];

/** What to key on a calculator just switched on (a chess program brings its own help). */
export const CALC_HELP = "A calculator just switched on: every key works as on the real one, run by the emulator on the server.";

/** Key names such as С/П kept whole on a line: a word joiner after each slash. */
export function keyNames(text) { return text.replace(/\//g, "/\u2060"); }

export const calc = { id: null, program: null, men: {}, busy: false };

export function showCalculator(view) {
  calc.id = view.id;
  document.body.dataset.calc = view.id;
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
export async function followGame(token, view) {
  if (!calc.program || token !== "SP") return;
  const mistake = keyingMistake(view.keyed);
  if (mistake) {
    drawBoard($("calc-board"), calcMen(), {}, null, "The program's game");
    tell(mistake);
    return;
  }
  if (view.keyed) calc.men.king = view.keyed;
  const shown = view.shown || { kind: "unreadable" };
  if (shown.kind === "piece" || shown.kind === "piece_check") calc.men.man = shown.square;
  else if (shown.kind === "king") calc.men.white = shown.square;
  const moved = ["piece", "piece_check", "king"].includes(shown.kind);
  const men = calcMen();
  if (!calc.men.king || !moved) {
    drawBoard($("calc-board"), men, {}, null, "The program's game");
    const signal = ["error", "mate_in_two", "bad_position"].includes(shown.kind);
    tell(signal ? "The calculator signals: answer it as the help says."
      : `The display ${view.display.trim()} is no move of the program. ${NOT_A_SQUARE}`);
    return;
  }
  await showGameState();
}

/** The program's board with the tables' word on it (mate, stalemate), said; `scroll` brings the words into view. */
async function showGameState(scroll = true) {
  const men = calcMen();
  const fixed = calc.program.fixed_king ? `&fixed_king=${calc.program.fixed_king}` : "";
  const response = await api("GET", `/api/probe?fen=${encodeURIComponent(boardFen(men) + " b - - 0 1")}${fixed}`);
  const mate = response.ok && response.body.checkmate;
  drawBoard($("calc-board"), men, mate ? { "mark-mate": [calc.men.king] } : {}, null, "The program's game");
  const state = !response.ok ? `(${humanize(response.body.error)})`
    : mate ? "checkmate" : response.body.stalemate ? "stalemate" : "black to move";
  tell(`Black king ${calc.men.king}; white: ${describeMen(men).replace(/, black king.*/, "")}: ${state}.`, scroll);
}

/** What a С/П did, in words, brought into view beside the keys (a phone scrolls the least it must). */
function tell(text, scroll = true) {
  $("calc-status").textContent = text;
  if (scroll) $("calc-status").scrollIntoView({ block: "nearest" });
}

/**
 * The game's board kept for a reload, and the calculator's id and the
 * board's men (white king, white man, black king: `men=c3-d8-e5`) in the
 * address, so that a link opened elsewhere shows the same game.
 */
export function keepCalculator() {
  sessionStorage.setItem(`calc-${calc.id}`, JSON.stringify({ men: calc.men, status: $("calc-status").textContent }));
  const params = new URLSearchParams(location.search);
  if ((params.get("view") || "play") !== "calculator") return;
  params.set("calc", calc.id);
  document.body.dataset.calcMen = calc.program ? [calc.men.white, calc.men.man, calc.men.king || ""].join("-") : "";
  if (calc.program) params.set("men", document.body.dataset.calcMen);
  else params.delete("men");
  history.replaceState(history.state, "", `${location.pathname}?${params}`);
}

/** The men of the address (`men=c3-d8-e5`), or null if it has none or they are no squares. */
function menOfAddress() {
  const [white, man, king] = (new URLSearchParams(location.search).get("men") || "").split("-");
  const square = (text) => /^[a-h][1-8]$/.test(text || "");
  return square(white) && square(man) && (!king || square(king)) ? { white, man, king: king || null } : null;
}

/** The calculator of the address, as it was left; false if the server has none. */
export async function calcResume(id) {
  // Read before the address is rewritten for the other views.
  const addressed = menOfAddress();
  document.body.dataset.calcBusy = "true";
  const response = await api("GET", `/api/calculators/${encodeURIComponent(id)}`);
  document.body.dataset.calcBusy = "false";
  if (!response.ok) { fieldError("calc-error", "That calculator is no longer on the server (an hour without a key, or a restart): load a program again."); return false; }
  calc.program = response.body.program;
  // This tab's own record, else the address (a link opened in another tab).
  const kept = JSON.parse(sessionStorage.getItem(`calc-${id}`) || "null");
  if (calc.program) calc.men = kept ? kept.men : addressed || { white: calc.program.white_king, man: calc.program.man, king: null };
  showCalculator(response.body);
  $("calc-help").textContent = keyNames(calc.program ? calc.program.help : CALC_HELP);
  $("calc-status").textContent = kept ? kept.status : "";
  if (calc.program && calc.men.king && !kept) await showGameState(false);
  else if (calc.program) drawBoard($("calc-board"), calcMen(), {}, null, "The program's game");
  keepCalculator();
  return true;
}

const NOT_A_SQUARE = "The keys before С/П were not a square as this program takes them (see the help): in 1987 its owner saw the same number, which is no move. Load the program again to start afresh.";

function near(a, b) {
  return Math.max(Math.abs(a.charCodeAt(0) - b.charCodeAt(0)), Math.abs(Number(a[1]) - Number(b[1])));
}

/**
 * A keyed square the program takes but chess does not: said in a sentence,
 * and the board left as it was. The 1987 program checks none of this.
 */
export function keyingMistake(keyed) {
  if (!keyed) return null;
  const { king, white, man } = calc.men;
  const why = "The program does not check this, as in 1987 (its owner had to): it answered as if the king stood there, so the board below keeps the last true position. Load the program again to play on.";
  if (keyed === white || keyed === man) return `${keyed} is where a white man stands: the black king cannot go there (the program does not know captures). ${why}`;
  if (near(keyed, white) <= 1) return `${keyed} is next to the white king: a king may never stand there. ${why}`;
  if (king && near(keyed, king) !== 1) return `${king} to ${keyed} is no king move: a king moves one square. ${why}`;
  return null;
}

export function calcMen() {
  const men = { [calc.men.white]: "K", [calc.men.man]: calc.program.man_letter };
  if (calc.men.king) men[calc.men.king] = "k";
  return men;
}

export async function calcPress(token) {
  if (!calc.id || calc.busy) return;
  calc.busy = true;
  document.body.dataset.calcBusy = "true";
  const response = await api("POST", `/api/calculators/${calc.id}/press`, { key: token });
  if (response.ok) {
    fieldError("calc-error", response.body.stopped ? "" : "The program is still running (stopped by the server's limit).");
    showCalculator(response.body);
    await followGame(token, response.body);
    keepCalculator();
  } else fieldError("calc-error", humanize(response.body.error));
  calc.busy = false;
  document.body.dataset.calcBusy = "false";
}

export async function calcLoad(program) {
  fieldError("calc-error", "");
  document.body.dataset.calcBusy = "true";
  const response = await api("POST", "/api/calculators", program ? { program } : {});
  document.body.dataset.calcBusy = "false";
  if (!response.ok) { fieldError("calc-error", humanize(response.body.error)); return; }
  calc.program = response.body.program;
  if (calc.program) calc.men = { white: calc.program.white_king, man: calc.program.man, king: null };
  showCalculator(response.body);
  $("calc-help").textContent = keyNames(calc.program ? calc.program.help : CALC_HELP);
  $("calc-status").textContent = "";
  if (program) drawBoard($("calc-board"), calcMen(), {}, null, "The program's game");
  else $("calc-board").replaceChildren();
  keepCalculator();
}

export function wireCalculator() {
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
