// The wire types of the server's HTTP lobby and WebSocket protocol (docs/online.md), as the client uses them.
// The views' types are generated from docs/schema (src/generated, by gen-types.mjs).

import type { GameView } from "./generated";

export interface OptionSpec {
  name: string;
  help: string;
  default: unknown;
  choices: unknown[] | null;
  min: number | null;
  max: number | null;
  kind?: "int" | "bool" | "str";
  allow_none?: boolean;
}

export interface GameEntry {
  id: string;
  title: string;
  min_players: number;
  max_players: number;
  options: OptionSpec[];
  bot_levels: string[];
  summary?: string;
  free_table?: boolean;
  draft?: Draft;
}

/** How a person builds a turn in a game (the server's capability, never a list of game ids). */
export type Draft = "table" | "grid" | null;

export interface SeatInfo {
  seat: number;
  kind: "person" | "bot";
  name: string;
  connected: boolean;
  level?: string | null;
}

export interface TableInfo {
  table: string;
  game: string;
  status: "waiting" | "playing" | "over";
  seats: SeatInfo[];
  created: unknown;
  draft?: Draft;
  /** True when the game answers `hint` frames (the page shows a hint button only then). */
  hint?: boolean;
  /** A readable name for the table, when the server gives one. */
  name?: string | null;
  /** The pieces that are wild though their notation does not say so (see pieces.ts setJokerDominoes). */
  jokers?: string[];
}

export interface CreatedSeat {
  seat: number;
  kind: string;
  name: string;
  token: string | null;
  invite: string | null;
}

export interface Created {
  table: string;
  seats: CreatedSeat[];
  watch: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A game's view as the server sends it (types generated from docs/schema: src/generated). */
export type View = GameView;
/** The views of the layouts, by their shape (never by game id): a free table, a grid, columns, a spread pile. */
export type TableView = Extract<View, { table: unknown }>;
export type GridView = Extract<View, { grid: unknown }>;
export type ColumnsView = Extract<View, { columns: unknown }>;
export type SpreadPileView = Extract<View, { discard: unknown; melds: unknown }>;

export function isTableView(view: View): view is TableView {
  return "table" in view;
}
export function isGridView(view: View): view is GridView {
  return "grid" in view;
}
export function isColumnsView(view: View): view is ColumnsView {
  return "columns" in view;
}
export function isSpreadPileView(view: View): view is SpreadPileView {
  return "discard" in view && "melds" in view;
}

/** An action in its JSON form (docs/schema/<game>-actions.json); the client may leave out `player`. */
export type ActionJson = { [key: string]: Json };

export interface Outcome {
  winners: number[];
  reason: string;
  scores: number[];
  totals: number[];
  match_over: boolean;
  round: number;
}

export interface StateFrame {
  type: "state";
  seq: number;
  view: View;
  log: string[];
  seats: SeatInfo[];
  clock: { seat: number; deadline: number } | null;
  status?: "waiting" | "playing" | "over";
  /** The seat's legal actions now (null for a spectator): what a `legal` frame would answer. */
  legal?: { actions: LegalAction[]; truncated: boolean } | null;
  /** Set when the table waits for this seat now: its turn, or (`claim`) a chance out of turn it may let pass. */
  asked?: { claim: boolean } | null;
}

export interface SetVerdict {
  index: number;
  ok: boolean;
  rule: string | null;
  message: string | null;
}

export interface Checked {
  type: "checked";
  id?: unknown;
  ok: boolean;
  rule: string | null;
  message: string | null;
  worded?: string | null;
  params?: Record<string, Json> | null;
  sets: SetVerdict[] | null;
}

export interface LegalAction {
  json: ActionJson;
  /** The record's notation (positions counted from 0). */
  text: string;
  /** The command a person types for it (positions counted from 1). */
  typed: string;
  /** The action in a person's words (the command layer's: parts named, counted from 1): what a button shows. */
  said?: string;
}

export interface Legal {
  type: "legal";
  id?: unknown;
  actions: LegalAction[];
  truncated: boolean;
}

export interface Hint {
  type: "hint";
  id?: unknown;
  lines: string[];
  action: ActionJson | null;
}

export interface ErrorFrame {
  type: "error";
  id?: unknown;
  rule: string;
  message: string;
  /** The refusal as a person reads it: positions counted from 1, seats by name. */
  worded?: string;
  params?: Record<string, Json> | null;
}

/** A refusal as the page shows it: the server's words for a person (counted from 1), with the rule id. */
export function refusal(frame: { rule: string | null; message: string | null; worded?: string | null }): string {
  return `${frame.rule ?? ""}: ${frame.worded ?? frame.message ?? ""}`;
}

export type Frame =
  | StateFrame
  | Checked
  | Legal
  | Hint
  | ErrorFrame
  | { type: "welcome"; seat: number | null; table: TableInfo }
  | { type: "round"; lines: string[]; round?: number; match_over?: boolean }
  | { type: "pong"; id?: unknown };

/** A refusal from the HTTP side: the server's {"error": {"rule", "message"}} body, or the status line. */
export class HttpError extends Error {}

async function reply<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: Json = null;
  try {
    body = text ? (JSON.parse(text) as Json) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const fields = body !== null && typeof body === "object" && !Array.isArray(body) ? body : {};
    const err = fields.error;
    if (err && typeof err === "object" && !Array.isArray(err)) throw new HttpError(`${err.rule ?? ""}: ${err.message ?? text}`);
    if (fields.detail) throw new HttpError(typeof fields.detail === "string" ? fields.detail : JSON.stringify(fields.detail));
    throw new HttpError(`${response.status} ${response.statusText}`);
  }
  return body as T;
}

export async function getGames(): Promise<GameEntry[]> {
  return reply(await fetch("/api/games"));
}

export async function getTables(): Promise<TableInfo[]> {
  return reply(await fetch("/api/tables"));
}

export async function getTable(table: string): Promise<TableInfo> {
  return reply(await fetch(`/api/tables/${encodeURIComponent(table)}`));
}

export async function createTable(body: unknown): Promise<Created> {
  return reply(
    await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
}
