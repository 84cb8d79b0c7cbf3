// 7 słów in the browser, without the DOM: which area cards a word uses and what it scores (the
// server's scoring.py; games/siedem_slow/pages/siedem-slow.md, "Scoring a word"), and a stable
// id for each letter card.

/** The columns left to right (slot = column * 2 + row), as area.py lays them out. */
export const COLUMN_VALUES = [5, 4, 3, 2];
const ROWS_PER_COLUMN = 2;

export const columnOf = (slot) => Math.floor(slot / ROWS_PER_COLUMN);

/** The form words are compared and scored in: NFC, lower case (scoring.normalize). */
export const normalizeWord = (word) => String(word ?? "").trim().normalize("NFC").toLowerCase();

/** Every filled slot of the view's area: `{slot, letter, bonus, value, column, id, dealt}`.
 *
 * The server sends no card ids, but the area moves in a fixed way (§6: the 5 and 4 columns
 * slide to 3 and 2, new cards fill 5 and 4), so a card's id is where and when it was dealt:
 * a card in the right half came from the left half one round earlier. `dealt` says it came
 * from the deck this round. */
export function areaCards(view) {
  const round = view.round ?? 1;
  const cards = [];
  (view.area || []).forEach((card, slot) => {
    if (!card) return;
    const slid = round > 1 && slot >= 4;
    const dealtRound = slid ? round - 1 : round;
    const dealtSlot = slid ? slot - 4 : slot;
    cards.push({
      ...card,
      slot,
      column: COLUMN_VALUES[columnOf(slot)],
      id: `L${dealtRound}-${dealtSlot}`,
      dealt: !slid,
    });
  });
  return cards;
}

/** Area letter (lower case) -> its cards, the one that scores first when the word holds
 * the letter once (scoring.letter_groups; `better` is the table's `better_card` option). */
function letterGroups(cards, better) {
  const groups = new Map();
  for (const card of cards) {
    const letter = normalizeWord(card.letter);
    if (!groups.has(letter)) groups.set(letter, []);
    groups.get(letter).push(card);
  }
  const byValue = (a, b) => b.value - a.value || a.slot - b.slot;
  const byColumn = (a, b) => columnOf(a.slot) - columnOf(b.slot) || byValue(a, b);
  for (const group of groups.values()) group.sort(better === "column" ? byColumn : byValue);
  return groups;
}

/** What `word` takes from the area: `{letters, used, points}`.
 *
 * `letters`: each typed letter with the card it scores on (`card` null: a letter the area
 * does not have, or has no card of left — it is allowed, it only scores nothing).
 * `used`: the slots used. `points`: the sum of their values (the server's score for a
 * player without the veteran handicap). Each card counts once per occurrence of its letter,
 * the best cards first, so the third K of a word scores nothing when the area has two. */
export function wordUse(word, cards, better = "value") {
  const groups = letterGroups(cards, better);
  const taken = new Map(); // letter -> cards of it used so far
  const letters = [];
  for (const char of normalizeWord(word)) {
    if (!/\p{L}/u.test(char)) continue;
    const group = groups.get(char) || [];
    const count = taken.get(char) ?? 0;
    const card = group[count] ?? null;
    taken.set(char, count + 1);
    letters.push({ char, card });
  }
  const usedCards = letters.map((l) => l.card).filter(Boolean);
  return {
    letters,
    used: new Set(usedCards.map((c) => c.slot)),
    points: usedCards.reduce((sum, c) => sum + c.value, 0),
  };
}

/** Whether the browser's sum is the server's score for `seat`: not for a veteran, whose
 * cards beyond the best few are worth 1 (the server says its points after writing). */
export function scoresExactly(options, seat) {
  if (seat === null || seat === undefined) return false;
  return !(options?.veterans || []).includes(seat);
}
