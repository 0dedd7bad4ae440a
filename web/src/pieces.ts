// Pieces drawn as pieces, one component per kind, used by every layout and by the log:
// - a tile: its number in its colour, and a shape per colour under it, so colour is
//   never the only cue (colour-blind safe); the joker is a tile with a face;
// - a domino: two halves with pips (a number past 9), a joker marked with a star;
// - a card: its rank and suit symbol in the suit's colour;
// - a face-down piece ("??").
// Every piece is one image for assistive technology (role=img) with a name a person reads: "red 7", "joker",
// "domino 3-6", "queen of hearts". data-piece keeps the notation, for the layouts and the tests.

import { h } from "./dom";

const TILE = /^([KBOR])(\d{1,2})$/;
const CARD = /^(10|[2-9AJQK])([CDHS])$/;
const DOMINO = /^(\d{1,2})-(\d{1,2})$/;
const FACE_DOWN = new Set(["??", "?"]);

/** The tile colours by notation letter: a word, and a shape drawn under the number. */
const COLOURS: Record<string, { word: string; shape: string }> = {
  K: { word: "black", shape: "\u25CF" }, // circle
  B: { word: "blue", shape: "\u25A0" }, // square
  O: { word: "orange", shape: "\u25B2" }, // triangle
  R: { word: "red", shape: "\u2605" }, // star
};
const SUITS: Record<string, { word: string; symbol: string }> = {
  C: { word: "clubs", symbol: "\u2663" },
  D: { word: "diamonds", symbol: "\u2666" },
  H: { word: "hearts", symbol: "\u2665" },
  S: { word: "spades", symbol: "\u2660" },
};
const RANKS: Record<string, string> = { A: "ace", J: "jack", Q: "queen", K: "king" };

/** The dominoes that are jokers at this table (the game says which; none by default). */
let jokerDominoes = new Set<string>();

/** Say which dominoes are jokers at this table (the table's `jokers`, from the game); [] for none. */
export function setJokerDominoes(pieces: readonly string[]): void {
  jokerDominoes = new Set(pieces.map(normalDomino));
}

function normalDomino(piece: string): string {
  const m = DOMINO.exec(piece);
  if (!m) return piece;
  const [a, b] = [Number(m[1]), Number(m[2])].sort((x, y) => x - y);
  return `${a}-${b}`;
}

export type PieceKind = "tile" | "joker" | "domino" | "card" | "face-down" | "other";

export function pieceKind(piece: string): PieceKind {
  if (piece === "J" || piece === "JOKER") return "joker";
  if (TILE.test(piece)) return "tile";
  if (CARD.test(piece)) return "card";
  if (DOMINO.test(piece)) return "domino";
  if (FACE_DOWN.has(piece)) return "face-down";
  return "other";
}

/** The piece's name as a person reads it: "red 7", "joker", "domino 3-6", "queen of hearts", "face-down domino". */
export function pieceName(piece: string): string {
  const tile = TILE.exec(piece);
  if (tile) return `${COLOURS[tile[1]].word} ${tile[2]}`;
  const card = CARD.exec(piece);
  if (card) return `${RANKS[card[1]] ?? card[1]} of ${SUITS[card[2]].word}`;
  if (DOMINO.test(piece)) {
    return jokerDominoes.has(normalDomino(piece)) ? `domino ${piece}, joker` : `domino ${piece}`;
  }
  if (piece === "J" || piece === "JOKER") return "joker";
  if (FACE_DOWN.has(piece)) return "face-down piece";
  return piece;
}

/** A CSS class naming the piece's kind and colour family, derived from the notation. */
export function pieceClass(piece: string): string {
  const kind = pieceKind(piece);
  const tile = TILE.exec(piece);
  if (tile) return `tile c-${tile[1]}`;
  const card = CARD.exec(piece);
  if (card) return `card s-${card[2]}`;
  if (kind === "joker") return "tile joker";
  if (kind === "domino") return jokerDominoes.has(normalDomino(piece)) ? "bone joker-bone" : "bone";
  if (kind === "face-down") return "hidden";
  return "other";
}

