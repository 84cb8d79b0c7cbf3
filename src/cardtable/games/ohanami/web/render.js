// Ohanami at the table: keep two cards of the hand and pass the rest, then place each kept
// card at a row end of your garden (or start a row, or discard it). The shell's contract is
// docs/web-client.md: render() draws a frame from scratch, the other exports feed the shell's
// move log and result panel.
import { h, svg } from "/static/js/api.js";
import { ohanamiCard } from "./cards.js";
import { statusLine } from "/static/js/render/common.js";

const MAX_ROWS = 3;
const PICKS = 5;
const STAGES = 3;
const COLOURS = ["blue", "green", "grey", "pink"];

// -- cards -----------------------------------------------------------------------------------

function colourOf(card, ctx) {
  return ctx.cards.ohanami.colours[String(card)];
}

/** A card's art; `attrs` may add classes and data attributes (data-anim, data-from). */
function drawCard(card, ctx, attrs = {}) {
  const { class: extra = "", ...rest } = attrs;
  const colour = colourOf(card, ctx);
  return svg(ohanamiCard(card, colour), {
    class: `card oh-card ${extra}`.trim(),
    "data-card": card,
    title: `${card} · ${ctx.t(`colour.${colour}`)}`,
    ...rest,
  });
}

export function cardArt(code, size, ctx) {
  return drawCard(Number(code), ctx, { class: size || "" });
}

// -- the rules of a row, as the engine has them (game.py: with_card, targets) ------------------

function withCard(rows, card, to) {
  if (to === "discard") return rows;
  if (to === "new") return [...rows, [card]];
  return rows.map((row, index) => {
    if (index !== to) return row;
    return card > row[row.length - 1] ? [...row, card] : [card, ...row];
  });
}

function applySteps(rows, steps) {
  return steps.reduce((grown, step) => withCard(grown, step.card, step.to), rows);
}

function rowTargets(rows, card) {
  const out = [];
  rows.forEach((row, index) => {
    if (card < row[0] || card > row[row.length - 1]) out.push(index);
  });
  if (rows.length < MAX_ROWS) out.push("new");
  out.push("discard");
  return out;
}

/** What a plan leaves behind: the same rows and discards are the same move, whatever the
 * order (the engine lists each outcome once). */
function outcomeKey(rows, steps) {
  const discards = steps.filter((s) => s.to === "discard").map((s) => s.card).sort((a, b) => a - b);
  return JSON.stringify([applySteps(rows, steps), discards]);
}

/** Placement planning against `legal_actions`: only destinations that still end in one of
 * the legal moves are offered, and the move sent is the legal one with the same outcome. */
class PlacementPlan {
  constructor(rows, kept, legal) {
    this.rows = rows;
    this.kept = kept;
    this.moves = new Map(legal.map((action) => [outcomeKey(rows, action.placements), action]));
  }

  remaining(steps) {
    return this.kept.filter((card) => !steps.some((s) => s.card === card));
  }

  completes(steps) {
    const left = this.remaining(steps);
    if (!left.length) return this.moves.has(outcomeKey(this.rows, steps));
    const card = left[0];
    return rowTargets(applySteps(this.rows, steps), card).some((to) => this.completes([...steps, { card, to }]));
  }

  offered(steps, card) {
    return rowTargets(applySteps(this.rows, steps), card).filter((to) => this.completes([...steps, { card, to }]));
  }

  move(steps) {
    if (this.remaining(steps).length) return null;
    return this.moves.get(outcomeKey(this.rows, steps)) || null;
  }
}

// -- seats ---------------------------------------------------------------------------------------

const isSeat = (seat) => seat !== null && seat !== undefined;

/** +1 when hands go left (clockwise), -1 when they go right. */
const passStep = (view) => (view.pass_to === "right" ? -1 : 1);
const neighbour = (view, seat, step) => (((seat + step) % view.players) + view.players) % view.players;

/** Every seat but `seat`, starting with the one after it; everyone for a spectator. */
function otherSeats(view, seat) {
  const out = [];
  for (let k = isSeat(seat) ? 1 : 0; k < view.players; k++) out.push(neighbour(view, seat ?? 0, k));
  return out;
}

