// The wire types of the server's HTTP lobby and WebSocket protocol (docs/online.md), as the client uses them.

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
export type View = Record<string, any>;
export type ActionJson = Record<string, any>;

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
  text: string;
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
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = body && body.error;
    if (err && typeof err === "object") throw new HttpError(`${err.rule ?? ""}: ${err.message ?? text}`);
    if (body && body.detail) throw new HttpError(typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail));
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
