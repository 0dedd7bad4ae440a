// The grid layout (a game whose draft is `grid`): a board of cells that pans and zooms, the
// seat's trays, and a turn built on the board. Tiles go from the playing tray to a cell by drag or by tap
// (tile, then cell); tiles on the board move by drag or tap too; arrow keys move a cell cursor and Enter/Space
// place or pick. After every change the draft is sent to the server (`check` with the play action): the
// engine answers per line (valid or not, and why) and the board outlines each line green or red. The client
// never judges a line. Rows and columns are numbered from 1 at the board's top-left cell as drawn now; the
// notation's cell numbers stay in data-cell (counted from 0, negative too).

import "./grid.css";
import { isGridView, type ActionJson, type Checked, type GridView, type LegalAction, type View } from "./api";
import { clear, h } from "./dom";
import { pieceEl } from "./pieces";
import type { Ctx, Layout } from "./table";
import { SHOWN_FROM } from "./numbers";

/** The engine's verdict on one line of the draft (the `checked` frame's `lines`). */
interface LineVerdict {
  across: boolean | null;
  cells: string[];
  ok: boolean;
  rule: string | null;
  message: string | null;
  says: string | null;
}
type GridChecked = Checked & { lines?: LineVerdict[] | null };

interface Spot {
  tile: string;
  /** the tray index it came from this turn, or null for a tile that was on the table */
  from: number | null;
  called?: string | null;
}

type Pick = { kind: "tray"; index: number } | { kind: "cell"; key: string } | null;
/** A tile held by a pointer: from a cell (source) or from a tray (tray, index), until it moves far enough. */
interface Drag {
  kind: "drag";
  id: number;
  x: number;
  y: number;
  source: Pick;
  tray?: string;
  index?: number;
  moved: boolean;
  ghost: HTMLElement | null;
}

const CELL = 44; // px of a cell at zoom 1
const COLOURS: Record<string, string> = { K: "black", B: "blue", O: "orange", R: "red" };

function key(row: number, col: number): string {
  return `${row},${col}`;
}
function parseKey(k: string): [number, number] {
  const [r, c] = k.split(",").map(Number);
  return [r, c];
}

/** A tile's spoken name: "red 7", "joker". */
export function tileName(tile: string): string {
  if (tile === "J") return "joker";
  const m = /^([KBOR])(\d{1,2})$/.exec(tile);
  return m ? `${COLOURS[m[1]]} ${m[2]}` : tile;
}

function coarse(): boolean {
  return window.matchMedia?.("(hover: none), (pointer: coarse)").matches || navigator.maxTouchPoints > 0;
}

export class GridLayout implements Layout {
  private seq = -1;
  private view: GridView | null = null;
  private tray = "A";
  private base = new Map<string, Spot>();
  private cells = new Map<string, Spot>();
  private history: Map<string, Spot>[] = [];
  private pick: Pick = null;
  private cursor: [number, number] = [0, 0];
  private trayCursor = 0;
  private lines: LineVerdict[] = [];
  private verdict: GridChecked | null = null;
  private checking = 0;
  private message = "";
  private menu: string | null = null; // the joker cell whose call menu is open
  private hintAction: ActionJson | null = null; // the hint's play, until the turn changes or it is laid out
  private hinted = new Map<string, string>(); // each cell the hint changes: the tile it puts there, or "." (emptied)
  // the board's extent as drawn (notation numbers) and its pan and zoom
  private r0 = 0;
  private c0 = 0;
  private rows = 7;
  private cols = 13;
  private scale = 1;
  private panX = 0;
  private panY = 0;
  private adjusted = false; // the person panned or zoomed: do not fit again by itself
  private focusBoard = false;
  private touchPressed = 0;
  private arrivedSeq = -1;
  private focusTray = false;
  private el = h("div.grid-table.tt");
  private viewport = h("div.tt-viewport");
  private board = h("div.tt-board");
  private zoomBox = h("div.tt-zoombox", { role: "group", "aria-label": "zoom" });
  private pointers = new Map<number, { x: number; y: number }>();
  private gesture:
    | { kind: "pan"; id: number; x: number; y: number; px: number; py: number; moved: boolean; cell: string | null }
    | { kind: "pinch"; dist: number; scale: number; mx: number; my: number; px: number; py: number }
    | Drag
    | null = null;

  constructor(private ctx: Ctx) {
    this.viewport.addEventListener("pointerdown", (e) => this.onBoardDown(e));
    this.viewport.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    window.addEventListener("pointermove", (e) => this.onMove(e));
    window.addEventListener("pointerup", (e) => this.onUp(e));
    window.addEventListener("pointercancel", (e) => this.onCancel(e));
    this.viewport.addEventListener("keydown", (e) => this.onBoardKey(e));
    this.viewport.addEventListener("focusin", (e) => {
      const cell = (e.target as HTMLElement).closest<HTMLElement>("[data-cell]")?.dataset.cell;
      if (cell) this.cursor = parseKey(cell); // the cursor is where the focus is (Tab, a click)
    });
    new ResizeObserver(() => {
      if (!this.adjusted) this.fit();
    }).observe(this.viewport);
  }

  // ---- the state frames -------------------------------------------------------------------------

