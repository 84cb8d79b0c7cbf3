// Ohanami score pad for the boxed game: colour counts (or card numbers) per garden and stage.
import { api, cards, h, svg } from "/static/js/api.js";
import { ohanamiCard } from "./cards.js";
import { errorText, languageSwitch, loadLanguage, pickLanguage, t, translatePage } from "/static/js/i18n.js";
import { breakdown } from "/static/js/render/common.js";

const COLOURS = ["blue", "green", "grey", "pink"];
const $ = (id) => document.getElementById(id);
let pad = null;
let formStage = null;
let saving = Promise.resolve();
const typedCards = {}; // what each player typed as card numbers, kept when it is refused
const playerName = (n) => t("pad.player", { n: n + 1 });
// how many cards of each colour the box holds: a count field goes no higher, as the
// server's "the box has only 17 such cards" says
const inTheBox = { blue: 40, green: 40, grey: 40, pink: 40 };

function emptyStage(players) {
  return Array.from({ length: players }, () => ({ counts: { blue: 0, green: 0, grey: 0, pink: 0 } }));
}

function save() {
  const sent = JSON.parse(JSON.stringify(pad.data));
  saving = saving
    .then(async () => {
      const answer = await api(`/api/companion/${pad.id}`, { method: "PUT", body: sent });
      pad.results = answer.results;
      renderResults();
    })
    .catch((error) => $("pad-round").replaceChildren(h("p", { class: "error", role: "alert" }, t("pad.not_saved", { reason: errorText(error) }))));
  return saving;
}

function renderForm() {
  const stage = pad.data.rounds.length + 1;
  formStage = stage;
  $("setup").hidden = true;
  $("entry").hidden = false;
  $("result").hidden = false;
  $("pad-heading").textContent = `Ohanami · ${t("pad.stage_n", { n: Math.min(stage, 3) })}`;
  $("pad-save").hidden = stage > 3;
  const gardens = pad.data.current;
  $("pad-gardens").replaceChildren(...gardens.map((garden, n) =>
    h("fieldset", { class: "garden-entry", "data-player": n },
      h("legend", {}, playerName(n)),
      COLOURS.map((colour) => h("label", {}, svg(ohanamiCard("", colour), { class: "card tiny" }), ` ${t(`colour.${colour}`)} `,
        h("input", { type: "number", min: 0, max: inTheBox[colour], value: garden.counts?.[colour] ?? 0, "data-colour": colour,
          // as typed, even below 0 or past the box: the server says why it cannot count it
          oninput: (e) => { garden.counts = { ...garden.counts, [colour]: Number(e.target.value) || 0 }; delete garden.cards; save(); } }))),
      h("p", { class: "counts-problem error", "data-counts-problem": n, "aria-live": "polite" }),
      h("label", { class: "cards-field" }, t("pad.cards_instead"),
        h("input", { type: "text", class: "card-numbers", placeholder: "3 14 62", "data-cards": n,
          autocomplete: "off", "aria-describedby": `pad-cards-problem-${n}`,
          value: typedCards[n] ?? (garden.cards ? garden.cards.join(" ") : ""),
          onchange: (e) => {
            typedCards[n] = e.target.value;
            if (checkCards(n)) save();
          } })),
      h("p", { class: "cards-problem error", id: `pad-cards-problem-${n}`, "data-cards-problem": n, "aria-live": "polite" }))));
  for (const n of Object.keys(typedCards)) checkCards(Number(n));
}

/** Take player n's typed cards into the garden, or say under the field why not (the
 * counts and the text stay as they are). Whether they were taken. */
function checkCards(n) {
  const field = document.querySelector(`[data-cards="${n}"]`);
  const said = $(`pad-cards-problem-${n}`);
  if (!field || !said) return false;
  const { numbers, problems } = readCards(field.value);
  if (problems.length) {
    said.textContent = t("pad.bad_cards", { problems: problems.join("; ") });
    field.setAttribute("aria-invalid", "true");
    return false;
  }
  said.textContent = "";
  field.removeAttribute("aria-invalid");
  const gardens = pad.data.current;
  if (numbers.length) gardens[n] = { cards: numbers };
  else if (gardens[n].cards) gardens[n] = emptyStage(1)[0];
  return true;
}

/** Card numbers as typed ("3 14 62"): the numbers, and what is wrong with the rest. */
function readCards(text) {
  const numbers = [];
  const problems = [];
  for (const token of text.split(/[\s,;]+/).filter(Boolean)) {
    const number = Number(token);
    if (!/^\d+$/.test(token)) problems.push(t("pad.not_a_number", { token }));
    else if (number < 1 || number > 120) problems.push(t("pad.not_a_card", { token }));
    else if (numbers.includes(number)) problems.push(t("pad.twice", { token }));
    else numbers.push(number);
  }
  return { numbers, problems };
}

