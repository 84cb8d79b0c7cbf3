// "Your rating against people" on the record panel: each game's Glicko-2 rating from rated
// quick-match games ("1 512 ± 180", provisional until 10 games) and a graph of its history,
// the band around the line being ± the deviation (how sure the rating is).
// (1500 ± 350 is Glicko-2's start: server/glicko.py)
import { api, h } from "./api.js";
import { t } from "./i18n.js";
import { playerKey } from "./player.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 110;
const PAD = 6;

function svgElement(tag, attrs) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  return element;
}

/** The history of one game as an SVG line with its ± band (one point per rated game). */
export function historyGraph(points) {
  const low = Math.min(...points.map((p) => p.rating - p.deviation));
  const high = Math.max(...points.map((p) => p.rating + p.deviation));
  const x = (n) => PAD + (points.length < 2 ? (WIDTH - 2 * PAD) / 2 : (n * (WIDTH - 2 * PAD)) / (points.length - 1));
  const y = (value) => HEIGHT - PAD - ((value - low) * (HEIGHT - 2 * PAD)) / Math.max(1, high - low);
  const line = points.map((p, n) => `${x(n)},${y(p.rating)}`).join(" ");
  const band = [...points.map((p, n) => `${x(n)},${y(p.rating + p.deviation)}`),
    ...points.map((p, n) => `${x(n)},${y(p.rating - p.deviation)}`).reverse()].join(" ");
  const graph = svgElement("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "rating-graph", role: "img" });
  graph.append(
    svgElement("polygon", { points: band, class: "band" }),
    svgElement("polyline", { points: line, class: "line" }),
    ...points.map((p, n) => svgElement("circle", { cx: x(n), cy: y(p.rating), r: 3, class: "point" })));
  return graph;
}

/** Fill ``box`` with this player's ratings against people, per game. */
export async function renderPeopleRatings(box, title) {
  let found;
  try {
    found = await api("/api/players/ratings", { method: "POST", body: { player: playerKey() } });
  } catch {
    box.replaceChildren();
    return;
  }
  const games = Object.entries(found.ratings);
  const heading = h("h3", {}, t("record.people_title"));
  if (!games.length) {
    box.replaceChildren(heading, h("p", { class: "muted", id: "people-none" }, t("record.people_none")));
    return;
  }
  box.replaceChildren(heading, ...games.map(([game, rating]) => {
    // every rating starts at 1 500 ± 350: the graph shows the way from there
    const points = [{ rating: 1500, deviation: 350 }, ...found.history.filter((p) => p.game === game)];
    const graph = historyGraph(points);
    graph.setAttribute("aria-label", t("record.history", { game: title(game) }));
    return h("div", { class: "people-rating", "data-game": game, "data-rating": rating.rating },
      h("p", {}, h("strong", {}, title(game)), " ",
        h("span", { class: "rating-value" }, rating.shown), " ",
        rating.provisional ? h("span", { class: "tag provisional" }, t("rating.provisional")) : "", " ",
        h("span", { class: "muted" }, t("record.people_games", { n: rating.games }))),
      graph);
  }));
}
