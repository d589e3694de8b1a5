// Issue 56, item A: a five-man table built in the background for the
// analysis board, its progress shown, then its value.
import { check, openView, step } from "./harness.mjs";

/**
 * KRvKNN (a pawnless five-man table, built in seconds): the probe answers
 * that the table is being built, the board stays drawn and the progress
 * bar shows, and the value comes without a click once it is built.
 */
export async function fiveManTableBuiltInTheBackground(page) {
  step("a five-man table built in the background");
  const fen = "8/8/3nk3/4n3/8/2R5/8/1K6 w - - 0 1";
  const started = Date.now();
  await openView(page, "tables");
  await page.fill("#probe-fen", fen);
  await page.click('#probe-form button[type="submit"]');
  await page.waitForFunction(() => document.getElementById("probe-summary").textContent.startsWith("Building the table KRvKNN"));
  const summary = await page.textContent("#probe-summary");
  check(/about \d+ (seconds|minutes)/.test(summary), `the wait is said with an estimate (${summary})`);
  check((await page.locator("#probe-board *").count()) > 0, "the board is drawn while the table is built");
  await page.waitForSelector("#probe-build:not([hidden])");
  const bar = await page.textContent("#probe-build-text");
  check(bar.startsWith("Building"), `the progress bar shows the build (${bar})`);
  await page.waitForFunction(() => document.getElementById("probe-summary").textContent.startsWith("KRvKNN, white to move: "), null, { timeout: 120_000 });
  check((await page.locator("#probe-moves tr").count()) > 0, "the moves come with the value");
  check(await page.isHidden("#probe-build"), "the progress bar goes once the value is shown");
  step(`KRvKNN built and shown in ${((Date.now() - started) / 1000).toFixed(1)} s: ${await page.textContent("#probe-summary")}`);
}
