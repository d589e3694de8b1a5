// Issue 56, item 8 (the rest): the analysis board's moves by drag, its
// line kept when the same move is played again, and the line as PGN.
import { centre, check, dragMouse, openView, probed, step } from "./harness.mjs";

/**
 * KRK: the tables' best move dragged with the mouse is played; back one
 * move and the same move played again (dragged) keeps the reply after it;
 * the line downloads as PGN with a value after each move; another move
 * from the start drops the old line.
 */
export async function analysisBoardByDragAndPgn(page) {
  step("analysis board: a move by drag, the line kept, the line as PGN");
  const start = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1";
  await openView(page, "tables");
  if (await page.isVisible("#probe-setup")) await page.click("#probe-setup-done");
  await page.fill("#probe-fen", start);
  await page.click('#probe-form button[type="submit"]');
  await page.waitForSelector("#probe-moves tr");
  const shown = (fen) => page.evaluate(async (f) => (await fetch(`/api/probe?fen=${encodeURIComponent(f)}`)).json(), fen);
  const best = (await shown(start)).moves[0];
  const sq = (square) => centre(page, `#probe-board rect[data-square="${square}"]`);
  const drag = async (uci) => {
    await page.locator("#probe-board").scrollIntoViewIfNeeded();
    await dragMouse(page, await sq(uci.slice(0, 2)), await sq(uci.slice(2, 4)));
    await probed(page);
    await page.waitForSelector("#probe-moves tr");
  };
  await drag(best.uci);
  check((await page.inputValue("#probe-fen")) === best.fen, `the dragged move ${best.san} is played (${await page.inputValue("#probe-fen")})`);
  const reply = (await shown(best.fen)).moves[0];
  await drag(reply.uci);
  check((await page.locator("#probe-line button").count()) === 2, "the reply dragged joins the line");
  // Back to the start, then the same first move again: the reply stays.
  await page.click("#probe-line li button");
  await page.click("#probe-back");
  await page.waitForFunction((f) => document.getElementById("probe-fen").value === f, start);
  await probed(page);
  await page.waitForSelector("#probe-moves tr");
  await drag(best.uci);
  const kept = await page.$$eval("#probe-line button", (buttons) => buttons.map((b) => b.textContent));
  check(kept.length === 2 && !(await page.isDisabled("#probe-forward")), `the same move keeps the line after it (${kept})`);
  // The line as PGN, a value after each move.
  const href = await page.getAttribute("#probe-pgn", "href");
  const pgn = await page.evaluate(async (h) => (await fetch(h)).text(), href);
  const movetext = pgn.trim().split("\n").pop();
  check(new RegExp(`^1\\. ${best.san.replace("+", "")}\\+? \\{mate in ${best.dtm_moves}\\} ${reply.san.replace("+", "")}\\+? \\{mated in ${reply.dtm_moves}\\} \\*$`).test(movetext),
    `the PGN has a value after each move (${movetext})`);
  check(pgn.includes(`[FEN "${start}"]`), "the PGN starts from the position set");
  // Another first move drops the old line.
  await page.click("#probe-back");
  await page.waitForFunction((f) => document.getElementById("probe-fen").value === f, start);
  await probed(page);
  await page.waitForSelector("#probe-moves tr");
  const other = (await shown(start)).moves.find((m) => m.uci !== best.uci);
  await drag(other.uci);
  const dropped = await page.$$eval("#probe-line button", (buttons) => buttons.map((b) => b.textContent));
  check(dropped.length === 1 && dropped[0] === other.san, `another move starts a new line (${dropped})`);
  step(`dragged ${best.san}, ${reply.san}; PGN: ${movetext}`);
}
