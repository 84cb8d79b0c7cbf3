// 7 słów at the table: every seat's state, the hourglass and who flipped it, the word box
// that marks the area cards a word uses as it is typed, the letter area, the review and
// its votes, the score sheet; and the round result's pieces for the shell (lastResult,
// cardArt, resultExtras) and the round told in words (narrate). See docs/web-client.md.
import { h, svg } from "/static/js/api.js";
import { cardBack } from "/static/js/cards.js";
import { valueText } from "/static/js/i18n.js";
import { statusLine } from "/static/js/render/common.js";
import { letterCard, parseLetterCode } from "./cards.js";
import { COLUMN_VALUES, areaCards, normalizeWord, scoresExactly, wordUse } from "./letters.js";

export { narrate } from "./narration.js";

const WRITING = ["writing", "hourglass", "overtime"];

export function render(root, ctx) {
  const { view, ui } = ctx;
  if (ui.wordRound !== view.round) {
    ui.wordRound = view.round;
    ui.draft = "";
    forgetWordError(ui);
  }
  noticeWrittenWord(view, ui);
  if (!ctx.replay) watchErrors(ui);
  const cards = areaCards(view);
  const writing = isWriting(ctx);
  const parts = [
    statusLine(ctx),
    seatStrip(ctx),
    hourglass(ctx),
    writing ? wordBox(ctx, cards) : entryLine(ctx),
    letterArea(ctx, cards, writing),
    polishLetters(ctx),
    writing ? finishButtons(ctx) : "",
    review(ctx),
    votes(ctx),
    history(ctx),
  ];
  const focused = focusKey(root);
  root.replaceChildren(h("div", { class: "words" }, parts));
  // the cards of the word being typed, or of the word written (until the game is over)
  showUse(root, writing ? ui.draft : view.over ? "" : view.entry, cards, ctx);
  if (!restoreFocus(root, focused) && writing) focusWordBox(root);
}

function isWriting(ctx) {
  const { view, seat } = ctx;
  if (seat === null || seat === undefined || ctx.roundBreak || ctx.replay || view.over) return false;
  return (view.to_move || []).includes(seat) && WRITING.includes(view.phase);
}

// -- every seat at a glance ------------------------------------------------------------

/** One chip a player: name, what they are doing, running score; the flipper and the
 * holder of the don't-flip card marked. Spectators see the same strip. */
function seatStrip(ctx) {
  const { view, t, seatName } = ctx;
  const seats = [...Array(view.players).keys()];
  return h("ol", { class: "seat-strip", id: "seat-strip", "aria-label": t("word.seats") },
    seats.map((n) => {
      const state = seatState(view, n, ctx);
      const title = `${seatName(n)}: ${t(`word.state_${state}`)}`;
      return h("li", { class: `seat-chip state-${state}${n === ctx.seat ? " me" : ""}`, "data-seat": n, "data-state": state, title },
        h("span", { class: "seat-who" },
          h("span", { class: "seat-name" }, seatName(n)),
          n === view.fastest ? h("span", { class: "flip-mark", role: "img", title: t("word.state_flipped"), "aria-label": t("word.state_flipped") }) : "",
          n === view.dont_flip ? h("span", { class: "no-flip-mark", title: t("word.dont_flip") }, "⊘") : ""),
        h("span", { class: "seat-state" }, t(`word.state_${state}`)),
        h("span", { class: "seat-score" }, (view.scores || [])[n] ?? 0));
    }));
}

function seatState(view, n, ctx) {
  const toMove = (view.to_move || []).includes(n);
  if (view.over || ctx.roundBreak) return "done";
  if (WRITING.includes(view.phase) && !ctx.roundBreak) {
    if (view.locked?.[n]) return n === view.fastest ? "flipped" : "locked";
    return n === ctx.seat && view.entry ? "ready" : "writing";
  }
  if (view.phase === "review") return toMove ? "checking" : "accepted";
  if (view.phase === "vote") return toMove ? "voting" : "waiting";
  return "waiting";
}

// -- the hourglass ---------------------------------------------------------------------

