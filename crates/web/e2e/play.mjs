// Browser test of `ajedrecista serve`: Debian's chromium, driven by
// playwright-core. One check per numbered finding of issue 14 (the lamp at
// the board on a phone, the calculator's ЕГГОГ read back from its segments,
// the game and view in the address, stale results cleared, the opponent
// heading, no internal names, no horizontal overflow on a phone, the About
// texts and the claims page), plus a game to mate by clicking and one by
// keyboard, an axe-core accessibility run in every view, and screenshots
// of every view at desktop and phone size under target/. Then one check per
// numbered finding of issue 27 (round two), with the start rules drawn on
// the setup board per machine and the tablebase set up by drag and drop
// (mouse and finger).
// The harness (servers, browser, helpers) and the longer checks, issue
// 56's one per item among them, are modules of checks/.
// Usage: node play.mjs PATH/TO/ajedrecista [OUT_DIR]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import {
  DESKTOP, GLYPHS, PHONE, VIEWS, announcements, axe, calcIdle, centre, check, chooseOpponent, chromiumPath, cleanup, clickSquare, contrast, countAnnouncements, dragMouse, dragTouch, fail, idle, internalNames, noOverflow, openView, origins, outDir, probed, readDisplay, ready, run, scratch, startServer, step, svgTextContrast, typeMove,
} from "./checks/harness.mjs";
import {
  analysisBoardInAddress, calculatorInViewAndShared, droppedGameGoesOn, everyWaitIsShown, kioskReturnsToStart,
  practiceAsWhite, refusedPositionOffersNoLoop, wordsForVisitors,
} from "./checks/issue56.mjs";
import { auditChecks } from "./checks/audit.mjs";
import { fiveManTableBuiltInTheBackground } from "./checks/builds.mjs";
import { analysisBoardByDragAndPgn } from "./checks/analysis.mjs";
import { startRulesOnTheSetupBoard } from "./checks/setup.mjs";

