// The round result beside the round's final board: the score lines with their cards, what
// the game adds (best words, the stage table), who still has to press "Next round" and the
// countdown; at the end of the game, the last round's lines and the winners.
import { h } from "../api.js";
import { breakdown, totalsLine } from "../render/common.js";

/** Which cards the result's lines name: the shell marks them on the final board. */
export function scoringCards(result) {
  return new Set((result?.lines || []).flatMap((line) => line.cards || []));
}

function title(view, pause, finished, t) {
  if (finished) return t("table.over");
  if (view.stage) return t("table.stage_over", { n: pause.round });
  return t("table.round_over", { n: pause.round });
}

function waitingLine(pause, seat, ctx) {
  const others = pause.waiting.filter((n) => n !== seat);
  if (!others.length) return "";
  return h("p", { class: "waiting", id: "waiting-for" }, ctx.t("table.waiting_for", { names: others.map(ctx.seatName).join(", ") }));
}

/** Why a game ended before its last round, in words (null when it played them all): the
 * game's own reason where its renderer knows one (hook `endReason`), else the bare fact. */
export function earlyEnd(view, table, client, ctx) {
  if (table.status !== "finished" || !view.rounds || !view.round || view.round >= view.rounds) return null;
  return client.endReason?.(view, table, ctx) || ctx.t("table.ended_early", { n: view.round, of: view.rounds });
}

/** A round that scored nothing, in words: the game's reason where its renderer knows one
 * (hook `scorelessReason`), else the bare fact; null for a round with score lines, which
 * say it themselves. */
export function scorelessText(result, client, ctx) {
  if (result.lines.length) return null;
  return client.scorelessReason?.(result, ctx) || ctx.t("table.no_points");
}

export function countdownText(pause, now, t) {
  if (!pause?.deadline) return "";
  return t("table.next_in", { s: Math.max(0, Math.ceil(pause.deadline - now)) });
}

/** The buttons under the result: "Next round" for a player during a break; the winners and
 * "Close" once the game is over. */
function resultActions({ frame, ctx, ui, onNext, panel, key }) {
  const { view, table, seat } = frame;
  const { t } = ctx;
  const pause = table.round_break;
  const actions = [];
  if (pause && isPlayer(seat)) {
    const pressed = pause.ready.includes(seat) || !pause.waiting.includes(seat);
    actions.push(h("button", {
      class: "primary", id: "next-round", disabled: pressed || null, autofocus: true,
      onclick: (event) => { event.currentTarget.disabled = true; onNext(); },
    }, pressed ? t("table.waiting_others") : t(view.stage ? "table.next_stage" : "table.next_round")));
  }
  if (table.status === "finished") {
    const winners = (table.winners || []).map((n) => ctx.seatName(n)).join(", ");
    actions.push(h("p", { class: "winner" }, t("table.winner", { names: winners })));
    actions.push(h("button", { class: "primary", id: "close-result", onclick: () => { ui.closedResult = key; panel.hidden = true; } }, t("table.close")));
  }
  return actions;
}

/** During a round break: who still has to press "Next round", and the countdown. */
function breakLines(pause, seat, ctx, now) {
  if (!pause) return "";
  return [
    waitingLine(pause, seat, ctx),
    pause.deadline ? h("p", { class: "countdown", id: "next-countdown" }, countdownText(pause, now, ctx.t)) : "",
  ];
}

function isPlayer(seat) {
  return seat !== null && seat !== undefined;
}

/** The result's lines with their cards (drawn by the game's renderer where it draws
 * them), and the rounds the same move ended at their deal (a lucky hand) after them. The
 * result's own sums are left to the box's footer. */
function resultLines(result, pause, client, ctx) {
  const drawCard = (code, size) => (client.cardArt ? client.cardArt(code, size, ctx) : h("span", {}, code));
  const lineCards = client.lineCards ? (line) => client.lineCards(line, ctx, drawCard) : null;
  const scoreless = scorelessText(result, client, ctx);
  return [
    scoreless ? h("p", { class: "no-points", id: "no-points" }, scoreless) : breakdown(result, ctx, drawCard, lineCards, { withTotals: false }),
    (pause?.also || []).map((more) => [
      h("h4", { class: "also" }, ctx.t("table.round_over", { n: more.round })),
      breakdown(more, ctx, drawCard, lineCards),
    ]),
  ];
}

/** Why the match ended before its last round, and how the round ended where the game's
 * renderer says it (hook `roundReason(result, view, ctx)`: a stop called, the last card). */
function whyItEnded(result, { view, table }, client, ctx) {
  const ended = earlyEnd(view, table, client, ctx);
  const reason = client.roundReason?.(result, view, ctx);
  return [
    ended ? h("p", { class: "ended-early", id: "ended-early", role: "status" }, ended) : "",
    reason ? h("p", { class: "round-reason", id: "round-reason" }, reason) : "",
  ];
}

/**
 * Fill `panel` for the frame: shown during a round break and once the game is over (until
 * closed). `client` is the game's renderer module; `onNext` presses "Next round".
 */
export function renderResult(panel, options) {
  const { frame, client, ctx, ui, now } = options;
  const { view, table, seat } = frame;
  const pause = table.round_break;
  const finished = table.status === "finished";
  const result = client?.lastResult ? client.lastResult(view) : null;
  const key = `${table.id}:${finished ? "over" : pause?.round}`;
  const show = Boolean(result) && (Boolean(pause) || (finished && ui.closedResult !== key));
  panel.hidden = !show;
  if (!show) {
    panel.replaceChildren(); // no stale button stays behind, hidden
    return;
  }
  const { t } = ctx;
  const folded = ui.resultFolded === key;
  panel.classList.toggle("folded", folded);
  panel.replaceChildren(
    h("header", {},
      h("h3", { id: "round-result-title" }, title(view, pause || {}, finished, t)),
      h("button", {
        class: "fold", id: "result-fold", type: "button", "aria-expanded": String(!folded),
        onclick: () => { ui.resultFolded = folded ? null : key; renderResult(panel, options); },
      }, folded ? t("table.show_result") : t("table.show_board"))),
    // only the lines scroll: the sums and the buttons stay in sight below them
    h("div", { class: "result-body" },
      whyItEnded(result, frame, client, ctx),
      resultLines(result, pause, client, ctx),
      (client.resultExtras ? client.resultExtras(view, ctx) : "") || ""),
    h("footer", { class: "result-foot" },
      totalsLine(result, ctx, t(view.stage ? "table.stage_sum" : "table.round_sum")),
      breakLines(pause, seat, ctx, now),
      h("div", { class: "result-actions" }, resultActions({ ...options, panel, key }))),
  );
  if (pause && isPlayer(seat) && !folded) panel.querySelector("#next-round:not([disabled])")?.focus({ preventScroll: true });
}
