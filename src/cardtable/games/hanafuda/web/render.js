// Hanafuda tables (Bakappana, Koi-koi, Hana-awase, Hana-awase 88): every seat around the
// field, captured piles stacked by kind with what scores, yaku progress, click or type to play.
import { h, svg } from "/static/js/api.js";
import { cardBack } from "/static/js/cards.js";
import { statusLine } from "/static/js/render/common.js";
import { hanafudaCard } from "./cards.js";
import { narrate as narrateView, roundReason as reasonOfRound } from "./narration.js";
import { cardInfo, cardName } from "./names.js";

const KIND_ORDER = ["light", "animal", "ribbon", "plain"];

export const narrate = narrateView;
export const roundReason = reasonOfRound;
/** The table's "Card labels" switch applies to these cards (see cardLabel). */
export const cardLabels = true;

/** Month, kind and, in the games that count them, the card's points: "3 · light · 20". */
export function cardLabel(card, ctx) {
  const kind = ctx.t(`kind.${card.kind}`).toLocaleLowerCase();
  const parts = [h("b", {}, String(card.month)), h("span", {}, kind)];
  if (pointsCount(ctx)) parts.push(h("span", { class: "points" }, String(card.value)));
  return h("span", { class: "card-label", "aria-hidden": "true" }, parts);
}

export function lastResult(view) {
  return view.last_round || null;
}

/** Why the match ended before its last round (the result's hook `endReason`): played for
 * a stake (koi-koi's zero_sum), it ends once a player has none left. */
export function endReason(view, table, ctx) {
  if (!table.options?.zero_sum) return null;
  const broke = (view.scores || []).flatMap((score, n) => (score <= 0 ? [n] : []));
  if (!broke.length) return null;
  return ctx.t("hanafuda.ended.stake", { names: broke.map(ctx.seatName).join(", "), n: view.round, of: view.rounds });
}

/** Why a round scored nothing (the result's hook `scorelessReason`): in koi-koi, the cards
 * ran out before anyone stopped (the house rules may give the dealer points instead). */
export function scorelessReason(result, ctx) {
  return result.outcome === "exhausted" ? ctx.t("hanafuda.outcome.exhausted") : null;
}

/** A score line's cards (the result's hook `lineCards`): a card-values line in groups by
 * kind, each with its count and points, so the groups add up to the line's points before
 * the eye; any other line (a yaku, a hand shown) its cards as they are. */
export function lineCards(line, ctx, drawCard) {
  const codes = line.cards || [];
  if (line.rule !== "cards") return codes.map((code) => drawCard(code, "tiny"));
  const info = cardInfo(ctx);
  return KIND_ORDER.map((kind) => {
    const group = codes.filter((code) => info[code]?.kind === kind);
    if (!group.length) return "";
    const points = group.reduce((sum, code) => sum + info[code].value, 0);
    return h("span", { class: "kind-group", "data-kind": kind, "data-points": points },
      h("span", { class: "kind-sum" }, ctx.t("hanafuda.kind_subtotal", { kind: ctx.t(`kinds.${kind}`), n: group.length, points })),
      h("span", { class: "kind-cards" }, group.map((code) => drawCard(code, "tiny"))));
  });
}

/** Whether the game at this table scores card points (koi-koi does not: yaku alone). */
function pointsCount(ctx) {
  return Boolean(ctx.cards.hanafuda.games?.[ctx.gameId]?.card_points);
}

/** A pile's stack fans its cards in as few rows as leave each card at least about half
 * showing (at most FAN_ROWS; past that they overlap more), and spreads a few over its width. */
const FAN_ROWS = 3;
const HALF = 0.45; // the least share of each card a row shows: "about half"

function fanStack(stack) {
  const count = stack.children.length;
  if (!count) return;
  const width = stack.clientWidth;
  // the card's width as styled: a card still flying in (motion.js) is drawn scaled
  const card = parseFloat(getComputedStyle(stack).getPropertyValue("--pile-card")) || 34;
  const perRow = (rows) => Math.ceil(count / rows);
  const step = (rows) => (perRow(rows) > 1 ? (width - card) / (perRow(rows) - 1) : card);
  // a stack holding a card to take (Hana-awase 88's steals) shows every card whole, in as
  // many rows as that needs: the card is picked where it is seen
  const share = stack.querySelector(".card.target") ? 1 : HALF;
  const most = share === 1 ? count : FAN_ROWS;
  let rows = 1;
  while (rows < most && step(rows) < card * share) rows++;
  setStyle(stack, "--fan-columns", String(perRow(rows)));
  // a gap between cards that all fit side by side, never a wider one
  setStyle(stack, "--fan-step", `${Math.max(1, Math.min(card + 2, step(rows))).toFixed(1)}px`);
}

