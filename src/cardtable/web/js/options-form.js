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

/** One form field for an option, from its JSON schema. */
export function optionField(name, property) {
  const label = property.title || name.replace(/_/g, " ");
  const choices = choicesOf(property);
  let input;
  if (property.type === "boolean") {
    input = h("input", { type: "checkbox", "data-option": name, "data-kind": "bool" });
    input.checked = Boolean(property.default);
  } else if (choices) {
    input = h("select", { "data-option": name, "data-kind": "json" });
    for (const choice of choices) {
      input.append(new Option(String(choice), JSON.stringify(choice), false, choice === property.default));
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
  const row = h("label", { class: property.type === "boolean" ? "check" : "", title: property.description || "" });
  if (property.type === "boolean") row.append(input, " ", label);
  else row.append(h("span", {}, label), " ", input);
  return row;
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

/** Every option of ``schema`` as form fields, but those left to the command line. */
export function optionFields(schema, skip = ["players"]) {
  return Object.entries(schema.properties || {})
    .filter(([name, property]) => !skip.includes(name) && !property["x-local-only"])
    .map(([name, property]) => optionField(name, property));
}

/** The fewest and most players a game's options allow. */
export function playerRange(game) {
  const property = game.schema.properties?.players;
  if (!property) return [2, 2];
  const choices = choicesOf(property);
  if (choices) return [Math.min(...choices), Math.max(...choices)];
  return [property.minimum ?? property.default, property.maximum ?? property.default];
}
