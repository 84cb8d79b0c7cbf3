// The round in words: every card played or drawn and what it took, koi-koi calls, steals,
// teyaku, misdeals and how the round ended (renderer hook `narrate`, docs/web-client.md).
import { lineText } from "/static/js/render/common.js";
import { cardList, cardName } from "./names.js";

function captureLine(event, ctx) {
  const { t } = ctx;
  const values = { name: ctx.seatName(event.seat), card: cardName(event.card, ctx), taken: cardList(event.captured || [], ctx) };
  const drawn = event.from !== "hand";
  if (event.from === "stock-kept") return t("hanafuda.log.kept", values);
  if ((event.captured || []).length) return t(drawn ? "hanafuda.log.draw_take" : "hanafuda.log.play_take", values);
  return t(drawn ? "hanafuda.log.draw_stays" : "hanafuda.log.play_stays", values);
}

function stealLines(event, round, index, ctx) {
  return (event.stolen || []).map((steal, k) => ({
    id: `r${round}:e${index}:steal${k}`,
    text: ctx.t("hanafuda.log.steal", { name: ctx.seatName(event.seat), cards: cardList(steal.cards, ctx), from: ctx.seatName(steal.seat) }),
    announce: true,
  }));
}

/** Whether a won round ended because its winner had no turn left (a yaku made with the
 * last card): the engine stops it for them, no one calls shōbu. Told from the round's final
 * board: every hand played out and (where the stock is played on after the hands) too few
 * cards left for another turn. */
export function endedOnLastCard(result, view, ctx) {
  if (result?.outcome !== "shobu" || !view.hand_sizes?.every((n) => n === 0)) return false;
  return !ctx.frame?.table.options?.continue_with_stock_after_hands || view.stock_size < 2;
}

/** Why a koi-koi round ended, in words (the result's hook `roundReason`): a shōbu called, a
 * yaku made with the last card, the last one to make a yaku scoring at the end of the cards;
 * null where the score lines say it (a lucky hand, no points). */
export function roundReason(result, view, ctx) {
  const best = Math.max(...result.scores);
  const name = ctx.seatName(result.scores.indexOf(best));
  if (endedOnLastCard(result, view, ctx)) return ctx.t("hanafuda.outcome.last_card", { name });
  if (result.outcome === "shobu") return ctx.t("hanafuda.outcome.shobu", { name });
  if (result.outcome === "exhausted_last_yaku") return ctx.t("hanafuda.outcome.last_yaku", { name });
  return null;
}

function endLines(result, view, ctx) {
  if (!result) return [];
  const { t } = ctx;
  const id = `r${result.round}:end`;
  const best = Math.max(...result.scores);
  const winner = result.scores.indexOf(best);
  const lines = [];
  for (const [k, line] of (result.lines || []).entries()) {
    if (line.rule.startsWith("lucky") || line.rule.startsWith("teyaku")) {
      lines.push({ id: `${id}:${k}`, text: `${ctx.seatName(line.seat)}: ${lineText(line, ctx)}`, announce: true });
    }
  }
  let text;
  // the round in the view is the one that ended only at its break (a past round's
  // result rides along a later board, which says nothing of how it ended)
  const ownBoard = view.round === result.round;
  if (ownBoard && endedOnLastCard(result, view, ctx)) text = t("hanafuda.log.last_card", { name: ctx.seatName(winner), n: best });
  else if (result.outcome === "shobu") text = t("hanafuda.log.shobu", { name: ctx.seatName(winner), n: best });
  else if (best > 0 && result.scores.filter((s) => s === best).length === 1) text = t("hanafuda.log.round_won", { round: result.round, name: ctx.seatName(winner), n: best });
  else text = t("hanafuda.log.round_even", { round: result.round });
  lines.push({ id, text, announce: true });
  return lines;
}

export function narrate(view, ctx) {
  const round = view.round;
  const lines = [];
  for (const [k] of (view.misdeals || []).entries()) {
    lines.push({ id: `r${round}:misdeal${k}`, text: ctx.t("hanafuda.log.misdeal"), announce: true });
  }
  for (const [k, line] of (view.teyaku || []).entries()) {
    lines.push({ id: `r${round}:teyaku${k}`, text: `${ctx.seatName(line.seat)}: ${lineText(line, ctx)}`, announce: true });
  }
  const calls = view.koikoi_calls || [];
  for (const [index, event] of (view.events || []).entries()) {
    lines.push({ id: `r${round}:e${index}`, text: captureLine(event, ctx) });
    lines.push(...stealLines(event, round, index, ctx));
  }
  calls.forEach((count, seat) => {
    for (let k = 1; k <= count; k++) {
      lines.push({ id: `r${round}:koikoi:${seat}:${k}`, text: ctx.t("hanafuda.log.koikoi", { name: ctx.seatName(seat) }), announce: true });
    }
  });
  if (ctx.roundBreak || view.over) lines.push(...endLines(view.last_round, view, ctx));
  for (const more of ctx.roundBreak?.also || []) lines.push(...endLines(more, view, ctx));
  return lines;
}
