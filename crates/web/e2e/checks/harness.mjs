// The browser test's harness: the servers it starts, the browser's
// context, and the helpers every check uses (play.mjs runs the checks).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const binary = resolve(process.argv[2] || "target/debug/ajedrecista");
export const outDir = resolve(process.argv[3] || "target");
export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
export const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const deadline = setTimeout(() => fail("the browser test took over 8 minutes"), 480_000);

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const VIEWS = ["play", "practice", "audit", "tables", "calculator", "claims"];

export const servers = [];
// The origins of the servers started: the only ones the page may reach.
export const origins = new Set();
// The browser's context, once launched (`run.context`).
export const run = { context: null };
export const scratch = mkdtempSync(join(tmpdir(), "ajedrecista-e2e-"));

export function fail(message) {
  console.error(`web e2e: FAILED: ${message}`);
  cleanup().finally(() => process.exit(1));
}

export async function cleanup() {
  clearTimeout(deadline);
  if (run.context) await run.context.close().catch(() => {});
  for (const server of servers) server.kill("SIGTERM");
  rmSync(scratch, { recursive: true, force: true });
}

export function check(condition, message) {
  if (!condition) throw new Error(message);
}

export const started = Date.now();

export function step(text) {
  console.log(`web e2e: [${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);
}

/** Starts a server on a free loopback port, with `extra` options; resolves to its URL. */
export function startServer(extra = []) {
  return new Promise((resolveUrl, reject) => {
    const server = spawn(binary, ["serve", "--addr", "127.0.0.1:0", "--tables", join(scratch, "tables"), ...extra], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    servers.push(server);
    let text = "";
    server.stderr.on("data", (chunk) => {
      text += chunk;
      const match = text.match(/serving on (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (match) { origins.add(new URL(match[1]).origin); resolveUrl(match[1]); }
    });
    server.on("exit", (code) => reject(new Error(`the server exited (${code}): ${text}`)));
    setTimeout(() => reject(new Error(`the server did not start: ${text}`)), 30_000);
  });
}

export async function idle(page) {
  await page.waitForFunction(() => document.body.dataset.busy === "false" && document.body.dataset.animating !== "true");
}

export async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  await idle(page);
}

export async function clickSquare(page, square) {
  await page.click(`#play-board rect[data-square="${square}"]`);
}

export async function typeMove(page, move) {
  await page.fill("#move-input", move);
  await page.press("#move-input", "Enter");
  await idle(page);
}

/** The middle of an element on the page. */
export async function centre(page, selector) {
  const box = await page.locator(selector).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A drag with the mouse, in steps, as a hand makes it (pointer events). */
export async function dragMouse(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 3 });
  await page.mouse.up();
}

/** A drag with a finger (touch events through the DevTools protocol, as on a phone). */
export async function dragTouch(cdp, from, to) {
  const at = (p) => [{ x: Math.round(p.x), y: Math.round(p.y) }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(from) });
  for (const t of [0.3, 0.6, 1]) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t }) });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/** The tablebase view's answer to the position set up: settled, not "Probing". */
export async function probed(page) {
  await page.waitForFunction(() => document.body.dataset.dragging !== "true"
    && !document.getElementById("probe-summary").textContent.startsWith("Probing"));
}

/** Picks an opponent; a game in play asks first, and is left. */
export async function chooseOpponent(page, name) {
  await page.selectOption("#opponent", name);
  if (await page.isVisible("#opponent-confirm")) await page.click("#opponent-confirm-yes");
  await page.waitForFunction((n) => document.body.dataset.busy === "false"
    && document.getElementById("opponent").value === n, name);
  await idle(page);
}

export async function openView(page, view) {
  await page.click(`#tab-${view}`);
  await page.waitForSelector(`#view-${view}:not([hidden])`);
  if (view === "audit") await page.waitForFunction(() => document.body.dataset.auditing !== "true");
  if (view === "tables") await page.waitForFunction(() => !document.getElementById("probe-summary").textContent.startsWith("Probing"));
  if (view === "calculator") await calcIdle(page);
}

export async function calcIdle(page) {
  await page.waitForFunction(() => document.body.dataset.calcBusy === "false"
    && document.querySelector("#calc-display g[data-place]"));
}

// The glyphs of the MK-61 indicator by their lit segments (a..g), as the
// test reads them back from the drawn display.
export const GLYPHS = {
  abcdef: "0", bc: "1", abdeg: "2", abcdg: "3", bcfg: "4", acdfg: "5", acdefg: "6", abc: "7",
  abcdefg: "8", abcdfg: "9", g: "-", def: "L", adef: "C", aef: "Г", adefg: "Е", "": " ",
};