/** The sand and, beside it, who flipped it and the seconds left ("Anna flipped — 23 s"). */
function hourglass(ctx) {
  const { frame, ui } = ctx;
  const clock = frame.clock;
  clearInterval(ui.sandTimer);
  if (!clock || (clock.kind !== "hourglass" && clock.kind !== "cap")) return "";
  const sand = h("div", { class: "sand" });
  const label = h("span", { class: "sand-label", id: "sand-label" });
  // the moment someone else flips, the bar flashes once: the player must notice it
  const flipped = ctx.view.fastest !== null && ctx.view.fastest !== undefined;
  const justFlipped = flipped && ui.flashedFlip !== ctx.view.round && ctx.view.fastest !== ctx.seat;
  if (flipped) ui.flashedFlip = ctx.view.round;
  const bar = h("div", {
    class: `hourglass ${clock.kind}${justFlipped ? " just-flipped" : ""}`, id: "hourglass", role: "timer",
    "data-flipper": ctx.view.fastest ?? "",
  }, sand, label);
  const tick = () => {
    const left = Math.max(0, ctx.clockLeft() ?? 0);
    sand.style.width = `${Math.min(100, (left / clock.seconds) * 100).toFixed(1)}%`;
    label.textContent = hourglassText(ctx, clock.kind, Math.ceil(left));
  };
  tick();
  ui.sandTimer = setInterval(() => (bar.isConnected ? tick() : clearInterval(ui.sandTimer)), 250);
  return bar;
}

function hourglassText(ctx, kind, s) {
  const { view, t, seatName } = ctx;
  if (kind === "cap") return t("word.cap_left", { s });
  if (view.fastest === ctx.seat && ctx.seat !== null && ctx.seat !== undefined) return t("word.you_flipped", { s });
  if (view.fastest !== null && view.fastest !== undefined) return t("word.flipped_by", { name: seatName(view.fastest), s });
  if (view.players === 1) return t("word.solo_sand", { s });
  return t("word.last_seconds", { s });
}

// -- the word box ----------------------------------------------------------------------

function wordBox(ctx, cards) {
  const { view, send, t, ui } = ctx;
  // a guided first game names the word to write (the coach's line says it too)
  const lesson = ctx.frame?.lesson;
  const asked = lesson?.target?.type === "submit" ? lesson.target.word.toUpperCase() : null;
  const input = h("input", {
    id: "word", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 30,
    enterkeyhint: "send", placeholder: t("word.placeholder"), "aria-describedby": "typed live-points word-error",
    "data-coach-word": asked,
  });
  input.value = ui.draft ?? "";
  input.addEventListener("input", () => {
    ui.draft = input.value;
    showUse(document, input.value, cards, ctx);
  });
  // The rulebook: a finished word must flip the hourglass if nobody has, so writing it does
  // (in a guided game the flip is a step of its own: the coach explains the hourglass).
  const flips = Boolean(view.may_flip) && !lesson;
  const write = (event) => {
    event.preventDefault();
    const word = input.value.trim();
    if (!word) return;
    const written = normalizeWord(word);
    ui.pendingWord = written;
    ui.followUp = flips
      ? { ready: (next) => next.round === view.round && next.entry === written && (next.legal_actions || []).some((a) => a.type === "flip"), action: { type: "flip" } }
      : null;
    send({ type: "submit", word });
  };
  const error = h("p", { class: "word-error", id: "word-error", role: "alert" }, ui.wordError || "");
  error.hidden = !ui.wordError;
  return h("div", { class: "word-panel" },
    h("form", { class: "word-box", onsubmit: write },
      input,
      h("button", { type: "submit", id: "write", class: flips ? "primary" : "" }, flips ? t("word.write_flip") : t("word.write"))),
    h("div", { class: "typed-row" },
      h("span", { class: "typed", id: "typed" }),
      h("span", { class: "live-points", id: "live-points", "aria-live": "polite" })),
    error,
    entryLine(ctx));
}

/** The word the server holds for this seat, its points, and a family warning. */
function entryLine(ctx) {
  const { view, t } = ctx;
  if (!view.entry || view.over) {
    const waiting = WRITING.includes(view.phase) && view.locked?.[ctx.seat] && !ctx.roundBreak;
    // no word written: nothing is "locked" in, the seat passed
    return waiting ? h("p", { class: "muted locked-note" }, t("word.passed")) : "";
  }
  return h("p", { class: "entry", id: "entry" },
    t("word.your_word", { word: view.entry.toUpperCase(), points: view.entry_points ?? "?" }),
    view.warning ? h("span", { class: "warning" }, ` ⚠ ${valueText(view.warning)}`) : "",
    WRITING.includes(view.phase) && view.locked?.[ctx.seat] && !ctx.roundBreak ? h("span", { class: "muted" }, ` · ${t("word.locked")}`) : "");
}

