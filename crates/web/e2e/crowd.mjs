// A crowd at `ajedrecista serve` (issue 56, item 9): 50 headless Chromium
// browser contexts (each its own cache and connections, up to six) open
// the page at once. Every one must reach a ready page (`data-ready` on the
// body), no request of any may fail (a reset or refused connection fails
// it), and the script must come gzipped. Then one context reloads: its
// script is not downloaded again (from the cache, or a 304 by its ETag).
// Usage: node crowd.mjs PATH/TO/ajedrecista [CONTEXTS]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const binary = resolve(process.argv[2] || "target/debug/ajedrecista");
const crowd = Number(process.argv[3] || 50);
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const scratch = mkdtempSync(join(tmpdir(), "ajedrecista-crowd-"));
const started = Date.now();
let server = null;
let browser = null;

function step(text) {
  console.log(`web crowd: [${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);
}

async function finish(code, message) {
  if (message) console.error(`web crowd: FAILED: ${message}`);
  if (browser) await browser.close().catch(() => {});
  if (server) server.kill("SIGTERM");
  rmSync(scratch, { recursive: true, force: true });
  process.exit(code);
}

const deadline = setTimeout(() => finish(1, "the crowd test took over 4 minutes"), 240_000);

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

/** Opens the page in a new context; resolves to what it saw. */
async function visit(url, failed) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("requestfailed", (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  await page.goto(url, { timeout: 120_000 });
  await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 120_000 });
  return { context, page };
}

try {
  const url = await startServer();
  step(`server at ${url}`);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
  const failed = [];
  const visits = await Promise.allSettled(Array.from({ length: crowd }, () => visit(url, failed)));
  const notReady = visits.filter((visit) => visit.status === "rejected");
  step(`${crowd - notReady.length} of ${crowd} contexts reached a ready page; ${failed.length} requests failed`);
  if (notReady.length > 0) throw new Error(`${notReady.length} pages never became ready: ${notReady[0].reason}; failed requests: ${failed.slice(0, 5).join("; ")}`);
  if (failed.length > 0) throw new Error(`requests failed: ${failed.slice(0, 5).join("; ")}`);
  // What the first context's page fetched of its script, and what it
  // fetched after a reload (Resource Timing: a transfer smaller than the
  // body is the cache or a 304).
  const first = visits[0].value.page;
  const script = () => first.evaluate(() => {
    const entry = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/js/main.js"));
    return entry && { transfer: entry.transferSize, encoded: entry.encodedBodySize, decoded: entry.decodedBodySize };
  });
  const fetched = await script();
  step(`main.js at first: ${JSON.stringify(fetched)}`);
  if (!fetched || !(fetched.encoded < fetched.decoded / 2)) throw new Error("main.js was not sent gzipped");
  await first.reload();
  await first.waitForFunction(() => document.body.dataset.ready === "true");
  const reloaded = await script();
  step(`main.js after a reload: ${JSON.stringify(reloaded)}`);
  if (!reloaded || reloaded.transfer >= reloaded.encoded) throw new Error("a reload downloaded main.js again");
  clearTimeout(deadline);
  await finish(0);
} catch (err) {
  await finish(1, err.message);
}
