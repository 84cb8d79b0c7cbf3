// The review after a game, beside the replay: the curve of a player's chances over the
// whole game (the strong bot's evaluation after each of their moves), its largest swings
// marked, and those moves listed, each a button that shows the board at that move with
// the better move marked and why. Where no move was a swing it says what the curve shows
// (a clean game, a deal against the player, chances lost between their moves). The
// server works it out (a job): the panel shows how far it got.
import { api, h } from "../api.js";
import { seatLabels } from "../i18n.js";
import { noteText } from "../table/coach.js";
import { drawCurve, keepLabelsInside } from "./curve.js";

const POLL_MS = 400;
const BIG = 0.25; // a loss this large (in the bot's reward, 0 to 1) is a big mistake
const percent = (value) => `${Math.round(value * 100)}%`;

export class Review {
  /** `timeline()`: the replay's {steps, rounds, roundKey}, for the curve's axis and marks;
   * `here`: the place over the board that explains the swing it shows (on a phone). */
  constructor(panel, { tableId, t, lang, seats, show, timeline, here }) {
    Object.assign(this, { panel, tableId, t, lang, seats, show, timeline, here });
    this.seat = null;
    this.answer = null;
    this.error = null;
    this.step = null;
    this.credentials = JSON.parse(localStorage.getItem(`cardtable.seat.${tableId}`) || "null");
    panel.querySelector("#review-start").addEventListener("click", () => this.start(this.defaultSeat()));
    // the curve is drawn as wide as the panel is: a turned phone draws it again
    window.addEventListener("resize", () => this.answer?.status === "ready" && this.render(this.step));
  }

  /** The seat to review: the one this browser played, else the first person's. */
  defaultSeat() {
    if (this.credentials) return this.credentials.seat;
    const human = this.seats.findIndex((s) => s.kind === "human");
    return human < 0 ? 0 : human;
  }

  /** Opened with ?review=SEAT (the result panel's link): start at once; else offer it. */
  begin(wanted) {
    if (!this.seats.some((s) => s.kind === "human")) return;
    this.panel.hidden = false;
    if (wanted !== null && wanted !== "" && !Number.isNaN(Number(wanted))) this.start(Number(wanted));
    else this.render(this.step);
  }