function finishButtons(ctx) {
  const { view, send, t } = ctx;
  const legal = view.legal_actions || [];
  const buttons = [];
  if (legal.some((a) => a.type === "flip")) buttons.push(h("button", { class: "primary", id: "flip", onclick: () => send({ type: "flip" }) }, t("word.flip")));
  if (legal.some((a) => a.type === "lock")) buttons.push(h("button", { id: "lock", onclick: () => send({ type: "lock" }) }, view.entry ? t("word.lock") : t("word.pass")));
  return buttons.length ? h("div", { class: "buttons" }, buttons) : "";
}

/** Put the caret in the word box, unless the player is elsewhere on the page (a side
 * panel, the language menu). */
function focusWordBox(root) {
  const active = document.activeElement;
  if (active && active !== document.body && !root.contains(active)) return;
  const input = root.querySelector("#word");
  if (input && active !== input) {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }
}

/** A selector for the board's focused control, so a redraw (every frame: a bot that locks
 * its word) gives the keyboard back where it was. */
function focusKey(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  if (active.id) return `#${active.id}`;
  for (const name of ["data-challenge", "data-vote"]) {
    if (active.hasAttribute(name)) return `[${name}="${active.getAttribute(name)}"]`;
  }
  return null;
}

function restoreFocus(root, selector) {
  const element = selector && selector !== "#word" ? root.querySelector(selector) : null;
  if (!element) return false;
  element.focus();
  return true;
}

/** Mark the area cards `word` uses, list its letters (those that score nothing flagged)
 * and, when the browser's sum is exactly the server's, its points so far. */
function showUse(scope, word, cards, ctx) {
  const use = wordUse(word || "", cards, ctx.frame.table?.options?.better_card);
  for (const element of scope.querySelectorAll("#area [data-slot]")) {
    element.classList.toggle("used", use.used.has(Number(element.dataset.slot)));
  }
  const typed = scope.querySelector("#typed");
  if (typed) {
    typed.replaceChildren(...use.letters.map(({ char, card }) => card
      ? h("span", { class: "typed-letter scores", "data-scores": "true", title: ctx.t("word.letter_scores", { letter: char.toUpperCase(), value: card.value }) },
        char.toUpperCase(), h("sub", {}, card.value))
      : h("span", { class: "typed-letter off", "data-scores": "false", title: ctx.t("word.not_in_area") }, char.toUpperCase())));
  }
  const points = scope.querySelector("#live-points");
  if (points) {
    const exact = scoresExactly(ctx.frame.table?.options, ctx.seat);
    points.textContent = exact && use.letters.length ? ctx.t("word.live_points", { points: use.points }) : "";
  }
}

// -- a refused word: the shell shows the server's error as a toast, at the bottom where a
// phone's keyboard hides it; the word box repeats it until a valid word is written.

function watchErrors(ui) {
  const toast = document.getElementById("toast");
  if (ui.errorWatch || !toast) return;
  ui.errorWatch = new MutationObserver(() => {
    if (toast.hidden || !ui.pendingWord) return;
    ui.wordError = toast.textContent;
    const slot = document.getElementById("word-error");
    if (slot) {
      slot.textContent = ui.wordError;
      slot.hidden = false;
    }
  });
  ui.errorWatch.observe(toast, { attributes: true, childList: true, characterData: true, subtree: true });
}

/** The server took the word last sent: an error about an earlier try is stale now. */
function noticeWrittenWord(view, ui) {
  if (!ui.pendingWord || view.entry !== ui.pendingWord) return;
  const toast = document.getElementById("toast");
  if (toast && ui.wordError && toast.textContent === ui.wordError) toast.hidden = true;
  forgetWordError(ui);
}

function forgetWordError(ui) {
  ui.pendingWord = null;
  ui.wordError = null;
}

// -- the letter area -------------------------------------------------------------------

/** Four columns (5, 4, 3, 2 points) of two letter cards, the deck beside them. Each card
 * carries its id for the shell's motion; newly dealt ones come from the deck. While the
 * player writes, a tapped card adds its letter to the word (the vowels are typed); out of
 * the Tab order, which goes from the word to its buttons (a keyboard types the letters). */
function letterArea(ctx, cards, writing = false) {
  const { view, t } = ctx;
  const columns = COLUMN_VALUES.map((value, column) =>
    h("div", { class: "area-column", "data-column": value },
      [0, 1].map((row) => {
        const card = cards.find((c) => c.slot === column * 2 + row);
        if (!card) return h("span", { class: "card letter empty-slot", "aria-hidden": "true" });
        return svg(letterCard(card), {
          class: `card letter${writing ? " tappable" : ""}`, "data-letter": card.letter, "data-slot": card.slot, "data-anim": card.id,
          "data-from": card.dealt ? "deck" : null,
          ...(writing ? { role: "button", tabindex: "-1", "aria-label": t("word.add_letter", { letter: card.letter }), onclick: () => typeLetter(card.letter) } : {}),
        });
      }),
      h("div", { class: "column-value", title: t("word.column", { value }) }, `${value}`)));
  const deck = h("div", { class: "deck-pile", "data-zone": "deck", title: t("word.deck", { n: view.deck_size ?? 0 }) },
    svg(cardBack(t("word.deck", { n: view.deck_size ?? 0 })), { class: "card letter back" }),
    h("span", { class: "count" }, view.deck_size ?? 0));
  return h("div", { class: "area-row" }, deck, h("div", { class: "area", id: "area" }, columns));
}

