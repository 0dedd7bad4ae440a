// The free table (a game whose draft is `table`): build a turn as a draft, by dragging pieces
// (pointer events, so mouse, pen and touch all work) or with the keyboard. After every change the draft
// table is sent to the server (`check` with `table`), which answers per set whether it is valid and why not;
// the client never judges a set itself. Commit sends the engine's `play` action (placed + table).

import { isTableView, refusal, type ActionJson, type Checked, type TableView, type View } from "./api";
import { clear, h } from "./dom";
import { shown } from "./numbers";
import { pieceEl, pieceKind } from "./pieces";
import type { Ctx, Layout } from "./table";

interface Item {
  id: number;
  piece: string;
  fromRack: boolean;
}

interface Draft {
  sets: Item[][];
  rack: Item[];
}

type Zone = { kind: "rack" } | { kind: "set"; index: number } | { kind: "new" };

function copy(d: Draft): Draft {
  return { sets: d.sets.map((s) => s.slice()), rack: d.rack.slice() };
}

export class FreeTableLayout implements Layout {
  private seq = -1;
  private view: TableView | null = null;
  private base: Draft = { sets: [], rack: [] };
  private draft: Draft = { sets: [], rack: [] };
  private history: Draft[] = [];
  private selected = new Set<number>();
  private hinted = new Set<number>();
  private hintAction: ActionJson | null = null;
  private cursor = { row: 0, col: 0 };
  private verdict: Checked | null = null;
  /** The table's pieces another player's last move laid (by item id), highlighted until the next state. */
  private lastIds = new Set<number>();
  /** Who made that move and what it laid, for the line under the table. */
  private lastMove: { seat: number; pieces: string[]; verb: string } | null = null;
  /** The first drawing of a new state: pieces just laid by another player slide in (once). */
  private fresh = false;
  private checkSerial = 0;
  private el = h("div.freetable");
  private drag: { ids: number[]; x: number; y: number; ghost: HTMLElement | null; pointer: number } | null = null;

  constructor(private ctx: Ctx) {
    window.addEventListener("pointermove", (e) => this.onMove(e));
    window.addEventListener("pointerup", (e) => this.onUp(e));
    window.addEventListener("pointercancel", () => this.endDrag());
  }

  render(view: View, seq: number): HTMLElement {
    if (!isTableView(view)) return h("p.muted", null, "(this view has no free table)");
    this.view = view;
    if (seq !== this.seq) {
      this.seq = seq;
      let next = 1;
      this.base = {
        sets: view.table.map((set) => set.map((piece) => ({ id: next++, piece, fromRack: false }))),
        rack: (view.rack ?? []).map((piece) => ({ id: next++, piece, fromRack: true })),
      };
      this.draft = copy(this.base);
      this.history = [];
      this.selected.clear();
      this.hinted.clear();
      this.hintAction = null;
      this.verdict = null;
      this.cursor = { row: 0, col: 0 };
      this.markLastMove(view);
      this.fresh = true;
    }
    this.draw();
    this.fresh = false;
    return this.el;
  }

  /** Find the pieces another player's last move laid on the table (view.last_move: its text names them). */
  private markLastMove(view: TableView): void {
    this.lastIds.clear();
    this.lastMove = null;
    const last = view.last_move;
    if (!last || last.seat === this.ctx.seat) return;
    const [verb, ...words] = last.text.trim().split(/\s+/);
    const pieces = words.filter((w) => pieceKind(w) !== "other" && pieceKind(w) !== "face-down");
    this.lastMove = { seat: last.seat, pieces, verb };
    const wanted = pieces.slice();
    // the newest copies first: sets on the right end of the table are the likeliest new ones
    for (const set of this.base.sets.slice().reverse()) {
      for (const it of set) {
        const at = wanted.indexOf(it.piece);
        if (at >= 0) {
          this.lastIds.add(it.id);
          wanted.splice(at, 1);
        }
      }
    }
  }

  // ---- the draft -------------------------------------------------------------------------------------

  private change(mutate: (d: Draft) => void): void {
    this.history.push(copy(this.draft));
    const next = copy(this.draft);
    mutate(next);
    next.sets = next.sets.filter((s) => s.length > 0);
    this.draft = next;
    this.afterChange();
  }

  private afterChange(): void {
    this.verdict = null;
    this.draw();
    void this.check();
  }

  private take(d: Draft, ids: number[]): Item[] {
    const out: Item[] = [];
    for (const id of ids) {
      for (const list of [d.rack, ...d.sets]) {
        const at = list.findIndex((it) => it.id === id);
        if (at >= 0) out.push(...list.splice(at, 1));
      }
    }
    return out;
  }

