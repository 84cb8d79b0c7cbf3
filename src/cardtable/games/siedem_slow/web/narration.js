// 7 słów told in words (the `narrate` hook of docs/web-client.md): what happened this round
// so far, as the view lets anyone see it. Every line's id names its event (round and seat),
// so the same event has the same id in every frame and the shell shows it once.

const WRITING = ["writing", "hourglass", "overtime"];

export function narrate(view, ctx) {
  if (!view) return [];
  return [
    ...endedRound(view, ctx),
    ...hourglassLines(view, ctx),
    ...lockLines(view, ctx),
    ...reviewLines(view, ctx),
  ];
}

/** The round that ended last: the words written, then each challenge's outcome. */
function endedRound(view, ctx) {
  const result = playedRound(view);
  if (!result) return [];
  const { t, seatName } = ctx;
  const n = result.round;
  const words = (view.history || [])[n - 1] || [];
  const written = words.map((w) => w.word
    ? `${seatName(w.seat)} ${w.word.toUpperCase()} ${w.points}`
    : `${seatName(w.seat)} —`);
  const lines = [];
  if (written.length) {
    lines.push({ id: `r${n}:words`, text: t("word.said_round", { n, words: written.join(" · ") }), announce: false });
  }
  result.lines.forEach((line, i) => {
    if (!line.rule.startsWith("challenge:")) return;
    const text = line.labels?.[ctx.lang] ?? line.label;
    lines.push({ id: `r${n}:challenge:${i}`, text: t("word.said_line", { name: seatName(line.seat), text }), announce: true });
  });
  return lines;
}

/** The result of the last round played: at the game's end the view's `last_round` is the
 * strike-out, and the final round is `final_round`. */
function playedRound(view) {
  return view.final_round ?? view.last_round ?? null;
}

function hourglassLines(view, ctx) {
  const { t, seatName } = ctx;
  const r = view.round;
  if (view.fastest !== null && view.fastest !== undefined) {
    const text = view.fastest === ctx.seat ? t("word.said_you_flipped") : t("word.said_flipped", { name: seatName(view.fastest) });
    return [{ id: `r${r}:flip`, text, announce: true }];
  }
  // the soft cap ran out with nobody flipping: the last countdown runs for everyone
  if (view.players > 1 && view.phase === "hourglass") {
    return [{ id: `r${r}:cap`, text: t("word.said_cap", { s: view.timer?.seconds ?? "" }), announce: true }];
  }
  return [];
}

/** A word locked: announced while the others still write (a time-up locks every word at
 * once, and the round's end says that better). */
function lockLines(view, ctx) {
  const { t, seatName } = ctx;
  const r = view.round;
  const stillWriting = WRITING.includes(view.phase);
  return (view.locked || []).flatMap((locked, seat) => {
    if (!locked || seat === view.fastest) return [];
    // one's own pass is no word "locked" (the others' words are not seen till the review)
    const own = view.entry ? "word.said_you_locked" : "word.said_you_passed";
    const text = seat === ctx.seat ? t(own) : t("word.said_locked", { name: seatName(seat) });
    return [{ id: `r${r}:lock:${seat}`, text, announce: stillWriting && seat !== ctx.seat }];
  });
}

/** The review: the words shown, the challenges raised, a vote and who has voted. */
function reviewLines(view, ctx) {
  if (!["review", "vote"].includes(view.phase)) return [];
  const { t, seatName } = ctx;
  const r = view.round;
  const lines = [{ id: `r${r}:review`, text: t("word.said_review"), announce: true }];
  for (const w of view.words || []) {
    const text = w.word
      ? t("word.said_wrote", { name: seatName(w.seat), word: w.word.toUpperCase() })
      : t("word.said_no_word", { name: seatName(w.seat) });
    lines.push({ id: `r${r}:word:${w.seat}`, text, announce: false });
  }
  const wordOf = (seat) => ((view.words || []).find((w) => w.seat === seat)?.word || "").toUpperCase();
  for (const target of view.challenged || []) {
    lines.push({
      id: `r${r}:challenged:${target}`,
      text: t("word.said_challenged", { name: seatName(target), word: wordOf(target) }),
      announce: true,
    });
  }
  const vote = view.vote;
  if (vote) {
    lines.push({
      id: `r${r}:vote:${vote.target}`,
      text: t("word.said_vote", { name: seatName(vote.challenger), word: (vote.word || "").toUpperCase() }),
      announce: true,
    });
    for (const seat of vote.voted || []) {
      lines.push({ id: `r${r}:voted:${vote.target}:${seat}`, text: t("word.said_voted", { name: seatName(seat) }), announce: false });
    }
  }
  return lines;
}
