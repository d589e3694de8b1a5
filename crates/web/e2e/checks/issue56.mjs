// Issue 56's checks ("no dead ends"): practice as White, the kiosk, and
// one check per numbered item of its second round.
import {
  DESKTOP, PHONE, check, clickSquare, idle, openView, outDir, probed, ready, run, servers, startServer, step, typeMove,
} from "./harness.mjs";
import { join } from "node:path";

/**
 * Issue 56: practice as White. In KRK from a set start, a move that throws
 * away moves is flagged, a hint comes in the box method's words, and the
 * hints followed, by click and by keyboard, end in mate with a summary.
 */
export async function practiceAsWhite(page) {
  step("practice as White");
  const start = await startRookPractice(page);
  const goal = Number((await page.textContent("#practice-goal")).match(/mate in (\d+)/)[1]);
  const label = await page.textContent('#practice-method option[value="rook-box"]');
  const address = new URL(page.url()).searchParams;
  check(address.get("fen") === start && address.get("method") === "rook-box", `the start and method are in the address (${page.url()})`);
  // The slowest move that keeps the win, by the tables, clicked on the board.
  const probed = await page.evaluate(async (fen) => (await fetch(`/api/probe?fen=${encodeURIComponent(fen)}`)).json(), start);
  const slow = probed.moves.filter((m) => m.result === "win").sort((a, b) => b.dtm_plies - a.dtm_plies)[0];
  check(slow.dtm_moves > goal, `a slow move exists (${slow.san}: ${slow.dtm_moves} against ${goal})`);
  await page.click(`#practice-sq-${slow.uci.slice(0, 2)}`);
  await page.click(`#practice-sq-${slow.uci.slice(2, 4)}`);
  await idle(page);
  const flagged = await page.textContent("#practice-status");
  check(flagged.includes(`throws away ${slow.dtm_moves - goal} move`), `the slow move is flagged (${flagged})`);
  await page.click("#practice-undo");
  await idle(page);
  // Hints, each played as typed, until the end.
  for (let i = 0; i < 60 && !(await page.isDisabled("#practice-move")); i++) {
    await page.click("#practice-hint");
    await page.waitForFunction(() => document.getElementById("practice-hint-text").textContent.startsWith("Hint"));
    const hint = await page.textContent("#practice-hint-text");
    check(hint.startsWith(`Hint (${label}): `), `the hint names its method (${hint})`);
    await page.fill("#practice-move", hint.match(/: (\S+),/)[1]);
    await page.press("#practice-move", "Enter");
    await idle(page);
  }
  const over = await page.textContent("#practice-goal");
  check(over === "Over: checkmate.", `the hints mate (${over})`);
  const summary = await page.textContent("#practice-summary");
  check(summary.includes(`perfect play mates in ${goal}`) && summary.includes(`${label} takes`), `the summary compares the counts (${summary})`);
  step(`practice: mate in ${goal} by the tables; ${summary}`);
}

/**
 * Issue 58: on a kiosk, a game left idle past the limit is gone and the page
 * is back at its start screen, without a click; no download is offered.
 */
export async function kioskReturnsToStart() {
  const url = await startServer(["--kiosk", "--kiosk-idle-seconds", "5"]);
  step(`kiosk server at ${url}`);
  const page = await run.context.newPage();
  await page.setViewportSize(DESKTOP);
  await page.goto(url);
  await ready(page);
  check(await page.isHidden("#pgn-download"), "a kiosk offers no PGN download");
  await clickSquare(page, "a5");
  await idle(page);
  check(new URL(page.url()).searchParams.has("game"), "the visitor's game is in the address");
  const left = Date.now();
  await page.waitForURL(url, { timeout: 20_000 });
  await ready(page);
  const waited = (Date.now() - left) / 1000;
  check(waited >= 4, `the page waited the idle time (${waited.toFixed(1)} s)`);
  check(!new URL(page.url()).searchParams.has("game"), "no game after the idle time");
  check(await page.isVisible("#play-board"), "the start screen shows the board");
  step(`the kiosk page went back to its start after ${waited.toFixed(1)} s idle`);
  await page.close();
}

/** A practice of the rook mate by the box method from a set start,
 * waited for until its board is up; returns the start. */
async function startRookPractice(page) {
  const start = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
  await openView(page, "practice");
  await page.selectOption("#practice-method", "rook-box");
  await page.fill("#practice-fen", start);
  await page.click("#practice-start");
  await page.waitForSelector("#practice-play:not([hidden])");
  await idle(page);
  return start;
}