  /** Move pieces into a zone, before the piece `beforeId` when given. */
  private move(ids: number[], zone: Zone, beforeId: number | null = null): void {
    if (!ids.length) return;
    this.selected.clear();
    this.change((d) => {
      const targetSet = zone.kind === "set" ? d.sets[zone.index] : null;
      const items = this.take(d, ids);
      let list: Item[];
      if (zone.kind === "rack") list = d.rack;
      else if (zone.kind === "new" || !targetSet) {
        list = [];
        d.sets.push(list);
      } else list = targetSet;
      const at = beforeId === null ? -1 : list.findIndex((it) => it.id === beforeId);
      list.splice(at < 0 ? list.length : at, 0, ...items);
    });
  }

  private undo(): void {
    const prev = this.history.pop();
    if (!prev) return;
    this.draft = prev;
    this.selected.clear();
    this.afterChange();
  }

  private reset(): void {
    if (!this.history.length) return;
    this.history = [];
    this.draft = copy(this.base);
    this.selected.clear();
    this.afterChange();
  }

  private placed(): string[] {
    return this.draft.sets.flat().filter((it) => it.fromRack).map((it) => it.piece);
  }

  private tableJson(): string[][] {
    return this.draft.sets.map((s) => s.map((it) => it.piece));
  }

  private async check(): Promise<void> {
    const serial = ++this.checkSerial;
    if (!this.history.length) return;
    const reply = await this.ctx.conn.request({ type: "check", table: this.tableJson() });
    if (serial !== this.checkSerial) return;
    if (reply.type === "checked") this.verdict = reply;
    else if (reply.type === "error") this.ctx.say(refusal(reply), true);
    this.draw();
  }

  private commit(): void {
    if (!this.ctx.myTurn()) {
      this.ctx.say("It is not your turn.", true);
      return;
    }
    this.ctx.act({ type: "play", placed: this.placed(), table: this.tableJson() });
  }

  hint(action: ActionJson | null): void {
    this.hintAction = action;
    this.hinted.clear();
    if (action && Array.isArray(action.placed)) {
      const want = (action.placed as string[]).slice();
      for (const it of this.draft.rack) {
        const at = want.indexOf(it.piece);
        if (at >= 0) {
          this.hinted.add(it.id);
          want.splice(at, 1);
        }
      }
    }
    this.draw();
  }

  /** Lay the hinted table out as the draft (the player still commits it). */
  private useHint(): void {
    const action = this.hintAction;
    if (!action || !Array.isArray(action.table)) return;
    this.change((d) => {
      const pool = [...d.sets.flat(), ...d.rack];
      const sets: Item[][] = [];
      for (const set of action.table as string[][]) {
        const out: Item[] = [];
        for (const piece of set) {
          const at = pool.findIndex((it) => it.piece === piece && !it.fromRack);
          const at2 = at >= 0 ? at : pool.findIndex((it) => it.piece === piece);
          if (at2 >= 0) out.push(...pool.splice(at2, 1));
        }
        sets.push(out);
      }
      d.sets = sets;
      d.rack = pool.filter((it) => it.fromRack);
      // anything from the old table the hint does not use stays on the table, in a set of its own
      const left = pool.filter((it) => !it.fromRack);
      if (left.length) d.sets.push(left);
    });
  }

  // ---- drawing ---------------------------------------------------------------------------------------

  private pieceNode(it: Item, row: number, col: number): HTMLElement {
    const cur = this.cursor.row === row && this.cursor.col === col;
    const el = pieceEl(it.piece, {
      "data-item": it.id,
      "data-from": it.fromRack ? "rack" : "table",
      tabindex: "-1",
    });
    el.classList.add("draggable");
    if (this.selected.has(it.id)) el.classList.add("selected");
    if (this.hinted.has(it.id)) el.classList.add("hinted");
    if (it.fromRack && row > 0) el.classList.add("placed");
    if (cur) el.classList.add("cursor");
    if (this.lastIds.has(it.id) && !it.fromRack) {
      el.classList.add("last-move");
      if (this.fresh) el.classList.add("arrived");
    }
    el.addEventListener("pointerdown", (e) => this.onDown(e, it.id));
    return el;
  }