/** Set a custom property only when it changes: an unchanged layout is not laid out again
 * (nor observed again: no ResizeObserver loop). */
function setStyle(element, name, value) {
  if (element.style.getPropertyValue(name) !== value) element.style.setProperty(name, value);
}

// the stacks of the board on screen: laid out again whenever their width changes, in the
// next frame (a change made inside the observer's callback would be observed in the same
// frame, which the browser reports as a loop)
const resized = new Set();
const fanning = typeof ResizeObserver === "undefined"
  ? null
  : new ResizeObserver((entries) => {
    if (!resized.size) requestAnimationFrame(() => { resized.forEach(fanStack); resized.clear(); });
    entries.forEach((entry) => resized.add(entry.target));
  });

/** Fan the board's stacks now (the shell's card motion measures where cards end up right
 * after render), and again whenever a stack's width changes. */
function fanPiles(root) {
  const stacks = root.querySelectorAll(".stack-cards");
  stacks.forEach(fanStack);
  fanning?.disconnect();
  stacks.forEach((stack) => fanning?.observe(stack));
}

export function cardArt(code, size, ctx) {
  const card = cardInfo(ctx)[code];
  if (!card) return h("span", {}, code);
  return svg(hanafudaCard(card, ctx.lang, { points: pointsCount(ctx) }), { class: `card ${size}`.trim(), "data-code": code, title: cardName(code, ctx) });
}

/** Where each card on the board came from last: the seat that played it or the stock. */
function arrivals(view) {
  const from = new Map();
  for (const event of view.events || []) {
    const origin = event.from === "hand" ? `seat-${event.seat}` : "stock";
    from.set(event.card, origin);
    for (const code of event.captured || []) if (!from.has(code)) from.set(code, "table");
  }
  return from;
}

/** What counts in this game for a seat's pile, in words. */
function scoreNote(view, n, ctx) {
  const { t } = ctx;
  if (view.yaku_totals) {
    const calls = view.koikoi_calls?.[n] ?? 0;
    const yaku = t("hanafuda.yaku_points", { n: view.yaku_totals[n] ?? 0 });
    return calls ? `${yaku} · ${t("hanafuda.calls", { n: calls })}` : yaku;
  }
  const cards = t("hanafuda.card_points", { n: view.pile_values?.[n] ?? 0 });
  if (!view.yaku) return cards;
  const yaku = (view.yaku[n] || []).reduce((sum, y) => sum + (y.points || 0), 0);
  return `${cards} · ${t("hanafuda.yaku_points", { n: yaku })}`;
}

function yakuChips(view, n, ctx) {
  const made = (view.yaku?.[n] || []).map((y) =>
    h("span", { class: "yaku made", title: y.cards.map((c) => cardName(c, ctx)).join(", ") }, `${y.name} ${y.points}`));
  const near = (view.yaku_progress?.[n] || []).map((p) => {
    const name = ctx.t(p.name); // "Sankō (trzy jasne)": the chip keeps the romaji, its title the whole
    const title = p.missing === 1 ? `${name} — ${ctx.t("hanafuda.one_away")}` : name;
    return h("span", { class: `yaku near${p.missing === 1 ? " one-away" : ""}`, title },
      `${name.split(" (")[0]} ${p.have}/${p.need}${p.missing === 1 ? " ★" : ""}`);
  });
  return made.length || near.length ? h("div", { class: "yaku-list" }, made, near) : "";
}

/** Coach mode (renderer hook `coachNeeds`): each yaku within reach and what it still
 * needs, nearest first, in words. */
export function coachNeeds(view, seat, ctx) {
  const near = [...(view.yaku_progress?.[seat] || [])].sort((a, b) => a.missing - b.missing);
  if (!near.length) return [ctx.t("hanafuda.coach.no_yaku")];
  return near.map((p) => ctx.t("hanafuda.coach.needs", { yaku: ctx.t(p.name).split(" (")[0], have: p.have, need: p.need, n: p.missing }));
}

/** The other seats in play order after `bottom` (the viewer's seat; null: a spectator,
 * who sees every seat from seat 0 on). */
