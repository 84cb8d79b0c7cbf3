// The table's clock in words when it runs for hours or days (a move clock in days: games
// across days), "2 d 5 h" rather than "190800 s".
export function clockText(left, t) {
  if (left >= 86400) return t("turns.days", { d: Math.floor(left / 86400), h: Math.floor((left % 86400) / 3600) });
  if (left >= 3600) return t("turns.hours", { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) });
  return t("table.clock", { s: left });
}
