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
  // a frame may arrive while a player is choosing with the keyboard: keep the focus where it was
  const active = root.contains(document.activeElement) ? document.activeElement.closest("[data-fid]") : null;
  const focusAfter = state.focus || (active ? active.dataset.fid : null);
  state.focus = null;

  const { view, seat } = ctx;
  const parts = [topBar(ctx)];
  const others = otherSeats(view, seat);
  parts.push(h("div", { class: `oh-others${isSeat(seat) ? "" : " oh-all"}` }, others.map((n) => gardenView(n, ctx))));
  if (isSeat(seat)) parts.push(myArea(ctx, state, redraw));
  if (view.over) parts.push(h("section", { class: "oh-final" }, h("h3", {}, ctx.t("ohanami.by_stage")), resultExtras(view, ctx)));
  root.replaceChildren(h("div", { class: "ohanami", "data-stage": view.stage, "data-pick": view.pick }, parts));

  if (focusAfter) root.querySelector(`[data-fid="${focusAfter}"]`)?.focus({ preventScroll: false });
}

function topBar(ctx) {
  const { view, t } = ctx;
  // at the end the status line says "Game over" by itself
  const progress = view.over ? "" : h("span", { class: "oh-progress" }, t("ohanami.stage_pick", { stage: view.stage, stages: STAGES, pick: view.pick, picks: PICKS }));
  return h("div", { class: "oh-bar" },
    progress,
    statusLine(ctx),
    h("span", { class: "oh-stock", "data-zone": "stock", title: t("ohanami.stock_title") }, t("ohanami.stock", { n: view.stock_size })));
}

/** The player's own part of the table: the choice of the moment, then the garden. */
function myArea(ctx, state, redraw) {
  const { view } = ctx;
  const legal = view.legal_actions || [];
  const keeps = legal.filter((a) => a.type === "keep");
  const places = legal.filter((a) => a.type === "place");
  if (places.length) {
    const plan = new PlacementPlan(view.gardens[ctx.seat] || [], view.kept || [], places);
    return h("section", { class: "oh-mine placing" }, placeChoice(ctx, state, plan, redraw), gardenView(ctx.seat, ctx, { plan, state, redraw }));
  }
  const choice = keeps.length ? keepChoice(ctx, state, keeps, redraw) : waitingChoice(ctx);
  return h("section", { class: "oh-mine" }, choice, gardenView(ctx.seat, ctx));
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
    state.picked = state.picked.includes(card) ? state.picked.filter((c) => c !== card) : [...state.picked, card].slice(-2);
    redraw(`hand-${card}`);
  };
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
      h("button", { class: "primary", id: "keep", "data-fid": "keep", disabled: !chosen, onclick: () => chosen && send(chosen) },
        t("ohanami.keep"), state.picked.length ? ` (${state.picked.join(", ")})` : "")));
}

function waitingChoice(ctx) {
  const { view, t } = ctx;
  if (view.over) return h("div", { class: "oh-choice" });
  // between stages the shell shows the result beside this final board
  if (ctx.roundBreak) return h("div", { class: "oh-choice" }, h("div", { class: "oh-prompt" }, h("strong", {}, t("ohanami.stage_over", { n: ctx.roundBreak.round }))));
  const kept = view.kept || [];
  const placed = view.my_choice?.type === "place";
  return h("div", { class: "oh-choice" },
    h("div", { class: "oh-prompt muted" }, t("ohanami.waiting")),
    kept.length && !placed ? h("div", { class: "hand oh-hand" }, kept.map((card) => drawCard(card, ctx, { "data-anim": card }))) : "");
}

/** Step one of placing: the kept cards, the one being placed raised; the row ends it can go
 * to light up in the garden below. */