  render(view: View, seq: number): HTMLElement {
    if (!isGridView(view)) return h("p.muted", null, "(this view has no grid)");
    const before = this.view;
    this.view = view;
    const grid = new Map<string, Spot>();
    for (const c of view.grid) grid.set(key(c.row, c.col), { tile: c.tile, from: null, called: c.called });
    if (seq !== this.seq) {
      this.seq = seq;
      // a call of our own (or a refused step) keeps the turn going: keep the draft while the table's tiles
      // and the trays are what they were and it is still this seat's turn
      const same =
        before !== null &&
        this.ctx.myTurn() &&
        JSON.stringify(before.grid.map((c) => [c.row, c.col, c.tile])) === JSON.stringify(view.grid.map((c) => [c.row, c.col, c.tile])) &&
        JSON.stringify(before.trays ?? null) === JSON.stringify(view.trays ?? null);
      this.base = grid;
      if (same) {
        for (const [k, spot] of grid) {
          const mine = this.cells.get(k);
          if (mine && mine.from === null && mine.tile === spot.tile) mine.called = spot.called;
        }
      } else {
        this.cells = new Map(grid);
        this.history = [];
        this.pick = null;
        this.lines = [];
        this.verdict = null;
        this.message = "";
        this.menu = null;
        this.hintAction = null;
        this.hinted.clear();
        const seat = this.ctx.seat;
        const playing = seat !== null ? view.playing[seat] : null;
        const own = Object.keys(view.trays ?? {});
        this.tray = playing ?? (own.includes(this.tray) ? this.tray : own[0] ?? "A");
        this.trayCursor = 0;
      }
    }
    this.draw();
    if (!this.adjusted) requestAnimationFrame(() => this.fit());
    return this.el;
  }

  // ---- the hint -----------------------------------------------------------------------------------

  /** Show the hint's play on the board (its cells outlined, the tiles it places as ghosts) with a button
   * that lays it out as the draft; null (or an action that places nothing) hides it. */
  hint(action: ActionJson | null): void {
    const changes = action && (action.type === "play" || action.type === "fail") && Array.isArray(action.changes) ? (action.changes as string[]) : [];
    this.hintAction = changes.length ? action : null;
    this.hinted.clear();
    for (const change of changes) {
      const [cell, tile] = String(change).split("=");
      if (cell && tile) this.hinted.set(cell.trim(), tile.trim());
    }
    this.draw();
  }

  /** Lay the hint's play out as the draft, from the table as it was: the table's tiles it moves go to their
   * new cells, the rest come from the playing tray. The player still presses Play. */
  private useHint(): void {
    const action = this.hintAction;
    if (!action || !this.view || !this.myTurn()) return;
    const seat = this.ctx.seat;
    const playing = seat !== null ? this.view.playing[seat] : null;
    const tray = typeof action.tray === "string" ? action.tray : this.tray;
    if (!playing && tray !== this.tray && this.trayTiles(tray).length) this.tray = tray;
    const hinted = new Map(this.hinted);
    this.change((cells) => {
      cells.clear();
      for (const [k, spot] of this.base) cells.set(k, { ...spot });
      const freed: string[] = [];
      for (const k of hinted.keys()) {
        const was = cells.get(k);
        if (was) freed.push(was.tile);
        cells.delete(k);
      }
      const tiles = this.trayTiles();
      const taken = new Set<number>();
      for (const [k, tile] of hinted) {
        if (tile === ".") continue;
        const at = freed.indexOf(tile);
        if (at >= 0) {
          freed.splice(at, 1);
          cells.set(k, { tile, from: null, called: null });
          continue;
        }
        const i = tiles.findIndex((t, n) => t === tile && !taken.has(n));
        if (i < 0) return false; // the tray no longer holds it: the hint is stale
        taken.add(i);
        cells.set(k, { tile, from: i });
      }
      return true;
    });
    this.hintAction = null;
    this.hinted.clear();
    this.draw();
  }

  // ---- the draft ----------------------------------------------------------------------------------

  private changes(): string[] {
    const keys = new Set([...this.base.keys(), ...this.cells.keys()]);
    const out: [number, number, string][] = [];
    for (const k of keys) {
      const was = this.base.get(k)?.tile;
      const now = this.cells.get(k)?.tile;
      if (was !== now) out.push([...parseKey(k), `${k}=${now ?? "."}`]);
    }
    out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return out.map((x) => x[2]);
  }

  private used(): Set<number> {
    const out = new Set<number>();
    for (const s of this.cells.values()) if (s.from !== null) out.add(s.from);
    return out;
  }

  private trayTiles(name = this.tray): string[] {
    return this.view?.trays?.[name] ?? [];
  }

  private playAction(kind: "play" | "fail" = "play"): ActionJson {
    return { type: kind, tray: this.tray, changes: this.changes() };
  }

  private change(mutate: (cells: Map<string, Spot>) => boolean): void {
    const next = new Map(this.cells);
    if (!mutate(next)) return;
    this.history.push(this.cells);
    this.cells = next;
    this.pick = null;
    this.menu = null;
    this.message = "";
    this.afterChange();
  }

  private afterChange(): void {
    this.verdict = null;
    this.lines = [];
    this.draw();
    if (!this.adjusted) this.fit();
    void this.check();
  }

