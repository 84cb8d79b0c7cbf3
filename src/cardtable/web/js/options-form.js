// House-rule forms drawn from a game's options JSON schema (lobby and companion pads).
import { h } from "./api.js";

export function choicesOf(property) {
  if (!property) return null;
  if (property.enum) return property.enum;
  if (property.const !== undefined) return [property.const];
  const variants = property.anyOf || property.oneOf;
  if (variants && variants.every((v) => v.const !== undefined || v.enum)) {
    return variants.flatMap((v) => (v.enum ? v.enum : [v.const]));
  }
  return null;
}

/** The words a game's catalogue has for an option: its label, its help, each choice. */
function wordsFor(game, name, property, t) {
  const key = `option.${game}.${name}`;
  const said = (k, fallback) => {
    if (!t) return fallback;
    const text = t(k);
    return text === k ? fallback : text;
  };
  return {
    label: said(key, property.title || name.replace(/_/g, " ")),
    help: said(`${key}.help`, property.description || ""),
    value: (choice) => said(`${key}.${choice}`, String(choice)),
  };
}

/** One form field for an option, from its JSON schema; with `words` ({game, t}) it is
 * labelled, explained and its choices said in the page's language. */
export function optionField(name, property, words = null) {
  const said = wordsFor(words?.game, name, property, words?.t);
  const label = said.label;
  const choices = choicesOf(property);
  let input;
  if (property.type === "boolean") {
    input = h("input", { type: "checkbox", "data-option": name, "data-kind": "bool" });
    input.checked = Boolean(property.default);
  } else if (choices) {
    input = h("select", { "data-option": name, "data-kind": "json" });
    for (const choice of choices) {
      input.append(new Option(said.value(choice), JSON.stringify(choice), false, choice === property.default));
    }
  } else if (property.type === "array") {
    const value = (property.default || []).join(", ");
    input = h("input", { "data-option": name, "data-kind": "list", value, placeholder: "1, 2" });
  } else if (property.type === "integer" || property.type === "number") {
    input = h("input", {
      type: "number",
      "data-option": name,
      "data-kind": "number",
      min: property.minimum,
      max: property.maximum,
      step: property.type === "integer" ? 1 : "any",
      value: property.default,
    });
  } else {
    input = h("input", { "data-option": name, "data-kind": "text", value: property.default ?? "" });
  }
  const row = h("label", { class: property.type === "boolean" ? "check" : "", title: words ? null : said.help });
  if (property.type === "boolean") row.append(input, " ", label);
  else row.append(h("span", {}, label), " ", input);
  if (!words || !said.help) return row;
  // a phone has no hover: the explanation is on the page, under its option
  return h("div", { class: "option", "data-option-row": name }, row, h("p", { class: "option-help" }, said.help));
}

/** The options whose inputs differ from their defaults, read from ``root``. */
export function readChangedOptions(schema, root = document) {
  const options = {};
  for (const input of root.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const property = schema.properties?.[name];
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "json") value = JSON.parse(input.value);
    else if (input.dataset.kind === "number") value = Number(input.value);
    else if (input.dataset.kind === "list") value = input.value.split(",").map((v) => v.trim()).filter(Boolean).map(Number);
    else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(property?.default)) options[name] = value;
  }
  return options;
}

/** Every option of ``schema`` as form fields, but those left to the command line; with
 * `words`, grouped as the game declares (x-groups), each group folded. */
export function optionFields(schema, skip = ["players"], words = null) {
  const shown = Object.entries(schema.properties || {})
    .filter(([name, property]) => !skip.includes(name) && !property["x-local-only"]);
  if (!words || !schema["x-groups"]) return shown.map(([name, property]) => optionField(name, property, words));
  return schema["x-groups"]
    .map((group) => {
      const fields = shown.filter(([, property]) => property["x-group"] === group);
      if (!fields.length) return null;
      return h("details", { class: "option-group", "data-group": group },
        h("summary", {}, words.t(`group.${group}`), h("span", { class: "count" }, ` (${fields.length})`)),
        fields.map(([name, property]) => optionField(name, property, words)));
    })
    .filter(Boolean);
}

/** A game's rule sets as the choices of `select`, each in the catalogue's words, "default"
 * chosen; what the chosen one means goes to `help` (an element) as the choice changes. */
export function presetChoices(select, game, t, help = null) {
  select.replaceChildren(...game.presets.map((name) => new Option(t(`preset.${game.id}.${name}`), name, false, name === "default")));
  const explain = () => {
    if (help) help.textContent = t(`preset.${game.id}.${select.value}.help`);
  };
  select.onchange = explain;
  explain();
}

/** The rule set chosen in `select` as a request names it: none for the game's defaults. */
export function chosenPreset(select) {
  return select.value && select.value !== "default" ? select.value : null;
}

/** The fewest and most players a game's options allow. */
export function playerRange(game) {
  const property = game.schema.properties?.players;
  if (!property) return [2, 2];
  const choices = choicesOf(property);
  if (choices) return [Math.min(...choices), Math.max(...choices)];
  return [property.minimum ?? property.default, property.maximum ?? property.default];
}

/** The house rules a table plays by, in words: each option of ``options`` that differs from
 * the schema's default, labelled, valued and explained as the new-table form says it. */
export function describeOptions(schema, options, words, skip = ["players"]) {
  return Object.entries(schema.properties || {})
    .filter(([name, property]) => !skip.includes(name) && !property["x-local-only"] && name in options)
    .filter(([name, property]) => JSON.stringify(options[name]) !== JSON.stringify(property.default))
    .map(([name, property]) => {
      const said = wordsFor(words.game, name, property, words.t);
      const value = options[name];
      let text;
      if (typeof value === "boolean") text = words.t(value ? "rules.yes" : "rules.no");
      else if (Array.isArray(value)) text = value.join(", ");
      else text = said.value(value);
      return { name, label: said.label, value: text, help: said.help };
    });
}
