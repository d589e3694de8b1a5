// What every view uses: the DOM and SVG helpers, the API call. Facts about
// the machines come from the server's catalog (/api/strategies), never
// from here.


export const FILES = "abcdefgh";
export const SVG_NS = "http://www.w3.org/2000/svg";
// The audit's start sets: "machine" is named by each automaton's catalog
// entry (own_starts).
export const EVERY_START = "every start it accepts";

// Men drawn in a 100 x 100 box: [filled outline, lines].
export const MEN = {
  k: ["M28 88 L72 88 L69 74 Q86 56 70 44 Q58 38 50 50 Q42 38 30 44 Q14 56 31 74 Z",
      "M50 10 L50 44 M41 20 L59 20 M31 74 L69 74"],
  r: ["M26 86 L74 86 L74 78 L66 74 L64 44 L70 40 L70 20 L61 20 L61 28 L55 28 L55 20 " +
      "L45 20 L45 28 L39 28 L39 20 L30 20 L30 40 L36 44 L34 74 L26 78 Z",
      "M36 44 L64 44 M34 74 L66 74"],
  q: ["M26 86 L74 86 L70 74 L82 28 L64 54 L58 20 L50 52 L42 20 L36 54 L18 28 L30 74 Z",
      "M30 74 L70 74"],
  b: ["M28 86 L72 86 L68 76 L60 72 Q72 56 62 38 L52 50 L57 33 Q54 26 50 22 " +
      "Q36 32 38 50 Q30 62 40 72 L32 76 Z",
      "M40 72 L60 72"],
  n: ["M30 86 L74 86 L72 64 Q72 30 48 18 L44 26 L36 30 L20 50 L26 58 L38 52 L44 56 " +
      "Q30 68 30 86 Z",
      "M34 38 L40 38"],
  // Pawns, for the tables with pawns (a promotion turns one into q, r, b or n).
  p: ["M30 86 L70 86 L66 74 L58 60 Q63 52 58 46 A12 12 0 1 0 42 46 Q37 52 42 60 L34 74 Z",
      "M34 74 L66 74"],
};

export const $ = (id) => document.getElementById(id);

/** A live region (the play view's unless told): each event is announced once. */
export function say(text, region = $("announce")) {
  // The same words again are still announced.
  region.textContent = region.textContent === text ? text + "\u00a0" : text;
}

export function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function html(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return { ok: false, status: 0, body: { error: "the server cannot be reached" } };
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = { error: response.statusText }; }
  return { ok: response.ok, status: response.status, body: data };
}

/**
 * While a request is answered, the server's builds under way (the
 * tables' own progress reports and the methods' tables, /api/builds) as
 * the progress bar `${prefix}-progress` with its words; a wait of over
 * half a second with no build is shown as a wait. `stop` when answered.
 */
export function watchBuilds(prefix) {
  let running = true;
  const started = Date.now();
  const box = $(`${prefix}-build`);
  const poll = async () => {
    if (!running) return;
    const response = await api("GET", "/api/builds");
    if (!running) return;
    const builds = response.ok ? response.body : [];
    const build = builds[0];
    const bar = $(`${prefix}-progress`);
    if (build) {
      if (build.total) { bar.max = build.total; bar.value = build.done; } else bar.removeAttribute("value");
      $(`${prefix}-build-text`).textContent = builds
        .map((b) => `Building ${b.stage === "method" ? "" : "the table "}${b.table}: ${b.text}${b.estimate_seconds ? `, about ${b.estimate_seconds} s left` : ""}.`).join(" ");
      document.body.dataset.buildSeen = build.stage;
    } else if (Date.now() - started >= 500) {
      bar.removeAttribute("value");
      $(`${prefix}-build-text`).textContent = "Waiting for the server's answer...";
    }
    box.hidden = !build && Date.now() - started < 500;
    setTimeout(poll, 250);
  };
  setTimeout(poll, 100);
  return { stop: () => { running = false; box.hidden = true; } };
}
