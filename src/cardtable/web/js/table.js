// A live table: one WebSocket, the server's view of this seat, a renderer per game family.
import { api, cards, h } from "./api.js";
import { lang, languageSwitch, loadLanguage, pickLanguage, t, translatePage } from "./i18n.js";
import { loadClient } from "./render/index.js";
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();

let socket = null;
let frame = null;
let clockOffset = 0; // server time - local time
let retry = 0;
let cardInfo = null;
let games = {}; // game id -> what /api/games says of it (rule anchors, renderer, hints)
let draw = null; // the game's render function, once its module has loaded
let client = null; // the game's renderer module (render and the optional hooks)
const ui = {}; // renderer state that survives re-renders (selections)

function seatCredentials() {
  const params = new URLSearchParams(location.search);
  const stored = JSON.parse(localStorage.getItem(`cardtable.seat.${tableId}`) || "null");
  if (params.has("seat") && params.has("key")) {
    const fresh = { seat: Number(params.get("seat")), key: params.get("key") };
    localStorage.setItem(`cardtable.seat.${tableId}`, JSON.stringify(fresh));
    history.replaceState(null, "", `/t/${tableId}`); // keep the secret out of the address bar
    return fresh;
  }
  if (params.has("watch")) return null;
  return stored;
}
const credentials = seatCredentials();

function showBanner(text) {
  const banner = $("banner");
  banner.textContent = text || "";
  banner.hidden = !text;
}

let toastTimer = null;
export function toast(text) {
  const element = $("toast");
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (element.hidden = true), 4000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = credentials ? `?seat=${credentials.seat}&key=${encodeURIComponent(credentials.key)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}${query}`);
  showBanner(frame ? t("table.reconnecting") : t("table.connecting"));
  socket.addEventListener("open", () => {
    retry = 0;
  });
  // the server closes connections that stay silent (socket_idle_seconds); a tab left open
  // to watch says it is still there
  const keepAlive = setInterval(() => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, 240000);
  socket.addEventListener("close", () => clearInterval(keepAlive));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      frame = message;
      clockOffset = message.now - Date.now() / 1000;
      showBanner("");
      render();
      sendFollowUp();
    } else if (message.type === "presence" && frame) {
      // a seat came or went: only who is connected changed, not the game
      message.seats.forEach((seat, n) => Object.assign(frame.table.seats[n] || {}, seat));
      render();
    } else if (message.type === "hint") {
      ui.hint = message;
      showHint();
    } else if (message.type === "error") {
      ui.followUp = null;
      if (message.code === "forbidden" || message.code === "not_found") showBanner(message.message);
      else toast(t("table.error", { message: message.message }));
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403 || event.code === 4404) return; // a wrong key or table: retrying won't help
    showBanner(t("table.reconnecting"));
    retry += 1;
    setTimeout(connect, Math.min(5000, 300 * 2 ** Math.min(retry, 4)));
  });
}

/** A move a renderer chained to the last one (`ui.followUp = { ready(view), action }`): sent
 * once a state frame shows the first took effect, dropped when the server refuses it. */
function sendFollowUp() {
  const followUp = ui.followUp;
  if (!followUp || !followUp.ready(frame.view)) return;
  ui.followUp = null;
  send(followUp.action);
}

export function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ type: "action", action, version: frame?.version }));
}

function seatName(n) {
  if (n === null || n === undefined || n < 0) return "";
  return frame.table.seats[n]?.name ?? `#${n + 1}`;
}

function renderPlayers() {
  const { view, table } = frame;
  const list = $("players");
  list.replaceChildren();
  table.seats.forEach((seat, n) => {
    const moving = (view.to_move || []).includes(n);
    const item = h(
      "li",
      { class: `player${moving ? " to-move" : ""}${n === frame.seat ? " me" : ""}`, "data-seat": n },
      h("span", { class: `dot ${seat.kind === "human" ? (seat.connected ? "on" : "off") : "bot"}`, title: seat.connected ? t("table.connected") : t("table.offline") }),
      h("span", { class: "name" }, seat.name),
      view.dealer === n ? h("span", { class: "tag" }, t("table.dealer")) : "",
      h("span", { class: "score" }, (view.scores || [])[n] ?? 0),
    );
    list.append(item);
  });
}

function renderInvites() {
  const invites = JSON.parse(sessionStorage.getItem(`cardtable.invites.${tableId}`) || "[]");
  const open = invites.filter((i) => !frame.table.seats[i.seat]?.connected);
  $("invites-panel").hidden = !open.length || frame.table.status === "finished";
  const list = $("invites");
  list.replaceChildren();
  for (const invite of open) {
    const url = `${location.origin}${invite.url}`;
    list.append(
      h("li", {},
        h("span", {}, t("lobby.seat", { n: invite.seat + 1 }), ": "),
        h("input", { readonly: true, value: url, class: "invite-url", "data-seat": invite.seat, onfocus: (e) => e.target.select() }),
        h("button", { onclick: () => navigator.clipboard?.writeText(url) }, t("table.copy"))),
    );
  }
}

