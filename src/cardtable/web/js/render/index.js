// Which renderer draws a game: each game's package serves its own (the WEB capability of
// its spec); /api/games says where, and the module is loaded once, when first needed.
const modules = new Map();

export async function loadRenderer(url) {
  if (!modules.has(url)) modules.set(url, import(url));
  return (await modules.get(url)).render;
}
