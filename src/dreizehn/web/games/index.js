// @ts-check
// The drawing module of a game: games/{id}.js for a game that has one (its `drawing` in /api/games), else (a new
// game, or a module that fails to load) the generic drawing of games/generic.js, so that every game the server offers
// is playable before it has a picture of its own.
import { games } from "../api.js";
import * as generic from "./generic.js";

const loaded = new Map();

/** The module that draws `game` (the generic one when the game has none or it cannot be loaded); the game's facts
 * and card faces are known once it resolves. */
/**
 * @param {string} game
 * @returns {Promise<any>}
 */
export async function gameModule(game) {
  const known = (await games()).find((/** @type {{id: string, drawing?: boolean}} */ g) => g.id === game);
  if (!known || !known.drawing) return generic;
  if (!loaded.has(game)) {
    loaded.set(game, import(`./${game}.js`).catch((err) => {
      console.warn(`the drawing of ${game} is missing (${err.message || err}): the generic one draws it`);
      return generic;
    }));
  }
  return loaded.get(game);
}