/** The tapped card's letter at the end of the word being written, as if typed (the draft,
 * the cards it uses and its points follow). The keyboard stays down: a phone's would
 * cover the cards. */
function typeLetter(letter) {
  const input = document.getElementById("word");
  if (!input || input.value.length >= input.maxLength) return;
  input.value += letter.toLowerCase();
  input.dispatchEvent(new Event("input"));
}

/** The Polish deck's own letters, said for a reader of another language: how each one
 * sounds in words of theirs, those on the area now first. */
const POLISH_LETTERS = ["Ą", "Ć", "Ę", "Ł", "Ń", "Ó", "Ś", "Ź", "Ż"];

function polishLetters(ctx) {
  const { t, lang, ui } = ctx;
  if (lang === "pl" || (ctx.frame?.table?.options?.deck ?? "pl") !== "pl") return "";
  const onTheArea = new Set(areaCards(ctx.view).map((card) => card.letter.toUpperCase()));
  const letters = [...POLISH_LETTERS].sort((a, b) => onTheArea.has(b) - onTheArea.has(a));
  // the board is drawn anew on every frame: opened, it stays open
  return h("details", { class: "polish-letters", id: "polish-letters", open: Boolean(ui.lettersOpen), ontoggle: (event) => (ui.lettersOpen = event.target.open) },
    h("summary", {}, t("word.polish_letters")),
    h("dl", {}, letters.map((letter) => [
      h("dt", { class: onTheArea.has(letter) ? "on-area" : "", "data-letter": letter }, letter),
      h("dd", {}, t(`word.letter_sound.${letter}`)),
    ])));
}

// -- after the writing: review and votes ------------------------------------------------

function review(ctx) {
  const { view, seat, send, t, seatName } = ctx;
  if (!["review", "vote"].includes(view.phase) || !view.words) return "";
  const legal = view.legal_actions || [];
  const mayChallenge = (target) => legal.some((a) => a.type === "challenge" && a.seat === target);
  const rows = view.words.map((w) =>
    h("li", { class: (view.challenged || []).includes(w.seat) ? "challenged" : "", "data-seat": w.seat },
      h("strong", {}, `${seatName(w.seat)}: ${(w.word || "—").toUpperCase()}`),
      w.warning ? h("span", { class: "warning" }, ` ⚠ ${valueText(w.warning)}`) : "",
      w.seat !== seat && mayChallenge(w.seat)
        ? h("button", { "data-challenge": w.seat, onclick: () => send({ type: "challenge", seat: w.seat }) }, t("word.challenge", { name: seatName(w.seat) }))
        : ""));
  const accepting = legal.some((a) => a.type === "accept");
  return h("div", { class: "review-panel" },
    accepting ? h("div", { class: "prompt" }, t("word.review")) : "",
    h("ul", { class: "review" }, rows),
    accepting ? h("button", { class: "primary", id: "accept", onclick: () => send({ type: "accept" }) }, t("word.accept")) : "");
}

function votes(ctx) {
  const { view, send, t } = ctx;
  const choices = (view.legal_actions || []).filter((a) => a.type === "vote");
  if (!choices.length) return "";
  return h("div", { class: "vote-panel" },
    h("div", { class: "prompt" }, t("word.vote", { word: (view.vote?.word || "").toUpperCase() })),
    view.vote?.why ? h("p", { class: "muted" }, valueText(view.vote.why)) : "",
    h("div", { class: "buttons" }, choices.map((a) =>
      h("button", { "data-vote": String(a.uphold), onclick: () => send(a) }, a.uphold ? t("word.vote_yes") : t("word.vote_no")))));
}