function placeChoice(ctx, state, plan, redraw) {
  const { t, send } = ctx;
  const left = plan.remaining(state.steps);
  if (state.selected !== null && !left.includes(state.selected)) state.selected = null;
  // once the first card is down the second is the only one left: raise it at once
  if (state.selected === null && state.steps.length && left.length === 1) state.selected = left[0];
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
    h("div", { class: "hand oh-hand oh-kept" }, kept),
    h("div", { class: "oh-buttons" },
      h("button", { id: "undo", "data-fid": "undo", disabled: !state.steps.length, onclick: undo }, t("ohanami.undo")),
      h("button", { class: "primary", id: "place", "data-fid": "place", disabled: !move, onclick: () => move && send(move) }, t("ohanami.confirm"))));
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
  const rows = placing ? applySteps(placing.plan.rows, placing.state.steps) : view.gardens[n] || [];
  const pending = new Set(placing ? placing.state.steps.map((s) => s.card) : []);
  const selected = placing ? placing.state.selected : null;
  const offered = selected !== null ? placing.plan.offered(placing.state.steps, selected) : [];
  const target = (to) => destination(ctx, placing, rows, selected, to);

  const rowViews = rows.map((row, index) => {
    const ends = offered.includes(index) ? (selected < row[0] ? ["start"] : ["end"]) : [];
    return h("div", { class: "oh-row", "data-row": index },
      h("span", { class: "oh-row-label", title: t("ohanami.row", { n: index + 1 }) }, String(index + 1)),
      h("div", { class: "oh-row-cards" },
        ends.includes("start") ? target(index) : h("span", { class: "oh-end start", "aria-hidden": "true" }),
        row.map((card) => drawCard(card, ctx, {
          class: pending.has(card) ? "oh-pending" : "",
          "data-anim": card,
          "data-from": own ? undefined : `seat-${n}`,
        })),
        ends.includes("end") ? target(index) : h("span", { class: "oh-end end", "aria-hidden": "true" })));
  });
  // below the rows: a new row and the discard, side by side, when the raised card may go there
  const extras = [];
  if (offered.includes("new")) extras.push(target("new"));
  const discarded = placing ? placing.state.steps.filter((s) => s.to === "discard").map((s) => s.card) : [];
  if (offered.includes("discard") || discarded.length) extras.push(discardArea(ctx, discarded, offered.includes("discard") ? target("discard") : null));
  const empty = !rows.length && !extras.length ? h("div", { class: "oh-empty muted" }, t("ohanami.no_rows")) : "";

  return h("section", {
    class: `oh-garden${own ? " own" : ""}${(view.to_move || []).includes(n) ? " to-move" : ""}`,
    "data-seat": n,
    "data-zone": own ? undefined : `seat-${n}`,
  }, gardenHeader(n, ctx), h("div", { class: "oh-rows" }, rowViews, empty, extras.length ? h("div", { class: "oh-extras" }, extras) : ""));
}

function gardenHeader(n, ctx) {
  const { view, seat, t } = ctx;
  const counts = view.colour_counts[n] || {};
  const now = view.stage_points ? Object.values(view.stage_points[n]).reduce((a, b) => a + b, 0) : null;
  const chips = COLOURS.map((colour) =>
    h("span", { class: `oh-chip ${colour}`, title: `${t(`colour.${colour}`)}: ${counts[colour] ?? 0}`, "data-colour": colour },
      h("span", { class: "oh-dot", "aria-hidden": "true" }), String(counts[colour] ?? 0)));
  const done = (view.committed || [])[n] && !view.over;
  return h("header", { class: "oh-who" },
    h("span", { class: "oh-name" }, ctx.seatName(n), n === seat ? ` (${t("ohanami.you")})` : ""),
    done ? h("span", { class: "oh-ready", title: t("ohanami.ready") }, "✓") : "",
    h("span", { class: "oh-chips" }, chips),
    now !== null && !view.over ? h("span", { class: "oh-now", title: t("ohanami.now_title", { n: view.stage }) }, t("ohanami.now", { points: now })) : "",
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
    state.selected = null;
    const next = plan.remaining(state.steps)[0];
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

function discardArea(ctx, discarded, target) {
  return h("div", { class: "oh-discard-area" },
    target,
    discarded.map((card) => h("span", { class: "oh-discarded", title: ctx.t("ohanami.to_discard", { card }) }, drawCard(card, ctx, { class: "oh-pending", "data-anim": card }))));
}

// -- results -----------------------------------------------------------------------------------

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
      return h("td", { class: "num", "data-stage": stage },
        h("div", { class: "oh-stage-score" }, String(result.scores[n])),
        h("div", { class: "oh-stage-colours" }, COLOURS.filter((c) => colours[c]).map((c) =>
          h("span", { class: `oh-chip ${c}`, title: `${t(`colour.${c}`)}: ${colours[c]}` }, h("span", { class: "oh-dot", "aria-hidden": "true" }), String(colours[c])))));
    });
    rows.push(h("tr", { "data-seat": n }, h("th", { scope: "row" }, ctx.seatName(n)), cells, h("td", { class: "num oh-grand" }, String(total))));
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