// -- the frame-to-frame state of this table (ctx.ui survives re-renders) ---------------------

function tableState(ctx) {
  const { view, ui } = ctx;
  const key = `${ctx.frame?.table?.id}:${view.stage}:${view.pick}:${view.phase}`;
  if (!ui.ohanami || ui.ohanami.key !== key) {
    ui.ohanami = { key, picked: [], steps: [], selected: null, focus: null };
  }
  return ui.ohanami;
}

// -- render ----------------------------------------------------------------------------------------

export function render(root, ctx) {
  const state = tableState(ctx);
  const redraw = (focus) => {
    state.focus = focus;
    render(root, ctx);
  };
  // a frame may arrive while a player is choosing with the keyboard: keep the focus where it
  // was (every focusable element has a data-fid that is the same from frame to frame)
  const active = root.contains(document.activeElement) ? document.activeElement.closest("[data-fid]") : null;
  const focusAfter = state.focus || active?.dataset.fid;
  state.focus = null;

  const { view, seat } = ctx;
  const parts = [topBar(ctx)];
  const others = otherSeats(view, seat).map((n) => gardenView(n, ctx));
  parts.push(h("div", { class: `oh-others${isSeat(seat) ? "" : " oh-all"}` }, others));
  if (isSeat(seat)) parts.push(myArea(ctx, state, redraw));
  if (view.over) parts.push(finalTable(view, ctx));
  root.replaceChildren(h("div", { class: "ohanami", "data-stage": view.stage, "data-pick": view.pick }, parts));

  if (focusAfter) root.querySelector(`[data-fid="${focusAfter}"]`)?.focus();
}

function finalTable(view, ctx) {
  return h("section", { class: "oh-final" }, h("h3", {}, ctx.t("ohanami.by_stage")), resultExtras(view, ctx));
}

function topBar(ctx) {
  const { view, t } = ctx;
  const where = { stage: view.stage, stages: STAGES, pick: view.pick, picks: PICKS };
  // at the end the status line says "Game over" by itself
  const progress = view.over ? "" : h("span", { class: "oh-progress" }, t("ohanami.stage_pick", where));
  const stock = h("span", { class: "oh-stock", "data-zone": "stock", title: t("ohanami.stock_title") },
    t("ohanami.stock", { n: view.stock_size }));
  return h("div", { class: "oh-bar" }, progress, statusLine(ctx), stock);
}

/** The player's own part of the table: the choice of the moment, then the garden. */
function myArea(ctx, state, redraw) {
  const { view } = ctx;
  const legal = view.legal_actions || [];
  const keeps = legal.filter((a) => a.type === "keep");
  const places = legal.filter((a) => a.type === "place");
  if (places.length) {
    const plan = new PlacementPlan(view.gardens[ctx.seat] || [], view.kept || [], places);
    return h("section", { class: "oh-mine placing" },
      placeChoice(ctx, state, plan, redraw),
      gardenView(ctx.seat, ctx, { plan, state, redraw }));
  }
  const choice = ctx.replay ? replayHand(ctx) : keeps.length ? keepChoice(ctx, state, keeps, redraw) : waitingChoice(ctx);
  return h("section", { class: "oh-mine" }, choice, gardenView(ctx.seat, ctx));
}

/** Kept, not yet placed: the two cards wait in the hand's place until the others have
 * kept theirs (once placed, the garden draws them, dashed). */
function keptUnplaced(view) {
  return view.my_choice?.type === "place" ? [] : view.kept || [];
}

/** A replay waits for nobody: the seat's hand at this step and the cards it kept, shown. */
function replayHand(ctx) {
  const { view, t } = ctx;
  const part = (key, cards) => (cards.length ? h("div", { class: "oh-replay-part" },
    h("div", { class: "oh-prompt muted" }, t(key)),
    h("div", { class: "hand oh-hand" }, cards.map((card) => drawCard(card, ctx)))) : "");
  return h("div", { class: "oh-choice" }, part("ohanami.replay_hand", view.hand || []), part("ohanami.replay_kept", keptUnplaced(view)));
}

