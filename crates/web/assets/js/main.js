// The page of `ajedrecista serve`: play the automata, see their audits,
// browse the tables. Talks only to this server's JSON API (docs/web.md).
// One module per view (js/*.js); this one holds the tabs, the address and
// the start.

import { chartData, drawChart, renderComparison, replay, runAudit, showReplay, wireAudit } from "./audit.js";
import { parseBoard } from "./board.js";
import { calc, calcLoad, calcResume, wireCalculator } from "./calculator.js";
import { renderClaims } from "./claims.js";
import { $, api, html } from "./common.js";
import { currentView, download, drawSetup, humanize, loadGame, newGame, opponentChanged, play, redrawPlay, renderGame, renderHeading, renewGame, sendMove, setLamp, setStatus, showPending, updateSetupFen, urlFor, wirePlayBoard } from "./play.js";
import { openPractice, wirePractice } from "./practice.js";
import { fixedFromAddress, line, openTables, probe, wireTables } from "./tables.js";

/** Shows a view; `push` records it in the history, `autoload` fills an empty view. */
export async function selectTab(tab, push = true, autoload = true) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  const view = tab.id.replace("tab-", "");
  document.body.dataset.view = view;
  if (push) {
    const id = play.game ? play.game.id : new URLSearchParams(location.search).get("game");
    history.pushState({ view, game: id }, "", urlFor(view, id));
  }
  if (view === "audit" && chartData) drawChart(...chartData);
  if (!autoload) return;
  if (view === "audit" && !$("audit-summary").textContent) runAudit();
  if (view === "audit") renderComparison();
  if (view === "tables" && !$("probe-summary").textContent) await openTables();
  if (view === "practice") await openPractice();
  if (view === "calculator" && !calc.id) {
    const id = new URLSearchParams(location.search).get("calc");
    if (!id || !(await calcResume(id))) calcLoad("queen");
  }
}

export function wireTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => { if (tab.getAttribute("aria-selected") !== "true") selectTab(tab); });
    tab.addEventListener("keydown", (event) => {
      const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!delta) return;
      const next = tabs[(i + delta + tabs.length) % tabs.length];
      next.focus();
      selectTab(next);
    });
  });
  window.addEventListener("popstate", async () => {
    const params = new URLSearchParams(location.search);
    const tab = $("tab-" + (params.get("view") || "play")) || $("tab-play");
    selectTab(tab, false);
    const id = params.get("game");
    if (id && (!play.game || play.game.id !== id)) await loadGame(id);
    const fen = params.get("fen");
    if (tab.id === "tab-tables" && fen && fen !== $("probe-fen").value) {
      // Back and Forward move along the line: its highlight follows.
      const at = line.fens.indexOf(fen);
      if (at >= 0) line.index = at;
      $("probe-fen").value = fen;
      fixedFromAddress(params);
      probe(null, { keepLine: true });
    }
  });
}

/**
 * On a kiosk (`serve --kiosk`), any page a visitor has touched goes back to
 * its start, loaded afresh, after `seconds` without input; downloads,
 * which open a dialog on the kiosk's screen, are not offered.
 */
function runAsKiosk(seconds) {
  document.body.dataset.kiosk = "true";
  $("pgn-download").hidden = true;
  $("probe-pgn").parentElement.hidden = true;
  let touched = false;
  let timer = null;
  const wait = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (touched || location.pathname + location.search !== "/") location.replace("/");
      else wait();
    }, seconds * 1000);
  };
  for (const kind of ["pointerdown", "keydown", "wheel", "touchstart"]) {
    window.addEventListener(kind, () => { touched = true; wait(); }, { capture: true, passive: true });
  }
  wait();
}

export async function start() {
  wireTabs();
  wirePlayBoard();
  wireCalculator();
  wireTables();
  $("new-game").addEventListener("submit", newGame);
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value;
    $("move-input").value = "";
    sendMove(text);
  });
  $("undo").addEventListener("click", async () => {
    if (!play.game) return;
    const response = await api("POST", `/api/games/${play.game.id}/undo`);
    if (response.ok) { play.game = response.body; setLamp(null); renderGame(false); }
    else if (response.status === 404) await renewGame(play.game);
    else setStatus(humanize(response.body.error), "error");
  });
  for (const radio of document.querySelectorAll('input[name="start"]')) {
    radio.addEventListener("change", () => { $("fen-start").hidden = radio.value !== "fen" || !radio.checked; });
  }
  $("opponent").addEventListener("change", opponentChanged);
  window.addEventListener("resize", () => { if (chartData && !$("view-audit").hidden) drawChart(...chartData); });
  $("opponent-confirm-yes").addEventListener("click", () => { $("opponent-confirm").hidden = true; newGame(); });
  $("opponent-confirm-no").addEventListener("click", () => {
    $("opponent-confirm").hidden = true;
    if (play.game) $("opponent").value = play.game.strategy;
    renderHeading();
  });
  $("game-missing-new").addEventListener("click", () => { $("game-missing").hidden = true; showPending(); });
  $("again").addEventListener("click", () => newGame());
  $("setup-toggle").addEventListener("click", () => {
    play.setup = !play.setup;
    $("setup-tools").hidden = !play.setup;
    if (play.setup) {
      const text = $("start-fen").value.trim();
      if (text) play.setupMen = parseBoard(text);
      updateSetupFen();
      drawSetup();
    } else redrawPlay();
  });
  $("setup-black").addEventListener("change", () => { updateSetupFen(); drawSetup(); });
  $("pgn-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(play.game.pgn); setStatus("PGN copied."); }
    catch (err) { $("pgn").hidden = false; setStatus("Select the PGN below to copy it."); }
  });
  $("pgn-download").addEventListener("click", () => download("ajedrecista.pgn", play.game.pgn));
  $("audit-form").addEventListener("submit", runAudit);
  $("probe-form").addEventListener("submit", probe);
  $("replay-first").addEventListener("click", () => { replay.index = 0; showReplay(); });
  $("replay-last").addEventListener("click", () => { replay.index = replay.plies.length; showReplay(); });
  $("replay-prev").addEventListener("click", () => { replay.index = Math.max(0, replay.index - 1); showReplay(); });
  $("replay-next").addEventListener("click", () => { replay.index = Math.min(replay.plies.length, replay.index + 1); showReplay(); });
  $("replay-slider").addEventListener("input", () => { replay.index = Number($("replay-slider").value); showReplay(); });

  const served = await api("GET", "/api/page");
  if (served.ok && served.body.kiosk) runAsKiosk(served.body.kiosk.idle_seconds);
  const response = await api("GET", "/api/strategies");
  play.strategies = response.ok ? response.body : [];
  for (const select of [$("opponent"), $("audit-strategy")]) {
    for (const s of play.strategies) select.append(html("option", { value: s.name }, s.label));
  }
  wireAudit();
  wirePractice(play.strategies);
  await renderClaims();
  const params = new URLSearchParams(location.search);
  const tab = $("tab-" + (params.get("view") || "play")) || $("tab-play");
  selectTab(tab, false);
  const id = params.get("game");
  // A page load makes no game: the first move does.
  if (id) await loadGame(id);
  else showPending();
  history.replaceState({ view: currentView(), game: play.game ? play.game.id : id }, "", location.href);
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