/** A page of its own on a server of its own (with `options`), loaded. */
async function freshPage(options = []) {
  const url = await startServer(options);
  const page = await run.context.newPage();
  await page.setViewportSize(DESKTOP);
  await page.goto(url);
  await ready(page);
  return { page, server: servers[servers.length - 1] };
}

/** The game of the address, as the server has it. */
async function gameOf(page) {
  const id = new URL(page.url()).searchParams.get("game");
  return page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}`)).json(), id);
}

/** A POST of `body` to `path` from the page, as another visitor's would be. */
function post(page, path, body) {
  return page.evaluate(async ([to, what]) => (await fetch(to, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(what),
  })).status, [path, body]);
}

/**
 * What a wait that began at `asked` showed in the box `${prefix}-build`:
 * whether it was still waiting after a second (by then the box must show),
 * each text it said, and when the answer came.
 */
async function watchWait(page, prefix, asked, shot) {
  await page.waitForFunction((p) => document.body.dataset.busy === "false"
    || !document.getElementById(`${p}-build`).hidden, prefix, { timeout: 1000 });
  const shownAfter = Date.now() - asked;
  // Read at once: the answer may come between two looks.
  const first = await page.evaluate((p) => ({
    waiting: document.body.dataset.busy === "true" || !document.getElementById(`${p}-build`).hidden,
    text: document.getElementById(`${p}-build`).hidden ? null : document.getElementById(`${p}-build-text`).textContent,
  }), prefix);
  const waiting = first.waiting;
  const said = new Set(first.text ? [first.text] : []);
  let pictured = false;
  while (await page.evaluate(() => document.body.dataset.busy === "true")) {
    const shown = await page.isVisible(`#${prefix}-build`);
    if (shown && !pictured && shot) { await page.screenshot({ path: join(outDir, shot) }); pictured = true; }
    if (shown) said.add(await page.textContent(`#${prefix}-build-text`));
    check(Date.now() - asked < 120_000, "the wait ends within two minutes");
    await page.waitForTimeout(200);
  }
  const answered = Date.now() - asked;
  check(waiting || answered <= 1000, `an answer after ${answered} ms showed no progress`);
  check(await page.isHidden(`#${prefix}-build`), "the progress goes once the answer is there");
  return { waiting, said: [...said], shownAfter, answered };
}

/**
 * Issue 56, item 1: every wait is shown. On a fresh server the methods'
 * own tables are still being calculated; a practice with the bishops'
 * hints, then a first move against the bishop and knight method, that
 * wait for them show the calculation's progress within a second.
 */
export async function everyWaitIsShown() {
  const { page, server } = await freshPage();
  step("a practice and a first move on a fresh server, with the minor-piece methods");
  await openView(page, "practice");
  await page.selectOption("#practice-method", "bishops");
  await page.fill("#practice-fen", "");
  let asked = Date.now();
  await page.click("#practice-start");
  const practiced = await watchWait(page, "practice", asked, null);
  check(!practiced.waiting || practiced.said.some((words) => /^Building /.test(words)), `the practice's wait says what is built (${practiced.said})`);
  check(await page.isVisible("#practice-play"), "the practice starts");
  await openView(page, "play");
  await page.selectOption("#opponent", "bishop-knight");
  asked = Date.now();
  await clickSquare(page, "d5");
  const moved = await watchWait(page, "play", asked, "web-e2e-build.png");
  const words = moved.said.join(" | ");
  check(!moved.waiting || /the method table of Bishop and knight[^:]*: stage \d of \d/.test(words),
    `the progress shown is the method table's own, in stages (${words})`);
  check(Number(await page.evaluate(() => document.body.dataset.ply)) >= 1, "the move was played");
  step(`practice: progress after ${practiced.shownAfter} ms, started after ${(practiced.answered / 1000).toFixed(1)} s; `
    + `first move: progress after ${moved.shownAfter} ms, answered after ${(moved.answered / 1000).toFixed(1)} s; ${moved.said.at(-1)}`);
  await page.close();
  server.kill("SIGTERM");
}

/**
 * Issue 56, item 2: a game or practice the server has dropped (here to make
 * room: --max-games 1 and another visitor) never dead-ends: a notice in
 * words, and it goes on from the same position, the move played.
 */
