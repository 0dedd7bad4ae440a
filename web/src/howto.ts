// "How to play" for a game: a short guide and a first-turn tip, from the server (one text for the browser and
// the terminal app). This is a placeholder the how-to work fills in; table.ts calls it.

import { h } from "./dom";

/** A button that opens the game's guide (a dialog). */
export function howToButton(game: string): HTMLElement {
  return h("button.howto", { type: "button", "data-game": game, hidden: true }, "How to play");
}

/** A one-line tip for a seat's first turn, or null. */
export function firstTurnTip(_game: string): Promise<string | null> {
  return Promise.resolve(null);
}
