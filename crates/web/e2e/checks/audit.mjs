// Issue 27's checks of the audit view (item 6).
import { check, openView, step } from "./harness.mjs";

/** Issue 27, item 6: honest start sets, failures in words, the stand-in audit, the comparison. */
export async function auditChecks(page) {
  step("audit checks");
  await openView(page, "audit");
  await page.waitForFunction(() => document.getElementById("compare-rows").dataset.filled === "true", null, { timeout: 240_000 });
  const strategiesNow = await page.evaluate(async () => (await fetch("/api/strategies")).json());
  check((await page.locator("#compare-rows tr").count()) === strategiesNow.length, "the comparison has a row per machine of the catalog");
  const perfectRow = await page.textContent('#compare-rows tr[data-strategy="perfect"]');
  check(/\d/.test(perfectRow), `perfect play's row has its figures (${perfectRow})`);
  await page.selectOption("#audit-strategy", "perfect");
  const ownLabel = await page.textContent('#audit-starts option[value="machine"]');
  check(ownLabel === strategiesNow.find((s) => s.name === "perfect").own_starts && ownLabel.includes("none of its own"),
    `perfect play's own starts are named for what they are (${ownLabel})`);
  // Black to move, a man that hangs at once is no failure of the machine
  // (the queen program's few starts: the same rule as perfect play's 22 176).
  await page.selectOption("#audit-strategy", "mk61-queen");
  await page.selectOption("#audit-side", "black");
  await page.click('#audit-form button[type="submit"]');
  await page.waitForSelector("#audit-chart rect.bar-a");
  const blackSummary = await page.textContent("#audit-summary");
  check(!blackSummary.includes("fails: the black king takes") && blackSummary.includes("no win for anyone"),
    `Black to move: a hanging man is no failure of the machine (${blackSummary})`);
  await page.selectOption("#audit-side", "white");
  await page.selectOption("#audit-strategy", "mk61-rook");
  await page.click('#audit-form button[type="submit"]');
  await page.waitForSelector("#audit-stand-in");
  check((await page.textContent("#audit-summary code")) === "ajedrecista audit mk61-rook", "the refusal shows the command as a command");
  await page.click("#audit-stand-in");
  await page.waitForSelector("#audit-chart rect.bar-a");
  check((await page.textContent("#audit-summary")).includes("native"), "the stand-in's audit runs on a click");
}