function passNote(ctx) {
  const { view, seat, t } = ctx;
  const to = neighbour(view, seat, passStep(view));
  const left = view.pass_to !== "right";
  return h("span", { class: `oh-pass ${left ? "left" : "right"}`, "data-pass": view.pass_to },
    t(left ? "ohanami.passes_left" : "ohanami.passes_right", { name: ctx.seatName(to) }));
}

/** Where this pick's hand came from, for the shell's motion: the stock on a stage's first
 * pick, else the neighbour who passed it. */
function handSource(ctx) {
  const { view, seat } = ctx;
  return view.pick === 1 ? "stock" : `seat-${neighbour(view, seat, -passStep(view))}`;
}

function keepChoice(ctx, state, keeps, redraw) {
  const { view, t, send } = ctx;
  const same = (a, b) => a.length === b.length && a.every((card) => b.includes(card));
  const chosen = keeps.find((a) => same(a.cards, state.picked));
  const from = handSource(ctx);
  const toggle = (card) => {
    const picked = state.picked.includes(card);
    // a third card replaces the first one picked
    state.picked = picked ? state.picked.filter((c) => c !== card) : [...state.picked, card].slice(-2);
    redraw(`hand-${card}`);
  };
  const keep = () => chosen && send(chosen);
  const hand = (view.hand || []).map((card) =>
    h("button", {
      class: `oh-pick${state.picked.includes(card) ? " selected" : ""}`,
      "data-fid": `hand-${card}`,
      "aria-pressed": String(state.picked.includes(card)),
      onclick: () => toggle(card),
    }, drawCard(card, ctx, { "data-anim": card, "data-from": from })));
  return h("div", { class: "oh-choice" },
    h("div", { class: "oh-prompt" }, h("strong", {}, t("ohanami.keep_prompt")), " ", passNote(ctx)),
    h("div", { class: "hand oh-hand" }, hand),
    h("div", { class: "oh-buttons" },
      h("button", { class: "primary", id: "keep", "data-fid": "keep", disabled: !chosen, onclick: keep },
        t("ohanami.keep"), state.picked.length ? ` (${state.picked.join(", ")})` : "")));
}

function waitingChoice(ctx) {
  const { view, t } = ctx;
  if (view.over) return h("div", { class: "oh-choice" });
  if (ctx.roundBreak) {
    // between stages the shell shows the result beside this final board
    const note = t("ohanami.stage_over", { n: ctx.roundBreak.round });
    return h("div", { class: "oh-choice" }, h("div", { class: "oh-prompt" }, h("strong", {}, note)));
  }
  const kept = keptUnplaced(view).map((card) => drawCard(card, ctx, { "data-anim": card }));
  return h("div", { class: "oh-choice" },
    h("div", { class: "oh-prompt muted" }, t("ohanami.waiting")),
    kept.length ? h("div", { class: "hand oh-hand" }, kept) : "");
}

/** Placing: the kept cards, the one being placed raised (its destinations light up in the
 * garden below), then Undo and Place. */
