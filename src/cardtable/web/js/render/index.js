// Which renderer draws a game: 7 słów has its own, the other games draw by family.
import { renderHanafuda } from "./hanafuda.js";
import { renderOhanami } from "./ohanami.js";
import { renderWords } from "./siedem.js";

const RENDERERS = { hanafuda: renderHanafuda, ohanami: renderOhanami, "siedem-slow": renderWords };

export function rendererFor(gameId, family) {
  return RENDERERS[gameId === "siedem-slow" ? "siedem-slow" : family];
}
