// Hanafuda cards said in words, in the player's language: "Cherry curtain", "Wiśnia: kurtyna".
const byCode = new WeakMap();

/** code -> card, from the card data the page loaded once. */
export function cardInfo(ctx) {
  const data = ctx.cards.hanafuda;
  if (!byCode.has(data)) byCode.set(data, Object.fromEntries(data.cards.map((c) => [c.code, c])));
  return byCode.get(data);
}

function lowerFirst(text) {
  return text.charAt(0).toLocaleLowerCase() + text.slice(1);
}

export function cardName(code, ctx) {
  const card = cardInfo(ctx)[code];
  if (!card) return code;
  const lang = ctx.lang;
  const month = ctx.cards.hanafuda.months[card.month - 1];
  const plant = month[lang] ?? month.en;
  const name = card.name[lang] ?? card.name.en;
  if (name.toLocaleLowerCase() === plant.toLocaleLowerCase()) {
    return ctx.t("hanafuda.card_plain", { plant, kind: lowerFirst(ctx.t(`kind.${card.kind}`)) });
  }
  if (name.toLocaleLowerCase().includes(plant.toLocaleLowerCase())) return name;
  return ctx.t("hanafuda.card", { plant, name: lowerFirst(name) });
}

export function cardList(codes, ctx) {
  return codes.map((code) => cardName(code, ctx)).join(", ");
}