function placeChoice(ctx, state, plan, redraw) {
  const { t, send } = ctx;
  const left = plan.remaining(state.steps);
  if (state.selected !== null && !left.includes(state.selected)) state.selected = null;
  const move = plan.move(state.steps);
  let prompt;
  if (move) prompt = t("ohanami.place_ready");
  else if (state.selected !== null) prompt = t("ohanami.place_where", { card: state.selected });
  else prompt = t("ohanami.place_prompt");

  const kept = plan.kept.map((card) => {
    if (!left.includes(card)) return h("span", { class: "oh-slot-empty", title: String(card) });
    const selected = state.selected === card;
    return h("button", {
      class: `oh-pick${selected ? " selected" : ""}`,
      "data-fid": `kept-${card}`,
      "aria-pressed": String(selected),
      onclick: () => {
        state.selected = selected ? null : card;
        // raised: the focus goes on to where it may go (for a keyboard: Enter, Enter)
        redraw(selected ? `kept-${card}` : firstTargetId(plan, state.steps, card) || `kept-${card}`);
      },
    }, drawCard(card, ctx, { "data-anim": card }));
  });
  const undo = () => {
    const last = state.steps.pop();
    state.selected = last ? last.card : null;
    redraw(last ? `kept-${last.card}` : null);
  };
  return h("div", { class: "oh-choice" },
    h("div", { class: "oh-prompt" }, h("strong", {}, prompt)),
    h("div", { class: "hand oh-hand oh-kept" }, kept, discardArea(ctx, { plan, state, redraw })),
    h("div", { class: "oh-buttons" },
      h("button", { id: "undo", "data-fid": "undo", disabled: !state.steps.length, onclick: undo }, t("ohanami.undo")),
      h("button", { class: "primary", id: "place", "data-fid": "place", disabled: !move, onclick: () => move && send(move) },
        t("ohanami.confirm"))));
}

function targetId(to, card, rows) {
  if (typeof to !== "number") return `to-${to}`;
  return `to-${to}-${card < rows[to][0] ? "start" : "end"}`;
}

function firstTargetId(plan, steps, card) {
  const to = plan.offered(steps, card)[0];
  return to === undefined ? null : targetId(to, card, applySteps(plan.rows, steps));
}

// -- gardens -------------------------------------------------------------------------------------

/** A seat's garden: its header (name, colours, points) and up to three rows. `placing` (the
 * player's own garden while placing) adds the pending cards and the lit destinations. */
function gardenView(n, ctx, placing = null) {
  const { view, seat, t } = ctx;
  const own = n === seat;
  const steps = placing ? placing.state.steps : committedSteps(view, n, seat);
  const rows = applySteps(view.gardens[n] || [], steps);
  const pending = new Set(steps.map((s) => s.card));
  const fresh = lastPlaced(view, n);
  const selected = placing ? placing.state.selected : null;
  const offered = selected !== null ? placing.plan.offered(placing.state.steps, selected) : [];
  const target = (to) => destination(ctx, placing, rows, selected, to);

  const end = (index, side) => {
    const lit = offered.includes(index) && (side === "start") === selected < rows[index][0];
    return lit ? target(index) : h("span", { class: `oh-end ${side}`, "aria-hidden": "true" });
  };
  const rowViews = rows.map((row, index) =>
    h("div", { class: "oh-row", "data-row": index },
      h("span", { class: "oh-row-label", title: t("ohanami.row", { n: index + 1 }) }, String(index + 1)),
      h("div", { class: "oh-row-cards" },
        end(index, "start"),
        row.map((card) => drawCard(card, ctx, {
          class: pending.has(card) ? "oh-pending" : fresh.has(card) ? "oh-fresh" : "",
          "data-anim": card,
          // a card new in another garden slides in from that garden (the shell's motion)
          "data-from": own ? undefined : `seat-${n}`,
        })),
        end(index, "end"))));
  // below the rows, where it would appear: a new row, when the raised card may start one
  const extras = offered.includes("new") ? h("div", { class: "oh-extras" }, target("new")) : "";
  const empty = !rows.length && !extras ? h("div", { class: "oh-empty muted" }, t("ohanami.no_rows")) : "";

  return h("section", {
    class: `oh-garden${own ? " own" : ""}`,
    "data-seat": n,
    "data-zone": own ? undefined : `seat-${n}`,
  },
  gardenHeader(n, ctx),
  h("div", { class: "oh-rows" }, rowViews, empty, extras));
}

/** The player's own placing, sent and waiting for the others: drawn in the garden (dashed)
 * until everyone's placings are revealed together. */
function committedSteps(view, n, seat) {
  return n === seat && view.my_choice?.type === "place" ? view.my_choice.placements : [];
}

/** The cards `seat` put in its rows at the last reveal (marked, so a move can be followed). */
function lastPlaced(view, seat) {
  const event = (view.placements || []).find((e) => e.seat === seat);
  return new Set(event ? event.placements.filter((p) => p.to !== "discard").map((p) => p.card) : []);
}

