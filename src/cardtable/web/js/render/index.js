// Which client draws a game: each game's package serves its own (the WEB capability of its
// spec); /api/games says where its renderer module and its stylesheet are. Both are loaded
// once, when first needed. See docs/web-client.md for what a renderer module exports.
const modules = new Map();

function linkStyle(url) {
  if (!url || document.querySelector(`link[data-game-style="${url}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = url;
  link.dataset.gameStyle = url;
  document.head.append(link);
}

/** The game's renderer module (`render`, and the optional hooks the shell calls). */
export async function loadClient(game) {
  linkStyle(game.style);
  if (!modules.has(game.renderer)) modules.set(game.renderer, import(game.renderer));
  return modules.get(game.renderer);
}