  private async check(): Promise<void> {
    const serial = ++this.checking;
    const changes = this.changes();
    if (!changes.length) {
      this.draw();
      return;
    }
    const reply = await this.ctx.conn.request({ type: "check", action: this.playAction() });
    if (serial !== this.checking) return; // a newer draft was sent since
    if (reply.type === "checked") {
      this.verdict = reply as GridChecked;
      this.lines = this.verdict.lines ?? [];
    } else if (reply.type === "error") {
      this.verdict = { type: "checked", ok: false, rule: reply.rule, message: reply.message, worded: reply.worded ?? reply.message, sets: null };
      this.lines = [];
    }
    this.draw();
  }

  private myTurn(): boolean {
    return this.ctx.myTurn() && !this.ctx.askedClaim();
  }

  /** Put the picked (or dragged) source in a cell: a tray tile, or a tile from another cell. */
  private drop(source: Pick, target: string): void {
    if (!source) return;
    if (!this.myTurn()) return this.say("It is not your turn.");
    if (source.kind === "cell" && source.key === target) {
      this.pick = null;
      this.draw();
      return;
    }
    if (this.cells.has(target)) return this.say("That cell is taken: pick an empty cell.");
    if (source.kind === "tray") {
      const tile = this.trayTiles()[source.index];
      if (tile === undefined || this.used().has(source.index)) return;
      this.change((cells) => (cells.set(target, { tile, from: source.index }), true));
    } else {
      const spot = this.cells.get(source.key);
      if (!spot) return;
      this.change((cells) => {
        cells.delete(source.key);
        cells.set(target, { ...spot, called: null });
        return true;
      });
    }
    this.cursor = parseKey(target);
  }

  /** Take a tile placed this turn back to the tray (a tile of the table stays on the table). */
  private back(k: string): void {
    const spot = this.cells.get(k);
    if (!spot) return;
    if (spot.from === null) return this.say("A tile that was on the table stays on the table: move it to another cell.");
    this.change((cells) => (cells.delete(k), true));
  }

  private undo(): void {
    const prev = this.history.pop();
    if (!prev) return;
    this.cells = prev;
    this.pick = null;
    this.afterChange();
  }

  private reset(): void {
    if (!this.history.length) return;
    this.history = [];
    this.cells = new Map(this.base);
    this.pick = null;
    this.afterChange();
  }

  private say(text: string): void {
    this.message = text;
    this.draw();
  }

  private listed(type: string, match: (a: ActionJson) => boolean = () => true): LegalAction | undefined {
    return this.ctx.legal().find((a) => a.json.type === type && match(a.json));
  }

  private chooseTray(name: string): void {
    if (name === this.tray) return;
    const seat = this.ctx.seat;
    const playing = seat !== null ? this.view?.playing[seat] : null;
    if (playing) return this.say(`This turn plays from tray ${playing}; the trays take turns.`);
    if (this.changes().length) return this.say(`Take your tiles back first (Reset) to play from tray ${name}.`);
    this.tray = name;
    this.pick = null;
    this.trayCursor = 0;
    this.message = "";
    this.draw();
  }

  // ---- drawing ------------------------------------------------------------------------------------

  private extent(): void {
    const keys = [...this.cells.keys(), ...this.base.keys()].map(parseKey);
    if (!keys.length) {
      [this.r0, this.c0, this.rows, this.cols] = [0, 0, 7, 13];
      return;
    }
    const rs = keys.map((k) => k[0]);
    const cs = keys.map((k) => k[1]);
    const top = Math.min(...rs) - 2;
    const left = Math.min(...cs) - 2;
    const bottom = Math.max(...rs) + 2;
    const right = Math.max(...cs) + 3;
    [this.r0, this.c0, this.rows, this.cols] = [top, left, Math.max(bottom - top + 1, 7), Math.max(right - left + 1, 9)];
  }

  /** A row or column as a person reads it: counted from 1 at the board's first row or column as drawn now. */
  private rowNo(row: number): number {
    return row - this.r0 + SHOWN_FROM;
  }
  private colNo(col: number): number {
    return col - this.c0 + SHOWN_FROM;
  }
  private where(k: string): string {
    const [r, c] = parseKey(k);
    return `row ${this.rowNo(r)}, column ${this.colNo(c)}`;
  }
  private lineWhere(v: LineVerdict): string {
    const cells = v.cells.map(parseKey);
    if (v.across === null || cells.length < 2) return this.where(v.cells[0]);
    const [first, last] = [cells[0], cells[cells.length - 1]];
    return v.across
      ? `row ${this.rowNo(first[0])}, columns ${this.colNo(first[1])}-${this.colNo(last[1])}`
      : `column ${this.colNo(first[1])}, rows ${this.rowNo(first[0])}-${this.rowNo(last[0])}`;
  }

  /** The server's words for a person name cells from 1 at the notation's 0,0; say them as this board numbers them. */
  private relabel(text: string): string {
    const shift = (n: string, base: number) => String(Number(n) - SHOWN_FROM - base + SHOWN_FROM);
    return text
      .replace(/\b(rows?) (-?\d+)(?:-(-?\d+))?/g, (_m, w: string, a: string, b?: string) => `${w} ${shift(a, this.r0)}${b ? `-${shift(b, this.r0)}` : ""}`)
      .replace(/\b(columns?) (-?\d+)(?:-(-?\d+))?/g, (_m, w: string, a: string, b?: string) => `${w} ${shift(a, this.c0)}${b ? `-${shift(b, this.c0)}` : ""}`)
      .replace(/\b(cell|at) (-?\d+),(-?\d+)\b/g, (_m, w: string, a: string, b: string) => `${w} row ${shift(a, this.r0)}, column ${shift(b, this.c0)}`);
  }