/** Where the pips sit on a 3x3 grid (cells 0..8, row by row) for 0..9 spots. */
const PIPS: Record<number, number[]> = {
  0: [],
  1: [4],
  2: [0, 8],
  3: [0, 4, 8],
  4: [0, 2, 6, 8],
  5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8],
  7: [0, 2, 3, 4, 5, 6, 8],
  8: [0, 1, 2, 3, 5, 6, 7, 8],
  9: [0, 1, 2, 3, 4, 5, 6, 7, 8],
};

function half(spots: number): HTMLElement {
  const el = h("span.half", { "data-spots": spots });
  const cells = PIPS[spots];
  if (!cells) {
    el.classList.add("numbered");
    el.append(String(spots)); // a double-twelve set: past 9 the number is clearer than pips
    return el;
  }
  for (let i = 0; i < 9; i++) el.append(h(cells.includes(i) ? "i.pip" : "i.nopip"));
  return el;
}

/**
 * One piece: a tile, a domino, a card, a joker or a face-down piece, named for assistive technology.
 * `extra` adds attributes (data-*, tabindex...); the notation stays in data-piece.
 */
export function pieceEl(piece: string, extra: Record<string, unknown> = {}): HTMLElement {
  const name = pieceName(piece);
  const el = h("span.piece", {
    class: pieceClass(piece),
    role: "img",
    "aria-label": name,
    title: name,
    "data-piece": piece,
    ...extra,
  });
  const tile = TILE.exec(piece);
  const card = CARD.exec(piece);
  const domino = DOMINO.exec(piece);
  if (tile) {
    el.append(h("b.num", { "aria-hidden": "true" }, tile[2]), h("i.sym", { "aria-hidden": "true" }, COLOURS[tile[1]].shape));
  } else if (card) {
    const suit = SUITS[card[2]].symbol;
    el.append(
      h("b.rank", { "aria-hidden": "true" }, card[1]),
      h("i.suit", { "aria-hidden": "true" }, suit),
    );
  } else if (domino) {
    el.append(half(Number(domino[1])), h("i.bar", { "aria-hidden": "true" }), half(Number(domino[2])));
    if (jokerDominoes.has(normalDomino(piece))) el.append(h("i.star", { "aria-hidden": "true" }, "\u2605"));
  } else if (piece === "J" || piece === "JOKER") {
    el.append(h("b.num", { "aria-hidden": "true" }, "\u263A"), h("i.sym", { "aria-hidden": "true" }, "joker"));
  } else if (FACE_DOWN.has(piece)) {
    el.append(h("i.back", { "aria-hidden": "true" }));
  } else {
    el.append(h("b", { "aria-hidden": "true" }, piece));
  }
  return el;
}

/**
 * A word of a sentence read as a piece, when it is one in the notation of the pieces of this table
 * (`kinds`: the kinds seen in the view), with an optional + or * mark (placed, moved) and trailing
 * punctuation. Only whole words match, and only of the table's kinds: "J" is a joker only where tiles are
 * played, "3-2" a domino only where dominoes are.
 */
export function readPieceWord(word: string, kinds: ReadonlySet<PieceKind>): { mark: string; piece: string; tail: string } | null {
  const m = /^([+*]?)([A-Za-z0-9?-]+?)([,;:.)]*)$/.exec(word);
  if (!m) return null;
  const kind = pieceKind(m[2]);
  if (kind === "other" || kind === "face-down") return null;
  if (kind === "joker" ? !kinds.has("tile") && !kinds.has("joker") : !kinds.has(kind)) return null;
  return { mark: m[1], piece: m[2], tail: m[3] };
}

/** The kinds of piece named in a view (any string of it that is a piece's notation). */
export function kindsIn(value: unknown, into: Set<PieceKind> = new Set()): Set<PieceKind> {
  if (typeof value === "string") {
    const kind = pieceKind(value);
    if (kind !== "other" && kind !== "face-down") into.add(kind);
  } else if (Array.isArray(value)) {
    for (const v of value) kindsIn(v, into);
  } else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) if (key !== "players" && key !== "options") kindsIn(v, into);
  }
  return into;
}
