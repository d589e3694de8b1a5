// The claims view: the sources' claims and what is true, from /api/claims.

import { runAudit } from "./audit.js";
import { $, api, html } from "./common.js";
import { selectTab } from "./main.js";
import { labelOf } from "./play.js";
import { probe } from "./tables.js";

/** The claims as the server serves them (the data README's table is made of). */
export async function renderClaims() {
  const response = await api("GET", "/api/claims");
  const body = $("claims-rows");
  body.replaceChildren();
  for (const claim of response.ok ? response.body : []) {
    const tr = html("tr");
    const action = html("td");
    const check = claim.check;
    if (check.audit) {
      const button = html("button", { type: "button" }, `Run the audit of ${labelOf(check.audit.strategy)}`);
      button.addEventListener("click", () => {
        $("audit-strategy").value = check.audit.strategy;
        $("audit-starts").value = check.audit.starts;
        $("audit-side").value = check.audit.side;
        selectTab($("tab-audit"), true, false);
        runAudit();
      });
      action.append(button);
    } else if (check.longest) {
      const button = html("button", { type: "button" }, "Open a longest mate in the tablebase");
      button.addEventListener("click", () => {
        $("probe-fen").value = check.longest.record_fen;
        $("probe-fixed").value = check.longest.fixed_king || "";
        selectTab($("tab-tables"), true, false);
        probe();
      });
      action.append(button);
    } else action.append("The page probes one square of the king at a time; for all of them: ",
      html("code", {}, claim.command));
    tr.append(html("td", {}, claim.source), html("td", {}, claim.claim), html("td", {}, claim.finding), action);
    body.append(tr);
  }
}