  private draw(): void {
    const v = this.view;
    if (!v) return;
    const el = this.el;
    const hadFocus = el.contains(document.activeElement);
    this.focusBoard = hadFocus && this.viewport.contains(document.activeElement);
    this.focusTray = hadFocus && !!document.activeElement?.closest(".tt-tray");
    clear(el);
    this.extent();
    const seat = this.ctx.seat;
    const mine = this.myTurn();
    const names = v.players;
    const changes = this.changes();

    // what each cell's lines say
    const lineOf = new Map<string, LineVerdict[]>();
    for (const line of this.lines) for (const c of line.cells) lineOf.set(c, [...(lineOf.get(c) ?? []), line]);
    // the other player's last move
    const lastCells = new Set<string>();
    const arrived = new Set<string>();
    const last = v.last_move;
    if (last && last.seat !== seat) {
      for (const event of last.events) {
        if (event.kind !== "play" || !Array.isArray(event.changes)) continue;
        const placed = [...((event.placed as string[] | undefined) ?? [])];
        for (const change of event.changes as string[]) {
          const [cell, tile] = change.split("=");
          if (!tile || tile === ".") continue;
          lastCells.add(cell.trim());
          const at = placed.indexOf(tile);
          if (at >= 0) {
            placed.splice(at, 1);
            arrived.add(cell.trim());
          }
        }
      }
    }

    // the header of the board: whose turn, which tray, the pool
    const playing = seat !== null ? v.playing[seat] : null;
    const turnText =
      seat === null
        ? "You are watching."
        : mine
          ? v.continuing
            ? `You emptied a tray: play on from tray ${this.tray}, or end your turn.`
            : playing
              ? `Your turn: play from tray ${this.tray}, or draw.`
              : `Your first turn: go down from one tray (${v.options.initial_meld_points ?? 30} points or more), or draw onto a tray.`
          : `${names[v.turn ?? 0] ?? "the other player"} to play.`;
    const lastText = last && last.seat !== seat && lastCells.size ? ` ${names[last.seat] ?? "They"} just played the tiles marked on the board.` : "";
    el.append(h("p.tt-turn", { "aria-live": "polite" }, turnText, lastText, h("span.tt-pool", null, ` Pool: ${v.pool_size}.`)));

    // the toolbar next to the board
    const ok = !!this.verdict?.ok;
    const draw = this.listed("draw", (a) => a.tray === this.tray);
    const pass = this.listed("pass");
    const end = this.listed("end");
    el.append(
      h(
        "div.tt-tools",
        { role: "toolbar", "aria-label": "turn" },
        h("button.tt-play", { type: "button", id: "tt-play", disabled: !mine || !changes.length || !ok, ...this.press(() => this.commit()) }, "Play"),
        h("button", { type: "button", id: "tt-undo", disabled: !this.history.length, ...this.press(() => this.undo()) }, "Undo"),
        h("button", { type: "button", id: "tt-reset", disabled: !this.history.length, ...this.press(() => this.reset()) }, "Reset"),
        draw && !changes.length ? h("button", { type: "button", id: "tt-draw", "aria-label": `draw a tile onto tray ${this.tray}`, ...this.press(() => this.ctx.act(draw.json)) }, `Draw (tray ${this.tray})`) : null,
        pass ? h("button", { type: "button", id: "tt-pass", ...this.press(() => this.ctx.act(pass.json)) }, "Pass") : null,
        end && !changes.length ? h("button", { type: "button", id: "tt-end", ...this.press(() => this.ctx.act(end.json)) }, "End turn") : null,
        mine && this.hintAction
          ? h("button", { type: "button", id: "tt-use-hint", ...this.press(() => this.useHint()) }, "Lay out the hint")
          : null,
        mine && this.hintAction
          ? h("button", { type: "button", id: "tt-use-hint", ...this.press(() => this.useHint()) }, "Lay out the hint")
          : null,
        mine && changes.length && this.verdict && !ok
          ? h("button.tt-penalty", { type: "button", id: "tt-penalty", ...this.press(() => this.ctx.act(this.playAction("fail"))) }, "Play anyway (penalty)")
          : null,
      ),
    );

    // the board
    clear(this.board);
    const board = this.board;
    board.style.gridTemplateColumns = `22px repeat(${this.cols}, ${CELL}px)`;
    board.style.gridTemplateRows = `22px repeat(${this.rows}, ${CELL}px)`;
    const head = h("div.tt-row", { "aria-hidden": "true" }, h("span.tt-axis", null, ""));
    for (let c = 0; c < this.cols; c++) head.append(h("span.tt-axis", { "data-col": this.c0 + c }, String(c + SHOWN_FROM)));
    board.append(head);
    const [cr, cc] = this.cursor;
    if (cr < this.r0 || cr >= this.r0 + this.rows || cc < this.c0 || cc >= this.c0 + this.cols) {
      this.cursor = [this.r0 + 2, this.c0 + 2];
    }
    const picked = this.pick;
    for (let r = this.r0; r < this.r0 + this.rows; r++) {
      const row = h("div.tt-row", { role: "row" }, h("span.tt-axis", { "aria-hidden": "true", "data-row": r }, String(this.rowNo(r))));
      board.append(row);
      for (let c = this.c0; c < this.c0 + this.cols; c++) {
        const k = key(r, c);
        const spot = this.cells.get(k);
        const lines = lineOf.get(k) ?? [];
        const bad = lines.some((l) => !l.ok);
        const cls = ["tt-cell"];
        if (spot?.from !== null && spot !== undefined) cls.push("drafted");
        else if (spot && this.base.get(k)?.tile !== spot.tile) cls.push("moved");
        if (lines.length) cls.push(bad ? "line-bad" : "line-ok");
        if (lastCells.has(k) && !changes.length) cls.push("last-move");
        if (arrived.has(k) && !changes.length && this.arrivedSeq !== this.seq) cls.push("arrived"); // slides in once
        if (picked?.kind === "cell" && picked.key === k) cls.push("picked");
        const hintTile = this.hinted.get(k);
        if (hintTile !== undefined) cls.push("hinted");
        const isCursor = this.cursor[0] === r && this.cursor[1] === c;
        let label = spot ? `${tileName(spot.tile)}${spot.called ? ` called ${tileName(spot.called)}` : ""} at ${this.where(k)}` : `empty cell ${this.where(k)}`;
        if (spot?.from !== null && spot) label += ", placed this turn";
        if (lines.length) label += bad ? ", in a line that is not valid" : ", in a valid line";
        if (lastCells.has(k)) label += ", played last by the other player";
        if (hintTile !== undefined) label += hintTile === "." ? ", the hint moves this tile away" : `, the hint puts ${tileName(hintTile)} here`;
        const cell = h("div", {
          class: cls.join(" "),
          role: "gridcell",
          tabindex: isCursor ? 0 : -1,
          "data-cell": k,
          "aria-label": label,
          "aria-selected": picked?.kind === "cell" && picked.key === k ? "true" : "false",
        });
        if (spot) {
          const p = pieceEl(spot.tile, { "aria-hidden": "true" });
          if (spot.called) p.append(h("sub", null, spot.called));
          cell.append(p);
          const calls = spot.tile === "J" && spot.from === null && this.base.get(k)?.tile === "J" && mine ? this.calls(k) : [];
          if (calls.length) {
            cell.append(
              h("button.tt-call", { type: "button", "aria-label": `call the joker at ${this.where(k)}`, "aria-expanded": this.menu === k ? "true" : "false", "data-call": k, ...this.press(() => { this.menu = this.menu === k ? null : k; this.draw(); }) }, "\u25BE"),
            );
            if (this.menu === k) {
              cell.append(
                h(
                  "div.tt-menu",
                  { role: "menu", "aria-label": "call the joker" },
                  calls.map((a) =>
                    h(
                      "button",
                      { type: "button", role: "menuitem", "data-tile": String(a.json.tile), ...this.press(() => { this.menu = null; this.ctx.act(a.json); }) },
                      pieceEl(String(a.json.tile), { "aria-hidden": "true" }),
                      ` ${tileName(String(a.json.tile))}`,
                    ),
                  ),
                ),
              );
            }
          }
        }
        if (hintTile !== undefined && hintTile !== "." && spot?.tile !== hintTile) {
          const ghost = pieceEl(hintTile, { "aria-hidden": "true" });
          ghost.classList.add("tt-hint-ghost");
          cell.append(ghost);
        }
        row.append(cell);
      }
    }
    board.setAttribute("role", "grid");
    board.setAttribute("aria-label", `the table: ${this.rows} rows, ${this.cols} columns`);
    this.viewport.setAttribute("aria-label", "board (drag to pan, wheel or pinch to zoom)");
    el.append(this.viewport);
    if (!this.viewport.contains(board)) this.viewport.append(board);
    this.zoomBox.remove();
    clear(this.zoomBox);
    this.zoomBox.append(
      h("button.tt-zoom", { type: "button", id: "tt-zoom-out", "aria-label": "zoom out", ...this.press(() => this.zoomBy(1 / 1.25)) }, "\u2212"),
      h("button.tt-zoom", { type: "button", id: "tt-zoom-in", "aria-label": "zoom in", ...this.press(() => this.zoomBy(1.25)) }, "+"),
      h("button.tt-zoom", { type: "button", id: "tt-fit", "aria-label": "fit the board", ...this.press(() => ((this.adjusted = false), this.fit())) }, "fit"),
    );
    this.viewport.append(this.zoomBox);
    this.applyTransform();

    if (arrived.size) this.arrivedSeq = this.seq;
    // the verdict and each line's reason
    const verdict = h("div.tt-verdict", { "aria-live": "polite" });
    if (this.message) verdict.append(h("p.tt-message", null, this.message));
    if (changes.length) {
      if (!this.verdict) verdict.append(h("p.verdict.pending", null, "asking the server\u2026"));
      else if (this.verdict.ok) verdict.append(h("p.verdict.ok", null, "\u2714 The server would accept this play."));
      else {
        const badLines = this.lines.filter((l) => !l.ok);
        const words = this.verdict.worded ?? this.verdict.message ?? "";
        verdict.append(
          h("p.verdict.bad", { "data-rule": this.verdict.rule ?? "" }, "\u2718 ", badLines.length ? "Not yet: the lines marked red are not valid." : this.relabel(words)),
        );
      }
      const reasons = this.lines.filter((l) => !l.ok);
      if (reasons.length) {
        verdict.append(
          h(
            "ul.tt-reasons",
            null,
            reasons.map((l) => h("li", { "data-rule": l.rule ?? "", "data-cells": l.cells.join(" ") }, `${this.lineWhere(l)}: ${l.says ?? l.rule ?? ""}`)),
          ),
        );
      }
    } else if (mine && !this.message) {
      verdict.append(h("p.muted", null, coarse() ? "Tap a tile of your playing tray, then a cell (or drag it there)." : "Drag a tile of your playing tray to a cell, or click the tile and then the cell."));
    }
    el.append(verdict);

    // the trays: the playing one first and marked, the other dimmed
    if (v.trays) {
      const used = this.used();
      const own = Object.keys(v.trays).sort((a, b) => (a === this.tray ? -1 : b === this.tray ? 1 : a.localeCompare(b)));
      const box = h("div.tt-trays");
      for (const name of own) {
        const active = name === this.tray;
        const choosable = !playing && mine && !changes.length;
        const tiles = v.trays[name] ?? [];
        const trayEl = h("div", {
          class: `rack tray tt-tray ${active ? "active playing" : "resting"}`,
          "data-tray": name,
          role: "listbox",
          "aria-label": active ? `tray ${name}, playing now` : `tray ${name}, ${choosable ? "you may play from it instead" : "not this turn"}`,
        });
        tiles.forEach((t, i) => {
          const isUsed = active && used.has(i);
          const p = pieceEl(t, {
            "data-index": i,
            role: "option",
            tabindex: (active && i === this.trayCursor) || (!active && choosable && i === 0) ? 0 : -1,
            "aria-label": `${tileName(t)}${isUsed ? ", on the board" : ""}`,
            "aria-selected": active && picked?.kind === "tray" && picked.index === i ? "true" : "false",
            "aria-disabled": (!active && !choosable) || isUsed ? "true" : "false",
          });
          p.classList.add("tt-tile");
          if (isUsed) p.classList.add("used");
          if (active && picked?.kind === "tray" && picked.index === i) p.classList.add("selected");
          p.addEventListener("pointerdown", (e) => this.onTileDown(e, name, i));
          p.addEventListener("keydown", (e) => this.onTrayKey(e, name, i));
          trayEl.append(p);
        });
        box.append(
          h(
            "section",
            { class: `tt-trayBox ${active ? "playing" : "resting"}` },
            h("h3", null, active ? `\u25B6 Playing: tray ${name}` : `Tray ${name}${choosable ? " (tap a tile to play from it instead)" : playing ? " (next turn)" : ""}`, h("span.muted", null, ` ${tiles.length} tiles`)),
            trayEl,
          ),
        );
      }
      el.append(box);
      el.append(h("p.tt-keys", null, "Keys: Tab to the board or a tray; arrows move; Enter or Space picks a tile and places it; Backspace takes a placed tile back; Escape drops the pick."));
    } else {
      el.append(h("p.muted", null, "(a spectator sees no trays)"));
    }

    if (this.focusBoard) (this.board.querySelector<HTMLElement>(`[data-cell="${key(...this.cursor)}"]`) ?? this.viewport).focus({ preventScroll: true });
    else if (this.focusTray) this.el.querySelector<HTMLElement>(`.tt-tray.active [data-index="${this.trayCursor}"]`)?.focus({ preventScroll: true });
  }

