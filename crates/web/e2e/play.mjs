// Browser test of `ajedrecista serve`: Debian's chromium, driven by
// playwright-core, plays El Ajedrecista to mate by clicking, checks the lamp
// on an illegal move, looks at the audit and tablebase views, and saves
// screenshots under target/. Usage: node play.mjs PATH/TO/ajedrecista
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const binary = resolve(process.argv[2] || "target/debug/ajedrecista");
const outDir = resolve(process.argv[3] || "target");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const deadline = setTimeout(() => fail("the browser test took over 5 minutes"), 300_000);

let server = null;
let context = null;
const scratch = mkdtempSync(join(tmpdir(), "ajedrecista-e2e-"));

function fail(message) {
  console.error(`web e2e: FAILED: ${message}`);
  cleanup().finally(() => process.exit(1));
}

async function cleanup() {
  clearTimeout(deadline);
  if (context) await context.close().catch(() => {});
  if (server) server.kill("SIGTERM");
  rmSync(scratch, { recursive: true, force: true });
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** Starts the server on a free loopback port; resolves to its URL. */
function startServer() {
  return new Promise((resolveUrl, reject) => {
    server = spawn(binary, ["serve", "--addr", "127.0.0.1:0", "--tables", join(scratch, "tables")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let text = "";
    server.stderr.on("data", (chunk) => {
      text += chunk;
      const match = text.match(/serving on (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (match) resolveUrl(match[1]);
    });
    server.on("exit", (code) => reject(new Error(`the server exited (${code}): ${text}`)));
    setTimeout(() => reject(new Error(`the server did not start: ${text}`)), 30_000);
  });
}

async function idle(page) {
  await page.waitForFunction(() => document.body.dataset.busy === "false" && document.body.dataset.animating !== "true");
}

async function clickSquare(page, square) {
  await page.click(`#play-board rect[data-square="${square}"]`);
}

async function main() {
  const url = await startServer();
  console.log(`web e2e: server at ${url}`);
  context = await chromium.launchPersistentContext(join(scratch, "profile"), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 1000 },
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
  // Nothing beyond this server: any other request fails the test.
  const foreign = [];
  await context.route("**/*", (route) => {
    const target = new URL(route.request().url());
    if (target.origin === new URL(url).origin) return route.continue();
    foreign.push(target.href);
    return route.abort();
  });
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  check((await page.inputValue("#opponent")) === "torres", "El Ajedrecista is the default opponent");

  // The machine's own start: place the black king on d3 by clicking.
  check((await page.locator("#play-board [data-mark]").count()) === 42, "42 start squares are marked");
  await clickSquare(page, "d3");
  await idle(page);
  check((await page.textContent("#reason")).includes("Rb6"), "El Ajedrecista answers Rb6");
  check((await page.locator(".t-lamp.on").count()) >= 1, "a lamp of the 1912 machine is lit");

  // An illegal move: the king two squares away. The lamp lights.
  await clickSquare(page, "d3");
  await clickSquare(page, "d5");
  await idle(page);
  check((await page.getAttribute("#lamp", "data-on")) === "true", "the lamp lights on an illegal move");
  const reason = await page.textContent("#lamp-reason");
  check(reason.includes("one square"), `the lamp gives the reason (${reason})`);
  check((await page.textContent("#lamp-count")).startsWith("1 of 3"), "one illegal move of three");
  await page.screenshot({ path: join(outDir, "web-e2e-lamp.png") });

  // Play to mate: click the king, then the first square marked for it.
  let moves = 0;
  while (!(await page.textContent("#status")).startsWith("Checkmate")) {
    check(moves < 200, "mate within 200 moves");
    const king = await page.getAttribute('#play-board g.piece[data-man="k"]', "data-square");
    await clickSquare(page, king);
    const target = await page.getAttribute("#play-board circle.mark-target", "data-mark");
    check(target, `the king on ${king} has a move`);
    await clickSquare(page, target);
    await idle(page);
    check((await page.getAttribute("#lamp", "data-on")) === "false", "a legal move turns the lamp off");
    moves += 1;
  }
  const items = await page.locator("#move-list li").count();
  check(items >= moves, "the move list shows the game");
  check((await page.textContent("#pgn")).includes("1-0"), "the PGN is shown with the result");
  check((await page.isEnabled("#pgn-download")), "the PGN can be downloaded");
  console.log(`web e2e: mate after ${moves} moves of Black`);
  await page.screenshot({ path: join(outDir, "web-e2e.png"), fullPage: true });

  // By keyboard: a new game, the cursor from e4 to d3, Enter places the
  // king; then three illegal moves typed stop the machine.
  await page.click("#new-game-button");
  await idle(page);
  await page.focus("#play-board");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await idle(page);
  check((await page.textContent("#reason")).includes("Rb6"), "the king placed by keyboard gets Rb6");
  for (let i = 1; i <= 3; i++) {
    await page.fill("#move-input", "Ka1");
    await page.press("#move-input", "Enter");
    await idle(page);
    check((await page.textContent("#lamp-count")).startsWith(`${i} of 3`), `illegal move ${i} of 3 counted`);
  }
  check((await page.textContent("#status")).includes("machine stops"), "the machine stops after three");
  check(!(await page.isEnabled("#undo")), "no undo after the stop");

  // The audit view: a chart with bars, and the longest game to replay.
  await page.click("#tab-audit");
  await page.waitForSelector("#audit-chart rect.bar-a");
  await page.click("#replay-last");
  check((await page.textContent("#replay-caption")).includes("#"), "the longest game replays to mate");
  await page.screenshot({ path: join(outDir, "web-e2e-audit.png"), fullPage: true });

  // The tablebase view: every move with its DTM.
  await page.click("#tab-tables");
  await page.waitForSelector("#probe-moves tr");
  check((await page.locator("#probe-moves tr").count()) > 5, "the probe lists the moves");

  // Phone-sized.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click("#tab-play");
  await page.screenshot({ path: join(outDir, "web-e2e-phone.png"), fullPage: true });

  check(errors.length === 0, `no script errors: ${errors.join("; ")}`);
  check(foreign.length === 0, `no request beyond the server: ${foreign.join(", ")}`);
  console.log(`web e2e: ok; screenshots in ${outDir}`);
}

mkdirSync(outDir, { recursive: true });
main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch((err) => fail(err.stack || String(err)));
