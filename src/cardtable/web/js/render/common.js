// Pieces every renderer shares: status line, score-line breakdown, generic action buttons.
import { h } from "../api.js";
import { lang } from "../i18n.js";

export function statusLine(ctx) {
  const { view, seat, t, seatName } = ctx;
  const toMove = (view.to_move || []).filter((n) => n >= 0);
  let text;
  if (view.over) text = t("table.over");
  else if (seat === null || seat === undefined) text = t("table.spectating");
  else if (toMove.includes(seat) && !ctx.replay) text = t("table.your_turn");
  else if (toMove.length === 1) text = t("table.waiting", { name: seatName(toMove[0]) });
  else text = t("table.waiting_many");
  const mine = seat !== null && toMove.includes(seat) && !view.over && !ctx.replay;
  return h("div", { class: `status-line${mine ? " mine" : ""}`, id: "status" }, text);
}

/** The round (or stage) result: every score line with its cards and points. */
export function breakdown(result, ctx, drawCard) {
  const { t, seatName } = ctx;
  const sections = ctx.ruleSections; // rule prefix -> anchor in the game's rule page
  const label = (line) => {
    const text = line.labels?.[lang()] ?? line.label;
    if (!sections || !ctx.gameId) return text;
    const anchor = sections[line.rule.split(":")[0]];
    const href = `/rules/${ctx.gameId}?lang=${lang()}${anchor ? `#${anchor}` : ""}`;
    return h("a", { class: "rule-link", href, target: "_blank", rel: "noopener" }, text);
  };
  const rows = result.lines.map((line) =>
    h("tr", { "data-rule": line.rule },
      h("td", {}, seatName(line.seat)),
      h("td", {}, label(line)),
      h("td", { class: "cards-cell" }, (line.cards || []).slice(0, 12).map((c) => drawCard(c, "tiny"))),
      h("td", { class: "num" }, line.points > 0 ? `+${line.points}` : String(line.points))),
  );
  const totals = h("tr", { class: "totals" },
    h("td", { colspan: 3 }, "Σ"),
    h("td", { class: "num" }, result.scores.map((s, n) => `${seatName(n)} ${s > 0 ? "+" : ""}${s}`).join(" · ")));
  return h("table", { class: "breakdown" }, h("tbody", {}, rows, totals));
}

/** Show the newest round result once, in a modal the player closes. */
export function announceResult(result, ctx, drawCard, title) {
  const { ui, dialog, t } = ctx;
  if (ui.noDialogs || !result || ui.shownResult === `${ctx.frame.table.id}:${result.round}`) return;
  if (ui.shownResult === undefined && ctx.frame.version === 0) return;
  ui.shownResult = `${ctx.frame.table.id}:${result.round}`;
  dialog.replaceChildren(
    h("h3", {}, title),
    breakdown(result, ctx, drawCard),
    h("form", { method: "dialog" }, h("button", { class: "primary", id: "close-result", autofocus: true }, t("table.close"))),
  );
  if (!dialog.open) dialog.showModal();
}

export function actionLabel(action, ctx) {
  const key = `action.${action.type}`;
  const text = ctx.t(key);
  return text === key ? action.type : text;
}
