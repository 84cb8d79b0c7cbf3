// "Play now": quick match (server/matchmaking.py). The person chooses a game, a preset and
// rated or casual; the page queues a ticket, polls it, and goes to the table once matched.
// After a wait it offers a bot: the place in the queue is kept until the bot is taken.
import { api, h } from "./api.js";
import { errorText, gameTitle as localTitle, t } from "./i18n.js";
import { playerKey } from "./player.js";
import { cancel, later } from "./worker-timer.js";

const $ = (id) => document.getElementById(id);
// a match found by the other person's request is seen this soon, also from a hidden tab
// (worker-timer.js: a tab left waiting in the background stays in the queue)
const POLL_MS = 400;
const COUNTS_MS = 5000;

let games = [];
let ticket = null;
let poller = null;
let counts = {};

function gameTitle(id) {
  return localTitle(id, games.find((g) => g.id === id)?.title ?? id);
}

function renderChoices() {
  const select = $("match-game");
  const chosen = select.value || localStorage.getItem("cardtable.match.game") || games[0]?.id;
  select.replaceChildren(...games.map((g) => new Option(gameTitle(g.id), g.id, false, g.id === chosen)));
  renderPresets();
  renderPaces();
  renderCounts();
}

/** Live (the server's move clock) or a game across days, a move a day or so. */
function renderPaces() {
  const select = $("match-pace");
  const chosen = select.value || localStorage.getItem("cardtable.match.days") || "0";
  select.replaceChildren(...["0", "1", "2", "3", "7"].map((days) =>
    new Option(t(days === "0" ? "match.live" : `lobby.days.${days}`), days, false, days === chosen)));
}

function renderPresets() {
  const game = games.find((g) => g.id === $("match-game").value) || games[0];
  const preset = $("match-preset");
  preset.replaceChildren(...game.presets.map((name) => new Option(t(`preset.${game.id}.${name}`), name, false, name === "default")));
}

function renderCounts() {
  const waiting = Object.entries(counts).filter(([, n]) => n > 0);
  $("match-counts").replaceChildren(waiting.length
    ? t("match.waiting_now", { list: waiting.map(([id, n]) => `${gameTitle(id)}: ${n}`).join(", ") })
    : t("match.nobody_waiting"));
  for (const option of $("match-game").options) {
    const n = counts[option.value] || 0;
    option.textContent = n ? `${gameTitle(option.value)} (${t("match.count", { n })})` : gameTitle(option.value);
  }
}

async function refreshCounts() {
  try {
    counts = (await api("/api/match")).waiting;
  } catch {
    return;
  }
  renderCounts();
}

function goTo(url, tableId) {
  sessionStorage.setItem(`cardtable.created.${tableId}`, "1"); // seated already: no invitation page
  location.href = url;
}

async function playNow() {
  const game = $("match-game").value;
  localStorage.setItem("cardtable.match.game", game);
  localStorage.setItem("cardtable.match.rated", $("match-rated").checked ? "1" : "0");
  localStorage.setItem("cardtable.match.days", $("match-pace").value);
  $("match-error").replaceChildren();
  $("play-now").disabled = true;
  try {
    const preset = $("match-preset").value;
    const made = await api("/api/match", {
      method: "POST",
      body: {
        game,
        preset: preset === "default" ? null : preset,
        rated: $("match-rated").checked,
        days: Number($("match-pace").value),
        name: ($("name")?.value || localStorage.getItem("cardtable.name") || "").trim(),
        player: playerKey(),
      },
    });
    ticket = { id: made.ticket, game };
    sessionStorage.setItem("cardtable.match.ticket", JSON.stringify(ticket));
    showWaiting(true);
    poll();
  } catch (error) {
    $("match-error").replaceChildren(h("p", {}, errorText(error)));
  } finally {
    $("play-now").disabled = false;
  }
}

function waitedText(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

async function poll() {
  cancel(poller);
  if (!ticket) return;
  let seen;
  try {
    seen = await api(`/api/match/${ticket.id}`);
  } catch (error) {
    if (error.status === 404) return stopWaiting();
    poller = later(poll, POLL_MS * 3); // a dropped line: try again
    return;
  }
  if (seen.status === "matched") {
    sessionStorage.removeItem("cardtable.match.ticket");
    goTo(seen.url, seen.table);
    return;
  }
  if (seen.status !== "waiting") return stopWaiting();
  $("match-status").textContent = t("match.looking", { game: gameTitle(ticket.game), time: waitedText(seen.waited) });
  const others = Math.max(0, seen.waiting - 1); // the server counts this ticket too
  $("match-waiting-count").textContent = others ? t("match.in_queue", { n: others }) : t("match.only_you");
  $("bot-offer").hidden = !seen.bot_offer;
  poller = later(poll, POLL_MS);
}

async function leave() {
  const left = ticket;
  stopWaiting();
  if (left) await api(`/api/match/${left.id}`, { method: "DELETE" }).catch(() => {});
  refreshCounts();
}

async function playBot() {
  if (!ticket) return;
  try {
    const made = await api(`/api/match/${ticket.id}/bot`, { method: "POST", body: {} });
    cancel(poller);
    sessionStorage.removeItem("cardtable.match.ticket");
    goTo(made.url, made.table);
  } catch (error) {
    $("match-error").replaceChildren(h("p", {}, errorText(error)));
    poll(); // matched meanwhile, say: the next poll goes there
  }
}

function stopWaiting() {
  cancel(poller);
  ticket = null;
  sessionStorage.removeItem("cardtable.match.ticket");
  showWaiting(false);
}

function showWaiting(waiting) {
  $("match-form").hidden = waiting;
  $("match-waiting").hidden = !waiting;
  if (!waiting) $("bot-offer").hidden = true;
}

/** Set up the "Play now" panel with the catalogue's games; a ticket this tab was waiting
 * with (a reload) is polled on. */
export function setupMatch(catalogue) {
  games = catalogue.filter((game) => game.players[0] <= 2 && 2 <= game.players[1]); // it seats two
  $("match-game").addEventListener("change", renderPresets);
  $("match-rated").checked = localStorage.getItem("cardtable.match.rated") !== "0";
  $("play-now").addEventListener("click", playNow);
  $("match-leave").addEventListener("click", leave);
  $("match-bot").addEventListener("click", playBot);
  renderChoices();
  refreshCounts();
  setInterval(refreshCounts, COUNTS_MS);
  try {
    ticket = JSON.parse(sessionStorage.getItem("cardtable.match.ticket") || "null");
  } catch {
    ticket = null;
  }
  if (ticket) {
    showWaiting(true);
    poll();
  }
  $("play-now").disabled = false;
}

/** The language changed: the panel's words follow. */
export function translateMatch() {
  if (!games.length) return;
  renderChoices();
  if (ticket) poll();
}
