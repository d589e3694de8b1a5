// The tablebase view: a position's value and every move's.

import { drawBoard, parseBoard } from "./board.js";
import { $, api, html } from "./common.js";
import { fieldError, humanize } from "./play.js";

export function clearProbe() {
  $("probe-board").replaceChildren();
  $("probe-moves").replaceChildren();
  $("probe-pv").textContent = "";
}

export async function probe(event) {
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
