// The lobby: a table form rendered from each game's options JSON schema, and open tables.
import { api, h } from "./api.js";
import { optionFields, playerRange, readChangedOptions } from "./options-form.js";
import { errorText, gameTitle, lang, languageSwitch, loadLanguage, pickLanguage, seatLabels, t, translatePage } from "./i18n.js";
import { exportRecord, importRecord, loadRecord, mySeats, tally } from "./record.js";
import { shareLink } from "./table/waiting.js";
import { setupMatch, translateMatch } from "./match.js";
import { playerKey } from "./player.js";
import { renderPeopleRatings } from "./people-ratings.js";
import { setupTurns, translateTurns } from "./turns.js";

let games = [];
const $ = (id) => document.getElementById(id);
// the newest games rated: the server takes at most as many (server/rating.py MAX_GAMES)
const MAX_RATED = 2000;

function currentGame() {
  return games.find((g) => g.id === $("game").value) || games[0];
}

function schemaProperty(game, name) {
  return game.schema.properties?.[name];
}

/** A bot's name and what it does, in the page's language (the game may say it its way). */
function botWords(game, bot) {
  return { name: t(`bot.${bot}`), help: t(game.bot_help?.[bot] || `bot.${bot}.help`) };
}

function seatChoice(game, seat) {
  const select = h("select", { class: "seat-kind", "data-seat": seat, "aria-label": t("lobby.seat", { n: seat + 1 }) });
  const levels = (game.bot_levels || []).filter((b) => game.bots.includes(b));
  for (const bot of levels) select.append(new Option(t("lobby.bot", { name: botWords(game, bot).name }), `bot:${bot}`));
  select.append(new Option(t("lobby.human"), "human"));
  const advanced = (game.bots_advanced || []).filter((b) => game.bots.includes(b));
  if (advanced.length) {
    const group = h("optgroup", { label: t("lobby.advanced_bots") });
    for (const bot of advanced) group.append(new Option(t("lobby.bot", { name: botWords(game, bot).name }), `bot:${bot}`));
    select.append(group);
  }
  const remembered = localStorage.getItem(`cardtable.seat-kind.${game.id}.${seat}`);
  select.value = [...select.options].some((o) => o.value === remembered) ? remembered : levels.includes("medium") ? "bot:medium" : select.options[0].value;
  const help = h("p", { class: "option-help seat-help" });
  const explain = () => {
    const value = select.value;
    help.textContent = value === "human" ? t("lobby.human_help") : botWords(game, value.slice(4)).help;
    localStorage.setItem(`cardtable.seat-kind.${game.id}.${seat}`, value);
  };
  select.addEventListener("change", explain);
  select.addEventListener("change", showCoachOption);
  explain();
  return h("div", { class: "option seat" }, h("label", {}, h("span", {}, t("lobby.seat", { n: seat + 1 })), " ", select), help);
}

function renderSeats() {
  const game = currentGame();
  const [low, high] = playerRange(game);
  const fieldset = $("seats");
  const previous = fieldset.querySelector("#players")?.value;
  fieldset.replaceChildren(h("legend", {}, t("lobby.seats")));
  const count = Math.min(high, Math.max(low, Number(previous) || game.default_players));
  if (high > low) {
    const select = h("select", { id: "players" });
    for (let n = low; n <= high; n++) select.append(new Option(String(n), String(n), false, n === count));
    select.addEventListener("change", renderSeats);
    fieldset.append(h("label", {}, h("span", {}, t("lobby.players")), " ", select));
  }
  fieldset.append(h("label", {}, h("span", {}, t("lobby.seat", { n: 1 })), " ", h("strong", {}, t("lobby.you"))));
  for (let seat = 1; seat < count; seat++) fieldset.append(seatChoice(game, seat));
  showCoachOption();
}

/** "Coach me" is offered at a table with bots (the coach is the strong bot's judgement). */
function showCoachOption() {
  const bots = [...document.querySelectorAll(".seat-kind")].some((s) => s.value.startsWith("bot:"));
  $("coach-option").hidden = !bots;
  // what the coach shows beside the table is the game family's (yaku, garden colours, bonus boxes)
  const own = `coach.opt_in_help.${currentGame().family}`;
  $("coach-help").textContent = t(own) === own ? t("coach.opt_in_help") : t(own);
}

function renderPresetHelp() {
  const game = currentGame();
  const preset = $("preset").value;
  $("preset-help").textContent = t(`preset.${game.id}.${preset}.help`);
}

