// Issue 27's start rules on the play view's setup board, machine by machine.
import { join } from "node:path";
import { check, chooseOpponent, clickSquare, idle, outDir, step } from "./harness.mjs";

/**
 * Issue 27, "start rules shown before play": on the setup board, each
 * machine's own men with the squares where it takes the black king (the
 * catalog's start squares) and the sentence on why (its start rule);
 * `strategies` is the catalog.
 */
export async function startRulesOnTheSetupBoard(page, strategies) {
  step("start rules on the setup board");
  await page.check('input[name="start"][value="fen"]');
  for (const info of strategies) {
    if (await page.isVisible("#setup-tools")) await page.click("#setup-toggle");
    await page.selectOption("#opponent", info.name);
    if (await page.isVisible("#opponent-confirm")) await page.click("#opponent-confirm-yes");
    await idle(page);
    await page.fill("#start-fen", `${info.white_men} w - - 0 1`);
    await page.click("#setup-toggle");
    await page.waitForSelector(`#play-board svg[data-starts-for="${info.name}"]`);
    const marked = (await page.$$eval("#play-board circle.mark-start", (cs) => cs.map((c) => c.dataset.mark))).sort();
    check(JSON.stringify(marked) === JSON.stringify([...info.start_squares].sort()),
      `${info.name}: the setup board marks its ${info.start_squares.length} start squares (${marked.length} marked)`);
    check(!(await page.evaluate(() => document.getElementById("play-board").classList.contains("stale"))), `${info.name}: the setup board is not greyed out`);
    check((await page.textContent("#start-rule")) === `Starts it takes: ${info.start_rule}`, `${info.name}: the start rule follows the selector`);
    const rule = await page.textContent("#setup-rule");
    check(rule.includes(info.start_rule) && rule.includes(info.label) && rule.includes(`${marked.length} marked`),
      `${info.name}: the setup board says why (${rule})`);
  }
  // The black king set on a marked square is taken; off them, refused.
  const first = strategies[0];
  await page.click("#setup-toggle");
  await page.selectOption("#opponent", first.name);
  await idle(page);
  await page.fill("#start-fen", `${first.white_men} w - - 0 1`);
  await page.click("#setup-toggle");
  await page.check('input[name="setup-man"][value="k"]');
  const occupied = await page.$$eval("#play-board g.piece", (gs) => gs.map((g) => g.dataset.square));
  const unmarked = ["h1", "a1", "h8", "d8", "e8"].find((square) => !first.start_squares.includes(square) && !occupied.includes(square));
  for (const [square, takes] of [[first.start_squares[0], true], [unmarked, false]]) {
    await clickSquare(page, square);
    await page.waitForFunction((sq) => document.getElementById("setup-rule").textContent.includes(`black king on ${sq}`), square);
    const verdict = await page.textContent("#setup-rule");
    check(verdict.includes(takes ? "it takes this start" : "it does not take this start"), `the black king on ${square}: ${verdict}`);
  }
  await page.screenshot({ path: join(outDir, "web-e2e-setup-desktop.png") });
  await page.click("#setup-toggle");
  await page.check('input[name="start"][value="machine"]');
  await chooseOpponent(page, first.name);
}
