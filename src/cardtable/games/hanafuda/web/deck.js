// The deck page (/cards): the 48 cards by month, and for each what it counts for in each
// hanafuda game: its kind, its points where the game counts them, the yaku it is part of.
// Everything comes from the card data (/api/cards: the deck and the yaku tables).
import { cards, h } from "/static/js/api.js";
import { LANGUAGES, lang, languageSwitch, loadLanguage, pickLanguage, t, translatePage } from "/static/js/i18n.js";
import { hanafudaCard } from "./cards.js";
import { cardName } from "./names.js";

let data = null;

function yakuChip(row) {
  const meaning = t(`${row.key}.meaning`);
  const said = meaning && meaning !== `${row.key}.meaning` ? meaning : "";
  return h("span", { class: "yaku-chip", title: said ? `${t(row.key)}: ${said}` : t(row.key) },
    t(row.key), said ? h("span", { class: "meaning" }, ` (${said})`) : "");
}

function gameLine(card, gameId, game) {
  const yaku = game.yaku.filter((row) => row.counts.includes(card.code) || row.requires.includes(card.code));
  const counts = [t(`kind.${card.kind}`)];
  if (game.card_points) counts.push(t("hanafuda.points_short", { n: card.value }));
  return h("li", { "data-game": gameId },
    h("a", { class: "game", href: `/rules/${gameId}?lang=${lang()}` }, game.title), " ",
    h("span", { class: "counts" }, counts.join(" · ")), " ",
    h("span", { class: "yaku-chips" }, yaku.length ? yaku.map(yakuChip) : h("span", { class: "muted" }, t("cards.no_yaku"))));
}

function render() {
  translatePage();
  document.title = `cardtable — ${t("cards.title")}`;
  const ctx = { cards: data, lang: lang(), t };
  const hanafuda = data.hanafuda;
  // the featured game (the most played) first, as in the lobby; then the catalogue's order
  const games = Object.entries(hanafuda.games).sort(([, a], [, b]) => b.featured - a.featured);
  $("deck-links").replaceChildren(
    h("a", { class: "button", href: "/" }, t("cards.to_lobby")),
    ...games.map(([id, game]) => h("a", { class: "button", href: `/rules/${id}?lang=${lang()}` }, game.title)));
  $("months").replaceChildren(...hanafuda.months.map((month) => {
    const plant = month[lang()] ?? month.en;
    const monthCards = hanafuda.cards.filter((card) => card.month === month.number);
    return h("section", { class: "panel month", id: `month-${month.number}` },
      h("h2", {}, t("cards.month", { n: month.number, plant }), " ", h("span", { class: "muted ja" }, month.ja)),
      h("div", { class: "month-cards" }, monthCards.map((card) =>
        h("article", { class: "deck-card", "data-code": card.code },
          h("div", { class: "art", html: hanafudaCard(card, lang()) }),
          h("div", { class: "about" },
            h("h3", {}, cardName(card.code, ctx), " ", h("span", { class: "muted code" }, card.code)),
            h("ul", { class: "per-game" }, games.map(([id, game]) => gameLine(card, id, game))))))));
  }));
}

const $ = (id) => document.getElementById(id);

async function main() {
  const asked = new URLSearchParams(location.search).get("lang");
  await loadLanguage(asked && asked in LANGUAGES ? asked : pickLanguage());
  data = await cards();
  $("lang-slot").append(languageSwitch(() => {
    const url = new URL(location.href);
    url.searchParams.set("lang", lang());
    history.replaceState(null, "", url);
    render();
  }));
  render();
}

main();