export async function droppedGameGoesOn() {
  const { page, server } = await freshPage(["--max-games", "1"]);
  step("a game dropped to make room for another visitor's");
  await clickSquare(page, "a5");
  await idle(page);
  const before = await gameOf(page);
  const move = before.black_moves[0];
  check((await post(page, "/api/games", { strategy: "torres" })) === 201, "another visitor's game starts");
  await typeMove(page, move);
  const notice = await page.textContent("#game-missing-text");
  check(await page.isVisible("#game-missing"), "a notice says the game is gone");
  check(notice.includes("no longer on the server") && notice.includes("from the same position") && notice.includes("your move is played"),
    `the notice says what happened, in words (${notice})`);
  const status = await page.textContent("#status");
  check(!/no game|unknown|expired\)/.test(status), `no raw server error (${status})`);
  const after = await gameOf(page);
  check(after.id !== before.id && after.start_fen === before.fen, `a new game from the same position (${after.start_fen})`);
  check(after.moves.length >= 1 && after.moves[0].uci === move, `the move was played in it (${after.moves.map((m) => m.san)})`);

  step("a practice dropped to make room for another visitor's");
  const start = await startRookPractice(page);
  await page.fill("#practice-move", "Ra4");
  await page.press("#practice-move", "Enter");
  await idle(page);
  check((await post(page, "/api/practice", { fen: start })) === 201, "another visitor's practice starts");
  await page.fill("#practice-move", "Kd2");
  await page.press("#practice-move", "Enter");
  await idle(page);
  const renewed = await page.textContent("#practice-renewed");
  check(await page.isVisible("#practice-renewed") && renewed.includes("no longer on the server") && renewed.includes("same position"),
    `the practice's notice says what happened (${renewed})`);
  const said = await page.textContent("#practice-status");
  check(said.startsWith("Kd2: "), `the move was played in the new practice (${said})`);
  await page.screenshot({ path: join(outDir, "web-e2e-renewed.png") });
  await page.close();
  server.kill("SIGTERM");
}

/**
 * Issue 56, item 3: a position no machine here takes (five men, whose table
 * a game over the web does not build) offers no machine that would refuse
 * it again; the heading says who refused; the analysis board draws it.
 */
export async function refusedPositionOffersNoLoop(page) {
  step("a refused five-man position (six on the analysis board)");
  const five = "8/8/8/4k3/8/2R5/1P6/1K2r3 w - - 0 1";
  await openView(page, "play");
  await page.selectOption("#opponent", "perfect");
  await page.check('input[name="start"][value="fen"]');
  await page.fill("#start-fen", five);
  await page.click("#new-game-button");
  await page.waitForSelector("#start-suggest:not([hidden])");
  await idle(page);
  const offered = await page.$$eval("#start-suggest button", (buttons) => buttons.map((b) => b.dataset.strategy));
  check(offered.length === 0, `no machine is offered for a position every one refuses (${offered})`);
  const error = await page.textContent("#start-fen-error");
  check(error.includes("KRPvKR"), `the refusal names the table (${error})`);
  const heading = await page.textContent("#opponent-heading");
  check(heading === "Perfect play (the tables) does not take this position", `the heading says who refused (${heading})`);
  check((await page.textContent("#start-rule")).startsWith("Starts it takes:"), "the start rule follows the selector");
  await page.check('input[name="start"][value="machine"]');
  // The analysis board builds five-man tables (checks/builds.mjs); six men it refuses.
  const six = "8/8/8/4k3/8/2R5/1P6/1K2r2R w - - 0 1";
  await openView(page, "tables");
  await page.fill("#probe-fen", six);
  await page.press("#probe-fen", "Enter");
  await probed(page);
  check((await page.locator("#probe-board g.piece").count()) === 6, "the refused position is drawn on the analysis board");
  check((await page.textContent("#probe-error")).includes("KRRPvKR"), "the analysis board says why in words");
}

/** Whether `selector` lies wholly in the viewport as the page is scrolled. */
function inView(page, selector) {
  return page.$eval(selector, (node) => {
    const box = node.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  });
}

/** Keys pressed on the clickable MK-61, each waited for. */
async function press(page, keys) {
  for (const key of keys) {
    await page.click(`#calc-keys button[data-key="${key}"]`);
    await page.waitForFunction(() => document.body.dataset.calcBusy === "false");
  }
}

