// The lobby: a table form rendered from each game's options JSON schema, and open tables.
import { api, h } from "./api.js";
import { optionFields, playerRange, readChangedOptions } from "./options-form.js";
import { languageSwitch, loadLanguage, pickLanguage, t, translatePage } from "./i18n.js";

let games = [];
const $ = (id) => document.getElementById(id);

function currentGame() {
  return games.find((g) => g.id === $("game").value) || games[0];
}

function schemaProperty(game, name) {
  return game.schema.properties?.[name];
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
  for (let seat = 0; seat < count; seat++) {
    const select = h("select", { class: "seat-kind", "data-seat": seat, "aria-label": t("lobby.seat", { n: seat + 1 }) });
    if (seat === 0) {
      select.append(new Option(t("lobby.you"), "human"));
      select.disabled = true;
    } else {
      const levels = ["hard", "medium", "easy", "random"].filter((b) => game.bots.includes(b));
      for (const bot of [...levels, ...game.bots.filter((b) => !levels.includes(b))]) {
        select.append(new Option(t("lobby.bot", { name: bot }), `bot:${bot}`));
      }
      select.append(new Option(t("lobby.human"), "human"));
      select.value = game.bots.includes("medium") ? "bot:medium" : select.options[0].value;
    }
    fieldset.append(h("label", {}, h("span", {}, t("lobby.seat", { n: seat + 1 })), " ", select));
  }
}

function renderGame() {
  const game = currentGame();
  $("game-summary").textContent = game.summary;
  const preset = $("preset");
  preset.replaceChildren(new Option(t("lobby.preset.none"), ""));
  for (const name of game.presets) preset.append(new Option(name, name));
  const fields = $("rule-fields");
  fields.replaceChildren(...optionFields(game.schema));
  renderSeats();
}

function readOptions() {
  const game = currentGame();
  const options = readChangedOptions(game.schema, document.getElementById("rule-fields"));
  const seats = [...document.querySelectorAll(".seat-kind")];
  if (schemaProperty(game, "players")) options.players = seats.length;
  return options;
}

async function createTable(event) {
  event.preventDefault();
  $("form-error").textContent = "";
  const seats = [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
  const name = $("name").value.trim();
  localStorage.setItem("cardtable.name", name);
  try {
    const created = await api("/api/tables", {
      method: "POST",
      body: {
        game: currentGame().id,
        preset: $("preset").value || null,
        options: readOptions(),
        seats,
        names: [name],
        public: $("public").checked,
        move_seconds: Number($("move-seconds").value) || 0,
      },
    });
    sessionStorage.setItem(`cardtable.invites.${created.id}`, JSON.stringify(created.invites));
    location.href = created.url;
  } catch (error) {
    $("form-error").textContent = error.message;
  }
}

async function refreshTables() {
  const list = $("table-list");
  let tables = [];
  try {
    tables = await api("/api/tables");
  } catch {
    return;
  }
  list.replaceChildren();
  if (!tables.length) list.append(h("li", { class: "muted" }, t("lobby.none")));
  for (const table of tables) {
    const who = table.seats.map((s) => s.name).join(", ");
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
        h("strong", {}, table.title), " ",
        h("span", { class: "muted" }, who), " ",
        table.free_seats.length ? h("span", { class: "tag" }, t("lobby.free", { n: table.free_seats.length })) : "",
        actions),
    );
  }
}

function translate() {
  translatePage();
  renderGame();
  refreshTables();
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
  for (const game of games) select.append(new Option(game.title, game.id));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) select.value = wanted;
  select.addEventListener("change", renderGame);
  $("name").value = localStorage.getItem("cardtable.name") || "";
  $("create-form").addEventListener("submit", createTable);
  $("lang-slot").append(languageSwitch(translate));
  translate();
  setInterval(refreshTables, 5000);
}

main();
