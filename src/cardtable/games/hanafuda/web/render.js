// Hanafuda tables (Bakappana, Koi-koi, Hana-awase, Hana-awase 88): click or type to play.
import { h, svg } from "/static/js/api.js";
import { cardBack } from "/static/js/cards.js";
import { hanafudaCard } from "./cards.js";
import { announceResult, statusLine } from "/static/js/render/common.js";

const KIND_ORDER = ["light", "animal", "ribbon", "plain"];

export function render(root, ctx) {
  const { view, seat, send, t, cards, ui } = ctx;
  const info = Object.fromEntries(cards.hanafuda.cards.map((c) => [c.code, c]));
  const legal = view.legal_actions || [];
  const plays = legal.filter((a) => a.type === "play");
  const takes = legal.filter((a) => a.type === "take");
  const decisions = legal.filter((a) => a.type !== "play" && a.type !== "take");
  if (ui.selected && !plays.some((p) => p.card === ui.selected)) ui.selected = null;
  const pending = ui.selected ? plays.filter((p) => p.card === ui.selected) : [];
  const targets = new Set(pending.length > 1 ? pending.map((p) => p.take) : takes.map((a) => a.card));

  const draw = (code, size = "", extra = {}) => {
    const card = info[code];
    const classes = ["card", size, targets.has(code) ? "target" : "", extra.class || ""].join(" ").trim();
    const attrs = { class: classes, "data-code": code, title: `${card.name[ctx.lang] || card.name.en} · ${t(`kind.${card.kind}`)} · ${card.value}` };
    if (targets.has(code)) {
      attrs.tabindex = 0;
      attrs.role = "button";
      attrs.onclick = () => {
        if (pending.length > 1) send({ type: "play", card: ui.selected, take: code });
        else send({ type: "take", card: code });
        ui.selected = null;
      };
    }
    return svg(hanafudaCard(card, ctx.lang), { ...attrs, ...extra.attrs });
  };

  const pile = (codes) => {
    const groups = KIND_ORDER.map((kind) => codes.filter((c) => info[c].kind === kind)).filter((g) => g.length);
    return h("div", { class: "pile" }, groups.map((g) => h("div", { class: "pile-group" }, g.map((c) => draw(c, "small")))));
  };

  const seats = view.players;
  const others = [];
  for (let k = 1; k < seats; k++) others.push(((seat ?? 0) + k) % seats);
  const opponents = h("div", { class: "opponents" }, others.map((n) =>
    h("div", { class: `opponent${(view.to_move || []).includes(n) ? " to-move" : ""}`, "data-seat": n },
      h("div", { class: "who" }, ctx.seatName(n), h("span", { class: "muted" }, ` · ${t("table.cards", { n: view.hand_sizes[n] })} · ${t("table.points", { n: view.pile_values?.[n] ?? 0 })}`)),
      h("div", { class: "backs" }, Array.from({ length: view.hand_sizes[n] }, () => svg(cardBack(), { class: "card back tiny" }))),
      pile(view.piles[n] || []))));

  const field = h("div", { class: "field" },
    h("div", { class: "stock", title: t("table.stock") }, svg(cardBack(t("table.stock")), { class: "card back" }), h("span", { class: "count" }, view.stock_size)),
    view.flipped ? h("div", { class: "flipped", title: t("table.flipped") }, draw(view.flipped, "", { class: "drawn" })) : "",
    h("div", { class: "table-cards", "aria-label": t("table.table") }, (view.table || []).map((c) => draw(c))));

  const hand = h("div", { class: "hand", "aria-label": t("table.hand") }, (view.hand || []).map((code, index) => {
    const playable = plays.some((p) => p.card === code);
    return svg(hanafudaCard(info[code], ctx.lang), {
      class: `card${playable ? " playable" : ""}${ui.selected === code ? " selected" : ""}`,
      "data-code": code,
      "data-key": index + 1,
      tabindex: playable ? 0 : -1,
      role: playable ? "button" : null,
      title: `${index + 1}: ${info[code].name[ctx.lang] || info[code].name.en}`,
      onclick: playable ? () => choose(code) : null,
    });
  }));

  function choose(code) {
    const options = plays.filter((p) => p.card === code);
    if (options.length === 1) {
      ui.selected = null;
      send(options[0]);
    } else {
      ui.selected = code;
      render(root, ctx);
    }
  }

  const prompt = [];
  if (pending.length > 1) {
    prompt.push(h("div", { class: "prompt" }, t("table.choose_take"), " ",
      h("button", { onclick: () => { ui.selected = null; render(root, ctx); } }, t("table.cancel"))));
  } else if (takes.length) {
    prompt.push(h("div", { class: "prompt" }, t("table.choose_take")));
  }
  if (decisions.length) {
    prompt.push(h("div", { class: "decision", id: "decision" },
      h("p", {}, t("table.decide")),
      (view.yaku?.[seat] || []).length ? h("p", { class: "muted" }, view.yaku[seat].map((y) => `${y.label || y.name} ${y.points ?? ""}`).join(" · ")) : "",
      decisions.map((a) => h("button", { class: a.type === "shobu" ? "primary" : "", "data-action": a.type, onclick: () => send(a) },
        a.type === "koi-koi" ? t("table.koikoi") : a.type === "shobu" ? t("table.shobu") : a.type))));
  }

  const mine = seat === null || seat === undefined ? "" :
    h("div", { class: "mine" },
      h("div", { class: "who" }, ctx.seatName(seat), h("span", { class: "muted" }, ` · ${t("table.captured")} ${t("table.points", { n: view.pile_values?.[seat] ?? 0 })}`)),
      pile(view.piles[seat] || []),
      hand);

  root.replaceChildren(h("div", { class: "hanafuda" }, opponents, field, statusLine(ctx), prompt, mine, lastMoves(view, ctx, info)));
  announceResult(view.last_round, ctx, (code, size) => draw(code, size), t("table.breakdown"));

  document.onkeydown = (event) => {
    if (event.target.tagName === "INPUT") return;
    const index = Number(event.key) - 1;
    const codes = view.hand || [];
    if (index >= 0 && index < codes.length && plays.some((p) => p.card === codes[index])) choose(codes[index]);
    else if (event.key === "Escape" && ui.selected) { ui.selected = null; render(root, ctx); }
    else if (event.key === "k") decisions.find((a) => a.type === "koi-koi") && send({ type: "koi-koi" });
    else if (event.key === "s") decisions.find((a) => a.type === "shobu") && send({ type: "shobu" });
    else if (event.key === "?") document.getElementById("hint")?.click();
  };
}

function lastMoves(view, ctx, info) {
  const events = (view.events || []).slice(-4);
  if (!events.length) return "";
  return h("ul", { class: "events muted" }, events.map((e) => {
    const name = info[e.card]?.name[ctx.lang] || info[e.card]?.name.en || e.card;
    const took = (e.captured || []).length ? ` → ${e.captured.length}` : "";
    return h("li", {}, `${ctx.seatName(e.seat)}: ${name}${took}`);
  }));
}
