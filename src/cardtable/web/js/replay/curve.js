// The review's curve: the reviewed seat's chances (the strong bot's evaluation, 0 to 100 %,
// 50 even) after each of its moves, drawn as inline SVG across the whole game. Swings (the
// moves the review lists) are red, with a drop from the chances before the move to after
// it; round starts are dotted lines; the largest fall between moves (when the game was lost
// without a clear mistake) is shaded; the replay's current step is a cursor. Every point is
// a button to the board at that move.
const NS = "http://www.w3.org/2000/svg";
// the drawing's units are the page's pixels: it is drawn as wide as its slot (`width`), so
// its text keeps the size the stylesheet gives it instead of shrinking with a narrow panel
const NARROWEST = 240;
const HEIGHT = 170;
const LEFT = 38; // room for "100%"
const RIGHT = 8;
const TOP = 16; // room for the round labels
const BOTTOM = 18; // room for the move axis
const INSET = 12; // the first and last moves stand off the frame: a swing's figure on the curve

function el(tag, attrs = {}, ...children) {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, String(value));
  }
  element.append(...children);
  return element;
}

const percent = (value) => `${Math.round(value * 100)}%`;

/**
 * The curve of `points` ({move, value, before, swing}) over a game of `steps` replay steps
 * (moves + 1), `rounds` the steps where rounds begin, `fall` a pair of moves or null;
 * `title` what it shows (said to screen readers), `t` the page's translator, `onPick(move)`
 * called when a point is chosen, `width` the pixels it has.
 */
export function drawCurve({ title, points, steps, rounds, roundKey, fall, step, t, onPick, width }) {
  const drawnWidth = Math.max(NARROWEST, Math.floor(width || 0));
  const last = Math.max(steps - 1, 1);
  const x = (move) => LEFT + INSET + ((drawnWidth - LEFT - RIGHT - 2 * INSET) * move) / last;
  const y = (value) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - Math.max(0, Math.min(1, value)));
  const parts = [];
  // the frame: 100 / 50 / 0 % lines, the even line dashed
  for (const level of [1, 0.5, 0]) {
    parts.push(el("line", { class: level === 0.5 ? "curve-even" : "curve-grid", x1: LEFT, x2: drawnWidth - RIGHT, y1: y(level), y2: y(level) }));
    parts.push(el("text", { class: "curve-label", x: LEFT - 5, y: y(level) + 3.5, "text-anchor": "end" }, percent(level)));
  }
  parts.push(el("text", { class: "curve-label", x: drawnWidth - RIGHT, y: HEIGHT - 4, "text-anchor": "end" }, t("review.curve_moves", { n: last })));
  if (fall) {
    const [from, to] = fall;
    parts.push(el("rect", { class: "curve-fall", x: x(from), y: TOP, width: Math.max(x(to) - x(from), 2), height: HEIGHT - TOP - BOTTOM }));
  }
  rounds.forEach((start, index) => {
    if (index === 0) return; // the first round begins where the curve does
    parts.push(el("line", { class: "curve-round", "data-round": index + 1, x1: x(start), x2: x(start), y1: TOP - 2, y2: HEIGHT - BOTTOM }));
    parts.push(el("text", { class: "curve-label curve-round-label", x: x(start), y: TOP - 5, "text-anchor": "middle" }, t(roundKey, { n: index + 1 })));
  });
  if (points.length) {
    // from the chances before the first move (the bot's choice there), so the curve starts
    // at the first move and a swing there drops from the curve as the later ones do
    const line = [[points[0].move, points[0].before], ...points.map((p) => [p.move, p.value])];
    parts.push(el("polyline", { class: "curve-line", points: line.map(([move, value]) => `${x(move)},${y(value)}`).join(" ") }));
  }
  if (step !== null && step !== undefined) {
    parts.push(el("line", { class: "curve-cursor", x1: x(step), x2: x(step), y1: TOP, y2: HEIGHT - BOTTOM }));
  }
  for (const point of points) {
    const said = t("review.curve_point", { n: point.move + 1, before: percent(point.before), after: percent(point.value) });
    if (point.swing) {
      parts.push(el("line", { class: "curve-drop", x1: x(point.move), x2: x(point.move), y1: y(point.before), y2: y(point.value) }));
    }
    parts.push(el("circle", {
      class: `curve-point${point.swing ? " swing" : ""}`,
      "data-move": point.move,
      cx: x(point.move),
      cy: y(point.value),
      r: point.swing ? 4.5 : 2.8,
      tabindex: 0,
      role: "button",
      "aria-label": said,
      onclick: () => onPick(point.move),
      onkeydown: (event) => (event.key === "Enter" || event.key === " ") && onPick(point.move),
    }, el("title", {}, said)));
    if (point.swing) {
      parts.push(el("text", { class: "curve-label curve-swing-label", x: x(point.move), y: Math.min(y(point.value) + 13, HEIGHT - BOTTOM + 10), "text-anchor": "middle" }, String(point.move + 1)));
    }
  }
  return el("svg", {
    id: "review-curve",
    class: "review-curve",
    viewBox: `0 0 ${drawnWidth} ${HEIGHT}`,
    role: "img",
    "aria-label": title,
  }, el("title", {}, title), ...parts);
}

/** Moves each label that runs past the drawing's edge (a round's name near its end, a
 * longer "100%" in a wider font) back inside it; the curve must be on the page. */
export function keepLabelsInside(curve) {
  const width = curve.viewBox.baseVal.width;
  for (const label of curve.querySelectorAll("text")) {
    const box = label.getBBox();
    const shift = box.x < 0 ? -box.x : Math.min(0, width - box.x - box.width);
    if (shift) label.setAttribute("x", String(Number(label.getAttribute("x")) + shift));
  }
}
