// Drawing one piece from its notation: a tile, a bone (two numbered halves) or a card. The notation is always
// printed on the piece, so colour is never the only cue (colour-blind safe); colour only repeats what the letter says.

import { h } from "./dom";

const TILE = /^([KBOR])(\d{1,2})$/;
const CARD = /^(10|[2-9AJQK])([CDHS])$/;
const SUITS: Record<string, string> = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

/** A CSS class naming the piece's colour family, derived from the notation's letter. */
export function pieceClass(piece: string): string {
  if (piece === "J" || piece === "JOKER") return "joker";
  const tile = TILE.exec(piece);
  if (tile) return `tile c-${tile[1]}`;
  const card = CARD.exec(piece);
  if (card) return `card s-${card[2]}`;
  if (/^\d+-\d+$/.test(piece)) return "bone";
  if (piece === "??") return "hidden";
  return "other";
}

export function pieceEl(piece: string, extra: Record<string, unknown> = {}): HTMLElement {
  const card = CARD.exec(piece);
  const el = h(`span.piece`, { class: pieceClass(piece), title: piece, "data-piece": piece, ...extra });
  if (card) {
    el.append(h("b", null, piece), h("i", { "aria-hidden": "true" }, SUITS[card[2]]));
  } else if (/^\d+-\d+$/.test(piece)) {
    const [a, b] = piece.split("-");
    el.append(h("b", null, a), h("i", { "aria-hidden": "true" }, "|"), h("b", null, b));
  } else {
    el.append(h("b", null, piece));
  }
  return el;
}