function renderOver() {
  const panel = $("over-panel");
  const { table, view } = frame;
  panel.hidden = table.status !== "finished";
  $("commitment").textContent = table.commitment;
  $("reveal").textContent = table.reveal ? `${t("table.reveal")}: ${table.reveal.seed} (salt ${table.reveal.salt})` : "";
  if (panel.hidden) return;
  const winners = (table.winners || []).map((n) => table.seats[n].name);
  panel.replaceChildren(
    h("h3", {}, t("table.over")),
    h("p", { class: "winner" }, t("table.winner", { names: winners.join(", ") })),
    frame.seat !== null
      ? h("button", { class: "primary", id: "rematch", onclick: rematch }, t("table.rematch"))
      : "",
    h("a", { class: "button", href: `/api/tables/${tableId}/record`, download: `cardtable-${tableId}.json` }, t("table.download")),
    h("a", { class: "button", href: `/replay/${tableId}` }, t("table.replay")),
    h("a", { class: "button", href: "/" }, t("table.lobby")),
  );
  if (table.rematch_id && credentials) {
    location.href = `/t/${table.rematch_id}?seat=${credentials.seat}&key=${encodeURIComponent(credentials.key)}`;
  }
}

async function rematch() {
  try {
    await api(`/api/tables/${tableId}/rematch`, { method: "POST", body: credentials });
  } catch (error) {
    toast(error.message);
  }
}

function renderHintPanel() {
  const { view, seat, table } = frame;
  const canAsk = seat !== null && games[table.game].hints && table.status !== "finished" && (view.to_move || []).includes(seat);
  $("hint-panel").hidden = !canAsk;
  if (!ui.hint || ui.hint.version !== frame.version) $("hint-text").textContent = "";
  showHint();
}

function showHint() {
  if (!ui.hint || !frame || ui.hint.version !== frame.version) return;
  $("hint-text").textContent = ui.hint.text;
  const action = ui.hint.action;
  const captured = ui.hint.reasons.flatMap((r) => r.cards?.card_codes || []);
  const marks = [action.card, action.take, ...(action.cards || []), ...captured].filter((c) => c !== undefined && c !== null);
  for (const mark of marks) {
    for (const element of document.querySelectorAll(`#board [data-code="${mark}"], #board .hand [data-card="${mark}"]`)) {
      element.classList.add("hinted");
    }
  }
}

function askHint() {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  $("hint-text").textContent = t("hint.thinking");
  socket.send(JSON.stringify({ type: "hint", lang: lang() }));
}

function renderTitle() {
  const { table, view } = frame;
  let progress = "";
  if (view.stage) progress = t("table.stage", { n: view.stage });
  else if (view.round && view.rounds) progress = t("table.round", { n: view.round, of: view.rounds });
  $("title").textContent = `${table.title} · ${progress}`;
  document.title = `${table.title} — cardtable`;
}

function tickClock() {
  const element = $("clock");
  const clock = frame?.clock;
  if (!clock || frame.table.status === "finished") {
    element.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(clock.deadline - (Date.now() / 1000 + clockOffset)));
  element.hidden = false;
  element.textContent = t("table.clock", { s: left });
  element.className = `clock ${clock.kind}${left <= 10 ? " low" : ""}`;
  element.dataset.kind = clock.kind;
  element.dataset.left = String(left);
}

function render() {
  if (!frame) return;
  translatePage();
  renderTitle();
  renderPlayers();
  renderInvites();
  renderOver();
  tickClock();
  const board = $("board");
  board.dataset.version = String(frame.version);
  board.dataset.phase = frame.view.phase ?? "";
  board.dataset.status = frame.table.status;
  board.dataset.round = String(frame.view.round ?? frame.view.stage ?? "");
  board.dataset.mine = String(frame.seat !== null && (frame.view.to_move || []).includes(frame.seat));
  if (!draw) {
    loadClient(games[frame.table.game]).then((loaded) => {
      client = loaded;
      draw = loaded.render;
      render();
    });
    return;
  }
  draw($("board"), {
    frame,
    view: frame.view,
    seat: frame.seat,
    send,
    t,
    lang: lang(),
    cards: cardInfo,
    seatName,
    ui,
    toast,
    dialog: $("dialog"),
    clockLeft: () => (frame.clock ? frame.clock.deadline - (Date.now() / 1000 + clockOffset) : null),
    gameId: frame.table.game,
    ruleSections: games[frame.table.game].rule_sections,
  });
  renderHintPanel();
}

async function main() {
  await loadLanguage(pickLanguage());
  cardInfo = await cards();
  games = Object.fromEntries((await api("/api/games")).map((g) => [g.id, g]));
  $("lang-slot").append(languageSwitch(render));
  $("hint").addEventListener("click", askHint);
  translatePage();
  connect();
  setInterval(tickClock, 250);
}

main();
