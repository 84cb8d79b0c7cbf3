// Pieces every renderer shares: status line, score-line breakdown, generic action buttons.
import { h } from "../api.js";
import { lang, valueText } from "../i18n.js";

export function statusLine(ctx) {
  const { view, seat, t, seatName } = ctx;
  const toMove = (view.to_move || []).filter((n) => n >= 0);
  let text;
  if (view.over) text = t("table.over");
  else if (ctx.roundBreak) text = t(view.stage ? "table.stage_over" : "table.round_over", { n: ctx.roundBreak.round });
  // a replay shows moves already made: it waits for nobody
  else if (ctx.replay) return "";
  else if (seat === null || seat === undefined) text = t("table.spectating");
  else if (toMove.includes(seat)) text = t("table.your_turn");
  else if (toMove.length === 1) text = t("table.waiting", { name: seatName(toMove[0]) });
  else text = t("table.waiting_many");
  const mine = seat !== null && toMove.includes(seat) && !view.over && !ctx.replay && !ctx.roundBreak;
  return h("div", { class: `status-line${mine ? " mine" : ""}`, id: "status" }, text);
}

/** A score line's label in the page's language, naming players rather than seat numbers. */
export function lineText(line, ctx) {
  const values = line.values || {};
  if (line.message && Object.values(values).some((v) => v && typeof v === "object" && "seat" in v)) {
    const filled = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, valueText(value, ctx.seatName)]));
    const text = ctx.t(line.message, filled);
    if (text !== line.message) return text;
  }
  return line.labels?.[lang()] ?? line.label;
}

/** The result's sums per player ("Σ Ania +12 Bartek -12"; `label` instead of the Σ). */
function totalsParts(result, seatName, label = "Σ") {
  return [h("span", { class: "sigma" }, `${label} `),
    result.scores.map((s, n) => h("span", { class: "round-score" }, `${seatName(n)} ${s > 0 ? "+" : ""}${s}`))];
}

/** The result's sums as a line of their own, for a place outside the breakdown's table
 * (the result box keeps them in its footer, in sight however long the lines run), under a
 * `label` that says they are this round's, not the match's. */
export function totalsLine(result, ctx, label = "Σ") {
  return h("p", { class: "round-totals", id: "round-totals" }, totalsParts(result, ctx.seatName, label));
}

/** The round (or stage) result: every score line with every one of its cards and its
 * points, then the sums unless `withTotals` is false (the caller shows them elsewhere).
 * `lineCards(line)`, where the game has one (its renderer's hook), lays a line's cards
 * out itself (hanafuda groups card values by kind). */
export function breakdown(result, ctx, drawCard, lineCards = null, { withTotals = true } = {}) {
  const { seatName } = ctx;
  const sections = ctx.ruleSections; // rule prefix -> anchor in the game's rule page
  const label = (line) => {
    const text = lineText(line, ctx);
    if (!sections || !ctx.gameId) return text;
    const anchor = sections[line.rule.split(":")[0]];
    const href = `/rules/${ctx.gameId}?lang=${lang()}${anchor ? `#${anchor}` : ""}`;
    return h("a", { class: "rule-link", href, target: "_blank", rel: "noopener" }, text);
  };
  const rows = result.lines.map((line) =>
    h("tr", { "data-rule": line.rule },
      h("td", {}, seatName(line.seat)),
      h("td", {}, label(line)),
      h("td", { class: "cards-cell" }, lineCards ? lineCards(line) : (line.cards || []).map((c) => drawCard(c, "tiny"))),
      h("td", { class: "num" }, line.points > 0 ? `+${line.points}` : String(line.points))),
  );
  const totals = withTotals ? h("tr", { class: "totals" }, h("td", { colspan: 4 }, totalsParts(result, seatName))) : "";
  return h("div", { class: "breakdown-wrap" }, h("table", { class: "breakdown" }, h("tbody", {}, rows, totals)));
}

export function actionLabel(action, ctx) {
  const key = `action.${action.type}`;
  const text = ctx.t(key);
  return text === key ? action.type : text;
}