/**
 * Issue 56, items 4 and 5: what a С/П did (the king keyed to f4 against
 * the queen program) is in view with the keys, at desktop and phone size; the calculator's address, opened in another
 * tab, shows the same board (the black king on it) and the same words.
 */
export async function calculatorInViewAndShared(page) {
  step("the calculator's words in view, and its address shared");
  const said = [];
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await openView(page, "calculator");
    await page.click("#calc-queen");
    await page.waitForFunction(() => document.body.dataset.calcBusy === "false" && document.getElementById("calc-status").textContent === "");
    await page.locator('#calc-keys button[data-key="SP"]').scrollIntoViewIfNeeded();
    await press(page, ["6", ".", "4", "SP"]);
    await page.waitForFunction(() => document.getElementById("calc-status").textContent !== "");
    said.push(await page.textContent("#calc-status"));
    check(await inView(page, "#calc-status"), `${size.width} px: the words after С/П are in view (${said.at(-1)})`);
    check(await inView(page, '#calc-keys button[data-key="SP"]'), `${size.width} px: С/П is in view with them`);
  }
  await page.screenshot({ path: join(outDir, "web-e2e-calc-words-phone.png") });
  await page.setViewportSize(DESKTOP);
  const address = page.url();
  check(new URL(address).searchParams.get("men"), `the board's men are in the address (${address})`);
  const other = await run.context.newPage();
  await other.setViewportSize(DESKTOP);
  await other.goto(address);
  await ready(other);
  await other.waitForFunction(() => document.getElementById("calc-status").textContent !== "");
  const kings = await other.$$eval('#calc-board g.piece[data-man="k"]', (men) => men.length);
  check(kings === 1, "another tab shows the black king on the calculator's board");
  const words = await other.textContent("#calc-status");
  check(words === said.at(-1), `another tab says the same (${words})`);
  await other.close();
}

/**
 * Issue 56, items 6 and 8: the analysis board keeps the fixed king, the
 * turned board and the line in its address; a plain FEN typed after a
 * fixed-king one is of the ordinary game; a probe leaves the old position
 * in view.
 */
