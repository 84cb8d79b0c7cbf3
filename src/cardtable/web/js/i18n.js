// UI language: chosen from the browser, switchable, remembered in localStorage.
export const LANGUAGES = { en: "English", pl: "Polski", ru: "Русский" };
let messages = {};
let current = "en";

export function pickLanguage() {
  const saved = localStorage.getItem("cardtable.lang");
  if (saved && saved in LANGUAGES) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const base = wanted.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export async function loadLanguage(lang) {
  const response = await fetch(`/api/locales/${lang}`);
  messages = await response.json();
  current = lang;
  document.documentElement.lang = lang;
  localStorage.setItem("cardtable.lang", lang);
}

export function lang() {
  return current;
}

/** A game's name as the reader's language writes it (Russian: "Кои-кои", so one
 * spelling on a screen), else its title as the server gives it. */
export function gameTitle(id, fallback = id) {
  const key = `game.${id}.title`;
  return key in messages ? messages[key] : fallback;
}

export function t(key, vars = {}) {
  const text = messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** A bot level's name in this language, as a seat is called ("trudny"). */
export function botName(level) {
  const words = t(`bot.${level}`);
  return words === `bot.${level}` ? level : words.toLowerCase(); // as the server's str.lower
}

/** Each seat's name in this page's language: the name a person chose, else what sits
 * there ("Gracz 2", "Bot (trudny)"), numbered apart like the server's seat_labels
 * (server/seat_names.py), so a spectator reads the seats in their own language. */
export function seatLabels(seats) {
  const labels = [];
  seats.forEach((seat, n) => {
    let own = seat.name;
    if (seat.chosen === false) {
      own = seat.kind === "human" ? t("lobby.default_name", { n: n + 1 }) : t("lobby.bot_name", { name: botName(seat.kind.slice(4)) });
    }
    let label = own;
    for (let k = 2; labels.includes(label); k += 1) label = `${own} ${k}`;
    labels.push(label);
  });
  return labels;
}

/** A failed request in the page's language: a refused move by its message key and values
 * (seats by `seatName` where given), else by the server's error code where the catalogue
 * has it (error.CODE), no connection as such; otherwise the server's own words. */
export function errorText(error, seatName) {
  if (error instanceof TypeError) return t("error.offline");
  if (error.key && error.key in messages) {
    const values = {};
    for (const [name, value] of Object.entries(error.values || {})) values[name] = valueText(value, seatName);
    return t(error.key, values);
  }
  const key = `error.${error.code}`;
  return error.code && key in messages ? t(key) : error.message;
}

/** A message value as the server sends it (cardtable.locales.value_json) in this language:
 * a seat by `seatName` where given, a term, or the page's language of a value given in each. */
export function valueText(value, seatName) {
  if (value === null || typeof value !== "object") return value;
  if ("seat" in value) return seatName ? seatName(value.seat) : t("line.seat", { n: value.seat + 1 });
  if ("term" in value) return t(value.term);
  return value[current] ?? value.en ?? "";
}

/** A language <select> that reloads the page's texts through `onChange`. */
export function languageSwitch(onChange) {
  const select = document.createElement("select");
  select.id = "lang";
  select.setAttribute("aria-label", "Language");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === current);
    select.append(option);
  }
  select.addEventListener("change", async () => {
    await loadLanguage(select.value);
    onChange();
  });
  return select;
}

/** Fill every element carrying data-i18n with its message. */
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = t(element.dataset.i18nPlaceholder);
  }
}