async function main() {
  const url = await startServer();
  step(`server at ${url}`);
  run.context = await chromium.launchPersistentContext(join(scratch, "profile"), {
    executablePath: chromiumPath,
    headless: true,
    viewport: DESKTOP,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
  // Nothing beyond this server: any other request fails the test.
  const foreign = [];
  await run.context.route("**/*", (route) => {
    const target = new URL(route.request().url());
    if (origins.has(target.origin)) return route.continue();
    foreign.push(target.href);
    return route.abort();
  });
  const page = run.context.pages()[0] || (await run.context.newPage());
  // Every API request the page makes, for the checks that none is made.
  const requests = [];
  page.on("request", (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
  const errors = [];
  const consoleErrors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on("console", (message) => { if (message.type() === "error") consoleErrors.push(message.text()); });
  await page.goto(url);
  await ready(page);
  // Issue 27 item 11: a bare page load makes no game; the first move does.
  check(!requests.includes("POST /api/games"), `a page load creates no game (${requests.join(", ")})`);
  check(requests.includes("GET /favicon.svg") && !requests.includes("GET /favicon.ico"), "the favicon is the page's own");
  check(new URL(page.url()).searchParams.get("game") === null, "no game id before the first move");
  check((await page.inputValue("#opponent")) === "torres", "El Ajedrecista is the default opponent");
  check((await page.textContent("#opponent-heading")).startsWith("Playing against El Ajedrecista"), "the heading names the opponent");
  check((await page.inputValue("#start-fen")).split("/").length === 8, "the FEN field holds a real example (issue item 5)");

  // Item 6 and 7: a wrong placement says why it counts, in words.
  const consoleErrorsBeforePlay = consoleErrors.length;
  check((await page.locator("#play-board circle[data-mark]").count()) === 42, "42 start squares are marked");
  await clickSquare(page, "h8");
  await idle(page);
  const placement = await page.textContent("#status");
  check(placement.includes("not a start square of El Ajedrecista") && placement.includes("as in 1912, the machine stops after three illegal moves"),
    `a wrong placement explains itself (${placement})`);
  check((await internalNames(page)).length === 0, `no internal names after a wrong placement: ${await internalNames(page)}`);

  // The machine's own start: place the black king on d3 by clicking.
  const lampsUnlit = await page.locator("#lamps-1912").boundingBox();
  await clickSquare(page, "d3");
  await idle(page);
  const lampsLit = await page.locator("#lamps-1912").boundingBox();
  check(lampsUnlit.width === lampsLit.width && lampsUnlit.height === lampsLit.height,
    `a lamp lit does not move the lamp grid (${JSON.stringify([lampsUnlit, lampsLit])})`);
  check((await page.textContent("#reason")).includes("Rb6"), "El Ajedrecista answers Rb6");
  check((await page.locator(".t-lamp.on").count()) >= 1, "a lamp of the 1912 machine is lit");
  check((await page.locator("#play-board .mark-cursor").count()) === 0, "no keyboard cursor after mouse clicks");
  check(!(await page.evaluate(() => document.getElementById("play-board").matches(":focus-visible"))), "no focus outline after mouse clicks");

  // Item 1 on a desktop: the illegal move's reason under the board, in the lamp's colour.
  await clickSquare(page, "d3");
  await clickSquare(page, "d5");
  await idle(page);
  check((await page.getAttribute("#lamp", "data-on")) === "true", "the lamp lights on an illegal move");
  const reason = await page.textContent("#lamp-reason");
  check(reason.includes("one square"), `the lamp gives the reason (${reason})`);
  check((await page.textContent("#status")).includes(reason), "the reason is in the line under the board");
  check((await page.getAttribute("#status", "class")) === "lamp-text", "the line under the board takes the lamp's colour");
  check(await page.isVisible("#board-lamp.on"), "a lamp is lit beside the board");
  check((await page.textContent("#lamp-count")).startsWith("2 of 3"), "two illegal moves of three");
  await page.screenshot({ path: join(outDir, "web-e2e-lamp.png") });
  check(consoleErrors.length === consoleErrorsBeforePlay,
    `illegal moves log nothing in the console: ${consoleErrors.slice(consoleErrorsBeforePlay).join("; ")}`);

  // Item 3: the game and the view in the address.
  await clickSquare(page, "d3");
  await clickSquare(page, "c3");
  await idle(page);
  const ply = await page.evaluate(() => document.body.dataset.ply);
  const gameUrl = page.url();
  check(new URL(gameUrl).searchParams.get("game"), `the game id is in the address (${gameUrl})`);
  await page.reload();
  await ready(page);
  check((await page.evaluate(() => document.body.dataset.ply)) === ply, `a reload resumes the game at ply ${ply}`);
  check((await page.textContent("#reason")).length > 0, "the resumed game shows the machine's last move");
  await openView(page, "audit");
  await page.waitForSelector("#audit-chart rect.bar-a");
  check(new URL(page.url()).searchParams.get("view") === "audit", "the view is in the address");
  await page.goBack();
  await page.waitForSelector("#view-play:not([hidden])");
  check(await page.isHidden("#view-audit"), "Back returns to the play view");
  await page.goForward();
  await page.waitForSelector("#view-audit:not([hidden])");
  check(new URL(page.url()).searchParams.get("game") === new URL(gameUrl).searchParams.get("game"), "Forward keeps the game");
  await page.goBack();
  await page.waitForSelector("#view-play:not([hidden])");

  // Play to mate: click the king, then the first square marked for it.
  let moves = 0;
  let checks = 0;
  while (!(await page.textContent("#status")).startsWith("Checkmate")) {
    check(moves < 200, "mate within 200 moves");
    const king = await page.getAttribute('#play-board g.piece[data-man="k"]', "data-square");
    await clickSquare(page, king);
    const target = await page.getAttribute("#play-board circle.mark-target", "data-mark");
    check(target, `the king on ${king} has a move`);
    await clickSquare(page, target);
    await idle(page);
    check((await page.getAttribute("#lamp", "data-on")) === "false", "a legal move turns the lamp off");
    if ((await page.textContent("#status")).endsWith(", check.")) {
      checks += 1;
      check((await page.locator("#play-board .mark-check").count()) === 1, "a check is marked on the board");
    }
    moves += 1;
  }

  check((await page.locator("#play-board .mark-mate").count()) === 1, "the mate is marked on the board");
  check((await page.textContent("#pgn")).includes("1-0"), "the PGN is shown with the result");
  check((await page.isEnabled("#pgn-download")), "the PGN can be downloaded");
  step(`mate after ${moves} moves of Black, ${checks} checks marked on the way`);
  await page.screenshot({ path: join(outDir, "web-e2e.png"), fullPage: true });

  // An unknown game id says so and offers a new game.
  await page.goto(`${url}?game=0123456789abcdef`);
  await ready(page);
  check(await page.isVisible("#game-missing"), "an unknown game says so");
  await page.click("#game-missing-new");
  await idle(page);
  check(await page.isHidden("#game-missing"), "and starts a new game on request");

  // By keyboard: the cursor from e4 to d3, Enter places the king; then
  // three illegal moves typed stop the machine.
  await page.focus("#play-board");
  await page.keyboard.press("ArrowLeft");
  check((await page.locator("#play-board .mark-cursor").count()) === 1, "the cursor shows after keyboard use");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await idle(page);
  check((await page.textContent("#reason")).includes("Rb6"), "the king placed by keyboard gets Rb6");
  for (let i = 1; i <= 3; i++) {
    await typeMove(page, "Ka1");
    check((await page.textContent("#lamp-count")).startsWith(`${i} of 3`), `illegal move ${i} of 3 counted`);
  }
  check((await page.textContent("#status")).includes("machine stops"), "the machine stops after three");
  check(!(await page.isEnabled("#undo")), "no undo after the stop");

  // A check is marked on the board: El Ajedrecista's Rh6+ after the king
  // placed on a5 steps to a6.
  await page.click("#new-game-button");
  await idle(page);
  await clickSquare(page, "a5");
  await idle(page);
  await typeMove(page, "Ka6");
  check((await page.textContent("#status")).endsWith(", check."), `the machine gives check (${await page.textContent("#status")})`);
  check((await page.locator("#play-board .mark-check").count()) === 1, "the check is marked on the board");

  // Issue 56, item 10: a tap on a white man, the king not picked up, and
  // the king's own square typed are no moves: the lamp stays off.
  await page.click("#new-game-button");
  await idle(page);
  await clickSquare(page, "d6");
  await idle(page);
  const lampBefore = await page.textContent("#lamp-count");
  const rookSquare = await page.getAttribute('#play-board g.piece[data-man="R"]', "data-square");
  await clickSquare(page, rookSquare);
  await idle(page);
  check((await page.textContent("#announce")).includes("Pick up the black king first"), "a tap on the rook says what to do");
  await typeMove(page, "d6");
  check((await page.textContent("#status")).includes("already"), `the king's own square is no move (${await page.textContent("#status")})`);
  check((await page.textContent("#lamp-count")) === lampBefore, "neither lit the lamp");

  // Item 6: changing the opponent of a game in play asks first.
  await page.click("#new-game-button");
  await idle(page);
  await clickSquare(page, "d6");
  await idle(page);
  await page.selectOption("#opponent", "perfect");
  check(await page.isVisible("#opponent-confirm"), "changing the opponent asks whether to start a new game");
  await page.click("#opponent-confirm-yes");
  await page.waitForFunction(() => document.getElementById("opponent-heading").textContent.includes("Perfect play"));
  step("the heading follows a change of opponent");

  // Item 4, play: a bad FEN greys out the last game and says why next to the field.
  await clickSquare(page, "d6");
  await idle(page);
  await page.check('input[name="start"][value="fen"]');
  await page.fill("#start-fen", "8/8/8/8 w");
  await page.click("#new-game-button");
  await idle(page);
  check((await page.textContent("#start-fen-error")).length > 0, "the FEN's error is next to the field");
  check(await page.evaluate(() => document.getElementById("play-board").classList.contains("stale")), `the old game is greyed out (${await page.textContent("#status")}; ${page.url()})`);

  // Issue 27 item 2: the teacher's position, refused by El Ajedrecista,
  // says why and offers the machines that take it (the server's answer).
  const teacher = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
  await page.fill("#start-fen", teacher);
  await page.selectOption("#opponent", "torres");
  await page.waitForSelector("#start-suggest:not([hidden]) button");
  const refusal = await page.textContent("#start-fen-error");
  check(refusal.includes("separate the kings"), `the refusal says why (${refusal})`);
  const starts = await page.evaluate(async (fen) => (await fetch(`/api/starts?fen=${encodeURIComponent(fen)}`)).json(), teacher);
  const offered = await page.$$eval("#start-suggest button", (buttons) => buttons.map((b) => b.dataset.strategy));
  check(JSON.stringify(offered) === JSON.stringify(starts.filter((a) => a.accepts).map((a) => a.name)),
    `the machines offered are those that take it (${offered})`);
  check(offered.includes("rook-box") && !offered.includes("torres"), "the box method is offered, El Ajedrecista not");
  await page.click('#start-suggest button[data-strategy="rook-box"]');
  await idle(page);
  check((await page.textContent("#opponent-heading")).includes("box method"), "the offered machine plays the position");
  check(await page.evaluate(() => document.body.dataset.ply) === "1", "the box method made the first move");
  check(!(await page.evaluate(() => document.getElementById("play-board").classList.contains("stale"))), "the board is not grey once a game starts");
  // The start rule of each machine is shown before play (checked per machine below).
  await page.check('input[name="start"][value="machine"]');

  // Item 2: the MK-61 queen program; ЕГГОГ, then the answer after С/П.
  await chooseOpponent(page, "mk61-queen");
  check((await page.textContent("#opponent-heading")).includes("MK-61 queen"), "the heading names the queen program");
  await clickSquare(page, "f4");
  await idle(page);
  for (const move of ["Kf3", "Ke2", "Kf1", "Ke1", "Kd1"]) await typeMove(page, move);
  // Each drawn state of the display, read back from its segments in the
  // page as it is drawn (the first lasts 2 s only).
  await page.evaluate((glyphs) => {
    const svg = document.getElementById("reply-display");
    window.shownStates = [];
    new MutationObserver(() => {
      const text = [...svg.querySelectorAll("g[data-place]")].map((g) => {
        const lit = [...g.querySelectorAll("rect.seg-on")].map((r) => r.dataset.seg).sort().join("");
        return (glyphs[lit] ?? "?") + (g.querySelector('circle.seg-on[data-seg="p"]') ? "." : "");
      }).join("");
      if (window.shownStates[window.shownStates.length - 1] !== text) window.shownStates.push(text);
    }).observe(svg, { childList: true });
  }, GLYPHS);
  await typeMove(page, "Kc1");
  check((await page.textContent("#status")).startsWith("Checkmate"), "the queen program mates");
  await page.waitForFunction(() => document.getElementById("reply-display").dataset.step === "2/2");
  const states = await page.evaluate(() => window.shownStates);
  check(states.length === 2, `two displays in time (${JSON.stringify(states)})`);
  const [error, answer] = states;
  check(error.trim() === "ЕГГ0Г", `the segments show ЕГГОГ first (${JSON.stringify(error)})`);
  check(/^ 61\. +$/.test(answer), `then the answer 61. in the mantissa (${JSON.stringify(answer)})`);
  check((await readDisplay(page)) === answer, "and the answer stays");
  step(`the calculator showed "${error.trim()}", then "${answer.trim()}"`);
  // The page's modules, imported again in the page: the same instances.
  await page.evaluate(async () => {
    const view = await import("/js/play.js");
    view.drawMk61(document.getElementById("reply-display"), view.play.game.last_reply.displays[0]);
  });
  await page.screenshot({ path: join(outDir, "web-e2e-mk61-error.png") });
  check((await readDisplay(page)).trim() === "ЕГГ0Г", `the turn's first state redrawn is ЕГГОГ (${await readDisplay(page)})`);
  // Every glyph of the indicator drawn and read back (the server's places
  // for ЗГГОГ, 3.ГГ0Г, are tested in the automata crate's view.rs).
  await page.evaluate(async () => (await import("/js/play.js")).drawCells(document.getElementById("reply-display"),
    [..."0123456789-L"].map((ch, i) => ({ ch, dot: i === 3 }))));
  check((await readDisplay(page)) === "0123.456789-L", `digits, minus and L (${await readDisplay(page)})`);
  await page.evaluate(async () => (await import("/js/play.js")).drawCells(document.getElementById("reply-display"),
    [..."CГЕ "].map((ch) => ({ ch, dot: false }))));
  check((await readDisplay(page)).startsWith("CГЕ "), `C, Г, Е and blank (${await readDisplay(page)})`);

  // Item 5: the turning variant's display is explained where it is shown:
  // the number is in the turned board's squares, and the board is turned
  // (not "after С/П") before the next display.
  const turningInfo = (await page.evaluate(async () => (await fetch("/api/strategies")).json()))
    .find((info) => info.name === "mk61-rook-native-turning");
  await chooseOpponent(page, turningInfo.name);
  let turnedNote = "";
  for (const square of turningInfo.start_squares) {
    await clickSquare(page, square);
    await idle(page);
    if ((await page.getAttribute("#reply-display", "data-step")) === "1/2") {
      const firstCaption = await page.textContent("#reply-display-text");
      check(firstCaption.startsWith("Display: 9------0.") && firstCaption.includes("with the board turned a quarter") && !firstCaption.includes("after С/П"),
        `the turn's first display says the board is turned (${firstCaption})`);
      check((await readDisplay(page)).trim() === "9------0.", `the segments show 9------0. (${await readDisplay(page)})`);
    }
    await page.waitForFunction(() => /^(\d)\/\1$/.test(document.getElementById("reply-display").dataset.step));
    turnedNote = await page.textContent("#reply-display-text");
    if (turnedNote.includes("as the player turned it")) break;
    await page.click("#new-game-button");
    await idle(page);
  }
  const shownNumber = (await readDisplay(page)).replace(/[ .]/g, "");
  const [, noteNumber, noteSquare] = turnedNote.match(/its (\d\d) is ([a-h][1-8]) on this board/) || [];
  check(noteNumber === shownNumber, `the note names the number drawn (${shownNumber}): ${turnedNote}`);
  const onSquare = await page.getAttribute(`#play-board g.piece[data-square="${noteSquare}"]`, "data-man");
  const reply = await page.evaluate(async () => (await import("/js/play.js")).play.game.last_reply);
  check(onSquare && onSquare === onSquare.toUpperCase() && reply.to === noteSquare, `the note's square ${noteSquare} is where the machine's man went (${reply.san})`);
  check(`${"abcdefgh".indexOf(noteSquare[0]) + 1}${noteSquare[1]}` !== shownNumber, "the number is not the square's on this board");
  step(`the turning program: ${turnedNote}`);

  // Item 4, views: errors clear the stale result.
  await openView(page, "tables");
  check((await page.locator("#probe-board svg").count()) === 1, "the probe shows a board");
  await page.fill("#probe-fen", "not a fen");
  await page.click('#probe-form button[type="submit"]');
  await page.waitForFunction(() => document.getElementById("probe-error").textContent.length > 0);
  check((await page.locator("#probe-board svg").count()) === 0, "a bad FEN clears the probed board");
  check((await page.locator("#probe-moves tr").count()) === 0, "and its moves");
  await page.fill("#probe-fen", "8/8/8/4k3/8/8/R7/4K3 w - - 0 1");
  await page.click('#probe-form button[type="submit"]');
  await page.waitForSelector("#probe-moves tr");
  check((await page.locator("#probe-moves tr").count()) > 5, "the probe lists the moves");
  await openView(page, "audit");
  await page.selectOption("#audit-strategy", "torres");
  await page.click('#audit-form button[type="submit"]');
  await page.waitForSelector("#audit-chart rect.bar-a");
  await page.selectOption("#audit-strategy", "mk61-rook");
  await page.click('#audit-form button[type="submit"]');
  await page.waitForFunction(() => document.getElementById("audit-error").textContent.length > 0);
  check((await page.locator("#audit-chart rect").count()) === 0, "a refused audit clears the previous chart");
  check((await internalNames(page)).length === 0, `no internal names in the refusal: ${await internalNames(page)}`);

  // Item 8: the claims page runs its audit; the About text of each machine.
  await openView(page, "claims");
  const claims = await page.evaluate(async () => (await fetch("/api/claims")).json());
  check(claims.length === 11 && (await page.locator("#claims-rows tr").count()) === claims.length, "the claims table has the data's eleven claims (README's table)");
  const rows = await page.$$eval("#claims-rows tr", (trs) => trs.map((tr) => [...tr.cells].slice(0, 3).map((td) => td.textContent)));
  claims.forEach((claim, i) => check(JSON.stringify(rows[i]) === JSON.stringify([claim.source, claim.claim, claim.finding]), `claim ${i + 1} shows the data's source, claim and finding`));
  await page.click("#claims-rows tr:first-child button");
  await page.waitForSelector("#view-audit:not([hidden])");
  await page.waitForSelector("#audit-chart rect.bar-a");
  const summary = await page.textContent("#audit-summary");
  check(summary.includes("66 moves") && summary.includes("42"), `the claim's audit: 42 starts, worst 66 moves (${summary})`);
  await page.click("#replay-last");
  check((await page.textContent("#replay-caption")).includes("#"), "the longest game replays to mate");
  await openView(page, "claims");
  await page.locator("#claims-rows tr", { hasText: "the MK-61 queen program mates" }).locator("button").click();
  await page.waitForFunction(() => document.getElementById("audit-summary").textContent.includes("the same: 35 with White to move"));
  check((await page.textContent("#audit-summary")).includes("MK-61 queen program"), "the queen audit explains its 35 starts");
  step("claims figures");
  // Issue 27 item 6: every claim's figures are in the view its button opens.
  const refusedAudits = new Set((await page.evaluate(async () => (await fetch("/api/strategies")).json()))
    .filter((info) => info.audit_refused).map((info) => info.name));
  for (const [i, claim] of claims.entries()) {
    if (!claim.check.audit) continue;
    await openView(page, "claims");
    await page.click(`#claims-rows tr:nth-child(${i + 1}) button`);
    await page.waitForSelector("#view-audit:not([hidden])");
    if (refusedAudits.has(claim.check.audit.strategy)) {
      // Too slow for the server (the four-man methods): the view says so
      // and names the command that runs it.
      await page.waitForFunction(() => document.getElementById("audit-error").textContent.length > 0);
      check((await page.textContent("#audit-error")).includes(`audit ${claim.check.audit.strategy}`),
        `claim ${i + 1}: the refused audit names its command`);
      continue;
    }
    await page.waitForFunction(() => document.body.dataset.auditing !== "true" && document.querySelector("#audit-summary table"));
    const shown = await page.innerText("#audit-summary");
    for (const [name, value] of Object.entries(claim.figures)) {
      check(new RegExp(`\\b${value}\\b`).test(shown), `claim ${i + 1}: its ${name} ${value} is in the audit it opens (${shown})`);
    }
  }
  await openView(page, "claims");
  await page.click("#claims-rows tr:nth-child(2) button");
  await page.waitForFunction(() => document.getElementById("probe-summary").textContent.includes("mate in"));
  check((await page.textContent("#probe-summary")).includes("mate in 16 "), "the claim's position is a mate in 16");
  await openView(page, "play");
  // Every machine's About text and picture are its own: the catalog's, as
  // /api/strategies serves it, and no two machines share a text.
  const strategies = await page.evaluate(async () => (await fetch("/api/strategies")).json());
  check(strategies.length === await page.locator("#opponent option").count(), "one opponent per machine of the catalog");
  const seenTexts = new Set();
  for (const info of strategies) {
    await page.selectOption("#opponent", info.name);
    await idle(page);
    const about = await page.textContent("#about");
    check(about.length > 300 && (await page.locator("#about-board svg").count()) === 1, `an About text with a picture for ${info.name}`);
    const paragraphs = await page.$$eval("#about-text p", (ps) => ps.map((p) => p.textContent));
    check(JSON.stringify(paragraphs) === JSON.stringify(info.about.text), `${info.name}: the About text is the catalog's`);
    check(!seenTexts.has(paragraphs.join(" ")), `${info.name}: an About text of its own`);
    seenTexts.add(paragraphs.join(" "));
    check((await page.textContent("#about-title")) === `About: ${info.label}`, `${info.name}: the About title names it`);
    check((await page.textContent("#about-caption")) === info.about.caption, `${info.name}: its picture's caption`);
    check((await page.getAttribute("#about-board svg", "data-board")) === info.about.board, `${info.name}: the picture is its board`);
    const pieces = await page.locator("#about-board svg [data-man]").count();
    const expected = [...info.about.board].filter((c) => /[a-zA-Z]/.test(c)).length;
    check(pieces === expected, `${info.name}: the picture shows its ${expected} men (${pieces})`);
    check((await page.locator("#about-board circle[data-mark]").count()) === info.about.start_squares.length,
      `${info.name}: the picture marks its ${info.about.start_squares.length} start squares`);
    check((await page.textContent("#start-rule")) === `Starts it takes: ${info.start_rule}`, `${info.name}: its start rule is shown before play`);
    const demoBoard = info.demo_fen.split(" ")[0];
    check(info.about.board === info.white_men || info.about.board === demoBoard, `${info.name}: the picture shows a start it uses`);
    if (await page.isVisible("#opponent-confirm")) await page.click("#opponent-confirm-no");
    await idle(page);
  }
  await startRulesOnTheSetupBoard(page, strategies);

  // Issue 27 item 1: the facts are the catalog's (no machine's name, label
  // or lamp in the page's scripts: tests/views.rs).
  // The 1912 machine's lamps: the catalog's words.
  await page.selectOption("#opponent", "torres");
  if (await page.isVisible("#opponent-confirm")) await page.click("#opponent-confirm-no");
  const lampWords = await page.$$eval("#lamps-1912 .t-lamp > span:nth-child(2)", (spans) => spans.map((s) => s.textContent));
  check(JSON.stringify(lampWords) === JSON.stringify(strategies[0].panel_lamps.map((l) => l.label)), `the 1912 lamps are the catalog's (${lampWords})`);
  check(strategies[0].about.text.join(" ").includes("Torres y Quevedo") && strategies[0].about.lamps.join(" ").includes("Eight lamps"), "El Ajedrecista's About names its maker and lamps");

  step("calculator");
  // The clickable MK-61: the queen program, key by key, to mate.
  await openView(page, "calculator");
  await page.click("#calc-queen");
  await calcIdle(page);
  check((await readDisplay(page, "#calc-display")).trim() === "77.", "the queen program starts with 77.");
  const shownByKeys = [];
  for (const square of ["f4", "f3", "e2", "f1", "e1", "d1", "c1"]) {
    if (square === "f1") {
      // Issue 27 item 4: a reload in the middle of the game resumes it.
      const before = [await readDisplay(page, "#calc-display"), await page.getAttribute("#calc-board svg", "aria-label")];
      check(new URL(page.url()).searchParams.get("calc"), `the calculator's id is in the address (${page.url()})`);
      await page.reload();
      await ready(page);
      await calcIdle(page);
      const after = [await readDisplay(page, "#calc-display"), await page.getAttribute("#calc-board svg", "aria-label")];
      check(JSON.stringify(before) === JSON.stringify(after), `a reload resumes the calculator game (${before} / ${after})`);
    }
    for (const key of [String("abcdefgh".indexOf(square[0]) + 1), ".", square[1], "SP"]) {
      await page.click(`#calc-keys button[data-key="${key}"]`);
      await calcIdle(page);
    }
    shownByKeys.push((await readDisplay(page, "#calc-display")).trim());
    while ((await readDisplay(page, "#calc-display")).trim() === "ЕГГ0Г") {
      await page.click('#calc-keys button[data-key="SP"]');
      await calcIdle(page);
      shownByKeys.push((await readDisplay(page, "#calc-display")).trim());
    }
  }
  await page.waitForFunction(() => document.getElementById("calc-status").textContent.includes("checkmate"));
  step(`the calculator, key by key: ${shownByKeys.join(", ")}; ${await page.textContent("#calc-status")}`);
  check(shownByKeys.includes("ЕГГ0Г"), "the calculator showed ЕГГОГ on the way");
  check((await page.locator("#calc-board .mark-mate").count()) === 1, "the mate is marked on the calculator's board");
  // Keying mistakes are explained in a sentence.
  const keyIn = async (keys) => {
    for (const key of keys) {
      await page.click(`#calc-keys button[data-key="${key}"]`);
      await calcIdle(page);
    }
    return page.textContent("#calc-status");
  };
  await page.click("#calc-queen");
  await calcIdle(page);
  let told = await keyIn(["6", "4", "SP"]);
  check(told.includes("not a square as this program takes them"), `6 4 С/П without the point is explained (${told})`);
  await page.click("#calc-queen");
  await calcIdle(page);
  told = await keyIn(["4", ".", "4", "SP"]);
  check(told.includes("next to the white king"), `a king next to the white king is explained (${told})`);
  await page.click("#calc-queen");
  await calcIdle(page);
  told = await keyIn(["7", ".", "7", "SP"]);
  check(told.includes("where a white man stands"), `keying the queen's square is explained (${told})`);
  await page.click("#calc-queen");
  await calcIdle(page);
  await keyIn(["6", ".", "4", "SP"]);
  told = await keyIn(["1", ".", "8", "SP"]);
  check(told.includes("no king move"), `a jump from f4 to a8 is explained (${told})`);
  await page.click("#calc-rook");
  await calcIdle(page);
  for (const key of ["5", "5", "SP"]) {
    await page.click(`#calc-keys button[data-key="${key}"]`);
    await calcIdle(page);
  }
  await page.waitForFunction(() => document.getElementById("calc-status").textContent.startsWith("Black king e5"));
  step(`the rook program, king to e5: ${(await readDisplay(page, "#calc-display")).trim()}; ${await page.textContent("#calc-status")}`);


  step("issue 27 checks");
  // Issue 27, round two of the page (its numbered findings).
  // Item 10: an unknown game id: a notice at the top and a board to start on.
  await page.goto(`${url}?game=0123456789abcdef`);
  await ready(page);
  const notice = await page.locator("#game-missing").boundingBox();
  const boardBox = await page.locator("#play-board").boundingBox();
  check(notice && notice.y < boardBox.y && notice.y < 400, `the notice is at the top, above the board (${JSON.stringify(notice)})`);
  check((await page.locator("#play-board circle.mark-start").count()) === 42, "the board is a new game's start, not empty");

  // Item 7: square labels, the pick-up, and each event announced once.
  check((await page.getAttribute("#sq-d6", "aria-label")).includes("start square"), "a start square says so");
  await countAnnouncements(page);
  await clickSquare(page, "d6");
  await idle(page);
  let said = await announcements(page);
  check(said.length === 1 && said[0].includes("The machine played"), `the placement's reply is announced once (${JSON.stringify(said)})`);
  const kingNow = await page.getAttribute('#play-board g.piece[data-man="k"]', "data-square");
  await clickSquare(page, kingNow);
  said = await announcements(page);
  check(said.length === 1 && said[0].includes("picked up"), `the pick-up is announced once (${JSON.stringify(said)})`);
  const target = await page.getAttribute("#play-board circle.mark-target", "data-mark");
  check((await page.getAttribute(`#sq-${target}`, "aria-label")).includes("legal target"), "a legal target says so");
  await clickSquare(page, target);
  await idle(page);
  said = await announcements(page);
  check(said.length === 1 && said[0].includes("The machine played"), `a machine move is announced once (${JSON.stringify(said)})`);
  // Item 8: text that is no move gets a hint and does not count.
  for (const typo of ["zz9", "Ke9"]) {
    await typeMove(page, typo);
    check((await page.textContent("#status")).startsWith("Not a move"), `${typo}: a hint (${await page.textContent("#status")})`);
    check((await page.getAttribute("#lamp", "data-on")) === "false", `${typo}: the lamp stays off`);
    check((await page.textContent("#lamp-count")).startsWith("0 of 3"), `${typo}: it does not count`);
    said = await announcements(page);
    check(said.length === 1, `${typo}: the hint is announced once (${JSON.stringify(said)})`);
  }
  // Item 9: the PGN of a game in play: display names, `*`, no "Game stopped".
  const pgnNow = await page.evaluate(async () => (await import("/js/play.js")).play.game.pgn);
  check(pgnNow.includes('[White "El Ajedrecista (Torres y Quevedo, 1912)"]') && pgnNow.trim().endsWith("*")
    && !pgnNow.includes("Game stopped") && !pgnNow.includes("Termination"), `the PGN of a game in play (${pgnNow})`);
  // A real move that breaks the rules lights the lamp, announced once.
  await typeMove(page, "Ka1");
  said = await announcements(page);
  check(said.length === 1 && said[0].includes("Illegal"), `an illegal move is announced once (${JSON.stringify(said)})`);
  check((await page.textContent("#lamp-count")).startsWith("1 of 3"), "a real illegal move counts");
  const reasonBefore = await page.textContent("#lamp-reason");
  await page.reload();
  await ready(page);
  check((await page.textContent("#lamp-reason")) === reasonBefore && (await page.getAttribute("#lamp", "data-on")) === "true",
    `a reload keeps the lamp and its reason (${reasonBefore})`);
  await countAnnouncements(page);
  await typeMove(page, "Ka1");
  await typeMove(page, "Ka1");
  check(await page.isDisabled("#move-input"), "after the stop the move field is closed");
  const movesBefore = requests.filter((r) => r.endsWith("/moves")).length;
  await clickSquare(page, "a1");
  await page.press("#play-board", "Enter");
  await idle(page);
  check(requests.filter((r) => r.endsWith("/moves")).length === movesBefore, "after the stop nothing is sent (no 409)");
  const again = await page.locator("#again").boundingBox();
  const statusBox = await page.locator("#status").boundingBox();
  check(again && Math.abs(again.y + again.height / 2 - (statusBox.y + statusBox.height / 2)) < 30, "New game is next to the result");
  await page.click("#again");
  await idle(page);
  check((await page.locator("#play-board circle.mark-start").count()) === 42, "New game shows the start again");

  // Item 11: with --max-games 3 (a second server), a fourth visitor still plays.
  // (The store's eviction is tested in crates/web/tests/games.rs.)

  await auditChecks(page);

  step("tablebase checks");
  // Item 12: the tablebase view as an analysis board.
  await openView(page, "tables");
  await page.fill("#probe-fen", "8/8/8/4k3/8/8/R7/4K3 w - - 0 1");
  await page.click('#probe-form button[type="submit"]');
  await page.waitForSelector("#probe-moves tr");
  check(new URL(page.url()).searchParams.get("fen") === "8/8/8/4k3/8/8/R7/4K3 w - - 0 1", "the position is in the address");
  await page.click("#probe-moves tr:first-child button");
  await page.waitForFunction(() => document.querySelectorAll("#probe-line li").length === 1);
  const after = new URL(page.url()).searchParams.get("fen");
  check(after !== "8/8/8/4k3/8/8/R7/4K3 w - - 0 1" && after.includes(" b "), "a move played goes to the address");
  // Issue 56, item 7: Black's reply joins White's move under one number,
  // and the browser's Back moves the highlight.
  await page.click("#probe-moves tr:first-child button");
  await page.waitForFunction(() => document.querySelectorAll("#probe-line button").length === 2);
  const numbered = await page.$$eval("#probe-line li", (items) => items.map((li) => [li.value, li.querySelectorAll("button").length]));
  check(JSON.stringify(numbered) === "[[1,2]]", `a move and its reply are one numbered item (${JSON.stringify(numbered)})`);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#probe-line button[aria-current="true"]')?.textContent
    === document.querySelectorAll("#probe-line button")[0].textContent);
  await page.click("#probe-back");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("fen").includes(" w "));
  check(!(await page.isDisabled("#probe-forward")), "forward is open after back");
  // A build's progress, from the tables' own reports (KRvKP: a four-man
  // pawn table built on request with its subtables, a few seconds; a
  // pawnless four-man table can be built before the first report is read).
  await page.fill("#probe-fen", "8/8/8/4k3/8/2p5/R7/4K3 w - - 0 1");
  await page.click('#probe-form button[type="submit"]');
  await page.waitForFunction(() => document.getElementById("probe-summary").textContent.includes("KRvKP"), null, { timeout: 60_000 });
  const buildSeen = await page.evaluate(() => document.body.dataset.buildSeen);
  check(["first_pass", "rank", "slice"].includes(buildSeen), `the build's progress was shown (${buildSeen})`);
  await fiveManTableBuiltInTheBackground(page);
  await analysisBoardByDragAndPgn(page);
  // Errors in words.
  await page.fill("#probe-fen", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
  await page.click('#probe-form button[type="submit"]');
  await page.waitForFunction(() => document.getElementById("probe-error").textContent.length > 0);
  check((await page.textContent("#probe-error")).includes("side not to move is in check"), "an illegal position is explained in words");
  await page.fill("#probe-fen", "8/8/8/4k3/8/8/R7/4K3 w - - 0 1");
  await page.click('#probe-form button[type="submit"]');
  await page.waitForSelector("#probe-moves tr");
  await page.click("#probe-flip");
  await page.waitForSelector('#probe-board svg[data-flipped="true"]');
  await page.reload();
  await ready(page);
  await page.waitForSelector("#probe-moves tr");
  check((await page.inputValue("#probe-fen")).includes(" w "), "a reload keeps the position");
  // Issue 56, item 8: and the board turned; turned back for what follows.
  await page.waitForSelector('#probe-board svg[data-flipped="true"]');
  await page.click("#probe-flip");
  await page.waitForSelector('#probe-board svg[data-flipped="false"]');

  step("set-up by drag and drop");
  // Item 12 (set-up by drag and drop): men dragged from the palette onto
  // the board, between squares and off it; the position goes to the
  // address and is probed.
  await page.click("#probe-setup-toggle");
  await page.waitForSelector("#probe-palette label[data-man]");
  await page.click("#probe-clear");
  await probed(page);
  check((await page.locator("#probe-board g.piece").count()) === 0, "Clear empties the board");
  check((await page.textContent("#probe-error")).includes("each side needs exactly one king"), `an empty board is explained (${await page.textContent("#probe-error")})`);
  const sq = (square) => centre(page, `#probe-board rect[data-square="${square}"]`);
  const fromPalette = (man) => centre(page, `#probe-palette label[data-man="${man}"]`);
  for (const [man, square] of [["K", "e1"], ["k", "e8"], ["R", "h1"], ["Q", "d4"]]) {
    await dragMouse(page, await fromPalette(man), await sq(square));
    await probed(page);
    check((await page.getAttribute(`#probe-board g.piece[data-square="${square}"]`, "data-man")) === man, `${man} dragged onto ${square}`);
  }
  check(new URL(page.url()).searchParams.get("fen") === "4k3/8/8/8/3Q4/8/8/4K2R w - - 0 1", `the set-up is in the address (${page.url()})`);
  // The queen dragged off the board is taken away; the rook from h1 to a1.
  const probeBox = await page.locator("#probe-board").boundingBox();
  await dragMouse(page, await sq("d4"), { x: probeBox.x + probeBox.width + 40, y: probeBox.y + probeBox.height / 2 });
  await probed(page);
  await dragMouse(page, await sq("h1"), await sq("a1"));
  await probed(page);
  const built = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
  check(new URL(page.url()).searchParams.get("fen") === built, `dragged off and between squares: ${page.url()}`);
  check((await page.inputValue("#probe-fen")) === built, "the FEN field follows the board");
  const answerBuilt = await page.evaluate(async (fen) => (await fetch(`/api/probe?fen=${encodeURIComponent(fen)}`)).json(), built);
  const summaryBuilt = await page.textContent("#probe-summary");
  check(summaryBuilt.startsWith("KRvK") && summaryBuilt.includes(`mate in ${answerBuilt.dtm_moves} `), `the probe answers the position set up (${summaryBuilt})`);
  check((await page.locator("#probe-moves tr").count()) === answerBuilt.moves.length, "with every move");
  // Without a pointer: the palette's black king, the board's cursor, Enter.
  await page.check('#probe-palette input[value="k"]');
  await page.focus("#probe-board");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await probed(page);
  check(new URL(page.url()).searchParams.get("fen") === "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", `the black king placed by keyboard (${page.url()})`);
  check((await page.textContent("#probe-setup-announce")).includes("black king on e5"), "the placement is announced in the view's own live region");
  step(`set up by dragging: ${summaryBuilt}`);

  await practiceAsWhite(page);
  await refusedPositionOffersNoLoop(page);
  await calculatorInViewAndShared(page);
  await analysisBoardInAddress(page);
  await wordsForVisitors(page, strategies);

  step("every view");
  // Every view at desktop and phone size: screenshots, internal names,
  // overflow (item 7) and axe-core.
  const violations = [];
  for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
    await page.setViewportSize(viewport);
    for (const view of VIEWS) {
      await openView(page, view);
      if (view === "audit") await page.waitForSelector("#audit-chart rect.bar-a");
      await page.screenshot({ path: join(outDir, `web-e2e-${view}-${size}.png`), fullPage: true });
      check((await internalNames(page)).length === 0, `${view}: no internal names: ${await internalNames(page)}`);
      if (size === "phone") await noOverflow(page, `${view} at 390 px`);
      const contrastFound = await svgTextContrast(page, `${view} (${size})`);
      if (view === "play") step(`SVG text of the play view at ${size}: ${contrastFound.count} texts, lowest contrast ${contrastFound.worst.toFixed(2)}:1`);
      if (size === "phone" && view === "calculator") {
        const board = await page.locator("#calc-board").boundingBox();
        check(board.y < viewport.height, `on a phone the calculator's board starts on the first screen (${board.y})`);
      }
      const intro = await page.locator(`#view-${view} .intro`).boundingBox();
      check(intro && intro.y + intro.height <= viewport.height, `${view} (${size}): the introduction is on the first screen`);
      await axe(page, `${view} (${size})`, violations);
    }
  }
  writeFileSync(join(outDir, "web-e2e-axe.json"), JSON.stringify(violations, null, 1));
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  step(`axe-core ${await page.evaluate(() => window.axe.version)}: ${violations.length} violations over ${VIEWS.length * 2} views, ${serious.length} serious or critical`);
  check(serious.length === 0, `no serious accessibility violations: ${serious.map((v) => `${v.where} ${v.id}`).join("; ")}`);

  // Item 13 on a phone: the tab names and С/П on one line each; every
  // opponent's name whole in the selector; the MK-61 tab says what an MK-61 is.
  const lines = (selector) => page.$$eval(selector, (nodes) => nodes.map((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return { text: node.textContent.trim(), lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
  }));
  for (const tab of await lines("nav button")) check(tab.lines === 1, `the tab "${tab.text}" is on one line at 390 px`);
  // Item 3: the tagline is shown on a phone too.
  await page.evaluate(() => window.scrollTo(0, 0));
  const tagline = await page.locator(".tagline").boundingBox();
  check(tagline && tagline.height > 0 && tagline.y + tagline.height <= PHONE.height, `the tagline is on a phone's first screen (${JSON.stringify(tagline)})`);
  await openView(page, "calculator");
  const stopKey = (await lines("#calc-keys .calc-key .main")).find((key) => key.text === "С/П");
  check(stopKey && stopKey.lines === 1, `С/П is on one line (${JSON.stringify(stopKey)})`);
  check((await page.textContent("#view-calculator .intro")).includes("programmable pocket calculator"), "the MK-61 view says what an MK-61 is");
  await openView(page, "play");
  const cutNames = await page.evaluate(() => {
    const select = document.getElementById("opponent");
    const context = document.createElement("canvas").getContext("2d");
    const style = getComputedStyle(select);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    // The room for the text: the box less its padding and the arrow.
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    return [...select.options].filter((o) => context.measureText(o.text).width > room).map((o) => `${o.text} (${Math.round(context.measureText(o.text).width)} px in ${Math.round(room)} px)`);
  });
  check(cutNames.length === 0, `every opponent's name fits the selector on a phone (cut: ${cutNames.join("; ")})`);

  // The set-up on a phone: a finger drags the rook from a1 to b1.
  await openView(page, "tables");
  if (await page.isHidden("#probe-setup")) await page.click("#probe-setup-toggle");
  await page.locator("#probe-board").scrollIntoViewIfNeeded();
  const cdp = await run.context.newCDPSession(page);
  await dragTouch(cdp, await centre(page, '#probe-board rect[data-square="a1"]'), await centre(page, '#probe-board rect[data-square="b1"]'));
  await probed(page);
  check(new URL(page.url()).searchParams.get("fen") === "8/8/8/4k3/8/8/8/1R2K3 w - - 0 1", `a finger drags the rook on a phone (${page.url()})`);
  await page.screenshot({ path: join(outDir, "web-e2e-setup-phone.png") });
  await page.click("#probe-setup-done");

  // Item 1 on a phone: a new game, the king on d6, three moves, then h1 is
  // tapped: the reason is in view without scrolling.
  await openView(page, "play");
  await chooseOpponent(page, "torres");
  await page.evaluate(() => window.scrollTo(0, 0));
  await clickSquare(page, "d6");
  await idle(page);
  for (let i = 0; i < 3; i++) {
    const king = await page.getAttribute('#play-board g.piece[data-man="k"]', "data-square");
    await clickSquare(page, king);
    await clickSquare(page, await page.getAttribute("#play-board circle.mark-target", "data-mark"));
    await idle(page);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  // The king picked up and put down far away: an illegal move.
  await clickSquare(page, await page.getAttribute('#play-board g.piece[data-man="k"]', "data-square"));
  await clickSquare(page, "h1");
  await idle(page);
  const box = await page.locator("#status").boundingBox();
  const scrollY = await page.evaluate(() => window.scrollY);
  check(scrollY === 0, `the page did not scroll (${scrollY})`);
  check(box && box.y >= 0 && box.y + box.height <= PHONE.height, `the reason is in the 390x844 view (${JSON.stringify(box)})`);
  check((await page.textContent("#status")).startsWith("Illegal:"), "the line under the board gives the reason");
  check(await page.isVisible("#board-lamp.on"), "the lamp beside the board is lit");
  const boardBottom = await page.evaluate(() => document.getElementById("play-board").getBoundingClientRect().bottom);
  const machineTop = (await page.locator(".panel.machine").boundingBox()).y;
  check(machineTop - boardBottom < 120, `the lamps are directly under the board (${machineTop - boardBottom} px below)`);
  const newGameTop = (await page.locator("#new-game").boundingBox()).y;
  check(machineTop < newGameTop, "on a phone the machine's panel comes before the New-game panel");
  await page.screenshot({ path: join(outDir, "web-e2e-phone.png") });
  // Against a calculator, its display is on the first screen too.
  await chooseOpponent(page, "mk61-queen");
  await page.evaluate(() => window.scrollTo(0, 0));
  await clickSquare(page, "f4");
  await idle(page);
  const display = await page.locator("#reply-display").boundingBox();
  check(display.y + display.height <= PHONE.height, `the calculator display is on a phone's first screen (${JSON.stringify(display)})`);
  // Issue 56, item 11: a display that ends in its point gets no second one.
  await page.waitForFunction(() => /^(\d)\/\1$/.test(document.getElementById("reply-display").dataset.step));
  const caption = await page.textContent("#reply-display-text");
  check(caption.startsWith("Display: ") && !caption.includes(".."), `the display's caption has one point (${caption})`);

  await everyWaitIsShown();
  await droppedGameGoesOn();
  await kioskReturnsToStart();

  check(errors.length === 0, `no script errors: ${errors.join("; ")}`);
  check(foreign.length === 0, `no request beyond the server: ${foreign.join(", ")}`);
  const refused = consoleErrors.filter((text) => text.includes("status of 4"));
  check(refused.length === consoleErrors.length, `no console errors beyond refused requests: ${consoleErrors.join("; ")}`);
  step(`${refused.length} refused requests (4xx) logged by the browser itself`);
  step(`ok; screenshots in ${outDir}`);
}

mkdirSync(outDir, { recursive: true });
main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch((err) => fail(err.stack || String(err)));