export async function analysisBoardInAddress(page) {
  step("the analysis board's address");
  await openView(page, "tables");
  if (await page.isVisible("#probe-setup")) await page.click("#probe-setup-done");
  await page.fill("#probe-fixed", "c3");
  await page.fill("#probe-fen", "8/8/8/4k3/8/2K5/8/7Q w - - 0 1");
  await page.press("#probe-fen", "Enter");
  await probed(page);
  const fixedSummary = await page.textContent("#probe-summary");
  check(fixedSummary.includes("fixed on c3"), `the fixed-king game is probed (${fixedSummary})`);
  check(new URL(page.url()).searchParams.get("fixed") === "c3", `the fixed king is in the address (${page.url()})`);
  await page.click("#probe-flip");
  await probed(page);
  // A move played on the board: the man, then his square (the best move, by the tables).
  const best = await page.evaluate(async () => (await fetch(`/api/probe?fen=${encodeURIComponent(document.getElementById("probe-fen").value)}&fixed_king=c3`)).json());
  await page.click(`#probe-board rect[data-square="${best.moves[0].uci.slice(0, 2)}"]`);
  check((await page.locator("#probe-board .mark-target").count()) > 0, "a man picked on the analysis board shows his squares");
  await page.click(`#probe-board rect[data-square="${best.moves[0].uci.slice(2, 4)}"]`);
  await probed(page);
  check((await page.inputValue("#probe-fen")) === best.moves[0].fen, `the move clicked on the board is played (${best.moves[0].san})`);
  await page.click("#probe-moves button");
  await probed(page);
  // The arrow keys step along the line.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("ArrowLeft");
  await probed(page);
  check((await page.inputValue("#probe-fen")) === best.moves[0].fen, "the left arrow steps back along the line");
  await page.keyboard.press("ArrowRight");
  await probed(page);
  const shared = page.url();
  const params = new URL(shared).searchParams;
  check(params.get("flip") === "1" && params.get("line").split(" ").length === 2, `the flip and the line are in the address (${shared})`);
  const line = await page.$$eval("#probe-line button", (buttons) => buttons.map((b) => b.textContent));
  const other = await run.context.newPage();
  await other.setViewportSize(DESKTOP);
  // The old position stays on the board while a probe is answered.
  await other.route("**/api/probe?*", async (route) => { await new Promise((r) => setTimeout(r, 300)); await route.continue(); });
  await other.goto(shared);
  await ready(other);
  await other.waitForFunction((n) => document.querySelectorAll("#probe-line button").length === n
    && /to move/.test(document.getElementById("probe-summary").textContent), line.length);
  check((await other.$$eval("#probe-line button", (b) => b.map((x) => x.textContent))).join(" ") === line.join(" "), "the line comes back from the address");
  check(await other.inputValue("#probe-fixed") === "c3", "the fixed king comes back from the address");
  const flipped = await other.$eval('#probe-board rect[data-square="h1"]', (r) => Number(r.getAttribute("y")) < 1);
  check(flipped, "the board comes back turned");
  await other.click("#probe-back");
  await other.waitForFunction(() => document.getElementById("probe-summary").textContent.startsWith("Probing"));
  const during = await other.locator("#probe-board g.piece").count();
  check(during > 0, "the old position stays in view while the probe runs");
  await probed(other);
  await other.close();
  // A plain position typed next is of the ordinary game.
  await page.fill("#probe-fen", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
  await page.press("#probe-fen", "Enter");
  await probed(page);
  check(await page.inputValue("#probe-fixed") === "", "a FEN whose king is elsewhere clears the fixed king");
  const plain = await page.textContent("#probe-summary");
  check(plain.startsWith("KRvK, white to move"), `the plain FEN is probed (${plain})`);
  check(!new URL(page.url()).searchParams.has("fixed"), "and the address has no fixed king");
  // Turned back for the checks that follow.
  await page.click("#probe-flip");
  await page.waitForSelector('#probe-board svg[data-flipped="false"]');
}

/**
 * Issue 56, item 11: words a visitor understands. The claims name no file
 * of the project; the comparison gives the minor-piece methods' measured
 * figures; on a phone it says that it scrolls; the queen audit's note
 * agrees with its count; the audit's PGN names the machine by its label; a
 * pasted FEN with castling rights the board cannot have is read.
 */
export async function wordsForVisitors(page, strategies) {
  step("words for visitors");
  await openView(page, "claims");
  const claims = await page.textContent("#claims-rows");
  check(!/seed 0\d\d|docs\//.test(claims), "the claims name no file of the project");
  await openView(page, "audit");
  await page.waitForFunction(() => document.getElementById("compare-rows").dataset.filled === "true", null, { timeout: 240_000 });
  for (const info of strategies.filter((s) => s.audit_refused && !s.audit_stand_in)) {
    const row = page.locator(`#compare-rows tr[data-strategy="${info.name}"]`);
    const cells = await row.locator("td").allTextContents();
    check(cells.length === 5 && /^\d+$/.test(cells[1]) && (await row.getAttribute("data-measured")) === "claims",
      `${info.name}: the comparison gives the measured figures (${cells.join(" | ")})`);
  }
  await page.selectOption("#audit-strategy", "mk61-queen");
  await page.selectOption("#audit-side", "black");
  await page.click('#audit-form button[type="submit"]');
  await page.waitForSelector("#audit-chart rect.bar-a");
  const starts = await page.textContent("#audit-summary tr:first-of-type td");
  const note = await page.textContent("#audit-summary p.hint");
  check(note.includes(`${starts} with Black to move`), `the queen audit's note agrees with its ${starts} starts (${note})`);
  await page.selectOption("#audit-side", "white");
  const audited = await page.evaluate(async () => (await fetch("/api/audit/torres?starts=machine&side=white")).json());
  check(audited.worst_pgn.includes(`[White "${strategies[0].label}"]`), "the audit's PGN names the machine by its label");
  await page.setViewportSize(PHONE);
  const scrolls = await page.$eval("#view-audit .table-scroll", (box) => box.scrollWidth > box.clientWidth);
  check(scrolls && await page.isVisible("#compare-scroll-hint"), "on a phone the comparison scrolls and says so");
  const widths = await page.$$eval("#compare-rows td, #compare-rows th", (cells) => cells.map((c) => c.scrollWidth - c.clientWidth));
  check(widths.every((w) => w <= 0), "no word of the comparison is cut");
  await page.setViewportSize(DESKTOP);
  await openView(page, "tables");
  await page.fill("#probe-fen", "8/8/8/4k3/8/8/8/R3K3 w K - 0 1");
  await page.press("#probe-fen", "Enter");
  await probed(page);
  const read = await page.textContent("#probe-summary");
  check(read.startsWith("KRvK"), `castling rights the board cannot have are dropped (${read})`);
}
