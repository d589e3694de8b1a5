// The practice view: the visitor plays White and gives the mate against the
// tables' best defence. Each move is weighed against perfect play, a method
// gives hints in its own words, and the end compares the counts. All the
// rules are the server's (/api/practice, docs/web.md); this draws them.

import { drawBoard, parseBoard, squareAt } from "./board.js";
import { $, api, html, say, watchBuilds } from "./common.js";

export const practice = { state: null, picked: null, last: null };

/** What a move cost, in words. */
function weighed(verdict) {
  if (verdict.kind === "best") return "the best move";
  if (verdict.kind === "slower") return `throws away ${verdict.moves} move${verdict.moves === 1 ? "" : "s"}`;
  return "lets the win go: a draw now";
}

function setStatus(text, kind = "") {
  $("practice-status").textContent = text;
  $("practice-status").dataset.kind = kind;
  say(text, $("practice-announce"));
}

/** A method's label, as the catalog gives it in the selector. */
function methodLabel(name) {
  const option = [...$("practice-method").options].find((o) => o.value === name);
  return option ? option.textContent : name;
}

/** The address that opens this practice's start and method: for a teacher to share. */
function shareUrl(state) {
  const params = new URLSearchParams({ view: "practice", fen: state.start_fen });
  if (state.method) params.set("method", state.method);
  return `${location.pathname}?${params}`;
}

function draw() {
  const state = practice.state;
  const men = parseBoard(state.fen);
  const marks = {};
  if (practice.picked) {
    marks["mark-selected"] = [practice.picked];
    marks["mark-target"] = state.legal.filter((uci) => uci.startsWith(practice.picked)).map((uci) => uci.slice(2, 4));
  }
  if (practice.last) marks["mark-last"] = practice.last;
  drawBoard($("practice-board"), men, marks, null, "practice board", "practice-sq-");
}

function render() {
  const state = practice.state;
  $("practice-play").hidden = false;
  $("practice-goal").textContent = state.end
    ? `Over: ${state.end}.`
    : state.mate_in !== null ? `White to move: mate in ${state.mate_in}.` : "White to move: the win is gone.";
  $("practice-moves").textContent = `Your moves: ${state.moves_used}.`;
  $("practice-move").disabled = Boolean(state.end);
  $("practice-hint").disabled = Boolean(state.end) || !state.method;
  $("practice-undo").disabled = !state.can_undo;
  $("practice-share").href = shareUrl(state);
  const summary = $("practice-summary");
  summary.hidden = !state.summary;
  if (state.summary) {
    const s = state.summary;
    const method = s.method ? (s.method[1] === null ? `${methodLabel(s.method[0])} does not mate from this start` : `${methodLabel(s.method[0])} takes ${s.method[1]}`) : null;
    summary.replaceChildren(
      html("h3", {}, "Summary"),
      html("p", {}, `You used ${s.moves_used} moves; perfect play mates in ${s.perfect}.${method ? ` The method: ${method}.` : ""}`),
    );
  }
  draw();
}

/** Starts a practice from the form (or the address), `method` and `fen` as given. */
export async function startPractice(event, from = null) {
  if (event) event.preventDefault();
  const method = from ? from.method : $("practice-method").value;
  const fen = from ? from.fen : $("practice-fen").value.trim();
  const body = {};
  if (method) body.method = method;
  if (fen) body.fen = fen;
  document.body.dataset.busy = "true";
  setStatus("Starting…");
  const watching = watchBuilds("practice");
  const response = await api("POST", "/api/practice", body);
  watching.stop();
  document.body.dataset.busy = "false";
  if (!response.ok) { setStatus(response.body.error, "error"); return; }
  practice.state = response.body;
  practice.picked = null;
  practice.last = null;
  $("practice-hint-text").textContent = "";
  $("practice-renewed").hidden = true;
  history.replaceState(history.state, "", shareUrl(practice.state));
  setStatus(`Give the mate: perfect play needs ${practice.state.mate_in} moves.`);
  render();
}

/**
 * A request about the practice in play. One the server no longer has
 * (left too long, or dropped to make room for others) is begun again
 * from the same position with the same method, said in words, and the
 * request is made of the new one.
 */
