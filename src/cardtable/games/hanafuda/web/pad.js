// Round calculator for hanafuda played with a real deck: tap captured cards, get the score.
import { api, cards, h, svg } from "/static/js/api.js";
import { hanafudaCard } from "./cards.js";
import { errorText, lang, languageSwitch, loadLanguage, pickLanguage, t, translatePage } from "/static/js/i18n.js";
import { chosenPreset, optionFields, playerRange, presetChoices, readChangedOptions } from "/static/js/options-form.js";
import { breakdown } from "/static/js/render/common.js";
import { lineCards } from "./render.js";

const $ = (id) => document.getElementById(id);
let games = [];
let cardData = null; // the deck and what each game makes of it (/api/cards)
let deck = null;
let pad = null; // the server's answer: the pad, its data and its results
let active = 0; // the player whose cards a tap assigns
let mode = "piles"; // what a tap marks: captured cards, a dealt hand (hand yaku), the table left
let saving = Promise.resolve();

const playerName = (n) => t("pad.player", { n: n + 1 });
/** The card faces' points corner: only in the games that score card points. */
const faces = () => ({ points: Boolean(cardData?.hanafuda?.games?.[pad?.game]?.card_points) });
/** Whether the pad's game scores a round by ``fact`` too (hands, table, calls, shobu). */
const reads = (fact) => Boolean(cardData?.hanafuda?.games?.[pad?.game]?.round_facts?.includes(fact));

function emptyRound(players, dealer = 0) {
  return { piles: Array.from({ length: players }, () => []), dealer, calls: Array(players).fill(0), shobu: null, table: [], hands: [] };
}

function setupForm() {
  const select = $("pad-game");
  if (!select.options.length) {
    // every game that names this pad, in the lobby's order (/api/games: the featured first)
    for (const game of games.filter((g) => g.pad?.kind === "hanafuda")) {
      select.append(new Option(game.title, game.id));
    }
    select.addEventListener("change", setupForm);
  }
  const game = games.find((g) => g.id === select.value);
  const players = game.schema.properties.players;
  const [low, high] = playerRange(game);
  const playersSelect = $("pad-players");
  playersSelect.replaceChildren();
  for (let n = low; n <= high; n++) playersSelect.append(new Option(String(n), String(n), false, n === (players?.default ?? low)));
  // the rule sets and house rules as the new-table form says them: grouped, explained
  presetChoices($("pad-preset"), game, t, $("pad-preset-help"));
  $("pad-rule-fields").replaceChildren(...optionFields(game.schema, ["players", "rounds"], { game: game.id, t }));
}

async function createPad() {
  $("pad-error").textContent = "";
  const game = $("pad-game").value;
  const schema = games.find((g) => g.id === game).schema;
  const options = readChangedOptions(schema, $("pad-rule-fields"));
  if (schema.properties.players) options.players = Number($("pad-players").value);
  try {
    pad = await api("/api/companion", { method: "POST", body: { kind: "hanafuda", game, preset: chosenPreset($("pad-preset")), options } });
  } catch (error) {
    $("pad-error").textContent = errorText(error);
    return;
  }
  localStorage.setItem("cardtable.pad", pad.id);
  history.replaceState(null, "", `/companion/hanafuda?pad=${pad.id}`);
  pad.data.current = emptyRound(pad.players);
  await save();
}

function save() {
  // one write at a time, in order: the last tap always wins
  // the page's entries are the truth; each answer brings the scores of what was sent
  const sent = JSON.parse(JSON.stringify(pad.data));
  saving = saving.then(async () => {
    const answer = await api(`/api/companion/${pad.id}`, { method: "PUT", body: sent });
    pad.results = answer.results;
    render();
  }).catch((error) => {
    $("pad-round").replaceChildren(h("p", { class: "error", role: "alert" }, t("pad.not_saved", { reason: errorText(error) })));
  });
  return saving;
}

function groups() {
  const current = pad.data.current;
  if (mode === "table") return [current.table];
  if (mode === "hands") {
    while (current.hands.length < current.piles.length) current.hands.push([]);
    return current.hands;
  }
  return current.piles;
}

function owner(code) {
  return groups().findIndex((group) => group.includes(code));
}

function tap(code) {
  const lists = groups();
  const target = mode === "table" ? 0 : active;
  const holder = owner(code);
  if (holder >= 0) lists[holder].splice(lists[holder].indexOf(code), 1);
  if (holder !== target) lists[target].push(code);
  save();
}

function modeButtons() {
  const modes = [["piles", t("pad.mode_piles")]];
  if (reads("hands")) modes.push(["hands", t("pad.mode_hands")]);
  if (reads("table")) modes.push(["table", t("pad.mode_table")]);
  if (modes.length === 1) return []; // the piles alone: nothing to switch between
  return modes.map(([key, label]) =>
    h("button", { class: `mode${mode === key ? " chosen" : ""}`, "data-mode": key, onclick: () => { mode = key; render(); } }, label));
}