/** The score sheet so far: one row a round, one column a player. */
function history(ctx) {
  const { view } = ctx;
  const rounds = view.history || [];
  if (!rounds.length) return "";
  const seats = [...Array(view.players).keys()];
  return h("div", { class: "sheet-wrap" }, h("table", { class: "sheet", id: "sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), seats.map((n) => h("th", {}, ctx.seatName(n))))),
    h("tbody", {}, rounds.map((words, r) => h("tr", {}, h("td", {}, r + 1), seats.map((n) => {
      const word = words.find((w) => w.seat === n);
      if (!word) return h("td", { class: "muted" }, "—");
      return h("td", { class: word.struck ? "struck" : "" }, `${word.word.toUpperCase()} `, h("strong", {}, word.points));
    }))))));
}

// -- the round result (drawn by the shell) ------------------------------------------------

/** The round that ended last. At the game's end the view's `last_round` is only the
 * strike-out of the two lowest words and `final_round` the final round: its own lines
 * (its words, a challenge and its outcome, the bonus boxes) come first, so the result
 * shows them too. */
/** Coach mode (renderer hook `coachNeeds`): what this round's two bonus boxes are worth
 * and how to mark them (the solo game's card has its own: nothing said). */
export function coachNeeds(view, seat, ctx) {
  const [beat, wins] = view.bonus_values || [];
  if (view.solo || beat === undefined) return null;
  const main = view.main !== null && view.main !== undefined;
  return [
    ctx.t("word.coach_bonus", { box: ctx.t(main ? "line.bonus_beat_main" : "line.bonus_beat_fastest"), points: beat }),
    ctx.t("word.coach_bonus", { box: ctx.t(main ? "line.bonus_main" : "line.bonus_fastest"), points: wins }),
  ];
}

/** Coach mode (renderer hook `coachNote`): once a round is scored, the seat's word beside
 * the solver's best for that area (the frame's `best_words`: public by then, so nothing is
 * told while anyone still writes). {round, text}, or null before the first round ends. */
export function coachNote(view, seat, ctx) {
  const result = lastResult(view);
  const best = ctx.frame?.best_words?.[0];
  if (view.solo || !result || !best) return null;
  const mine = ((view.history || [])[result.round - 1] || []).find((w) => w.seat === seat && w.word);
  const values = { round: result.round, best: best.word.toUpperCase(), best_points: best.points };
  if (!mine) return { round: result.round, text: ctx.t("word.coach_none", values) };
  const word = { ...values, word: mine.word.toUpperCase(), points: mine.points, more: best.points - mine.points };
  const key = mine.struck ? "word.coach_struck" : mine.points >= best.points ? "word.coach_best" : "word.coach_better";
  return { round: result.round, text: ctx.t(key, word) };
}

export function lastResult(view) {
  const last = view?.last_round ?? null;
  const final = view?.final_round;
  if (!last || !final) return last;
  return {
    ...final,
    outcome: last.outcome,
    scores: final.scores.map((s, n) => s + (last.scores[n] ?? 0)),
    lines: [...final.lines, ...last.lines],
  };
}

/** A letter card named in a score line ("K", "H+2"). */
export function cardArt(code, size = "") {
  const card = parseLetterCode(code);
  if (!card) return h("span", {}, "");
  return svg(letterCard(card), { class: `card letter ${size}`.trim(), "data-letter": card.letter });
}

/** Under the breakdown: each player's word with its score, beside the best words the
 * solver found for the same area (the frame's `best_words`). */
export function resultExtras(view, ctx) {
  const { t, seatName } = ctx;
  const result = lastResult(view);
  if (!result) return h("span", {}, "");
  const words = (view.history || [])[result.round - 1] || [];
  const best = ctx.frame?.best_words || [];
  const wordItem = (text, points, extra = {}) => h("li", extra, h("span", { class: "result-word" }, text), h("strong", {}, points));
  return h("div", { class: "best-words", id: "best-words" },
    h("div", { class: "result-words" },
      h("h4", {}, t("word.round_words")),
      h("ul", {}, words.map((w) => wordItem(`${seatName(w.seat)}: ${(w.word || "—").toUpperCase()}`, w.points,
        { class: w.struck ? "struck" : "", "data-seat": w.seat })))),
    best.length ? h("div", { class: "solver-words" },
      h("h4", {}, t("word.best")),
      h("ol", {}, best.map((w) => wordItem(w.word.toUpperCase(), w.points)))) : "");
}

/** The element a lesson's coach points at for `action` (a selector inside the board): the
 * word box (its input names the word: data-coach-word), the flip, done, accept, challenge
 * and vote buttons. */
export function lessonTarget(action) {
  switch (action.type) {
    case "submit": return "#word";
    case "flip": return "#flip";
    case "lock": return "#lock";
    case "accept": return "#accept";
    case "challenge": return `[data-challenge="${action.seat}"]`;
    case "vote": return `[data-vote="${action.uphold}"]`;
    default: return null;
  }
}