function renderGame() {
  const game = currentGame();
  localStorage.setItem("cardtable.game", game.id);
  $("game-summary").textContent = t(`game.${game.id}.summary`) === `game.${game.id}.summary` ? game.summary : t(`game.${game.id}.summary`);
  const preset = $("preset");
  preset.replaceChildren();
  for (const name of game.presets) preset.append(new Option(t(`preset.${game.id}.${name}`), name, false, name === "default"));
  renderPresetHelp();
  $("learn-row").hidden = !game.lesson; // a guided first game, where the game has one
  $("learn-link").href = `/learn/${game.id}`;
  const rules = $("rules-link"); // the game's whole rule page, in this page's language
  rules.hidden = !game.rules;
  rules.href = `/rules/${game.id}?lang=${lang()}`;
  rules.textContent = t("join.full_rules", { game: gameTitle(game.id, game.title) });
  const fields = $("rule-fields");
  fields.replaceChildren(...optionFields(game.schema, ["players"], { game: game.id, t }));
  renderSeats();
}

function readOptions() {
  const game = currentGame();
  const options = readChangedOptions(game.schema, document.getElementById("rule-fields"));
  const seats = [...document.querySelectorAll(".seat-kind")].length + 1;
  if (schemaProperty(game, "players")) options.players = seats;
  return options;
}

async function createTable(event) {
  event.preventDefault();
  $("form-error").replaceChildren();
  const seats = ["human", ...[...document.querySelectorAll(".seat-kind")].map((s) => s.value)];
  const name = $("name").value.trim();
  localStorage.setItem("cardtable.name", name);
  // only the name typed: the other seats are called in each reader's own language
  // ("Gracz 2", "Бот (сложный)"), and an invited person may choose their own
  const names = name ? [name] : [];
  // the first 7 słów table after a fresh install waits for the dictionary: say so, and
  // let a second click make no second table
  showCreating(true);
  try {
    const created = await api("/api/tables", {
      method: "POST",
      body: {
        game: currentGame().id,
        preset: $("preset").value === "default" ? null : $("preset").value,
        options: readOptions(),
        seats,
        names,
        public: $("public").checked,
        move_seconds: Number($("move-days").value) * 86400 || Number($("move-seconds").value) || 0,
        coach: $("coach").checked && seats.some((kind) => kind.startsWith("bot:")),
      },
    });
    sessionStorage.setItem(`cardtable.invites.${created.id}`, JSON.stringify(created.invites));
    sessionStorage.setItem(`cardtable.created.${created.id}`, "1"); // this browser sits down at once
    location.href = created.url;
  } catch (error) {
    await showRefusal(error);
    showCreating(false);
  }
}

/** Why no table was made. The unstarted-table limit counts a whole network (one address
 * behind shared Wi-Fi): say so, and offer the tables this browser itself can resume. */
async function showRefusal(error) {
  const box = $("form-error");
  box.replaceChildren(h("p", {}, errorText(error)));
  if (error.code !== "unstarted_tables") return;
  const resumable = (await myTables()).filter(({ meta }) => meta.status !== "finished");
  if (!resumable.length) {
    box.append(h("p", { id: "resumable-none" }, t("lobby.unstarted_none")));
    return;
  }
  box.append(
    h("p", {}, t("lobby.unstarted_yours")),
    h("ul", { class: "resumable", id: "resumable" }, resumable.map(({ meta }) =>
      h("li", { "data-table": meta.id },
        h("a", { href: `/t/${meta.id}` }, gameTitle(meta.game, meta.title)), " ",
        h("span", { class: "muted" }, seatLabels(meta.seats).join(", "))))),
  );
}

function showCreating(busy) {
  $("create").disabled = busy;
  $("create").textContent = t(busy ? "lobby.creating" : "lobby.create");
}

async function refreshTables() {
  const list = $("table-list");
  let tables;
  try {
    tables = await api("/api/tables");
  } catch {
    return;
  }
  list.replaceChildren();
  if (!tables.length) list.append(h("li", { class: "muted" }, t("lobby.none")));
  for (const table of tables) {
    const who = seatLabels(table.seats).join(", ");
    const actions = h("span", { class: "actions" });
    if (table.free_seats.length) {
      actions.append(
        h("button", {
          class: "primary",
          onclick: async () => {
            const claimed = await api(`/api/tables/${table.id}/claim`, { method: "POST", body: {} });
            location.href = claimed.url;
          },
        }, t("lobby.join")),
      );
    }
    actions.append(h("a", { class: "button", href: `/t/${table.id}` }, t("lobby.watch")));
    list.append(
      h("li", { class: "table-row", "data-table": table.id },
        h("strong", {}, gameTitle(table.game, table.title)), " ",
        h("span", { class: "muted" }, who), " ",
        table.free_seats.length ? h("span", { class: "tag" }, t("lobby.free", { n: table.free_seats.length })) : "",
        actions),
    );
  }
}

