// Setting up a position by hand: men dragged from a palette onto the
// board, from square to square, and off the board to take them away.
// Pointer events, so a mouse, a pen and a finger all work. Without a
// pointer: pick a man in the palette (radio buttons), then click a square,
// or move the board's cursor with the arrow keys and press Enter (Delete
// takes the man under the cursor away).

import { boardFen, drawBoard, fileOf, manGroup, MAN_NAMES, rankOf, squareAt, squareName } from "./board.js";
import { el, html, say } from "./common.js";

/** The palette's men: White's and the eraser (""), then Black's. */
const PALETTE = ["K", "Q", "R", "B", "N", "P", "", "k", "q", "r", "b", "n", "p"];
// A pointer that moves less than this (px) clicks rather than drags.
const DRAG_START = 5;

/** A man drawn in a box of its own (the palette's icons, the dragged man). */
function manIcon(man, attrs = {}) {
  const svg = el("svg", { viewBox: "0 0 1 1", "aria-hidden": "true", ...attrs });
  if (man) svg.append(manGroup(man, 0, 0));
  return svg;
}

export class SetupBoard {
  /**
   * `board`: the container the board is drawn in; `palette`: an empty
   * element the palette is built in (`name` names its radio group);
   * `region`: the live region its changes are announced in;
   * `onChange(men)` after every change; `marks()` the marks to draw.
   */
  constructor({ board, palette, name, label, region, onChange, marks = () => ({}), flipped = () => false }) {
    Object.assign(this, { board, palette, name, label, region, onChange, marks, flipped });
    this.men = {};
    this.active = false;
    this.cursor = "e4";
    this.keyboard = false;
    this.buildPalette();
    board.addEventListener("pointerdown", (event) => this.boardDown(event));
    board.addEventListener("keydown", (event) => this.key(event));
    board.addEventListener("focus", () => { if (this.active) { this.keyboard = board.matches(":focus-visible"); this.draw(); } });
    board.addEventListener("blur", () => { if (this.active) this.draw(); });
  }

  buildPalette() {
    this.palette.replaceChildren();
    this.palette.setAttribute("role", "radiogroup");
    for (const man of PALETTE) {
      const words = man ? MAN_NAMES[man] : "take away";
      const input = html("input", { type: "radio", name: this.name, value: man, "aria-label": words });
      if (man === "K") input.checked = true;
      const label = html("label", { class: "palette-man", "data-man": man, title: man ? `drag a ${words} onto the board` : "click a square to empty it" });
      label.append(input, man ? manIcon(man) : html("span", { class: "eraser", "aria-hidden": "true" }, "\u00d7"));
      label.addEventListener("pointerdown", (event) => {
        input.checked = true;
        if (man) this.startDrag(event, man, null);
      });
      this.palette.append(label);
    }
  }

  /** The man picked in the palette ("" for the eraser). */
  chosen() {
    const input = this.palette.querySelector("input:checked");
    return input ? input.value : "";
  }

  /** Starts setting up from `men`. */
  open(men) {
    this.men = { ...men };
    this.active = true;
    this.board.classList.add("setting-up");
    this.board.tabIndex = 0;
    this.board.setAttribute("role", "application");
    this.board.setAttribute("aria-label", `${this.label}. Pick a man in the palette, then click a square or move the cursor with the arrow keys and press Enter; Delete empties a square.`);
    this.draw();
  }

  close() {
    this.active = false;
    this.board.classList.remove("setting-up");
    this.board.removeAttribute("tabindex");
    this.board.removeAttribute("role");
    this.board.removeAttribute("aria-label");
    this.board.removeAttribute("aria-activedescendant");
  }

  fen(side) { return `${boardFen(this.men)} ${side} - - 0 1`; }