  async start(seat) {
    this.seat = seat;
    this.answer = { status: "working", done: 0, total: 0, moves: [] };
    this.error = null;
    this.render(this.step);
    const key = this.credentials && this.credentials.seat === seat ? `&key=${encodeURIComponent(this.credentials.key)}` : "";
    for (;;) {
      try {
        this.answer = await api(`/api/tables/${this.tableId}/review?seat=${seat}${key}`);
      } catch (error) {
        this.error = error.code === "forbidden" ? this.t("review.need_key") : error.message;
        this.answer = null;
      }
      this.render(this.step);
      if (this.error || this.answer.status !== "working") return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  render(step) {
    this.step = step;
    const { panel } = this;
    for (const id of ["#review-list", "#review-words", "#review-curve-slot"]) panel.querySelector(id).replaceChildren();
    this.here.replaceChildren();
    this.here.hidden = true;
    const answer = this.answer;
    panel.querySelector("#review-start").hidden = answer !== null && !this.error;
    panel.querySelector("#review-progress").hidden = !answer || answer.status !== "working";
    panel.dataset.status = this.error ? "error" : answer?.status ?? "";
    if (this.error || !answer || answer.status !== "ready") this.renderPending(answer);
    else this.renderReady(answer, step);
  }

  /** Before the review is ready: the offer, its progress, or what went wrong. */
  renderPending(answer) {
    const { t, panel } = this;
    const status = panel.querySelector("#review-status");
    if (this.error) status.textContent = this.error;
    else if (!answer) status.textContent = t("review.offer");
    else if (answer.status === "working") {
      const progress = panel.querySelector("#review-progress");
      progress.max = Math.max(answer.total, 1);
      progress.value = answer.done;
      status.textContent = t("review.working", { done: answer.done, total: answer.total || "…" });
    } else {
      status.textContent = t("review.failed");
      panel.querySelector("#review-start").hidden = false;
    }
  }

  /** The review: 7 słów's words, or the curve, what it says, and the swings listed. */
  renderReady(answer, step) {
    const { t, panel } = this;
    const status = panel.querySelector("#review-status");
    const name = seatLabels(this.seats)[this.seat] ?? `#${this.seat + 1}`;
    if (answer.words?.length) {
      status.textContent = t("review.words_intro", { name });
      panel.querySelector("#review-words").append(...answer.words.map((round) => this.wordsOf(round)));
      if (!answer.total) return; // the game's moves are not judged: its words are the review
    }
    const reading = answer.reading ?? { kind: answer.moves.length ? "swings" : "clean" };
    this.costs = reading.kind === "costs"; // no clear mistake: its moves are no "mistakes"
    status.textContent = this.verdict(reading, name);
    status.dataset.reading = reading.kind;
    if (answer.points?.length) {
      const { steps, rounds, roundKey } = this.timeline();
      const title = t("review.curve_title", { name });
      const slot = panel.querySelector("#review-curve-slot");
      const curve = drawCurve({ title, points: answer.points, steps, rounds, roundKey, fall: reading.fall, step, t, width: slot.clientWidth, onPick: (move) => this.jump(move) });
      slot.append(h("h4", { class: "curve-title" }, title), curve);
      keepLabelsInside(curve);
    }
    const points = new Map((answer.points || []).map((point) => [point.move, point]));
    panel.querySelector("#review-list").append(...answer.moves.map((move) => this.swingOf(move, points.get(move.move), step)));
  }

  /** One swing in the list: a button to the board at that move, the chances it cost, the
   * better move and why; on the board of its step, the moves marked. */
  swingOf(move, point, step) {
    const here = step === move.move;
    if (here) {
      this.mark(move); // the board of this step is drawn already
      this.here.append(h("p", { class: "review-here-title" }, this.swingTitle(move, point)), this.swingNote(move));
      this.here.hidden = false;
    }
    return h("li", { class: `review-move${here ? " current" : ""}`, "data-move": move.move },
      h("button", { type: "button", class: "review-jump", onclick: () => this.jump(move.move) }, this.swingTitle(move, point)),
      this.swingNote(move));
  }

  /** A swing's heading: its move, how bad, and the chances it cost. */
  swingTitle(move, point) {
    const { t } = this;
    const chances = point ? t("review.swing", { before: percent(point.before), after: percent(point.value) }) : "";
    let severity = move.loss >= BIG ? "review.big" : "review.mistake";
    if (this.costs) severity = "review.costly";
    return [h("strong", {}, t("review.move", { n: move.move + 1 })), " ",
      h("span", { class: `severity${move.loss >= BIG ? " big" : ""}` }, t(severity)),
      chances ? h("span", { class: "review-chances" }, chances) : ""];
  }

  /** Why: the move played, the better one and its reasons. */
  swingNote(move) {
    return h("p", { class: "review-note" }, noteText(move, this.t, this.lang()));
  }

  /** What the curve says, in a sentence: never "no clear mistake" for a game lost clearly. */
  verdict(reading, name) {
    const { t } = this;
    const numbers = { name, start: percent(reading.start ?? 0.5), end: percent(reading.end ?? 0.5) };
    if (reading.kind === "swings") return t("review.found", numbers);
    if (reading.kind === "costs") return t("review.costs", numbers);
    if (reading.kind === "against") return t("review.against", numbers);
    if (reading.kind === "small") return t("review.small", numbers);
    if (reading.kind === "fell") {
      const fall = reading.fall ? ` ${t("review.fall", { from: reading.fall[0] + 1, to: reading.fall[1] + 1 })}` : "";
      return t("review.fell", numbers) + fall;
    }
    return t("review.clean", numbers);
  }

  /** One 7 słów round: the word written beside the solver's best words and their scores. */
  wordsOf(round) {
    const { t } = this;
    const wrote = round.word ? t("review.wrote", { word: round.word.toLocaleUpperCase(), points: round.points }) : t("review.no_word");
    return h("li", { class: "review-round", "data-round": round.round },
      h("strong", {}, t("review.round", { n: round.round })),
      h("p", { class: "review-note review-wrote" }, wrote),
      h("p", { class: "review-note" }, t("review.best")),
      h("ul", { class: "review-best" }, ...round.best.map((best) =>
        h("li", { class: `solver-word${best.word === round.word ? " same" : ""}` },
          t("review.points", { word: best.word.toLocaleUpperCase(), points: best.points })))));
  }

  /** The board at that move; on a phone the board is above the panel: bring it into view,
   * under the swing's explanation where the page shows one over it. */
  async jump(number) {
    await this.show(this.seat, number);
    if (window.innerWidth >= 900) return;
    const explained = !this.here.hidden && this.here.getClientRects().length > 0;
    (explained ? this.here : document.getElementById("board")).scrollIntoView({ block: "start" });
  }

  /** Mark, on the board drawn for this step, the better move's cards and the one played. */
  mark(move) {
    const codes = (action) => [action?.card, action?.take, ...(action?.cards || [])].filter((c) => c !== undefined && c !== null);
    const paint = (code, name) => {
      for (const element of document.querySelectorAll(`#board [data-code="${code}"], #board [data-card="${code}"]`)) {
        element.classList.add(name);
      }
    };
    codes(move.better).forEach((code) => paint(code, "hinted"));
    codes(move.played).filter((code) => !codes(move.better).includes(code)).forEach((code) => paint(code, "review-played"));
  }
}