/** The calculator display as drawn: each place's lit segments to a glyph, "." for a lit point. */
export async function readDisplay(page, svg = "#reply-display") {
  const places = await page.$$eval(`${svg} g[data-place]`, (groups) => groups.map((g) => ({
    segments: [...g.querySelectorAll("rect.seg-on")].map((r) => r.dataset.seg).sort().join(""),
    point: Boolean(g.querySelector('circle.seg-on[data-seg="p"]')),
  })));
  return places.map((p) => (GLYPHS[p.segments] ?? "?") + (p.point ? "." : "")).join("");
}

/** Text a visitor reads must not show the program's internal names. */
export async function internalNames(page) {
  // Commands to type (in <code>) name the automata as the command line does.
  const text = await page.evaluate(() => {
    const codes = [...document.querySelectorAll("code")].map((code) => [code, code.textContent]);
    for (const [code] of codes) code.textContent = "";
    const shown = document.body.innerText;
    for (const [code, words] of codes) code.textContent = words;
    return shown;
  });
  const found = text.match(/\btorres\b|\bmk61-[a-z0-9-]+|\bfixed-king-|\bperfect\b(?= cannot)|\b[a-z]+_[a-z_]+\b/g);
  return found || [];
}

export async function noOverflow(page, where) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  check(scroll <= client, `${where}: no horizontal overflow (page ${scroll} px wide in ${client} px)`);
}

/** axe-core over the page as it is: the violations by impact. */
export async function axe(page, where, tally) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const run = await window.axe.run(document, { resultTypes: ["violations"] });
    return run.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  });
  for (const v of result) {
    tally.push({ where, ...v });
    console.log(`web e2e: axe ${where}: ${v.impact} ${v.id} (${v.nodes}): ${v.help}`);
  }
}

/** Starts counting the live regions' updates: each event should make one. */
export async function countAnnouncements(page) {
  await page.evaluate(() => {
    window.announced = [];
    if (window.announceObserver) window.announceObserver.disconnect();
    window.announceObserver = new MutationObserver((records) => {
      for (const record of records) {
        const region = (record.target.nodeType === 1 ? record.target : record.target.parentElement)
          .closest('[aria-live], [role="status"], [role="alert"]');
        if (region && region.offsetParent !== null || region && region.classList.contains("sr-only")) {
          window.announced.push(`${region.id}: ${region.textContent}`);
        }
      }
    });
    for (const region of document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')) {
      window.announceObserver.observe(region, { childList: true, characterData: true, subtree: true });
    }
  });
}

export async function announcements(page) {
  // Mutation records arrive after the task that made them.
  await page.waitForTimeout(50);
  const said = await page.evaluate(() => window.announced);
  await page.evaluate(() => { window.announced = []; });
  return said;
}

/** WCAG contrast ratio of two CSS colours. */
export function contrast(a, b) {
  const lum = (color) => {
    const [r, g, b] = color.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/**
 * Contrast of every visible SVG text (axe-core does not check SVG): its
 * fill against what is drawn under its middle (a board square, or the
 * nearest element with a background).
 */
export async function svgTextContrast(page, where) {
  const pairs = await page.evaluate(() => {
    const out = [];
    for (const text of document.querySelectorAll("svg text")) {
      const box = text.getBoundingClientRect();
      if (!box.width || text.closest("[hidden]")) continue;
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      const under = document.elementsFromPoint(x, y).filter((e) => e !== text && !e.closest("g.piece"));
      let background = null;
      for (const element of under) {
        const style = getComputedStyle(element);
        if (element instanceof SVGElement && element.tagName !== "svg" && element.tagName !== "g" && style.fill.startsWith("rgb")) {
          background = style.fill; break;
        }
        if (!(element instanceof SVGElement) && style.backgroundColor !== "rgba(0, 0, 0, 0)") {
          background = style.backgroundColor; break;
        }
      }
      out.push({ text: text.textContent, fill: getComputedStyle(text).fill, background: background || "rgb(255, 255, 255)" });
    }
    return out;
  });
  let worst = Infinity;
  for (const { text, fill, background } of pairs) {
    const ratio = contrast(fill, background);
    worst = Math.min(worst, ratio);
    check(ratio >= 4.5, `${where}: SVG text "${text}" has contrast ${ratio.toFixed(2)}:1 (${fill} on ${background})`);
  }
  return { count: pairs.length, worst };
}