async function send(path, body, method = "POST") {
  document.body.dataset.busy = "true";
  const ask = () => api(method, `/api/practice/${practice.state.id}/${path}`, body);
  const watching = watchBuilds("practice");
  let response = await ask();
  if (response.status === 404) {
    const old = practice.state;
    const again = { fen: old.fen };
    if (old.method) again.method = old.method;
    const renewed = await api("POST", "/api/practice", again);
    if (renewed.ok) {
      practice.state = renewed.body;
      history.replaceState(history.state, "", shareUrl(practice.state));
      $("practice-renewed").textContent = "Your practice was no longer on the server (one left without a move for a while, or the oldest when many visitors play, is dropped): it goes on from the same position as a new practice.";
      $("practice-renewed").hidden = false;
      response = await ask();
    }
  }
  watching.stop();
  document.body.dataset.busy = "false";
  return response;
}

/** Plays the visitor's move (SAN or UCI). */
export async function playPracticeMove(text) {
  if (!practice.state || practice.state.end) return;
  const response = await send("moves", { move: text });
  practice.picked = null;
  if (!response.ok) { setStatus(response.body.error, "error"); draw(); return; }
  const { turn } = response.body;
  practice.state = response.body.practice;
  $("practice-hint-text").textContent = "";
  const reply = turn.black ? ` Black: ${turn.black}.` : "";
  const end = turn.end ? ` ${turn.end[0].toUpperCase()}${turn.end.slice(1)}.` : "";
  setStatus(`${turn.white}: ${weighed(turn.verdict)}.${reply}${end}`, turn.verdict.kind);
  render();
}

async function hint() {
  const response = await send("hint", undefined, "GET");
  if (!response.ok) { setStatus(response.body.error, "error"); return; }
  const { method, san, reason } = response.body;
  $("practice-hint-text").textContent = `Hint (${methodLabel(method)}): ${san}, ${reason}.`;
  say($("practice-hint-text").textContent, $("practice-announce"));
}

async function backTo(path, words) {
  const response = await send(path, {});
  if (!response.ok) { setStatus(response.body.error, "error"); return; }
  practice.state = response.body;
  practice.picked = null;
  practice.last = null;
  setStatus(words);
  render();
}

/** A click on the board: a white man picked, then one of its squares. */
function clicked(event) {
  const state = practice.state;
  if (!state || state.end) return;
  const square = squareAt($("practice-board").querySelector("svg"), event.clientX, event.clientY);
  if (!square) return;
  if (practice.picked) {
    const uci = state.legal.find((m) => m.startsWith(practice.picked + square));
    if (uci) { practice.last = [practice.picked, square]; playPracticeMove(uci); return; }
  }
  practice.picked = state.legal.some((m) => m.startsWith(square)) ? square : null;
  draw();
}

/** Wires the view; `methods` are the catalog's entries to offer for hints. */
export function wirePractice(methods) {
  const select = $("practice-method");
  select.append(html("option", { value: "" }, "none"));
  for (const m of methods) select.append(html("option", { value: m.name }, m.label));
  $("practice-new").addEventListener("submit", startPractice);
  $("practice-move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("practice-move").value.trim();
    $("practice-move").value = "";
    if (text) playPracticeMove(text);
  });
  $("practice-board").addEventListener("click", clicked);
  $("practice-hint").addEventListener("click", hint);
  $("practice-undo").addEventListener("click", () => backTo("undo", "Taken back."));
  $("practice-retry").addEventListener("click", () => backTo("retry", "From the start again."));
}

/** Opens the view: the start and method of the address, if any. */
export async function openPractice() {
  const params = new URLSearchParams(location.search);
  if (params.get("fen") || params.get("method")) {
    if (params.get("method")) $("practice-method").value = params.get("method");
    if (params.get("fen")) $("practice-fen").value = params.get("fen");
    if (!practice.state || practice.state.start_fen !== params.get("fen")) {
      await startPractice(null, { method: params.get("method") || "", fen: params.get("fen") || "" });
    }
  }
}