/** A colour's square and a number (a count of cards, or points). */
function colourChip(colour, value, title) {
  return h("span", { class: `oh-chip ${colour}`, title, "data-colour": colour },
    h("span", { class: "oh-dot", "aria-hidden": "true" }), String(value));
}

function gardenHeader(n, ctx) {
  const { view, seat, t } = ctx;
  const counts = view.colour_counts[n] || {};
  const chips = COLOURS.map((colour) => {
    const count = counts[colour] ?? 0;
    return colourChip(colour, count, `${t(`colour.${colour}`)}: ${count}`);
  });
  // what the garden would score if the stage ended now (the engine's view says)
  const now = view.stage_points && !view.over ? Object.values(view.stage_points[n]).reduce((a, b) => a + b, 0) : null;
  const done = (view.committed || [])[n] && !view.over;
  return h("header", { class: "oh-who" },
    h("span", { class: "oh-name" }, ctx.seatName(n), n === seat && !ctx.replay ? ` (${t("ohanami.you")})` : ""),
    done ? h("span", { class: "oh-ready", title: t("ohanami.ready") }, "✓") : "",
    h("span", { class: "oh-chips" }, chips),
    now === null ? "" : h("span", { class: "oh-now", title: t("ohanami.now_title", { n: view.stage }) },
      t("ohanami.now", { points: now })),
    h("span", { class: "oh-total", title: t("ohanami.total") }, `Σ ${(view.scores || [])[n] ?? 0}`));
}

/** A lit destination for the raised card, with a ghost of the card shown while it is
 * hovered or focused (the preview). */
function destination(ctx, placing, rows, card, to) {
  const { t } = ctx;
  const { state, redraw, plan } = placing;
  let label;
  let kind;
  if (to === "new") [label, kind] = [t("ohanami.to_new", { card }), "new"];
  else if (to === "discard") [label, kind] = [t("ohanami.to_discard", { card }), "discard"];
  else if (card < rows[to][0]) [label, kind] = [t("ohanami.to_start", { card, n: to + 1 }), "start"];
  else [label, kind] = [t("ohanami.to_end", { card, n: to + 1 }), "end"];
  const id = targetId(to, card, rows);
  const choose = () => {
    state.steps.push({ card, to });
    // the other kept card is raised at once, and the focus goes to its first destination
    const next = plan.remaining(state.steps)[0];
    state.selected = next ?? null;
    redraw(next === undefined ? "place" : firstTargetId(plan, state.steps, next));
  };
  return h("button", {
    class: `oh-target ${kind}`,
    "data-fid": id,
    "data-to": String(to),
    "data-end": kind,
    "aria-label": label,
    title: label,
    onclick: choose,
  },
  to === "new" ? h("span", { class: "oh-target-label" }, t("ohanami.new_row")) : "",
  to === "discard" ? h("span", { class: "oh-target-label" }, t("ohanami.discard")) : "",
  drawCard(card, ctx, { class: "oh-ghost" }));
}

/** The discard, beside the kept cards: lit while the raised card may go there, and holding
 * the cards this placing discards (face up to their owner only). */
function discardArea(ctx, placing) {
  const { plan, state } = placing;
  const discarded = state.steps.filter((s) => s.to === "discard").map((s) => s.card);
  const lit = state.selected !== null && plan.offered(state.steps, state.selected).includes("discard");
  const rows = applySteps(plan.rows, state.steps);
  return h("div", { class: "oh-discard-area" },
    lit ? destination(ctx, placing, rows, state.selected, "discard") : "",
    discarded.map((card) => h("span", { class: "oh-discarded", title: ctx.t("ohanami.to_discard", { card }) },
      drawCard(card, ctx, { class: "oh-pending", "data-anim": card }))));
}

// -- results -----------------------------------------------------------------------------------

/** Coach mode (renderer hook `coachNeeds`): what each colour of the garden is worth when
 * this stage is scored, and how colours and rows score. */
