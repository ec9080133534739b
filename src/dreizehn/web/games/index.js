// The drawing module of a game: games/{id}.js for the games drawn so far, else (a new game, or a module that fails to
// load) the generic drawing of games/generic.js, so that every game the server offers is playable before it has a
// picture of its own.
import * as generic from "./generic.js";

/** The games with a drawing module of their own (games/{id}.js). */
export const DRAWN = ["knizia13", "three-thirteen", "holzwurm"];
const loaded = new Map();

/** The module that draws `game` (a promise; the generic one when the game has none or it cannot be loaded). */
export function gameModule(game) {
  if (!DRAWN.includes(game)) return Promise.resolve(generic);
  if (!loaded.has(game)) {
    loaded.set(game, import(`./${game}.js`).catch((err) => {
      console.warn(`the drawing of ${game} is missing (${err.message || err}): the generic one draws it`);
      return generic;
    }));
  }
  return loaded.get(game);
}