/** The tables this browser has a seat at (it keeps their keys) that the server still
 * has, each with its seat and what the server says of it; newest first. */
async function myTables() {
  const found = (await Promise.all(mySeats().slice(-30).map(async (entry) => {
    try {
      return { entry, meta: await api(`/api/tables/${entry.id}`) };
    } catch {
      return null; // a table this server no longer has
    }
  }))).filter(Boolean);
  return found.sort((a, b) => b.meta.created_at - a.meta.created_at);
}

/** "Your games": resume the ones being played; replay or download the finished ones. */
async function refreshMyGames() {
  const found = await myTables();
  $("my-games-panel").hidden = !found.length;
  $("my-games").replaceChildren(...found.map(({ meta }) => {
    const finished = meta.status === "finished";
    const who = seatLabels(meta.seats).join(", ");
    const when = new Date(meta.created_at * 1000).toLocaleString(document.documentElement.lang, { dateStyle: "short", timeStyle: "short" });
    const actions = finished
      ? [h("a", { class: "button", href: `/replay/${meta.id}` }, t("table.replay")),
         h("a", { class: "button", href: `/api/tables/${meta.id}/record`, download: `cardtable-${meta.id}.json` }, t("lobby.download"))]
      : [h("a", { class: "button primary", href: `/t/${meta.id}` }, t("lobby.resume"))];
    return h("li", { class: "table-row", "data-table": meta.id },
      h("strong", {}, gameTitle(meta.game, meta.title)), " ",
      h("span", { class: "muted" }, who), " ",
      h("span", { class: "tag" }, finished ? t("lobby.finished") : t("lobby.playing")),
      h("span", { class: "muted when" }, when),
      h("span", { class: "actions" }, actions));
  }));
}

/** Where a rating surely stands on the bot ladder: the strongest level it is above and the
 * weakest it is below, each only when 95 % sure (the rating ± twice its sigma clears the
 * level), so two games say "too early to tell", not "between medium and expert". */
function surePlace(r) {
  const rungs = Object.entries(r.ladder).sort((a, b) => a[1] - b[1]);
  const beaten = rungs.filter(([, mu]) => mu <= r.mu - 2 * r.sigma);
  const stronger = rungs.filter(([, mu]) => mu > r.mu + 2 * r.sigma);
  return { above: beaten.at(-1)?.[0] ?? null, below: stronger[0]?.[0] ?? null };
}

/** "Your record": per game and bot level, games, wins, the win share with its 95 %
 * interval; and per game the player's rating on the bot ladder (POST /api/rating). */
async function renderRecord() {
  const { games: played } = loadRecord();
  const title = (id) => gameTitle(id, games.find((g) => g.id === id)?.title ?? id);
  renderPeopleRatings($("people-ratings"), title);
  const level = (name) => (name === "mixed" ? t("record.mixed") : t(`bot.${name}`).toLocaleLowerCase());
  const percent = (x) => Math.round(x * 100);
  $("record-export").disabled = !played.length;
  if (!played.length) {
    $("record").replaceChildren(h("p", { class: "muted", id: "record-empty" }, t("record.empty")));
    return;
  }
  const rows = tally(played);
  const table = h("table", { class: "record-table" },
    h("thead", {}, h("tr", {}, ["col_game", "col_level", "col_played", "col_won", "col_share"].map((k) => h("th", {}, t(`record.${k}`))))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-game": row.game, "data-level": row.level },
      h("td", { class: "game" }, title(row.game)),
      h("td", { class: "level", "data-label": t("record.col_level") }, level(row.level)),
      h("td", { class: "num played", "data-label": t("record.col_played") }, row.played),
      h("td", { class: "num won", "data-label": t("record.col_won") }, row.won),
      h("td", { class: "num share", "data-label": t("record.col_share") },
        `${percent(row.share)} % (${percent(row.interval[0])}–${percent(row.interval[1])} %)`)))));
  const levels = h("ul", { class: "record-levels", id: "record-levels" });
  $("record").replaceChildren(h("div", { class: "record-scroll" }, table), levels);
  let rated;
  try {
    rated = (await api("/api/rating", { method: "POST", body: { games: played.slice(-MAX_RATED).map(({ game, seats, scores }) => ({ game, seats, scores })) } })).ratings;
  } catch {
    return; // the table above says what the browser knows
  }
  const said = Object.entries(rated).map(([game, r]) => {
    const { above, below } = surePlace(r);
    let where;
    if (above && below) where = t("record.between", { low: level(above), high: level(below) });
    else if (below) where = t("record.below", { level: level(below) });
    else if (above) where = t("record.above", { level: level(above) });
    else where = t("record.unsure");
    const sureness = t("record.sureness", { value: r.mu.toFixed(1), margin: (2 * r.sigma).toFixed(1), n: r.games });
    // what the number means: the bots' own ratings on the same scale
    const ladder = Object.entries(r.ladder).sort((a, b) => a[1] - b[1]).map(([bot, mu]) => `${level(bot)} ${mu.toFixed(1)}`).join(" · ");
    return h("li", { "data-game": game, "data-above": above ?? "", "data-below": below ?? "" },
      t("record.level", { game: title(game), where }), " ",
      h("span", { class: "muted" }, `(${sureness})`),
      h("span", { class: "muted record-scale" }, t("record.scale", { ladder })));
  });
  levels.replaceChildren(...(said.length ? said : [h("li", { class: "muted" }, t("record.no_level"))]));
}