export function coachNeeds(view, seat, ctx) {
  const counts = view.colour_counts?.[seat];
  const points = view.stage_points?.[seat];
  if (!counts || !points) return null;
  const named = (c) => {
    const name = ctx.t(`colour.${c}`);
    return name.charAt(0).toLocaleUpperCase() + name.slice(1);
  };
  const lines = COLOURS.map((c) => ctx.t("ohanami.coach.colour", { colour: named(c), n: counts[c] ?? 0, points: points[c] ?? 0 }));
  return [...lines, ctx.t("ohanami.coach.scoring")];
}

export function lastResult(view) {
  return view.last_stage || null;
}

function stageResults(view) {
  if (view.stages) return view.stages;
  return view.last_stage ? [view.last_stage] : [];
}

/** Points per colour of one seat in one stage result (its score lines are per colour). */
function colourPoints(result, seat) {
  const points = {};
  for (const line of result.lines) {
    if (line.seat !== seat) continue;
    const colour = line.rule.split(":")[1];
    points[colour] = (points[colour] || 0) + line.points;
  }
  return points;
}

/** The stage-by-stage table: a row per player, a column per stage (with its colours) and the total. */
export function resultExtras(view, ctx) {
  const { t } = ctx;
  const results = stageResults(view);
  const byStage = new Map(results.map((r) => [r.round, r]));
  const head = h("tr", {}, h("th", {}, t("ohanami.player")),
    [1, 2, 3].map((stage) => h("th", { class: "num" }, t("ohanami.stage_n", { n: stage }))),
    h("th", { class: "num" }, t("ohanami.total")));
  const rows = [];
  for (let n = 0; n < view.players; n++) {
    let total = 0;
    const cells = [1, 2, 3].map((stage) => {
      const result = byStage.get(stage);
      if (!result) return h("td", { class: "num muted" }, "–");
      total += result.scores[n];
      const colours = colourPoints(result, n);
      const chips = COLOURS.filter((c) => colours[c]).map((c) => colourChip(c, colours[c], `${t(`colour.${c}`)}: ${colours[c]}`));
      return h("td", { class: "num", "data-stage": stage },
        h("div", { class: "oh-stage-score" }, String(result.scores[n])),
        h("div", { class: "oh-stage-colours" }, chips));
    });
    const name = h("th", { scope: "row" }, ctx.seatName(n));
    rows.push(h("tr", { "data-seat": n }, name, cells, h("td", { class: "num oh-grand" }, String(total))));
  }
  return h("table", { class: "oh-stages" }, h("thead", {}, head), h("tbody", {}, rows));
}

// -- narration ---------------------------------------------------------------------------------

/** Which pick the view's `placements` (the last reveal) belong to. */
function revealedPick(view) {
  if (view.over) return { stage: view.stage, pick: view.pick };
  if (view.pick > 1) return { stage: view.stage, pick: view.pick - 1 };
  return view.stage > 1 ? { stage: view.stage - 1, pick: PICKS } : null;
}

/** The rows of `seat` before its last reveal: undo its placements, newest first. */
function rowsBefore(rows, placements) {
  let out = rows.map((row) => [...row]);
  for (const { card, to } of [...placements].reverse()) {
    if (to === "new") out = out.slice(0, -1);
    else if (typeof to === "number") out[to] = out[to].filter((c) => c !== card);
  }
  return out;
}

const line = (id, text, announce = false) => ({ id, text, announce });

/** One placement in words; another seat's discard is face down, so its number is not told. */
function placementText(ctx, seat, rows, { card, to }) {
  const { t } = ctx;
  const name = ctx.seatName(seat);
  if (to === "discard") {
    return seat === ctx.seat ? t("ohanami.log.discarded_own", { name, card }) : t("ohanami.log.discarded", { name });
  }
  if (to === "new") return t("ohanami.log.new_row", { name, card, n: rows.length + 1 });
  const key = card < rows[to][0] ? "ohanami.log.placed_start" : "ohanami.log.placed_end";
  return t(key, { name, card, n: to + 1 });
}