function placementLines(view, ctx, where) {
  const { t, seat } = ctx;
  const lines = [];
  for (const event of view.placements || []) {
    const name = ctx.seatName(event.seat);
    let rows = rowsBefore(view.gardens[event.seat] || [], event.placements);
    event.placements.forEach(({ card, to }, i) => {
      let text;
      if (to === "discard") text = event.seat === seat ? t("ohanami.log.discarded_own", { name, card }) : t("ohanami.log.discarded", { name });
      else if (to === "new") text = t("ohanami.log.new_row", { name, card, n: rows.length + 1 });
      else if (card < rows[to][0]) text = t("ohanami.log.placed_start", { name, card, n: to + 1 });
      else text = t("ohanami.log.placed_end", { name, card, n: to + 1 });
      rows = withCard(rows, card, to);
      lines.push({ id: `${where}:seat${event.seat}:c${i}`, text, announce: false });
    });
  }
  return lines;
}

function keptLines(view, ctx, where, seats) {
  return seats.map((n) => ({ id: `${where}:keep${n}`, text: ctx.t("ohanami.log.kept", { name: ctx.seatName(n) }), announce: false }));
}

function stageLine(result, ctx) {
  const scores = result.scores.map((s, n) => `${ctx.seatName(n)} ${s}`).join(", ");
  return { id: `s${result.round}:scored`, text: ctx.t("ohanami.log.stage_scored", { n: result.round, scores }), announce: true };
}

const allSeats = (view) => Array.from({ length: view.players }, (_, n) => n);

/** Every event the view lets us tell, oldest first: the stages scored, the last reveal (who
 * kept, who put which card where), then the current pick (the pass, who has chosen). */
export function narrate(view, ctx) {
  const lines = [];
  const results = stageResults(view);
  const revealed = revealedPick(view);
  for (const result of results) if (!revealed || result.round < revealed.stage) lines.push(stageLine(result, ctx));
  if (revealed) {
    const where = `s${revealed.stage}:p${revealed.pick}`;
    if (revealed.pick < PICKS) lines.push(...keptLines(view, ctx, where, allSeats(view)));
    lines.push(...placementLines(view, ctx, where));
    const ended = results.find((r) => r.round === revealed.stage);
    if (ended) lines.push(stageLine(ended, ctx));
  }
  if (view.over) return lines;
  const where = `s${view.stage}:p${view.pick}`;
  if (view.pick === 1) lines.push({ id: `${where}:start`, text: ctx.t(`ohanami.log.stage_start_${view.pass_to}`, { n: view.stage }), announce: false });
  else lines.push({ id: `${where}:pass`, text: ctx.t(`ohanami.log.passed_${view.pass_to}`), announce: false });
  const committed = allSeats(view).filter((n) => (view.committed || [])[n]);
  if (view.phase === "select") lines.push(...keptLines(view, ctx, where, committed));
  else if (view.phase === "place") {
    if (view.pick < PICKS) lines.push(...keptLines(view, ctx, where, allSeats(view)));
    lines.push(...committed.map((n) => ({ id: `${where}:ready${n}`, text: ctx.t("ohanami.log.ready", { name: ctx.seatName(n) }), announce: false })));
  }
  return lines;
}