function setupRecord() {
  $("record-export").addEventListener("click", exportRecord);
  $("record-import").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    const message = $("record-message");
    try {
      const added = importRecord(await file.text());
      message.textContent = t("record.imported", { n: added });
      message.className = "muted";
    } catch {
      message.textContent = t("record.bad_file");
      message.className = "error";
    }
    renderRecord();
  });
}

/** "Continue on another device": this browser's seats and record, handed to the server
 * for a single-use link (and its QR code) that another browser opens to take them. */
async function makeContinueLink() {
  const out = $("continue-link");
  const seats = mySeats().map(({ id, seat, key }) => ({ table: id, seat, key }));
  const record = loadRecord();
  if (!seats.length && !record.games.length) {
    out.replaceChildren(h("p", { class: "muted" }, t("continue.nothing")));
    return;
  }
  try {
    const made = await api("/api/transfers", { method: "POST", body: { seats, record, player: playerKey() } });
    const url = `${location.origin}${made.url}`;
    out.replaceChildren(h("div", { class: "invite continue-share" },
      h("p", { class: "invite-for" }, t("continue.once", { minutes: Math.round(made.seconds / 60) })),
      shareLink(url, { id: "continue-copy", caption: t("continue.qr"), t })));
  } catch (error) {
    out.replaceChildren(h("p", { class: "error" }, errorText(error)));
  }
}

function translate() {
  translatePage();
  renderGame();
  refreshTables();
  refreshMyGames();
  renderRecord();
  translateMatch();
  translateTurns();
  renderMoveDays();
}

/** The move clock in days (games across days), beside the one in seconds. */
function renderMoveDays() {
  const select = $("move-days");
  const chosen = select.value || "0";
  select.replaceChildren(...["0", "1", "2", "3", "7"].map((days) => new Option(t(`lobby.days.${days}`), days, false, days === chosen)));
}

/** A link to each game's score pad for games played with the box (games share pads). */
function renderPadLinks() {
  const pads = new Map(games.filter((g) => g.pad).map((g) => [g.pad.kind, g.pad]));
  const links = [...pads.values()].map((pad) => h("a", { href: pad.url, id: `pad-link-${pad.kind}`, "data-i18n": pad.label }));
  $("pad-links").replaceChildren(...links.flatMap((link, n) => (n ? [" · ", link] : [link])));
}

async function main() {
  await loadLanguage(pickLanguage());
  games = await api("/api/games");
  renderPadLinks();
  const select = $("game");
  // the catalogue's order: the featured game first, and the default
  for (const game of games) select.append(new Option(gameTitle(game.id, game.title), game.id));
  const wanted = new URLSearchParams(location.search).get("game") || localStorage.getItem("cardtable.game");
  select.value = wanted && games.some((g) => g.id === wanted) ? wanted : games[0].id;
  select.addEventListener("change", renderGame);
  $("coach").checked = localStorage.getItem("cardtable.coach") === "1";
  $("coach").addEventListener("change", () => localStorage.setItem("cardtable.coach", $("coach").checked ? "1" : "0"));
  $("preset").addEventListener("change", renderPresetHelp);
  $("name").value = localStorage.getItem("cardtable.name") || "";
  $("create-form").addEventListener("submit", createTable);
  // back from the table the page may come from the browser's cache, its button still busy
  window.addEventListener("pageshow", (event) => event.persisted && showCreating(false));
  setupRecord();
  setupMatch(games);
  setupTurns();
  $("continue-make").addEventListener("click", makeContinueLink);
  $("lang-slot").append(languageSwitch(translate));
  translate();
  // the page's buttons come disabled: pressed before this, they did nothing (a slow line)
  for (const id of ["create", "continue-make"]) $(id).disabled = false;
  setInterval(refreshTables, 5000);
}

main();