function placementLines(view, ctx, where) {
  const lines = [];
  for (const event of view.placements || []) {
    let rows = rowsBefore(view.gardens[event.seat] || [], event.placements);
    event.placements.forEach((placement, i) => {
      lines.push(line(`${where}:seat${event.seat}:c${i}`, placementText(ctx, event.seat, rows, placement)));
      rows = withCard(rows, placement.card, placement.to);
    });
  }
  return lines;
}

function keptLines(ctx, where, seats) {
  return seats.map((n) => line(`${where}:keep${n}`, ctx.t("ohanami.log.kept", { name: ctx.seatName(n) })));
}

function stageLine(result, ctx) {
  const scores = result.scores.map((s, n) => `${ctx.seatName(n)} ${s}`).join(", ");
  return line(`s${result.round}:scored`, ctx.t("ohanami.log.stage_scored", { n: result.round, scores }), true);
}

const allSeats = (view) => Array.from({ length: view.players }, (_, n) => n);

/** The pick being played: how it began (a new stage, or the hands passed), who has kept,
 * who has placed. Every seat has kept once the placing began (the fifth pick keeps the
 * last two cards without a choice). */
function currentPickLines(view, ctx) {
  const { t } = ctx;
  const where = `s${view.stage}:p${view.pick}`;
  const lines = [];
  if (view.pick === 1) lines.push(line(`${where}:start`, t(`ohanami.log.stage_start_${view.pass_to}`, { n: view.stage })));
  else lines.push(line(`${where}:pass`, t(`ohanami.log.passed_${view.pass_to}`)));
  const committed = allSeats(view).filter((n) => (view.committed || [])[n]);
  if (view.phase === "select") lines.push(...keptLines(ctx, where, committed));
  if (view.phase === "place") {
    if (view.pick < PICKS) lines.push(...keptLines(ctx, where, allSeats(view)));
    for (const n of committed) lines.push(line(`${where}:ready${n}`, t("ohanami.log.ready", { name: ctx.seatName(n) })));
  }
  return lines;
}

/** Every event the view lets us tell, oldest first: the stages scored, the last reveal (who
 * kept, who put which card where), then the current pick. Ids name the stage and pick, so
 * an event keeps its id from frame to frame. */
export function narrate(view, ctx) {
  const lines = [];
  const results = stageResults(view);
  const revealed = revealedPick(view);
  for (const result of results) {
    if (!revealed || result.round < revealed.stage) lines.push(stageLine(result, ctx));
  }
  if (revealed) {
    const where = `s${revealed.stage}:p${revealed.pick}`;
    if (revealed.pick < PICKS) lines.push(...keptLines(ctx, where, allSeats(view)));
    lines.push(...placementLines(view, ctx, where));
    const ended = results.find((r) => r.round === revealed.stage);
    if (ended) lines.push(stageLine(ended, ctx));
  }
  if (!view.over) lines.push(...currentPickLines(view, ctx));
  return lines;
}

/** The element a lesson's coach points at for `action` (a selector inside the board), one
 * click at a time: each card to keep, then Keep; each kept card, then where it goes, then
 * Place. A step of this table's own that differs from the move is taken back first. */
export function lessonTarget(action, ctx) {
  const state = tableState(ctx);
  if (action.type === "keep") {
    const stray = state.picked.find((card) => !action.cards.includes(card));
    if (stray !== undefined) return `[data-fid="hand-${stray}"]`;
    const missing = action.cards.find((card) => !state.picked.includes(card));
    return missing === undefined ? "#keep" : `[data-fid="hand-${missing}"]`;
  }
  const wanted = action.placements;
  const done = state.steps;
  if (done.some((step, k) => !wanted[k] || wanted[k].card !== step.card || wanted[k].to !== step.to)) return "#undo";
  if (done.length >= wanted.length) return "#place";
  const next = wanted[done.length];
  if (state.selected !== next.card) return `[data-fid="kept-${next.card}"]`;
  const rows = applySteps(ctx.view.gardens[ctx.seat] || [], done);
  return `[data-fid="${targetId(next.to, next.card, rows)}"]`;
}