function seatsAround(players, bottom) {
  const around = [];
  for (let k = 1; k <= players; k++) {
    const n = ((bottom ?? -1) + k + players) % players;
    if (n !== bottom) around.push(n);
  }
  return around;
}

/** Koi-koi's question after a yaku: the yaku made so far, then koi-koi or shōbu. */
function decisionBox(decisions, ctx) {
  const { view, seat, send, t } = ctx;
  const made = view.yaku?.[seat] || [];
  const label = (type) => ({ "koi-koi": t("table.koikoi"), shobu: t("table.shobu") })[type] || type;
  return h("div", { class: "decision", id: "decision", role: "dialog", "aria-label": t("table.decide") },
    h("p", { class: "decide" }, t("table.decide")),
    made.length
      ? h("p", { class: "decision-yaku" }, made.map((y) => `${y.name} ${y.points}`).join(" · "), " = ",
          h("strong", {}, t("hanafuda.yaku_points", { n: view.yaku_totals?.[seat] ?? 0 })))
      : "",
    h("div", { class: "decision-buttons" }, decisions.map((a) =>
      h("button", { class: a.type === "shobu" ? "primary" : "", "data-action": a.type, onclick: () => send(a) }, label(a.type)))));
}

export function render(root, ctx) {
  const { view, seat, send, t, ui } = ctx;
  const info = cardInfo(ctx);
  const legal = view.legal_actions || [];
  const plays = legal.filter((a) => a.type === "play");
  const takes = legal.filter((a) => a.type === "take");
  const decisions = legal.filter((a) => a.type !== "play" && a.type !== "take");
  if (ui.selected && !plays.some((p) => p.card === ui.selected)) ui.selected = null;
  const pending = ui.selected ? plays.filter((p) => p.card === ui.selected) : [];
  const targets = new Set(pending.length > 1 ? pending.map((p) => p.take) : takes.map((a) => a.card));
  const from = arrivals(view);
  const countsPoints = pointsCount(ctx);
  // a card in words: its name, its kind and, where the game counts them, its points
  const describe = (code) => {
    const card = info[code];
    const name = cardName(code, ctx);
    const kind = t(`kind.${card.kind}`);
    // "Pine (plain)" says its kind already
    const said = name.toLocaleLowerCase().includes(kind.toLocaleLowerCase()) ? name : `${name} · ${kind}`;
    return countsPoints ? `${said} · ${t("hanafuda.points_short", { n: card.value })}` : said;
  };

  const draw = (code, size = "", extra = {}) => {
    const card = info[code];
    const target = targets.has(code);
    const attrs = {
      class: ["card", size, target ? "target" : "", extra.class || ""].join(" ").replace(/\s+/g, " ").trim(),
      "data-code": code,
      "data-anim": code,
      "data-from": from.get(code),
      title: describe(code),
    };
    if (target) {
      Object.assign(attrs, { tabindex: 0, role: "button", "aria-label": t("hanafuda.take_card", { card: cardName(code, ctx) }) });
      attrs.onclick = () => {
        if (pending.length > 1) send({ type: "play", card: ui.selected, take: code });
        else send({ type: "take", card: code });
        ui.selected = null;
      };
    }
    const drawn = svg(hanafudaCard(card, ctx.lang, { points: pointsCount(ctx) }), { ...attrs, "data-name": describe(code), ...extra.attrs });
    if (ctx.labels && size !== "small") {
      drawn.classList.add("labelled");
      drawn.append(cardLabel(card, ctx));
    }
    return drawn;
  };

  // captured cards as four stacks (lights, animals, ribbons, plains), each with its count
  const pile = (codes) =>
    h("div", { class: "pile" }, KIND_ORDER.map((kind) => {
      const group = codes.filter((c) => info[c].kind === kind);
      return h("div", { class: `stack${group.length ? "" : " empty"}`, "data-kind": kind, title: t(`kind.${kind}`) },
        h("span", { class: "stack-count" },
          h("span", { class: "stack-kind" }, t(`kinds.${kind}`)), " ", h("span", { class: "stack-n" }, `${group.length}`)),
        h("div", { class: "stack-cards" }, group.map((c) => draw(c, "small"))));
    }));

  const seatBox = (n, { own = false } = {}) => {
    const moving = (view.to_move || []).includes(n);
    const backs = own ? "" : h("div", { class: "backs", "aria-label": t("table.cards", { n: view.hand_sizes[n] }) },
      Array.from({ length: view.hand_sizes[n] }, () => svg(cardBack(), { class: "card back tiny" })));
    return h("section", { class: `seat-box${moving ? " to-move" : ""}${own ? " own" : ""}`, "data-seat": n, "data-zone": `seat-${n}` },
      h("div", { class: "who" },
        h("span", { class: "name" }, ctx.seatName(n)),
        view.dealer === n ? h("span", { class: "tag" }, t("table.dealer")) : "",
        own ? "" : h("span", { class: "muted" }, t("table.cards", { n: view.hand_sizes[n] })),
        h("span", { class: "score-note" }, scoreNote(view, n, ctx))),
      backs,
      yakuChips(view, n, ctx),
      pile(view.piles[n] || []));
  };

  const players = view.players;
  const bottom = seat ?? null;
  const around = seatsAround(players, bottom);
  const others = h("div", { class: `seats seats-${around.length}` }, around.map((n) => seatBox(n)));

  const field = h("div", { class: "field" },
    h("div", { class: "stock", "data-zone": "stock", title: t("table.stock") },
      svg(cardBack(t("table.stock")), { class: "card back" }), h("span", { class: "count" }, view.stock_size)),
    view.flipped ? h("div", { class: "flipped", title: t("table.flipped") }, draw(view.flipped, "", { class: "drawn" })) : "",
    h("div", { class: "table-cards", "aria-label": t("table.table") }, (view.table || []).map((c) => draw(c))));

  function choose(code) {
    const options = plays.filter((p) => p.card === code);
    if (options.length === 1) {
      ui.selected = null;
      send(options[0]);
    } else {
      ui.selected = code;
      render(root, ctx);
      root.querySelector(".card.target")?.focus();
    }
  }

  const hand = h("div", { class: "hand", "aria-label": t("table.hand") }, (view.hand || []).map((code, index) => {
    const playable = plays.some((p) => p.card === code);
    return draw(code, "", {
      class: `${playable ? "playable" : ""}${ui.selected === code ? " selected" : ""}`,
      attrs: {
        "data-key": index + 1,
        tabindex: playable ? 0 : -1,
        role: playable ? "button" : null,
        "aria-label": `${index + 1}: ${cardName(code, ctx)}`,
        title: `${index + 1}: ${describe(code)}`,
        onclick: playable ? () => choose(code) : null,
      },
    });
  }));

  const prompt = h("div", { class: "prompt" });
  if (pending.length > 1) {
    prompt.append(t("table.choose_take"), " ",
      h("button", { onclick: () => { ui.selected = null; render(root, ctx); } }, t("table.cancel")));
  } else if (takes.length) {
    prompt.append(t("table.choose_take"));
  }
  const decision = decisions.length ? decisionBox(decisions, ctx) : "";

  const mine = bottom === null
    ? ""
    : h("div", { class: "mine" }, seatBox(bottom, { own: true }), hand);

  root.replaceChildren(h("div", { class: `hanafuda players-${players}${bottom === null ? " watching" : ""}${ctx.replay ? " replay" : ""}` },
    others, h("div", { class: "middle" }, field, decision), h("div", { class: "status-row" }, statusLine(ctx), prompt), mine));
  fanPiles(root);
  if (decision) root.querySelector("#decision button.primary")?.focus({ preventScroll: true });

  document.onkeydown = (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    const index = Number(event.key) - 1;
    const codes = view.hand || [];
    if (index >= 0 && index < codes.length && plays.some((p) => p.card === codes[index])) choose(codes[index]);
    else if (event.key === "Escape" && ui.selected) { ui.selected = null; render(root, ctx); }
    else if (event.key === "k") decisions.find((a) => a.type === "koi-koi") && send({ type: "koi-koi" });
    else if (event.key === "s") decisions.find((a) => a.type === "shobu") && send({ type: "shobu" });
    else if (event.key === "?") document.getElementById("hint")?.click();
  };
}

/** The element a lesson's coach points at for `action` (a selector inside the board): the
 * hand card to play, then, once it is picked and two cards of its month lie there, the
 * card to take (on the table, or in an opponent's pile); the card a drawn card takes; the koi-koi or shōbu button. */
export function lessonTarget(action, ctx) {
  if (action.type === "play") {
    if (action.take && ctx.ui.selected === action.card) return `.card.target[data-code="${action.take}"]`;
    return `.hand [data-code="${action.card}"]`;
  }
  if (action.type === "take") return `.card.target[data-code="${action.card}"]`;
  return `#decision button[data-action="${action.type}"]`;
}
