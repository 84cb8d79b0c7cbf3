// 7 słów: the letter area, the word box, the live hourglass, review and votes.
import { h, svg } from "/static/js/api.js";
import { letterCard } from "./cards.js";
import { announceResult, statusLine } from "/static/js/render/common.js";

export function render(root, ctx) {
  const { view, seat, send, t, ui, frame } = ctx;
  const legal = view.legal_actions || [];
  const columns = [...new Set(view.area.map((c) => c.column))].sort((a, b) => b - a);
  const area = h("div", { class: "area", id: "area" }, columns.map((column) =>
    h("div", { class: "area-column" },
      h("div", { class: "column-value" }, `${column}`),
      view.area.filter((c) => c.column === column).map((card) => svg(letterCard(card), { class: "card letter", "data-letter": card.letter })))));

  if (ui.wordRound !== view.round) {
    ui.wordRound = view.round;
    ui.draft = "";
  }
  const parts = [area, statusLine(ctx)];
  const clock = frame.clock;
  if (clock && (clock.kind === "hourglass" || clock.kind === "cap")) {
    const left = Math.max(0, ctx.clockLeft() ?? 0);
    const share = Math.min(1, left / clock.seconds);
    parts.push(h("div", { class: `hourglass ${clock.kind}`, id: "hourglass" },
      h("div", { class: "sand", style: `width:${(share * 100).toFixed(1)}%` }),
      h("span", {}, clock.kind === "hourglass" ? t("word.hourglass") : t("word.cap"))));
    clearInterval(ui.sandTimer);
    ui.sandTimer = setInterval(() => {
      const bar = document.querySelector("#hourglass .sand");
      if (!bar) return clearInterval(ui.sandTimer);
      const now = Math.max(0, ctx.clockLeft() ?? 0);
      bar.style.width = `${Math.min(100, (now / clock.seconds) * 100).toFixed(1)}%`;
    }, 200);
  }

  const writing = seat !== null && seat !== undefined && (view.to_move || []).includes(seat) && ["writing", "hourglass", "overtime"].includes(view.phase);
  if (writing) {
    const input = h("input", { id: "word", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 30, placeholder: t("word.placeholder") });
    input.value = ui.draft ?? "";
    input.addEventListener("input", () => (ui.draft = input.value));
    // The rulebook: a finished word must flip the hourglass if nobody has, so writing it does.
    const flips = Boolean(view.may_flip);
    const write = (event) => {
      event.preventDefault();
      const word = input.value.trim();
      if (!word) return;
      const written = word.normalize("NFC").toLowerCase();
      ui.followUp = flips
        ? { ready: (next) => next.round === view.round && next.entry === written && (next.legal_actions || []).some((a) => a.type === "flip"), action: { type: "flip" } }
        : null;
      send({ type: "submit", word });
    };
    parts.push(h("form", { class: "word-box", onsubmit: write }, input, h("button", { type: "submit", id: "write", class: flips ? "primary" : "" }, flips ? t("word.write_flip") : t("word.write"))));
    if (view.entry) parts.push(h("p", { class: "entry", id: "entry" }, t("word.your_word", { word: view.entry.toUpperCase(), points: view.entry_points ?? "?" }),
      view.warning ? h("span", { class: "warning" }, ` ⚠ ${view.warning}`) : ""));
    const buttons = [];
    if (legal.some((a) => a.type === "flip")) buttons.push(h("button", { class: "primary", id: "flip", onclick: () => send({ type: "flip" }) }, t("word.flip")));
    if (legal.some((a) => a.type === "lock")) buttons.push(h("button", { id: "lock", onclick: () => send({ type: "lock" }) }, view.entry ? t("word.lock") : t("word.pass")));
    parts.push(h("div", { class: "buttons" }, buttons));
    root.replaceChildren(h("div", { class: "words" }, parts, history(view, ctx)));
    if (document.activeElement?.id !== "word") input.focus();
  } else {
    if (view.entry && !view.over) parts.push(h("p", { class: "entry", id: "entry" }, t("word.your_word", { word: view.entry.toUpperCase(), points: view.entry_points ?? "?" })));
    if (["writing", "hourglass"].includes(view.phase) && seat !== null && !view.over) parts.push(h("p", { class: "muted" }, t("word.locked")));
    const challenges = legal.filter((a) => a.type === "challenge");
    if (legal.some((a) => a.type === "accept")) {
      parts.push(h("div", { class: "prompt" }, t("word.review")));
      parts.push(h("ul", { class: "review" }, (view.words || []).filter((w) => w.seat !== seat).map((w) =>
        h("li", {}, h("strong", {}, `${ctx.seatName(w.seat)}: ${(w.word || "—").toUpperCase()}`), w.warning ? h("span", { class: "warning" }, ` ⚠ ${w.warning}`) : "",
          challenges.some((c) => c.seat === w.seat) ? h("button", { "data-challenge": w.seat, onclick: () => send({ type: "challenge", seat: w.seat }) }, t("word.challenge", { name: ctx.seatName(w.seat) })) : ""))));
      parts.push(h("button", { class: "primary", id: "accept", onclick: () => send({ type: "accept" }) }, t("word.accept")));
    }
    const votes = legal.filter((a) => a.type === "vote");
    if (votes.length) {
      parts.push(h("div", { class: "prompt" }, t("word.vote", { word: (view.vote?.word || "").toUpperCase() })));
      parts.push(h("div", { class: "buttons" }, votes.map((a) => h("button", { "data-vote": String(a.uphold), onclick: () => send(a) }, a.uphold ? t("word.vote_yes") : t("word.vote_no")))));
    }
    root.replaceChildren(h("div", { class: "words" }, parts, history(view, ctx)));
  }
  announceResult(view.last_round, ctx, () => h("span", {}, ""), t("table.breakdown"));
  const dialog = ctx.dialog;
  if (dialog.open && frame.best_words?.length && !dialog.querySelector(".best-words")) {
    const words = frame.best_words.map((w) => `${w.word.toUpperCase()} ${w.points}`).join(" · ");
    dialog.querySelector("table")?.after(h("p", { class: "best-words" }, `${t("word.best")}: ${words}`));
  }
}

/** The score sheet so far: one row a round, one column a player. */
function history(view, ctx) {
  const rounds = view.history || [];
  if (!rounds.length) return "";
  const seats = [...Array(view.players).keys()];
  return h("table", { class: "sheet", id: "sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), seats.map((n) => h("th", {}, ctx.seatName(n))))),
    h("tbody", {}, rounds.map((words, r) => h("tr", {}, h("td", {}, r + 1), seats.map((n) => {
      const word = words.find((w) => w.seat === n);
      if (!word) return h("td", { class: "muted" }, "—");
      return h("td", { class: word.struck ? "struck" : "" }, `${word.word.toUpperCase()} `, h("strong", {}, word.points));
    })))));
}