  draw() {
    if (!this.active) return;
    const marks = { ...this.marks() };
    const cursor = this.keyboard && document.activeElement === this.board;
    if (cursor) marks["mark-cursor"] = [this.cursor];
    const prefix = `${this.board.id}-sq-`;
    drawBoard(this.board, this.men, marks, null, this.label, prefix, this.flipped());
    if (cursor) this.board.setAttribute("aria-activedescendant", prefix + this.cursor);
    else this.board.removeAttribute("aria-activedescendant");
  }

  /** Puts `man` on `square` ("" empties it); one king of each colour. */
  place(square, man) {
    if (man === "K" || man === "k") {
      for (const [sq, m] of Object.entries(this.men)) if (m === man) delete this.men[sq];
    }
    if (man) this.men[square] = man; else delete this.men[square];
    this.changed(man ? `${MAN_NAMES[man]} on ${square}` : `${square} emptied`);
  }

  move(from, to) {
    const man = this.men[from];
    delete this.men[from];
    this.men[to] = man;
    this.changed(`${MAN_NAMES[man]} from ${from} to ${to}`);
  }

  remove(square) {
    const man = this.men[square];
    delete this.men[square];
    this.changed(`${MAN_NAMES[man]} taken off ${square}`);
  }

  changed(words) {
    this.draw();
    say(`${words}.`, this.region);
    this.onChange(this.men);
  }

  boardDown(event) {
    if (!this.active) return;
    this.keyboard = false;
    const svg = this.board.querySelector("svg");
    const square = svg && squareAt(svg, event.clientX, event.clientY);
    if (!square) return;
    event.preventDefault();
    if (this.men[square]) this.startDrag(event, this.men[square], square);
    else this.place(square, this.chosen());
  }

  /** Follows the pointer with `man` (from the palette when `from` is null). */
  startDrag(event, man, from) {
    event.preventDefault();
    const drag = { man, from, x: event.clientX, y: event.clientY, moved: false, ghost: null, id: event.pointerId };
    const move = (e) => {
      if (e.pointerId !== drag.id) return;
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_START) return;
      if (!drag.moved) {
        drag.moved = true;
        const size = this.board.getBoundingClientRect().width / 8 || 40;
        drag.ghost = manIcon(man, { class: "drag-ghost", width: size, height: size });
        document.body.append(drag.ghost);
        document.body.dataset.dragging = "true";
        if (from) {
          const group = this.board.querySelector(`g.piece[data-square="${from}"]`);
          if (group) group.setAttribute("visibility", "hidden");
        }
      }
      const size = Number(drag.ghost.getAttribute("width"));
      drag.ghost.style.left = `${e.clientX - size / 2}px`;
      drag.ghost.style.top = `${e.clientY - size / 2}px`;
    };
    const end = (e) => {
      if (e.pointerId !== drag.id) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      if (drag.ghost) drag.ghost.remove();
      document.body.dataset.dragging = "false";
      const svg = this.board.querySelector("svg");
      const square = e.type === "pointerup" && svg ? squareAt(svg, e.clientX, e.clientY) : null;
      if (!drag.moved) {
        // A click: on a man of the board, the palette's man replaces it.
        if (from) this.place(from, this.chosen());
        return;
      }
      if (e.type === "pointercancel") this.draw();
      else if (from && !square) this.remove(from);
      else if (from && square !== from) this.move(from, square);
      else if (!from && square) this.place(square, man);
      else this.draw();
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  }

  key(event) {
    if (!this.active) return;
    const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (steps[event.key]) {
      event.preventDefault();
      const sign = this.flipped() ? -1 : 1;
      const [df, dr] = steps[event.key].map((d) => d * sign);
      const file = Math.min(7, Math.max(0, fileOf(this.cursor) + df));
      const rank = Math.min(7, Math.max(0, rankOf(this.cursor) + dr));
      this.cursor = squareName(file, rank);
      this.keyboard = true;
      this.draw();
      say(`${this.cursor}: ${MAN_NAMES[this.men[this.cursor]] || "empty"}`, this.region);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.keyboard = true;
      this.place(this.cursor, this.chosen());
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      if (this.men[this.cursor]) this.remove(this.cursor);
    }
  }
}