  private draw(): void {
    const el = this.el;
    clear(el);
    const v = this.view;
    const mine = this.ctx.myTurn();
    const seat = this.ctx.seat;
    const opened = seat !== null && v ? v.down[seat] : null;

    const controls = h(
      "div.controls",
      null,
      h("button.primary", { type: "button", id: "commit", disabled: !mine || !this.placed().length, onclick: () => this.commit() }, "Commit", h("span.key-hint", null, " (Enter)")),
      // an empty pool: the server lists pass instead of draw
      mine && !this.ctx.legal().some((a) => a.json.type === "draw") && this.ctx.legal().some((a) => a.json.type === "pass")
        ? h("button", { type: "button", id: "pass", onclick: () => this.ctx.act({ type: "pass" }) }, "Pass")
        : h("button", { type: "button", id: "draw", disabled: !mine, onclick: () => this.ctx.act({ type: "draw" }) }, "Draw", h("span.key-hint", null, " (D)")),
      h("button", { type: "button", id: "undo", disabled: !this.history.length, onclick: () => this.undo() }, "Undo", h("span.key-hint", null, " (U)")),
      h("button", { type: "button", id: "reset", disabled: !this.history.length, onclick: () => this.reset() }, "Reset", h("span.key-hint", null, " (Esc)")),
      this.hintAction && Array.isArray(this.hintAction.table)
        ? h("button", { type: "button", id: "use-hint", onclick: () => this.useHint() }, "Lay out the hint")
        : null,
    );

    const overall = h("p.verdict", { "aria-live": "polite" });
    if (this.verdict) {
      overall.classList.add(this.verdict.ok ? "ok" : "bad");
      overall.textContent = this.verdict.ok
        ? "\u2714 The server would accept this play."
        : `\u2718 ${this.verdict.rule || this.verdict.message ? refusal(this.verdict) : "not acceptable yet"}`;
    } else if (this.history.length) {
      overall.textContent = "checking\u2026";
    } else {
      overall.textContent =
        seat === null || !mine
          ? ""
          : `Your turn${opened === false ? " (opening play still to make)" : ""}: drag or tap pieces onto the table, or draw.`;
    }

    const sets = this.draft.sets.map((set, i) => {
      const verdict = this.verdict?.sets?.find((s) => s.index === i) ?? null;
      const box = h(
        "div.set",
        { "data-drop": `set:${i}`, "data-set": i, role: "group", "aria-label": `set ${shown(i)}` },
        h("span.set-no", { "aria-hidden": "true" }, String(shown(i))),
        set.map((it, col) => this.pieceNode(it, i + 1, col)),
      );
      if (this.cursor.row === i + 1 && set.length === 0) box.classList.add("cursor");
      if (set.some((it) => this.lastIds.has(it.id))) box.classList.add("last-move");
      if (verdict) {
        box.classList.add(verdict.ok ? "ok" : "bad");
        if (!verdict.ok) box.append(h("span.reason", null, `${verdict.rule ?? ""}: ${verdict.message ?? ""}`));
      }
      return box;
    });
    const newSet = h("div.set.newset", { "data-drop": "new" }, "+ new set", h("span.key-hint", null, " (drop here, or N)"));

    const rack = h(
      "div.rack",
      { "data-drop": "rack", "aria-label": "your rack" },
      this.draft.rack.map((it, col) => this.pieceNode(it, 0, col)),
    );
    if (seat === null) rack.replaceChildren(h("span.muted", null, "(a spectator sees no rack)"));

    const lm = this.lastMove;
    const lastLine =
      lm && v
        ? h(
            "p.last-line",
            { "data-last-seat": lm.seat },
            `${v.players[lm.seat] ?? `player ${shown(lm.seat)}`} ${lm.verb === "play" ? "laid" : lm.verb === "draw" ? "drew a piece" : lm.verb === "pass" ? "passed" : lm.verb}`,
            lm.verb === "play" ? " " : "",
            lm.pieces.map((p) => pieceEl(p)),
            lm.verb === "play" && this.lastIds.size ? " (highlighted)" : "",
          )
        : null;
    // tap-select, tap-place: with pieces selected, a tap on a set, on "new set" or on the rack moves them there
    for (const zone of [...sets, newSet, rack]) {
      zone.addEventListener("click", (e) => {
        if (!this.selected.size || (e.target as HTMLElement).closest("[data-item]")) return;
        this.move([...this.selected], this.zoneOf(zone.dataset.drop!));
      });
    }
    el.replaceChildren(
      ...(lastLine ? [lastLine] : []),
      h("div.tablearea", { "aria-label": "the table's sets" }, sets.length ? sets : h("p.muted", null, "The table is empty."), newSet),
      overall,
      h("div.dock", null, seat !== null ? h("h3", null, `Your rack (${this.draft.rack.length})`) : "", rack, seat !== null ? controls : ""),
      seat !== null
        ? h("p.keys", null, "Keys: arrows move, Space selects, N new set, A add to the row under the cursor, R back to rack, Enter commit, D draw, U undo, Esc reset, H hint.")
        : "",
    );
  }

  // ---- pointer drag and drop ---------------------------------------------------------------------------

