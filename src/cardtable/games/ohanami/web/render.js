// Ohanami: keep two cards, pass the rest, then grow up to three ordered rows.
import { h, svg } from "/static/js/api.js";
import { ohanamiCard } from "./cards.js";
import { announceResult, statusLine } from "/static/js/render/common.js";

const same = (a, b) => a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);

export function render(root, ctx) {
  const { view, seat, send, t, cards, ui } = ctx;
  const colours = cards.ohanami.colours;
  const legal = view.legal_actions || [];
  const draw = (n, size = "", attrs = {}) => {
    const { class: extra = "", ...rest } = attrs;
    const colour = colours[String(n)];
    return svg(ohanamiCard(n, colour), { class: `card ${size} ${extra}`.trim(), "data-card": n, title: `${n} · ${t(`colour.${colour}`)}`, ...rest });
  };

  const stageKey = `${view.stage}:${view.pick}:${view.phase}`;
  if (ui.ohanamiKey !== stageKey) {
    ui.ohanamiKey = stageKey;
    ui.picked = [];
    ui.targets = {};
  }

  const garden = (n) =>
    h("div", { class: `garden${n === seat ? " own" : ""}`, "data-seat": n },
      h("div", { class: "who" }, ctx.seatName(n), h("span", { class: "muted" },
        ` · ${Object.entries(view.colour_counts[n]).map(([c, k]) => `${t(`colour.${c}`)} ${k}`).join(", ")}`)),
      (view.gardens[n] || []).map((row, r) =>
        h("div", { class: "garden-row", "data-row": r }, h("span", { class: "row-label" }, t("ohanami.row", { n: r + 1 })), row.map((c) => draw(c, "small")))));

  const parts = [];
  const order = [];
  for (let k = 0; k < view.players; k++) order.push(((seat ?? 0) + k) % view.players);
  parts.push(h("div", { class: "gardens" }, order.filter((n) => n !== seat).map(garden)));
  parts.push(statusLine(ctx));

  const keeps = legal.filter((a) => a.type === "keep");
  const placements = legal.filter((a) => a.type === "place");
  if (seat !== null && seat !== undefined) {
    if (keeps.length) {
      const direction = view.pass_to === "right" ? t("ohanami.right") : t("ohanami.left");
      const chosen = keeps.find((a) => same(a.cards, ui.picked));
      parts.push(h("div", { class: "prompt" }, t("ohanami.pick_two", { dir: direction })));
      parts.push(h("div", { class: "hand" }, (view.hand || []).map((n) =>
        draw(n, "", {
          class: `playable${ui.picked.includes(n) ? " selected" : ""}`,
          role: "button",
          tabindex: 0,
          onclick: () => {
            ui.picked = ui.picked.includes(n) ? ui.picked.filter((x) => x !== n) : [...ui.picked, n].slice(-2);
            render(root, ctx);
          },
        }))));
      parts.push(h("button", { class: "primary", id: "keep", disabled: !chosen, onclick: () => chosen && send(chosen) }, t("ohanami.keep")));
    } else if (placements.length) {
      parts.push(h("div", { class: "prompt" }, t("ohanami.place")));
      const kept = view.kept || [];
      const possible = (card) => {
        const seen = new Map();
        for (const action of placements) {
          for (const p of action.placements) if (p.card === card) seen.set(JSON.stringify(p.to), p.to);
        }
        return [...seen.values()];
      };
      const labelOf = (to) => (to === "new" ? t("ohanami.new_row") : to === "discard" ? t("ohanami.discard") : t("ohanami.row", { n: to + 1 }));
      for (const card of kept) {
        parts.push(h("div", { class: "place-row", "data-card": card }, draw(card), possible(card).map((to) =>
          h("button", {
            class: JSON.stringify(ui.targets[card]) === JSON.stringify(to) ? "chosen" : "",
            "data-to": String(to),
            onclick: () => {
              ui.targets[card] = to;
              render(root, ctx);
            },
          }, labelOf(to)))));
      }
      const match = placements.find((a) =>
        a.placements.length === kept.length &&
        a.placements.every((p) => JSON.stringify(ui.targets[p.card]) === JSON.stringify(p.to)));
      parts.push(h("button", { class: "primary", id: "place", disabled: !match, onclick: () => match && send(match) }, t("ohanami.confirm")));
    } else if (!view.over) {
      parts.push(h("div", { class: "prompt muted" }, t("ohanami.waiting")));
      if ((view.kept || []).length) parts.push(h("div", { class: "hand" }, view.kept.map((n) => draw(n))));
    }
    parts.push(garden(seat));
  }
  root.replaceChildren(h("div", { class: "ohanami" }, parts));
  announceResult(view.last_stage, ctx, (n, size) => draw(Number(n), size), t("table.breakdown"));
}
