// "Continue on another device", the receiving end: /continue#TOKEN takes the seats and the
// record another browser handed over (once: the token is spent), shows what came, and keeps
// them in this browser only when its person says they are theirs (a link from a stranger
// would otherwise fill this browser with their tables and games).
import { api, h } from "./api.js";
import { errorText, gameTitle, languageSwitch, loadLanguage, pickLanguage, seatLabels, t, translatePage } from "./i18n.js";
import { importRecord, keepSeat } from "./record.js";
import { adoptPlayerKey } from "./player.js";

const $ = (id) => document.getElementById(id);
// the token rides in the fragment, which no request carries (no server or proxy logs it)
const token = location.hash.slice(1);
let taken = null; // what was handed over, kept to say it again in another language
let tables = []; // [{ seat, meta }] the tables of those seats this server still has
let added = 0;
let decision = null; // "accepted" or "declined", once the person chose
let failure = null; // the link was used or has expired

/** Keep every seat and merge the record: the number of games new to this browser's record. */
function keep(handed) {
  for (const { table, seat, key } of handed.seats || []) keepSeat(table, seat, key);
  adoptPlayerKey(handed.player); // ratings and "your turn" follow the person
  if (!handed.record) return 0;
  try {
    return importRecord(JSON.stringify(handed.record));
  } catch {
    return 0; // not a record: the seats still came
  }
}

async function describe(handed) {
  const found = await Promise.all((handed.seats || []).map(async ({ table, seat }) => {
    try {
      return { seat, meta: await api(`/api/tables/${table}`) };
    } catch {
      return null; // a table this server no longer has
    }
  }));
  return found.filter(Boolean).sort((a, b) => b.meta.created_at - a.meta.created_at);
}

function gamesIn(handed) {
  return Array.isArray(handed?.record?.games) ? handed.record.games.length : 0;
}

function statusText() {
  if (failure) return errorText(failure);
  if (!taken) return t("continue.taking");
  if (decision === "accepted") return t("continue.done");
  if (decision === "declined") return t("continue.declined");
  return t("continue.offer", { tables: tables.length, games: gamesIn(taken) });
}

function choose(chosen) {
  decision = chosen;
  if (chosen === "accepted") added = keep(taken);
  render();
}

function render() {
  translatePage();
  const status = $("continue-status");
  status.className = failure ? "error" : "";
  status.textContent = statusText();
  const asking = Boolean(taken) && !decision;
  $("continue-choice").hidden = !asking;
  $("continue-lobby").hidden = asking; // one thing to do at a time: choose first
  $("continue-choice").replaceChildren(...(asking ? [
    h("button", { type: "button", class: "primary", id: "continue-accept", onclick: () => choose("accepted") }, t("continue.accept")),
    h("button", { type: "button", id: "continue-decline", onclick: () => choose("declined") }, t("continue.decline")),
  ] : []));
  if (!taken || decision === "declined") {
    $("continue-tables").replaceChildren();
    $("continue-record").textContent = "";
    return;
  }
  $("continue-tables").replaceChildren(...tables.map(({ seat, meta }) => {
    const finished = meta.status === "finished";
    const labels = seatLabels(meta.seats);
    return h("li", { class: "table-row", "data-table": meta.id },
      h("strong", {}, gameTitle(meta.game, meta.title)), " ",
      h("span", { class: "muted" }, labels.map((name, n) => (n === seat ? `${name} (${t("lobby.you")})` : name)).join(", ")), " ",
      h("span", { class: "tag" }, finished ? t("lobby.finished") : t("lobby.playing")),
      decision === "accepted" ? h("span", { class: "actions" }, finished
        ? h("a", { class: "button", href: `/replay/${meta.id}` }, t("table.replay"))
        : h("a", { class: "button primary", href: `/t/${meta.id}` }, t("lobby.resume"))) : null);
  }));
  $("continue-record").textContent = decision === "accepted" ? t("continue.record", { n: added }) : "";
}

async function main() {
  await loadLanguage(pickLanguage());
  $("lang-slot").append(languageSwitch(render));
  render();
  try {
    taken = await api("/api/transfers/take", { method: "POST", body: { token } });
  } catch (error) {
    failure = error;
  }
  // a spent (or unknown) token leaves the address bar; one refused for a while (too many
  // tries, the network) stays, so reloading the page tries it again
  if (!failure || failure.code === "transfer_gone") history.replaceState(null, "", location.pathname);
  if (failure) {
    render();
    return;
  }
  tables = await describe(taken);
  render();
}

main();