function renderEntry() {
  const current = pad.data.current;
  $("setup").hidden = true;
  $("entry").hidden = false;
  $("result").hidden = false;
  $("pad-heading").textContent = `${pad.title} · ${t("pad.round_n", { n: pad.data.rounds.length + 1 })}`;
  $("pad-seats").replaceChildren(
    h("div", { class: "pad-modes" }, modeButtons()),
    ...(mode === "table" ? [] : groups().map((group, n) =>
      h("button", { class: `seat-tab${n === active ? " chosen" : ""}`, "data-player": n, onclick: () => { active = n; render(); } },
        `${playerName(n)} · ${group.length}`))),
  );
  const extras = [];
  const dealer = h("select", { id: "pad-dealer", onchange: (e) => { current.dealer = Number(e.target.value); save(); } },
    current.piles.map((_, n) => new Option(playerName(n), String(n), false, n === current.dealer)));
  extras.push(h("label", {}, h("span", {}, t("pad.dealer")), " ", dealer));
  if (reads("shobu")) {
    const shobu = h("select", { id: "pad-shobu", onchange: (e) => { current.shobu = e.target.value === "" ? null : Number(e.target.value); save(); } },
      new Option(t("pad.nobody"), "", false, current.shobu === null),
      current.piles.map((_, n) => new Option(playerName(n), String(n), false, n === current.shobu)));
    extras.push(h("label", {}, h("span", {}, t("pad.shobu")), " ", shobu));
    current.piles.forEach((_, n) => {
      const input = h("select", { "data-calls": n, onchange: (e) => { current.calls[n] = Number(e.target.value); save(); } },
        [0, 1, 2, 3, 4, 5, 6].map((k) => new Option(String(k), String(k), false, k === (current.calls[n] ?? 0))));
      extras.push(h("label", {}, h("span", {}, `${t("pad.calls")} · ${playerName(n)}`), " ", input));
    });
  }
  $("pad-extras").replaceChildren(...extras);
  $("pad-prompt").textContent = mode === "table" ? t("pad.tap_table")
    : mode === "hands" ? t("pad.tap_hand", { name: playerName(active) }) : t("pad.tap", { name: playerName(active) });
  const byMonth = [];
  for (let month = 1; month <= 12; month++) byMonth.push(deck.filter((c) => c.month === month));
  $("pad-cards").replaceChildren(...byMonth.map((month) =>
    h("div", { class: "pad-month" }, month.map((card) => {
      const holder = owner(card.code);
      const element = svg(hanafudaCard(card, lang(), faces()), {
        class: `card small playable${holder === (mode === "table" ? 0 : active) ? " selected" : ""}${holder >= 0 && holder !== (mode === "table" ? 0 : active) ? " taken" : ""}`,
        "data-code": card.code, role: "button", tabindex: 0,
        title: holder >= 0 ? t("pad.captured_by", { name: playerName(holder) }) : card.name[lang()] || card.name.en,
        onclick: () => tap(card.code),
      });
      if (holder >= 0) element.append(h("span", { class: "owner" }, mode === "table" ? "T" : String(holder + 1)));
      return element;
    }))));
}

function settlementList(element, payments) {
  element.replaceChildren(...(payments.length
    // the one paid in the case "pays" asks for ("Gracz 2 płaci Graczowi 1: 15")
    ? payments.map(([payer, payee, amount]) => h("li", {}, t("pad.pays", { payer: playerName(payer), payee: t("pad.player_to", { n: payee + 1 }), amount })))
    : [h("li", { class: "muted" }, t("pad.even"))]));
}

function renderResult() {
  const results = pad.results;
  const ctx = { t, seatName: playerName, gameId: pad.game, ruleSections: pad.rule_sections, cards: cardData };
  const info = Object.fromEntries(deck.map((c) => [c.code, c]));
  const draw = (code, size) => svg(hanafudaCard(info[code], lang(), faces()), { class: `card ${size}`, "data-code": code });
  if (results.current) {
    $("pad-round").replaceChildren(breakdown(results.current, ctx, draw, (line) => lineCards(line, ctx, draw)));
    $("pad-round").dataset.scores = results.current.scores.join(",");
    settlementList($("pad-settlement"), results.current_settlement);
    if (results.current_balance) {
      $("pad-settlement").append(h("li", { class: "muted", id: "pad-balance" }, t("pad.balance", { n: results.current_balance })));
    }
  } else {
    $("pad-round").replaceChildren(h("p", { class: "error" }, results.current_error || ""));
    $("pad-settlement").replaceChildren();
  }
  const history = $("pad-history");
  history.replaceChildren(
    h("table", { class: "breakdown", id: "pad-totals" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), results.totals.map((_, n) => h("th", { class: "num" }, playerName(n))))),
      h("tbody", {},
      results.rounds.map((round, k) => h("tr", {}, h("td", {}, `#${k + 1}`), round.scores.map((s) => h("td", { class: "num" }, s)))),
      h("tr", { class: "totals" }, h("td", {}, t("pad.totals")), results.totals.map((s) => h("td", { class: "num" }, s))))),
  );
  const match = h("ul", { class: "settlement", id: "pad-match-settlement" });
  settlementList(match, results.settlement);
  history.append(match);
}

function render() {
  translatePage();
  if (!pad) {
    setupForm(); // in the language just chosen
    return;
  }
  if (!pad.data.current) pad.data.current = emptyRound(pad.players);
  renderEntry();
  renderResult();
}

async function nextRound() {
  const current = pad.data.current;
  if (!pad.results.current) return;
  pad.data.rounds.push(current);
  pad.data.current = emptyRound(pad.players, current.dealer);
  active = 0;
  await save();
}

async function main() {
  await loadLanguage(pickLanguage());
  games = await api("/api/games");
  cardData = await cards();
  deck = cardData.hanafuda.cards;
  $("lang-slot").append(languageSwitch(render));
  translatePage();
  $("pad-new").addEventListener("click", createPad);
  $("pad-save").addEventListener("click", nextRound);
  const wanted = new URLSearchParams(location.search).get("pad") || localStorage.getItem("cardtable.pad");
  if (wanted) {
    try {
      pad = await api(`/api/companion/${wanted}`);
      history.replaceState(null, "", `/companion/hanafuda?pad=${pad.id}`);
    } catch {
      localStorage.removeItem("cardtable.pad");
    }
  }
  render();
}

main();
