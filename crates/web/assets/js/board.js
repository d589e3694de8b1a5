// Squares and boards: FEN boards read and drawn as SVG, with marks and
// the move animation.

import { FILES, MEN, el } from "./common.js";

export function squareName(file, rank) { return FILES[file] + (rank + 1); }
export function fileOf(square) { return FILES.indexOf(square[0]); }
export function rankOf(square) { return Number(square[1]) - 1; }

/** Men by square from the board part of a FEN. */
export function parseBoard(fen) {
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

export function boardFen(men) {
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

export function manGroup(man, x, y) {
  const white = man === man.toUpperCase();
  const shape = MEN[man.toLowerCase()] || MEN.k;
  const g = el("g", { class: "piece", transform: `translate(${x} ${y}) scale(0.01)`, "data-man": man });
  g.append(el("path", { d: shape[0], class: white ? "w" : "b" }));
  g.append(el("path", { d: shape[1], class: white ? "wl" : "bl" }));
  return g;
}

export const MAN_NAMES = {
  K: "white king", Q: "white queen", R: "white rook", B: "white bishop", N: "white knight", P: "white pawn",
  k: "black king", q: "black queen", r: "black rook", b: "black bishop", n: "black knight", p: "black pawn",
};

/** The men in words: "white king a8, white rook b7, black king d6". */
export function describeMen(men) {
  const order = ["K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p"];
  const list = Object.entries(men).sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]));
  return list.length ? list.map(([square, man]) => `${MAN_NAMES[man] || man} ${square}`).join(", ") : "empty board";
}

// What a marked square is, in its label for screen readers.
const SQUARE_ROLES = {
  "mark-start": "start square", "mark-target": "legal target", "mark-selected": "picked up",
  "mark-last": "last move", "mark-check": "in check", "mark-mate": "mated",
};

/**
 * Draws a board into `container`: `men` by square, `marks` as
 * {class: [squares]}, optional animation {from, to} of the man now on `to`.
 * With `squareIds` (a prefix) every square is labelled for screen readers
 * and has the id prefix + square. `flipped`: White at the top. Returns the svg.
 */
export function drawBoard(container, men, marks = {}, animate = null, label = "", squareIds = null, flipped = false) {
  const title = `${label || "chess board"}: ${describeMen(men)}`;
  const svg = el("svg", squareIds ? { viewBox: "0 0 8 8", role: "group", "aria-label": title }
    : { viewBox: "0 0 8 8", role: "img", "aria-label": title });
  svg.dataset.flipped = String(flipped);
  // Where a square's top left corner is drawn.
  const at = (file, rank) => (flipped ? [7 - file, rank] : [file, 7 - rank]);
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const square = squareName(file, rank);
      const attrs = {
        x: at(file, rank)[0], y: at(file, rank)[1], width: 1, height: 1, "data-square": square,
        class: (file + rank) % 2 === 0 ? "sq-dark" : "sq-light",
      };
      if (squareIds) {
        attrs.id = squareIds + square;
        attrs.role = "img";
        const roles = Object.entries(SQUARE_ROLES).filter(([cls]) => (marks[cls] || []).includes(square)).map(([, words]) => words);
        attrs["aria-label"] = [`${square}: ${MAN_NAMES[men[square]] || "empty"}`, ...roles].join(", ");
      }
      svg.append(el("rect", attrs));
    }
  }
  for (let i = 0; i < 8; i++) {
    svg.append(el("text", { x: at(i, 0)[0] + 0.04, y: 7.96, class: "coord", "aria-hidden": "true" }, FILES[i]));
    svg.append(el("text", { x: 7.84, y: at(0, i)[1] + 0.2, class: "coord", "aria-hidden": "true" }, String(i + 1)));
  }
  for (const [cls, squares] of Object.entries(marks)) {
    for (const square of squares || []) {
      const [x, y] = at(fileOf(square), rankOf(square));
      if (cls === "mark-target" || cls === "mark-start") {
        svg.append(el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.16, class: cls, "data-mark": square }));
      } else {
        svg.append(el("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, class: cls, "data-mark": square }));
      }
    }
  }
  for (const [square, man] of Object.entries(men)) {
    const group = manGroup(man, ...at(fileOf(square), rankOf(square)));
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

/** The square under a point of the page, null off the board (a flipped board too). */
export function squareAt(svg, clientX, clientY) {
  const box = svg.getBoundingClientRect();
  const column = Math.floor(((clientX - box.left) / box.width) * 8);
  const row = Math.floor(((clientY - box.top) / box.height) * 8);
  if (column < 0 || column > 7 || row < 0 || row > 7) return null;
  return svg.dataset.flipped === "true" ? squareName(7 - column, row) : squareName(column, 7 - row);
}

/** The man on `square` drawn under the pointer while he is dragged. */
export function dragMan(svg, square, event) {
  const group = svg.querySelector(`g.piece[data-square="${square}"]`);
  const box = svg.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * 8 - 0.5;
  const y = ((event.clientY - box.top) / box.height) * 8 - 0.5;
  if (group) group.setAttribute("transform", `translate(${x} ${y}) scale(0.01)`);
}