  /** A button's handlers: a click, or at once when a finger lifts on it (a tap's click may not follow a
   * drag whose tile was redrawn), never both for one press. */
  private press(fn: () => void): Record<string, unknown> {
    return {
      onpointerup: (e: PointerEvent) => {
        const button = e.currentTarget as HTMLButtonElement;
        if (e.pointerType !== "touch" || button.disabled) return;
        const box = button.getBoundingClientRect();
        if (e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom) return;
        e.stopPropagation();
        this.touchPressed = Date.now();
        fn();
      },
      onclick: (e: Event) => {
        e.stopPropagation();
        if (Date.now() - this.touchPressed > 700) fn();
      },
    };
  }

  private calls(k: string): LegalAction[] {
    const [r, c] = parseKey(k);
    return this.ctx.legal().filter((a) => a.json.type === "call" && a.json.row === r && a.json.col === c);
  }

  private commit(): void {
    if (!this.verdict?.ok) return;
    this.ctx.act(this.playAction());
  }

  // ---- pan and zoom -------------------------------------------------------------------------------

  private applyTransform(): void {
    this.board.style.transform = `translate(${this.panX}px, ${this.panY}px) scale(${this.scale})`;
  }

  private boardSize(): [number, number] {
    return [22 + this.cols * (CELL + 2), 22 + this.rows * (CELL + 2)];
  }

