// The grid layout (a game whose draft is `grid`): the grid of placed tiles with a free margin, and the seat's trays.
// A play is built by picking a tile of the playing tray and then a grid cell (click or tap); the draft is
// checked by the server (`check` with the play action) and sent with Play. Actions are also listed.

import { isGridView, refusal, type GridView, type View } from "./api";
import { clear, h } from "./dom";
import { pieceEl } from "./pieces";
import type { Ctx, Layout } from "./table";
import { shown } from "./numbers";

interface Change {
  row: number;
  col: number;
  tile: string;
  index: number; // position in the tray the tile came from
}

export class GridLayout implements Layout {
  private seq = -1;
  private view: GridView | null = null;
  private tray = "A";
  private pick: number | null = null;
  private changes: Change[] = [];
  private verdict = "";
  private el = h("div.grid-table");

  constructor(private ctx: Ctx) {}

  render(view: View, seq: number): HTMLElement {
    if (!isGridView(view)) return h("p.muted", null, "(this view has no grid)");
    this.view = view;
    if (seq !== this.seq) {
      this.seq = seq;
      this.changes = [];
      this.pick = null;
      this.verdict = "";
      const seat = this.ctx.seat;
      const playing = seat !== null ? view.playing[seat] : null;
      if (playing) this.tray = playing;
    }
    this.draw();
    return this.el;
  }

  private changeText(): string[] {
    return this.changes.map((c) => `${c.row},${c.col}=${c.tile}`);
  }

  private async check(): Promise<void> {
    if (!this.changes.length) {
      this.verdict = "";
      this.draw();
      return;
    }
    const reply = await this.ctx.conn.request({ type: "check", action: { type: "play", tray: this.tray, changes: this.changeText() } });
    if (reply.type === "checked") this.verdict = reply.ok ? "\u2714 The server would accept this play." : `\u2718 ${refusal(reply)}`;
    else if (reply.type === "error") this.verdict = `\u2718 ${refusal(reply)}`;
    this.draw();
  }

  private draw(): void {
    const el = this.el;
    clear(el);
    const v = this.view;
    if (!v) return;
    const cells = v.grid;
    const all = [...cells.map((c) => ({ row: c.row, col: c.col })), ...this.changes];
    const rows = all.map((c) => c.row);
    const cols = all.map((c) => c.col);
    // the board has no edge (negative cells too): show the tiles with a free margin that grows as you place
    const r0 = all.length ? Math.min(...rows) - 2 : 0;
    const r1 = all.length ? Math.max(...rows) + 2 : 4;
    const c0 = all.length ? Math.min(...cols) - 2 : 0;
    const c1 = all.length ? Math.max(...cols) + 3 : 7;
    const grid = h("div.grid", { style: `grid-template-columns: 2.2em repeat(${c1 - c0 + 1}, var(--cell))`, "aria-label": "grid" });
    grid.append(h("span.axis", null, ""));
    for (let c = c0; c <= c1; c++) grid.append(h("span.axis", null, String(shown(c))));
    for (let r = r0; r <= r1; r++) {
      grid.append(h("span.axis", null, String(shown(r))));
      for (let c = c0; c <= c1; c++) {
        const placed = cells.find((x) => x.row === r && x.col === c);
        const drafted = this.changes.find((x) => x.row === r && x.col === c);
        const cell = h("button.cell", { type: "button", "data-cell": `${r},${c}`, "aria-label": `cell ${shown(r)},${shown(c)}` });
        if (placed) {
          const p = pieceEl(placed.tile);
          if (placed.called) p.append(h("sub", null, placed.called));
          cell.append(p);
        }
        if (drafted) {
          cell.replaceChildren(pieceEl(drafted.tile));
          cell.classList.add("drafted");
        }
        cell.addEventListener("click", () => this.place(r, c));
        grid.append(cell);
      }
    }
    const names = v.players;
    el.append(
      h("p", null, `Pool: ${v.stock_count ?? 0}. Playing trays: ${v.playing.map((t, s) => `${names[s]} ${t ?? "-"}`).join(", ")}.`),
      grid,
    );
    if (v.trays) {
      const used = new Set(this.changes.map((c) => c.index));
      for (const [name, tiles = []] of Object.entries(v.trays)) {
        const tray = h(
          "div.rack.tray",
          { "data-tray": name, class: name === this.tray ? "active" : "" },
          tiles.map((t, i) => {
            const p = pieceEl(t, { "data-index": i });
            if (name === this.tray && used.has(i)) p.classList.add("used");
            if (name === this.tray && this.pick === i) p.classList.add("selected");
            p.addEventListener("click", () => {
              if (name !== this.tray) {
                this.tray = name;
                this.changes = [];
              }
              this.pick = used.has(i) ? null : i;
              this.draw();
            });
            return p;
          }),
        );
        el.append(h("h3", null, `Tray ${name}${name === this.tray ? " (placing from this tray)" : ""}`), tray);
      }
      el.append(
        h("p.verdict", null, this.verdict || "Pick a tile, then a cell."),
        h(
          "div.controls",
          null,
          h("button", { type: "button", id: "tt-play", disabled: !this.changes.length, onclick: () => this.ctx.act({ type: "play", tray: this.tray, changes: this.changeText() }) }, "Play"),
          h("button", { type: "button", id: "tt-undo", disabled: !this.changes.length, onclick: () => { this.changes.pop(); void this.check(); } }, "Undo"),
          h("button", { type: "button", id: "tt-reset", disabled: !this.changes.length, onclick: () => { this.changes = []; void this.check(); } }, "Reset"),
        ),
      );
    } else {
      el.append(h("p.muted", null, "(a spectator sees no trays)"));
    }
  }

  private place(row: number, col: number): void {
    const at = this.changes.findIndex((c) => c.row === row && c.col === col);
    if (at >= 0) {
      this.changes.splice(at, 1);
    } else if (this.pick !== null) {
      const tile = (this.view?.trays?.[this.tray] ?? [])[this.pick];
      if (tile === undefined) return;
      this.changes.push({ row, col, tile, index: this.pick });
      this.pick = null;
    } else {
      return;
    }
    void this.check();
  }
}