/** Why the stage cannot be scored, in the page's language (the server sends the reason's
 * catalogue key and values); said also under the colour count it is about, marked wrong. */
function showProblem(results) {
  for (const said of document.querySelectorAll("[data-counts-problem]")) said.textContent = "";
  for (const input of document.querySelectorAll("[data-colour]")) input.removeAttribute("aria-invalid");
  const why = results.current_error_reason;
  const text = why ? errorText({ key: why.key, values: why.values, message: results.current_error }, playerName) : results.current_error || "";
  const wrong = why?.values?.which
    ? [...document.querySelectorAll(`[data-colour="${why.values.which}"]`)].find((input) => Number(input.value) === why.values.wanted)
    : null;
  if (wrong) {
    wrong.setAttribute("aria-invalid", "true");
    wrong.closest("fieldset").querySelector("[data-counts-problem]").textContent = text;
  }
  return text;
}

function renderResults() {
  const results = pad.results;
  const ctx = { t, seatName: playerName, gameId: "ohanami", ruleSections: pad.rule_sections };
  const problem = showProblem(results);
  if (results.current) {
    $("pad-round").replaceChildren(breakdown(results.current, ctx, (c) => h("span", {}, c)));
    $("pad-round").dataset.scores = results.current.scores.join(",");
  } else {
    $("pad-round").replaceChildren(h("p", { class: "error", role: "alert" }, problem));
  }
  $("pad-history").replaceChildren(
    h("table", { class: "breakdown", id: "pad-totals" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), results.totals.map((_, n) => h("th", { class: "num" }, playerName(n))))),
      h("tbody", {},
      results.rounds.map((stage, k) => h("tr", {}, h("td", {}, t("pad.stage_n", { n: k + 1 })), stage.scores.map((s) => h("td", { class: "num" }, s)))),
      h("tr", { class: "totals" }, h("td", {}, t("pad.totals")), results.totals.map((s) => h("td", { class: "num" }, s))))));
  $("pad-leader").textContent = results.leaders.length ? t("pad.leader", { names: results.leaders.map(playerName).join(", ") }) : "";
  $("pad-totals").dataset.totals = results.totals.join(",");
}

function render() {
  translatePage();
  if (!pad) return;
  if (pad.data.rounds.length >= 3) {  // the game is over: totals and the winner only
    $("setup").hidden = true;
    $("entry").hidden = true;
    $("result").hidden = false;
    $("pad-save").hidden = true;
    $("pad-round-heading").hidden = true;
    renderResults();
    return;
  }
  if (!pad.data.current) pad.data.current = emptyStage(pad.players);
  if (formStage !== pad.data.rounds.length + 1 || !$("pad-gardens").children.length) renderForm();
  renderResults();
}

async function createPad() {
  const players = Number($("pad-players").value);
  try {
    pad = await api("/api/companion", { method: "POST", body: { kind: "ohanami", game: "ohanami", options: { players } } });
  } catch (error) {
    $("pad-error").textContent = errorText(error);
    return;
  }
  localStorage.setItem("cardtable.ohanami-pad", pad.id);
  history.replaceState(null, "", `/companion/ohanami?pad=${pad.id}`);
  pad.data.current = emptyStage(pad.players);
  render();
  await save();
}

async function nextStage() {
  if (!pad.results.current || pad.data.rounds.length >= 3) return;
  pad.data.rounds.push(pad.data.current);
  for (const n of Object.keys(typedCards)) delete typedCards[n];
  // gardens only grow: the next stage starts from this one's counts
  pad.data.current = pad.data.rounds.length < 3 ? JSON.parse(JSON.stringify(pad.data.current)) : null;
  await save();
  render();
}

async function main() {
  await loadLanguage(pickLanguage());
  const colours = Object.values((await cards()).ohanami.colours);
  for (const colour of COLOURS) inTheBox[colour] = colours.filter((c) => c === colour).length;
  $("lang-slot").append(languageSwitch(() => { formStage = null; render(); }));
  for (let n = 2; n <= 4; n++) $("pad-players").append(new Option(String(n), String(n)));
  $("pad-new").addEventListener("click", createPad);
  $("pad-save").addEventListener("click", nextStage);
  const wanted = new URLSearchParams(location.search).get("pad") || localStorage.getItem("cardtable.ohanami-pad");
  if (wanted) {
    try {
      pad = await api(`/api/companion/${wanted}`);
      history.replaceState(null, "", `/companion/ohanami?pad=${pad.id}`);
    } catch {
      localStorage.removeItem("cardtable.ohanami-pad");
    }
  }
  translatePage();
  render();
}

main();