  private fit(): void {
    const vw = this.viewport.clientWidth;
    const vh = this.viewport.clientHeight;
    if (!vw || !vh) return;
    const [bw, bh] = this.boardSize();
    const top = (this.zoomBox.offsetHeight || 0) + 8; // the zoom buttons sit above the board, not on it
    this.scale = Math.max(0.2, Math.min(1.3, (vw - 8) / bw, (vh - top - 4) / bh));
    this.panX = (vw - bw * this.scale) / 2;
    this.panY = top + (vh - top - bh * this.scale) / 2;
    this.applyTransform();
  }

  private zoomAt(factor: number, mx: number, my: number): void {
    const next = Math.max(0.2, Math.min(3, this.scale * factor));
    const f = next / this.scale;
    this.panX = mx - (mx - this.panX) * f;
    this.panY = my - (my - this.panY) * f;
    this.scale = next;
    this.adjusted = true;
    this.applyTransform();
  }

  private zoomBy(factor: number): void {
    this.zoomAt(factor, this.viewport.clientWidth / 2, this.viewport.clientHeight / 2);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const box = this.viewport.getBoundingClientRect();
    this.zoomAt(Math.exp(-e.deltaY / 300), e.clientX - box.left, e.clientY - box.top);
  }

  // ---- pointers: tap, drag a tile, pan, pinch -----------------------------------------------------