  private onDown(e: PointerEvent, id: number): void {
    if (this.ctx.seat === null || e.button !== 0) return;
    e.preventDefault();
    const ids = this.selected.has(id) ? [...this.selected] : [id];
    this.drag = { ids, x: e.clientX, y: e.clientY, ghost: null, pointer: e.pointerId };
  }

  private onMove(e: PointerEvent): void {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    if (!drag.ghost) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 5) return;
      const ghost = h("div.ghost");
      for (const id of drag.ids) {
        const src = this.el.querySelector(`[data-item="${id}"]`);
        if (src) ghost.append(src.cloneNode(true));
      }
      document.body.append(ghost);
      drag.ghost = ghost;
      document.body.classList.add("dragging");
    }
    // near the window's top or bottom edge, scroll, so a far set can be reached on a small screen
    if (e.clientY < 48) window.scrollBy(0, -24);
    else if (e.clientY > window.innerHeight - 48) window.scrollBy(0, 24);
    drag.ghost.style.left = `${e.clientX + 4}px`;
    drag.ghost.style.top = `${e.clientY + 4}px`;
    for (const z of Array.from(this.el.querySelectorAll(".over"))) z.classList.remove("over");
    const zone = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-drop]");
    zone?.classList.add("over");
  }

  private onUp(e: PointerEvent): void {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    const dragged = drag.ghost !== null;
    this.endDrag();
    if (!dragged) {
      // a click: select or unselect the piece
      const id = drag.ids.length === 1 ? drag.ids[0] : null;
      if (id !== null) {
        if (this.selected.has(id)) this.selected.delete(id);
        else this.selected.add(id);
        this.draw();
      }
      return;
    }
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const zoneEl = under?.closest<HTMLElement>("[data-drop]");
    if (!zoneEl || !this.el.contains(zoneEl)) return;
    const beforeEl = under?.closest<HTMLElement>("[data-item]");
    const beforeId = beforeEl && zoneEl.contains(beforeEl) ? Number(beforeEl.dataset.item) : null;
    this.move(drag.ids.filter((id) => id !== beforeId), this.zoneOf(zoneEl.dataset.drop!), beforeId);
  }

  private endDrag(): void {
    this.drag?.ghost?.remove();
    this.drag = null;
    document.body.classList.remove("dragging");
    for (const z of Array.from(this.el.querySelectorAll(".over"))) z.classList.remove("over");
  }

  private zoneOf(name: string): Zone {
    if (name === "rack") return { kind: "rack" };
    if (name === "new") return { kind: "new" };
    return { kind: "set", index: Number(name.split(":")[1]) };
  }

  // ---- keyboard ----------------------------------------------------------------------------------------

  private row(r: number): Item[] {
    return r === 0 ? this.draft.rack : this.draft.sets[r - 1] ?? [];
  }

  key(e: KeyboardEvent): boolean {
    if (this.ctx.seat === null || e.altKey || e.metaKey) return false;
    const rows = this.draft.sets.length + 1;
    const c = this.cursor;
    const clampCol = () => (c.col = Math.max(0, Math.min(c.col, this.row(c.row).length - 1)));
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (e.ctrlKey && key !== "z") return false;
    switch (key) {
      case "ArrowLeft":
        c.col -= 1;
        clampCol();
        break;
      case "ArrowRight":
        c.col += 1;
        clampCol();
        break;
      case "ArrowUp":
        c.row = (c.row - 1 + rows) % rows;
        clampCol();
        break;
      case "ArrowDown":
        c.row = (c.row + 1) % rows;
        clampCol();
        break;
      case " ": {
        const it = this.row(c.row)[c.col];
        if (it) {
          if (this.selected.has(it.id)) this.selected.delete(it.id);
          else this.selected.add(it.id);
        }
        break;
      }
      case "n":
        this.move([...this.selected], { kind: "new" });
        this.cursor = { row: this.draft.sets.length, col: 0 };
        break;
      case "a":
      case "m":
        this.move([...this.selected], c.row === 0 ? { kind: "rack" } : { kind: "set", index: c.row - 1 });
        break;
      case "r":
        this.move([...this.selected], { kind: "rack" });
        break;
      case "Enter":
        this.commit();
        return true;
      case "d":
        if (this.ctx.myTurn()) this.ctx.act({ type: "draw" });
        return true;
      case "u":
      case "z":
        if (key === "z" && !e.ctrlKey) return false;
        this.undo();
        return true;
      case "Escape":
        if (this.selected.size) this.selected.clear();
        else this.reset();
        break;
      case "h":
        (document.getElementById("hint") as HTMLButtonElement | null)?.click();
        return true;
      default:
        return false;
    }
    if (this.cursor.row >= this.draft.sets.length + 1) this.cursor = { row: 0, col: 0 };
    this.draw();
    return true;
  }
}