  private onTileDown(e: PointerEvent, name: string, index: number): void {
    if (e.button !== 0) return;
    if (e.pointerType === "mouse") e.preventDefault(); // no text selection; a touch keeps its click (touch-action: none)
    e.stopPropagation();
    this.gesture = { kind: "drag", id: e.pointerId, x: e.clientX, y: e.clientY, source: null, tray: name, index, moved: false, ghost: null };
  }

  private onBoardDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const target = e.target as HTMLElement;
    if (target.closest(".tt-call, .tt-menu, .tt-zoombox")) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    e.preventDefault();
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const box = this.viewport.getBoundingClientRect();
      if (this.gesture?.kind === "drag") this.gesture.ghost?.remove();
      this.gesture = {
        kind: "pinch",
        dist: Math.hypot(a.x - b.x, a.y - b.y) || 1,
        scale: this.scale,
        mx: (a.x + b.x) / 2 - box.left,
        my: (a.y + b.y) / 2 - box.top,
        px: this.panX,
        py: this.panY,
      };
      return;
    }
    const cell = target.closest<HTMLElement>("[data-cell]")?.dataset.cell ?? null;
    if (cell && this.cells.has(cell) && this.myTurn()) {
      this.gesture = { kind: "drag", id: e.pointerId, x: e.clientX, y: e.clientY, source: { kind: "cell", key: cell }, moved: false, ghost: null };
    } else {
      this.gesture = { kind: "pan", id: e.pointerId, x: e.clientX, y: e.clientY, px: this.panX, py: this.panY, moved: false, cell };
    }
  }

  private onMove(e: PointerEvent): void {
    if (this.pointers.has(e.pointerId)) this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = this.gesture;
    if (!g) return;
    if (g.kind === "pinch") {
      const pts = [...this.pointers.values()];
      if (pts.length < 2) return;
      const d = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
      const next = Math.max(0.2, Math.min(3, (g.scale * d) / g.dist));
      const f = next / g.scale;
      this.scale = next;
      this.panX = g.mx - (g.mx - g.px) * f;
      this.panY = g.my - (g.my - g.py) * f;
      this.adjusted = true;
      this.applyTransform();
      return;
    }
    if (e.pointerId !== g.id) return;
    const dx = e.clientX - g.x;
    const dy = e.clientY - g.y;
    if (!g.moved && Math.hypot(dx, dy) < 6) return;
    g.moved = true;
    if (g.kind === "pan") {
      this.panX = g.px + dx;
      this.panY = g.py + dy;
      this.adjusted = true;
      this.applyTransform();
      return;
    }
    // dragging a tile
    if (!g.ghost) {
      const tile = this.sourceTile(g);
      if (tile === null) {
        this.gesture = null;
        return;
      }
      g.ghost = pieceEl(tile, { "aria-hidden": "true" });
      g.ghost.classList.add("ghost", "tt-ghost");
      document.body.append(g.ghost);
      document.body.classList.add("dragging");
    }
    g.ghost.style.left = `${e.clientX - 20}px`;
    g.ghost.style.top = `${e.clientY - 24}px`;
    for (const over of Array.from(this.board.querySelectorAll(".tt-over"))) over.classList.remove("tt-over");
    this.dropTarget(e)?.classList.add("tt-over");
  }

  private sourceTile(g: Drag): string | null {
    if (g.tray !== undefined && g.index !== undefined) {
      if (g.tray !== this.tray) return null;
      if (this.used().has(g.index) || !this.myTurn()) return null;
      g.source = { kind: "tray", index: g.index };
      return this.trayTiles()[g.index] ?? null;
    }
    if (g.source?.kind === "cell") return this.cells.get(g.source.key)?.tile ?? null;
    return null;
  }

  private dropTarget(e: PointerEvent): HTMLElement | null {
    const under = document.elementFromPoint(e.clientX, e.clientY) as HTMLElement | null;
    return under?.closest<HTMLElement>("[data-cell], .tt-tray") ?? null;
  }

  private onUp(e: PointerEvent): void {
    this.pointers.delete(e.pointerId);
    const g = this.gesture;
    if (!g) return;
    if (g.kind === "pinch") {
      if (this.pointers.size === 0) this.gesture = null;
      return;
    }
    if (e.pointerId !== g.id) return;
    this.gesture = null;
    if (g.kind === "pan") {
      if (!g.moved && g.cell) this.tapCell(g.cell);
      return;
    }
    if (!g.moved) {
      if (g.tray !== undefined && g.index !== undefined) this.tapTile(g.tray, g.index);
      else if (g.source?.kind === "cell") this.tapCell(g.source.key);
      return;
    }
    g.ghost?.remove();
    document.body.classList.remove("dragging");
    const target = this.dropTarget(e);
    if (!target || !g.source) return;
    const source = g.source;
    // redraw after the touch ends: the touched tile stays in the page until its touchend has gone by
    window.setTimeout(() => {
      if (target.dataset.cell) this.drop(source, target.dataset.cell);
      else if (source.kind === "cell") this.back(source.key);
    }, e.pointerType === "touch" ? 80 : 0);
  }

  private onCancel(e: PointerEvent): void {
    this.pointers.delete(e.pointerId);
    if (this.gesture?.kind === "drag") this.gesture.ghost?.remove();
    document.body.classList.remove("dragging");
    this.gesture = null;
  }

  private tapTile(name: string, index: number): void {
    if (name !== this.tray) {
      this.chooseTray(name);
      if (name !== this.tray) return;
    }
    if (!this.myTurn()) return this.say("It is not your turn.");
    if (this.used().has(index)) return this.say("That tile is on the board already (take it back from there).");
    this.trayCursor = index;
    this.pick = this.pick?.kind === "tray" && this.pick.index === index ? null : { kind: "tray", index };
    this.message = "";
    this.draw();
  }

  private tapCell(k: string): void {
    this.cursor = parseKey(k);
    if (this.pick) {
      if (this.pick.kind === "cell" && this.pick.key === k) {
        this.pick = null;
        this.draw();
        return;
      }
      if (!this.cells.has(k)) return this.drop(this.pick, k);
    }
    if (this.cells.has(k) && this.myTurn()) {
      this.pick = { kind: "cell", key: k };
      this.message = "";
    }
    this.draw();
  }

  // ---- keyboard -----------------------------------------------------------------------------------

  private onBoardKey(e: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const k = key(...this.cursor);
    if (moves[e.key]) {
      const [dr, dc] = moves[e.key];
      const r = Math.min(this.r0 + this.rows - 1, Math.max(this.r0, this.cursor[0] + dr));
      const c = Math.min(this.c0 + this.cols - 1, Math.max(this.c0, this.cursor[1] + dc));
      this.cursor = [r, c];
      this.focusBoard = true;
      const cell = this.board.querySelector<HTMLElement>(`[data-cell="${key(r, c)}"]`);
      for (const old of Array.from(this.board.querySelectorAll<HTMLElement>("[data-cell][tabindex='0']"))) old.tabIndex = -1;
      if (cell) {
        cell.tabIndex = 0;
        cell.focus({ preventScroll: true });
        this.keepInSight(cell);
      }
    } else if (e.key === "Enter" || e.key === " ") {
      if ((e.target as HTMLElement).closest(".tt-call, .tt-menu, .tt-zoombox")) return;
      this.tapCell(k);
    } else if (e.key === "Backspace" || e.key === "Delete") {
      this.back(k);
    } else if (e.key === "Escape") {
      this.pick = null;
      this.menu = null;
      this.draw();
    } else if (e.key === "+" || e.key === "=") this.zoomBy(1.25);
    else if (e.key === "-") this.zoomBy(1 / 1.25);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  private keepInSight(cell: HTMLElement): void {
    const box = this.viewport.getBoundingClientRect();
    const c = cell.getBoundingClientRect();
    let dx = 0;
    let dy = 0;
    if (c.left < box.left) dx = box.left - c.left + 8;
    if (c.right > box.right) dx = box.right - c.right - 8;
    if (c.top < box.top) dy = box.top - c.top + 8;
    if (c.bottom > box.bottom) dy = box.bottom - c.bottom - 8;
    if (dx || dy) {
      this.panX += dx;
      this.panY += dy;
      this.adjusted = true;
      this.applyTransform();
    }
  }

  private onTrayKey(e: KeyboardEvent, name: string, index: number): void {
    const tiles = this.trayTiles(name).length;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      const next = Math.max(0, Math.min(tiles - 1, index + (e.key === "ArrowRight" ? 1 : -1)));
      if (name === this.tray) this.trayCursor = next;
      const el = this.el.querySelector<HTMLElement>(`.tt-tray[data-tray="${name}"] [data-index="${next}"]`);
      if (el) {
        for (const t of Array.from(this.el.querySelectorAll<HTMLElement>(`.tt-tray[data-tray="${name}"] [tabindex='0']`))) t.tabIndex = -1;
        el.tabIndex = 0;
        el.focus();
      }
    } else if (e.key === "Enter" || e.key === " ") {
      this.tapTile(name, index);
      if (this.pick?.kind === "tray") {
        // go to the board to place it
        this.focusBoard = true;
        this.board.querySelector<HTMLElement>(`[data-cell="${key(...this.cursor)}"]`)?.focus({ preventScroll: true });
      }
    } else if (e.key === "Escape") {
      this.pick = null;
      this.draw();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }
}
