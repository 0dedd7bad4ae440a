// The columns layout (the view has `columns`: a belt of columns, drawn from at either end),
// played by direct manipulation: tap a face-down domino to turn it up, a column's Claim to take it, an end to
// draw from it; then tap hand dominoes to select them and press Meld, tap (or drop on) a meld's end to lay
// off, and drag a domino onto the highlighted end (or select it and tap that end) to discard it.
// The server judges: every gesture is matched against the seat's listed legal actions (their JSON); a gesture
// that matches none is explained (by the server's own words when it can say, through a `check` frame).
// Keyboard: every usable thing is a button; the arrow keys move between them by position, Enter/Space uses
// the one in focus, M melds, Escape clears the selection.

import "./columns.css";
import { isColumnsView, refusal, type ActionJson, type ColumnsView, type View } from "./api";
import { clear, h } from "./dom";
import { shown } from "./numbers";
import { pieceEl } from "./pieces";
import type { Ctx, Layout } from "./table";

const UNKNOWN = "??";

type Event = Record<string, unknown>;

/** The other players' moves since this seat last moved (what the board highlights). */
interface Recent {
  /** The first of them to move. */
  seat: number;
  events: Event[];
  /** The seat has moved since: the next move of another seat starts a new list. */
  closed: boolean;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const rest = a.slice().sort();
  const other = b.slice().sort();
  return rest.every((x, i) => x === other[i]);
}

const KIND_NAMES: Record<string, string> = { run: "run", pairs: "run of pairs", sum: "sum", line: "line" };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : word.endsWith("o") ? "es" : "s"}`;
}

function dominoName(d: string): string {
  return d === UNKNOWN ? "face-down domino" : `domino ${d}`;
}

export class ColumnsLayout implements Layout {
  private el = h("div.columns-table.cv");
  private view: ColumnsView | null = null;
  private seq = -1;
  private selected = new Set<string>();
  private recent: Recent | null = null;
  private lastMoveKey = "";
  private fresh = false;
  /** Per navigation zone, the key of the button that keeps the zone's tab stop. */
  private stops = new Map<string, string>();
  private focusKey: string | null = null;
  private drag: { piece: string; x: number; y: number; pointer: number; ghost: HTMLElement | null } | null = null;
  private swallowClick = false;
  private tap: { key: string; x: number; y: number; pointer: number } | null = null;
  private tapped: { key: string; at: number } | null = null;
  /** The move the last hint suggested (its pieces and ends are marked until the view changes). */
  private hintAction: ActionJson | null = null;

  constructor(private ctx: Ctx) {
    window.addEventListener("pointermove", (e) => this.onMove(e));
    window.addEventListener("pointerup", (e) => this.onUp(e));
    window.addEventListener("pointercancel", () => this.endDrag());
    this.el.addEventListener("focusin", (e) => {
      const target = (e.target as HTMLElement).closest<HTMLElement>("[data-key]");
      if (!target) return;
      this.focusKey = target.dataset.key ?? null;
      const zone = target.dataset.zone;
      if (zone && target.dataset.key) {
        this.stops.set(zone, target.dataset.key);
        for (const other of Array.from(this.el.querySelectorAll<HTMLElement>(`[data-zone="${zone}"]`))) {
          other.tabIndex = other === target ? 0 : -1;
        }
      }
    });
    // the board is drawn afresh on every frame: its focus is kept by key, until the person moves it elsewhere
    this.el.addEventListener("focusout", (e) => {
      const next = e.relatedTarget as Node | null;
      if (next && !this.el.contains(next)) this.focusKey = null;
    });
    document.addEventListener("pointerdown", (e) => {
      if (!this.el.contains(e.target as Node)) this.focusKey = null;
    });
    // A tap on a touch screen uses the button at pointerup: a browser may drop the click of a tap that
    // follows a drag. The click that may still come after it is not counted twice.
    this.el.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse") return;
      const button = (e.target as HTMLElement).closest<HTMLElement>("button");
      this.tap = button ? { key: button.dataset.key ?? button.id, x: e.clientX, y: e.clientY, pointer: e.pointerId } : null;
    });
    this.el.addEventListener("pointerup", (e) => {
      const tap = this.tap;
      this.tap = null;
      if (!tap || e.pointerId !== tap.pointer || this.drag?.ghost) return;
      const button = (e.target as HTMLElement).closest<HTMLElement>("button");
      if (!button || (button.dataset.key ?? button.id) !== tap.key || Math.hypot(e.clientX - tap.x, e.clientY - tap.y) > 12) return;
      if ((button as HTMLButtonElement).disabled) return;
      this.tapped = { key: tap.key, at: Date.now() };
      button.click();
    });
    this.el.addEventListener(
      "click",
      (e) => {
        const tapped = this.tapped;
        if (!e.isTrusted || !tapped) return;
        const button = (e.target as HTMLElement).closest<HTMLElement>("button");
        if (button && (button.dataset.key ?? button.id) === tapped.key && Date.now() - tapped.at < 800) {
          e.stopPropagation();
          e.preventDefault();
        }
        this.tapped = null;
      },
      true,
    );
  }

  render(view: View, seq: number): HTMLElement {
    if (!isColumnsView(view)) return h("p.muted", null, "(this view has no columns)");
    const moved = seq !== this.seq;
    this.view = view;
    if (moved) {
      this.seq = seq;
      this.hintAction = null;
      this.note(view);
      // keep only the selected dominoes still in the hand
      const hand = new Set(view.hand ?? []);
      for (const d of Array.from(this.selected)) if (!hand.has(d)) this.selected.delete(d);
    }
    this.draw();
    return this.el;
  }

  // ---- what the others did ------------------------------------------------------------------------------

  private note(view: ColumnsView): void {
    const lm = view.last_move;
    if (!lm) return;
    const key = JSON.stringify([view.round, view.turn_number, lm]);
    if (key === this.lastMoveKey) return;
    this.lastMoveKey = key;
    if (lm.seat === this.ctx.seat) {
      if (this.recent) this.recent.closed = true;
      return;
    }
    // every other player's moves since this seat last moved (a new list once it has moved)
    if (!this.recent || this.recent.closed) this.recent = { seat: lm.seat, events: [], closed: false };
    this.recent.events.push(...(lm.events as Event[]));
    this.fresh = true;
  }

  /** Mark an element as changed by another player's last move (sliding in when it is new). */
  private mark(el: Element | null | undefined, arrived = true): void {
    if (!el) return;
    el.classList.add("last-move");
    if (arrived && this.fresh) el.classList.add("arrived");
  }

  private highlightRecent(): void {
    const v = this.view;
    if (!v || !this.recent) return;
    for (const ev of this.recent.events) {
      const seat = typeof ev.player === "number" ? ev.player : this.recent.seat;
      const who = v.players[seat] ?? `seat ${shown(seat)}`;
      const kind = ev.kind;
      const col = typeof ev.column === "number" ? ev.column : -1;
      const colEl = this.el.querySelector(`.cv-col[data-column="${col}"]`);
      if (kind === "reveal" && typeof ev.index === "number") {
        this.mark(colEl?.querySelector(`[data-cell="${ev.index}"]`));
      } else if (kind === "claim") {
        this.mark(colEl, false);
      } else if (kind === "draw") {
        const note = colEl?.querySelector(`.cv-note[data-end="${String(ev.end)}"]`);
        if (note) {
          note.textContent = `${who} drew`;
          this.mark(note, false);
        }
      } else if (kind === "discard") {
        const cells = v.columns[col]?.cells ?? [];
        const at = ev.end === "top" ? 0 : cells.length - 1;
        if (cells[at] === ev.domino) this.mark(colEl?.querySelector(`[data-cell="${at}"]`));
      } else if (kind === "meld" && typeof ev.index === "number") {
        const meld = this.el.querySelector(`.cv-meld[data-meld="${ev.index}"]`);
        this.mark(meld, false);
        meld?.querySelectorAll(".cv-meld-pieces [data-piece]").forEach((p) => this.mark(p));
      } else if (kind === "layoff" && typeof ev.meld === "number") {
        const meld = this.el.querySelector(`.cv-meld[data-meld="${ev.meld}"]`);
        this.mark(meld?.querySelector(`.cv-meld-pieces [data-piece="${String(ev.domino)}"]`));
      }
    }
    this.fresh = false;
  }

  // ---- the legal actions ----------------------------------------------------------------------------------

  private listed(type: string): ActionJson[] {
    return this.ctx
      .legal()
      .map((a) => a.json)
      .filter((j) => j.type === type);
  }

  private mine(): boolean {
    return this.ctx.myTurn() && !!this.view;
  }

  private canDraw(column: number, end: string): ActionJson | undefined {
    return this.listed("draw").find((a) => a.column === column && a.end === end);
  }

  private layoffs(domino: string | null): ActionJson[] {
    return this.listed("layoff").filter((a) => domino === null || a.domino === domino);
  }

  private selectedList(): string[] {
    return (this.view?.hand ?? []).filter((d) => this.selected.has(d));
  }

  private send(action: ActionJson): void {
    this.selected.clear();
    this.ctx.act(action);
  }

  /** Ask the server why an action is refused (its own words, counted from 1), else say `fallback`. */
  private async explain(action: ActionJson, fallback: string): Promise<void> {
    try {
      const reply = await this.ctx.conn.request({ type: "check", action });
      if (reply.type === "checked") {
        if (reply.ok) {
          this.send(action); // allowed after all (a list cut short): play it
          return;
        }
        this.ctx.say(refusal(reply), true);
        return;
      }
      if (reply.type === "error") {
        this.ctx.say(refusal(reply), true);
        return;
      }
    } catch {
      /* no answer: say it in our words */
    }
    this.ctx.say(fallback, true);
  }

  private refuse(message: string): void {
    this.ctx.say(message, true);
  }

  // ---- gestures ---------------------------------------------------------------------------------------------

  private onCell(column: number, index: number, cell: string, end: string | null): void {
    const v = this.view!;
    if (!this.mine()) return this.refuse("It is not your turn.");
    const where = `column ${shown(column)}`;
    if (v.phase === "select") {
      if (cell !== UNKNOWN) return this.refuse(`That domino of ${where} is already face up: tap a face-down one, or claim a column.`);
      const reveal = this.listed("reveal").find((a) => a.column === column && a.index === index);
      if (reveal) return this.send(reveal);
      return void this.explain({ type: "reveal", column, index }, `You may not turn up that domino of ${where}.`);
    }
    if (v.phase === "draw") {
      if (!end) return this.refuse(`Draw from a highlighted end of an open column: the top or the bottom domino of ${where}.`);
      const draw = this.canDraw(column, end);
      if (draw) return this.send(draw);
      return void this.explain({ type: "draw", column, end }, `You may not draw from the ${end} of ${where}.`);
    }
    if (v.phase === "play") {
      const drawn = v.drawn;
      if (drawn && drawn.column === column && end === drawn.discard_end) return this.onDiscardEnd();
      return this.refuse(
        drawn
          ? `You have drawn already: discard to the ${drawn.discard_end} end of column ${shown(drawn.column)}.`
          : "You have drawn already: discard a domino.",
      );
    }
    this.refuse("Nothing to do on the columns now.");
  }

  private onClaim(column: number): void {
    if (!this.mine()) return this.refuse("It is not your turn.");
    const claim = this.listed("claim").find((a) => a.column === column);
    if (claim) return this.send(claim);
    void this.explain({ type: "claim", column }, `You may not claim column ${shown(column)} now.`);
  }

  private discard(domino: string): void {
    const v = this.view!;
    if (!this.mine() || v.phase !== "play") return this.refuse(v.phase === "draw" ? "Draw a domino first: tap a highlighted end of an open column." : "It is not your turn to discard.");
    const act = this.listed("discard").find((a) => a.domino === domino);
    if (act) return this.send(act);
    void this.explain({ type: "discard", domino }, `You may not discard ${domino} now.`);
  }

  private onDiscardEnd(): void {
    const chosen = this.selectedList();
    if (chosen.length === 1) return this.discard(chosen[0]);
    const where = this.view?.drawn ? ` (the ${this.view.drawn.discard_end} end of column ${shown(this.view.drawn.column)})` : "";
    this.refuse(
      chosen.length
        ? `Select just one domino to discard${where}: you have ${chosen.length} selected.`
        : `First tap the domino to discard in your hand, then this end${where}; or drag the domino here.`,
    );
  }

  private layoff(meld: number, end: string, domino: string | null): void {
    const v = this.view!;
    const label = `meld ${shown(meld)}`;
    if (!this.mine() || v.phase !== "play") return this.refuse(v.phase === "draw" && this.mine() ? "Draw a domino first: a lay-off comes after the draw." : "It is not your turn.");
    const chosen = domino !== null ? [domino] : this.selectedList();
    if (chosen.length !== 1) {
      const fits = this.layoffs(null).filter((a) => a.meld === meld && a.end === end);
      return this.refuse(
        chosen.length
          ? `Lay off one domino at a time: select just one.`
          : fits.length
            ? `Select the domino to lay off at the ${end} end of ${label} (it takes ${fits.map((a) => String(a.domino)).join(", ")}).`
            : `No domino of your hand fits the ${end} end of ${label}.`,
      );
    }
    const act = this.layoffs(chosen[0]).find((a) => a.meld === meld && a.end === end);
    if (act) return this.send(act);
    void this.explain({ type: "layoff", meld, domino: chosen[0], end }, `${chosen[0]} does not fit the ${end} end of ${label}.`);
  }

  private meld(): void {
    const v = this.view;
    if (!v || !this.mine() || v.phase !== "play") return this.refuse(v?.phase === "draw" && this.mine() ? "Draw a domino first: melds come after the draw." : "It is not your turn.");
    const chosen = this.selectedList();
    if (chosen.length < 3) return this.refuse(`A meld needs 3 or more dominoes: ${chosen.length ? `you have ${plural(chosen.length, "domino")} selected` : "tap dominoes in your hand to select them"}.`);
    const act = this.listed("meld").find((a) => Array.isArray(a.dominoes) && sameSet(a.dominoes as string[], chosen));
    if (act) return this.send(act);
    void this.explain({ type: "meld", dominoes: chosen }, `${chosen.join(" ")} is not a meld you may lay down.`);
  }

  private close(): void {
    const chosen = this.selectedList();
    const closes = this.listed("close");
    const act =
      chosen.length === 1 ? closes.find((a) => a.discard === chosen[0]) : closes.find((a) => a.discard === null || a.discard === undefined);
    if (act) return this.send(act);
    this.refuse(closes.length ? "Select the domino to discard before closing with a line (or none to close on the pickup)." : "You cannot close with a line now.");
  }

  private jump(action: ActionJson): void {
    this.send(action);
  }

  private pass(): void {
    if (this.ctx.askedClaim()) this.ctx.letPass();
    else {
      const decline = this.listed("decline")[0];
      if (decline) this.send(decline);
    }
  }

  private toggle(domino: string): void {
    if (this.selected.has(domino)) this.selected.delete(domino);
    else this.selected.add(domino);
    this.ctx.say("");
    this.focusKey = `hand:${domino}`;
    this.draw();
  }

  // ---- the hint ---------------------------------------------------------------------------------------------

  /** Show the hint's move on the board: the cells, ends, dominoes and buttons it uses are marked `.hinted`
   * (their labels say so too), until the view changes. */
  hint(action: ActionJson | null): void {
    this.hintAction = action;
    this.draw();
  }

  private markHint(): void {
    const a = this.hintAction;
    if (!a) return;
    const col = (c: unknown) => this.el.querySelector(`.cv-col[data-column="${String(c)}"]`);
    const hand = (d: unknown) => this.el.querySelector(`[data-hand="${CSS.escape(String(d))}"]`);
    const marks: (Element | null | undefined)[] = [];
    switch (a.type) {
      case "reveal":
        marks.push(col(a.column)?.querySelector(`[data-cell="${String(a.index)}"]`));
        break;
      case "claim":
        marks.push(this.el.querySelector(`[data-claim="${String(a.column)}"]`));
        break;
      case "draw":
        marks.push(col(a.column)?.querySelector(`.cv-cell[data-end="${String(a.end)}"]`));
        break;
      case "meld":
        for (const d of (a.dominoes as string[] | undefined) ?? []) marks.push(hand(d));
        marks.push(this.el.querySelector("#cv-meld"));
        break;
      case "layoff":
        marks.push(hand(a.domino), this.el.querySelector(`[data-key="meld:${String(a.meld)}:${String(a.end)}"]`));
        break;
      case "discard":
        marks.push(hand(a.domino), this.el.querySelector('[data-drop="discard"]'));
        break;
      case "close":
        if (a.discard) marks.push(hand(a.discard));
        break;
      case "jump":
        marks.push(this.el.querySelector(`[data-key="jump:${((a.rest as string[] | undefined) ?? []).join(",")}"]`));
        break;
      case "decline":
        marks.push(this.el.querySelector(".cv-pass"));
        break;
    }
    for (const el of marks) {
      if (!el) continue;
      el.classList.add("hinted");
      const label = el.getAttribute("aria-label");
      if (label) el.setAttribute("aria-label", `${label} (the hint's move)`);
      else el.append(h("span.cv-hint-tag", null, " (hint)"));
    }
  }

  // ---- drawing ----------------------------------------------------------------------------------------------

  private draw(): void {
    const v = this.view;
    if (!v) return;
    const hadFocus = this.focusKey;
    clear(this.el);
    const more = h("p.cv-more", { hidden: true }, `\u2194 ${plural(v.columns.length, "column")}: scroll them sideways`);
    this.el.append(this.prompt(v), this.belt(v), more, this.dock(v), this.meldsBox(v));
    const known = this.known(v);
    if (known) this.el.append(known);
    this.highlightRecent();
    this.markHint();
    this.settleStops();
    // a belt wider than its box scrolls sideways: say so under it (the page itself never scrolls sideways)
    requestAnimationFrame(() => {
      const belt = this.el.querySelector<HTMLElement>(".cv-belt");
      const more = this.el.querySelector<HTMLElement>(".cv-more");
      if (belt && more) more.hidden = belt.scrollWidth <= belt.clientWidth + 2;
    });
    if (hadFocus) {
      // the same button again; else (it is gone: a drawn end, a discarded domino) the next usable one
      const again =
        this.el.querySelector<HTMLElement>(`[data-key="${CSS.escape(hadFocus)}"]`) ??
        this.el.querySelector<HTMLElement>("[data-zone].can") ??
        this.el.querySelector<HTMLElement>('[data-zone="hand"][tabindex="0"]');
      // the table page puts the board in the document after render(): focus it then
      if (again) queueMicrotask(() => again.isConnected && again.focus({ preventScroll: true }));
    }
  }

  /** One tab stop per zone: the remembered button, else the first usable one, else the first. */
  private settleStops(): void {
    const zones = new Map<string, HTMLElement[]>();
    for (const el of Array.from(this.el.querySelectorAll<HTMLElement>("[data-zone]"))) {
      const zone = el.dataset.zone!;
      if (!zones.has(zone)) zones.set(zone, []);
      zones.get(zone)!.push(el);
    }
    for (const [zone, els] of zones) {
      const kept = this.stops.get(zone);
      const stop = els.find((e) => e.dataset.key === kept) ?? els.find((e) => e.classList.contains("can")) ?? els[0];
      for (const e of els) e.tabIndex = e === stop ? 0 : -1;
    }
  }

  private prompt(v: ColumnsView): HTMLElement {
    const names = v.players;
    const me = this.ctx.seat;
    const mine = this.mine();
    let text: string;
    if (v.outcome) text = "The round is over.";
    else if (me === null) text = `${names[v.turn ?? 0] ?? ""} is playing.`;
    else if (!mine) {
      const who = v.to_act.map((s) => names[s] ?? `seat ${shown(s)}`).join(", ");
      text = v.phase === "select" ? `Selection round: ${who} chooses.` : `${who || "the other players"} to play.`;
    } else if (v.phase === "select") {
      const size = v.columns.find((c) => c.claimed_by === null)?.cells.length ?? 0;
      text = `Selection round: tap a face-down domino to turn it up, or claim a column as your hand (${plural(size, "domino")}).`;
    } else if (v.phase === "draw") {
      text = "Your turn: draw a domino from a highlighted end of an open column.";
    } else if (v.phase === "play") {
      const d = v.drawn;
      text = d
        ? `You drew ${d.piece} (${d.end} of column ${shown(d.column)}). Discard to its ${d.discard_end} end: drag a domino there, or tap the domino, then the end. First you may meld (tap 3 or more, then Meld) or lay off on a meld's end.`
        : "Discard a domino, or meld first.";
    } else if (v.phase === "jump") {
      text = "A domino was just discarded: take it (jump in), or let it pass.";
    } else text = "Your move.";
    return h("p.cv-prompt", { role: "status", "aria-live": "polite", "data-phase": v.phase, "data-mine": mine ? "true" : "false" }, text);
  }

  private belt(v: ColumnsView): HTMLElement {
    const names = v.players;
    const mine = this.mine();
    const phase = v.phase;
    const drawn = v.drawn;
    return h(
      "div.cv-belt",
      { role: "group", "aria-label": "columns" },
      v.columns.map((col) => {
        const no = shown(col.column);
        const claimed = col.claimed_by !== null;
        const owner = claimed ? (names[col.claimed_by!] ?? `seat ${shown(col.claimed_by!)}`) : "";
        const claim = mine && phase === "select" && !claimed ? this.listed("claim").find((a) => a.column === col.column) : undefined;
        const head = h(
          "div.cv-col-head",
          null,
          h("span.cv-col-no", null, `column ${no}`),
          claim
            ? h(
                "button.cv-claim.can",
                {
                  type: "button",
                  "data-key": `claim:${col.column}`,
                  "data-zone": "belt",
                  "data-claim": col.column,
                  "aria-label": `claim column ${no} (${plural(col.cells.length, "domino")}) as your hand`,
                  onclick: () => this.onClaim(col.column),
                },
                "Claim",
              )
            : null,
        );
        const cells = col.cells.map((cell, i) => {
          const end = i === 0 ? "top" : i === col.cells.length - 1 ? "bottom" : null;
          let usable = false;
          let action = "";
          if (mine && phase === "select" && !claimed && cell === UNKNOWN) {
            usable = !!this.listed("reveal").find((a) => a.column === col.column && a.index === i);
            action = usable ? ": turn it up" : "";
          } else if (mine && phase === "draw" && end && !claimed) {
            usable = !!this.canDraw(col.column, end);
            action = usable ? ": draw it" : "";
          }
          const place = end ? `${end} end` : `domino ${i + 1} from the top`;
          const label = `column ${no}, ${place}: ${dominoName(cell)}${action}`;
          const interactive = usable || (mine && (phase === "select" || phase === "draw") && !claimed && (cell === UNKNOWN || end !== null));
          const piece = pieceEl(cell);
          if (!interactive) {
            return h("div.cv-cell", { "data-cell": i, "data-end": end ?? undefined, role: "img", "aria-label": label }, piece);
          }
          return h(
            "button.cv-cell",
            {
              type: "button",
              class: usable ? "can" : "",
              "data-cell": i,
              "data-end": end ?? undefined,
              "data-key": `cell:${col.column}:${i}`,
              "data-zone": "belt",
              "aria-label": label,
              onclick: () => this.onCell(col.column, i, cell, end),
            },
            piece,
          );
        });
        // the discard's place: a slot at the end opposite the draw
        const discardAt = mine && phase === "play" && drawn && drawn.column === col.column ? drawn.discard_end : null;
        const slot = (where: string): HTMLElement | null =>
          discardAt === where
            ? h(
                "button.cv-slot.can",
                {
                  type: "button",
                  "data-drop": "discard",
                  "data-end": where,
                  "data-key": "discard",
                  "data-zone": "belt",
                  "aria-label": `column ${no}, ${where} end: discard here`,
                  onclick: () => this.onDiscardEnd(),
                },
                "discard here",
              )
            : h("div.cv-note", { "data-end": where, "aria-hidden": "true" });
        return h(
          "div.cv-col",
          {
            "data-column": col.column,
            class: [claimed ? "claimed" : "belt", drawn && drawn.column === col.column ? "drawn-from" : ""].join(" "),
            role: "group",
            "aria-label": claimed ? `column ${no}, claimed by ${owner}` : `column ${no}`,
          },
          head,
          claimed ? h("div.cv-owner", null, col.claimed_by === this.ctx.seat ? "your hand" : `${owner}'s hand`) : [slot("top"), h("div.cv-cells", null, cells), slot("bottom")],
        );
      }),
    );
  }

  private dock(v: ColumnsView): HTMLElement {
    const mine = this.mine();
    const names = v.players;
    const box = h("div.cv-dock");
    const jw = v.jump_window;
    if (jw && this.ctx.seat !== null) {
      const jumps = mine ? this.listed("jump") : [];
      const who = names[jw.discarder] ?? `seat ${shown(jw.discarder)}`;
      const asked = mine && (jumps.length > 0 || this.listed("decline").length > 0 || this.ctx.askedClaim());
      box.append(
        h(
          "div.cv-jump",
          { role: "group", "aria-label": "jump-in" },
          h("p", null, `${who} discarded `, pieceEl(jw.piece), ` to the ${jw.end} of column ${shown(jw.column)}.`, asked ? " Jump in and take it?" : ""),
          asked
            ? h(
                "div.cv-buttons",
                null,
                jumps.map((a) => {
                  const rest = Array.isArray(a.rest) ? (a.rest as string[]) : [];
                  return h(
                    "button.cv-take.can",
                    { type: "button", "data-key": `jump:${rest.join(",")}`, onclick: () => this.jump(a) },
                    rest.length ? `Take it, melding with ${rest.join(" ")}` : "Take it (Mine!)",
                  );
                }),
                h("button.cv-pass", { type: "button", "data-key": "pass", onclick: () => this.pass() }, "Let it pass"),
              )
            : jw.my_answer
              ? h("p.muted", null, `Your answer: ${jw.my_answer}.`)
              : null,
        ),
      );
    }
    const hand = v.hand;
    if (!hand) {
      box.append(h("p.muted", null, "(a spectator sees no hand)"));
      return box;
    }
    const playing = mine && v.phase === "play";
    const chosen = this.selectedList();
    const melds = playing ? this.listed("meld") : [];
    const meldReady = melds.some((a) => Array.isArray(a.dominoes) && sameSet(a.dominoes as string[], chosen));
    const inMeld = new Set(melds.flatMap((a) => (Array.isArray(a.dominoes) ? (a.dominoes as string[]) : [])));
    const layable = new Set(playing ? this.layoffs(null).map((a) => String(a.domino)) : []);
    const closes = playing ? this.listed("close") : [];
    const head = h(
      "div.cv-hand-head",
      null,
      h("h3", { id: "cv-hand-title" }, `Your hand (${hand.length})`),
      h(
        "div.cv-buttons",
        null,
        h(
          "button",
          { id: "cv-meld", type: "button", class: meldReady ? "ready" : "", disabled: !playing, "aria-keyshortcuts": "M", onclick: () => this.meld() },
          chosen.length ? `Meld (${chosen.length})` : "Meld",
        ),
        h(
          "button",
          {
            id: "cv-discard",
            type: "button",
            disabled: !playing || chosen.length !== 1,
            onclick: () => chosen.length === 1 && this.discard(chosen[0]),
          },
          chosen.length === 1 && v.drawn ? `Discard ${chosen[0]}` : "Discard",
        ),
        closes.length ? h("button", { id: "cv-close", type: "button", onclick: () => this.close() }, "Close with a line") : null,
        h("button", { id: "cv-clear", type: "button", disabled: !chosen.length, onclick: () => this.clearSelection() }, "Clear"),
      ),
    );
    const rack = h(
      "div.cv-hand.rack",
      { role: "group", "aria-labelledby": "cv-hand-title" },
      hand.map((d) => {
        const sel = this.selected.has(d);
        const hints = [inMeld.has(d) ? "can meld" : "", layable.has(d) ? "can lay off" : ""].filter(Boolean).join(", ");
        const el = h(
          "button.cv-hand-piece",
          {
            type: "button",
            class: [sel ? "selected" : "", playing && v.drawn?.piece === d ? "just-drawn" : "", inMeld.has(d) ? "meldable" : "", layable.has(d) ? "layable" : ""].join(" "),
            "aria-pressed": sel ? "true" : "false",
            "aria-label": `domino ${d}${playing && v.drawn?.piece === d ? ", just drawn" : ""}${hints ? ` (${hints})` : ""}`,
            "data-key": `hand:${d}`,
            "data-zone": "hand",
            "data-hand": d,
            onclick: () => {
              if (this.swallowClick) {
                this.swallowClick = false;
                return;
              }
              this.toggle(d);
            },
          },
          pieceEl(d),
        );
        if (sel) el.querySelector(".piece")?.classList.add("selected");
        el.addEventListener("pointerdown", (e) => this.onDown(e, d));
        return el;
      }),
    );
    box.append(head, rack);
    // no keyboard hints on a touch screen
    if (navigator.maxTouchPoints === 0)
      box.append(
        h("p.cv-keys", null, "Keys: arrows move between the columns, your hand and the melds; Enter or Space uses the one in focus; M melds the selected; Esc clears the selection."),
    );
    return box;
  }

  private clearSelection(): void {
    this.selected.clear();
    this.draw();
  }

  private meldsBox(v: ColumnsView): HTMLElement {
    const names = v.players;
    const playing = this.mine() && v.phase === "play";
    const chosen = this.selectedList();
    const one = chosen.length === 1 ? chosen[0] : null;
    const fits = playing ? this.layoffs(one) : [];
    const box = h("section.cv-melds", { "aria-labelledby": "cv-melds-title" }, h("h3", { id: "cv-melds-title" }, "Melds"));
    if (!v.melds.length) {
      box.append(h("p.muted", null, "No meld yet."));
      return box;
    }
    for (const m of v.melds) {
      const no = shown(m.index);
      const owner = names[m.owner] ?? `seat ${shown(m.owner)}`;
      const kind = KIND_NAMES[m.kind] ?? m.kind;
      const label = `meld ${no}: ${kind} ${m.pieces.join(" ")}${m.royal ? " (royal)" : ""}, ${owner}'s, ${plural(m.score, "point")}`;
      const end = (which: "low" | "high"): HTMLElement | null => {
        if (!playing) return null;
        const here = fits.filter((a) => a.meld === m.index && a.end === which);
        const takes = here.map((a) => String(a.domino));
        return h(
          "button.cv-meld-end",
          {
            type: "button",
            class: here.length ? "can" : "",
            "data-drop": `meld:${m.index}:${which}`,
            "data-meld-end": which,
            "data-key": `meld:${m.index}:${which}`,
            "data-zone": "melds",
            "aria-label": `meld ${no}, ${which} end: lay off${takes.length ? ` (takes ${takes.join(", ")})` : ""}`,
            onclick: () => this.layoff(m.index, which, null),
          },
          which === "low" ? "\u2190" : "\u2192",
        );
      };
      box.append(
        h(
          "div.cv-meld.meld",
          { "data-meld": m.index, role: "group", "aria-label": label },
          h("span.cv-meld-no", { "aria-hidden": "true" }, `${no}`),
          end("low"),
          h("span.cv-meld-pieces", null, m.pieces.map((d) => pieceEl(d))),
          end("high"),
          h("span.cv-meld-info", { "aria-hidden": "true" }, `${kind}${m.royal ? ", royal" : ""} \u00b7 ${owner} \u00b7 ${plural(m.score, "pt")}`),
        ),
      );
    }
    return box;
  }

  private known(v: ColumnsView): HTMLElement | null {
    const lines = v.hand_known
      .map((k, s) => (k.length && s !== this.ctx.seat ? h("p.cv-known", null, `${v.players[s] ?? `seat ${shown(s)}`} is known to hold `, k.map((d) => pieceEl(d))) : null))
      .filter((x): x is HTMLElement => x !== null);
    return lines.length ? h("div.cv-knowns", null, lines) : null;
  }

  // ---- drag a hand domino onto the discard end or a meld's end ----------------------------------------------

  private onDown(e: PointerEvent, piece: string): void {
    if (e.button !== 0) return;
    this.drag = { piece, x: e.clientX, y: e.clientY, pointer: e.pointerId, ghost: null };
  }

  private onMove(e: PointerEvent): void {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    if (!drag.ghost) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
      drag.ghost = h("div.ghost.cv-ghost", { "aria-hidden": "true" }, pieceEl(drag.piece));
      document.body.append(drag.ghost);
      document.body.classList.add("dragging");
      this.showDrops(drag.piece);
    }
    drag.ghost.style.left = `${e.clientX - 20}px`;
    drag.ghost.style.top = `${e.clientY - 20}px`;
    for (const el of Array.from(this.el.querySelectorAll(".over"))) el.classList.remove("over");
    this.dropAt(e.clientX, e.clientY)?.classList.add("over");
  }

  private dropAt(x: number, y: number): HTMLElement | null {
    const under = document.elementFromPoint(x, y) as HTMLElement | null;
    return under?.closest<HTMLElement>("[data-drop]") ?? null;
  }

  private showDrops(piece: string): void {
    const v = this.view;
    if (!v || !this.mine() || v.phase !== "play") return;
    for (const el of Array.from(this.el.querySelectorAll<HTMLElement>("[data-drop]"))) {
      const drop = el.dataset.drop!;
      let ok = false;
      if (drop === "discard") ok = !!this.listed("discard").find((a) => a.domino === piece);
      else {
        const [, meld, end] = drop.split(":");
        ok = !!this.layoffs(piece).find((a) => a.meld === Number(meld) && a.end === end);
      }
      el.classList.toggle("drop-ok", ok);
    }
  }

  private onUp(e: PointerEvent): void {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    const moved = !!drag.ghost;
    const target = moved ? this.dropAt(e.clientX, e.clientY) : null;
    this.endDrag();
    if (!moved) return;
    this.swallowClick = true;
    window.setTimeout(() => (this.swallowClick = false), 0);
    if (!target) return;
    const drop = target.dataset.drop!;
    if (drop === "discard") this.discard(drag.piece);
    else {
      const [, meld, end] = drop.split(":");
      this.layoff(Number(meld), end, drag.piece);
    }
  }

  private endDrag(): void {
    if (this.drag?.ghost) this.drag.ghost.remove();
    this.drag = null;
    document.body.classList.remove("dragging");
    for (const el of Array.from(this.el.querySelectorAll(".over, .drop-ok"))) el.classList.remove("over", "drop-ok");
  }

  // ---- keyboard ---------------------------------------------------------------------------------------------

  key(e: KeyboardEvent): boolean {
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const active = document.activeElement as HTMLElement | null;
    const inside = !!active && this.el.contains(active);
    switch (e.key) {
      case "ArrowLeft":
      case "ArrowRight":
      case "ArrowUp":
      case "ArrowDown":
        if (!inside) {
          if (active && active !== document.body && active.closest("button, a, input, select, textarea, details")) return false;
          const first = this.el.querySelector<HTMLElement>("[data-zone].can") ?? this.el.querySelector<HTMLElement>("[data-zone]");
          first?.focus();
          return !!first;
        }
        this.step(active!, e.key);
        return true;
      case "m":
      case "M":
        this.meld();
        return true;
      case "Escape":
        if (!this.selected.size) return false;
        this.clearSelection();
        return true;
      default:
        return false;
    }
  }

  /** Move the focus to the nearest usable button in the arrow's direction. */
  private step(from: HTMLElement, key: string): void {
    const a = from.getBoundingClientRect();
    const ax = a.left + a.width / 2;
    const ay = a.top + a.height / 2;
    const dx = key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0;
    const dy = key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
    let best: HTMLElement | null = null;
    let bestScore = Infinity;
    for (const el of Array.from(this.el.querySelectorAll<HTMLElement>("[data-zone], .cv-dock button:not(:disabled), .cv-jump button"))) {
      if (el === from) continue;
      const b = el.getBoundingClientRect();
      if (!b.width && !b.height) continue;
      const bx = b.left + b.width / 2;
      const by = b.top + b.height / 2;
      const along = (bx - ax) * dx + (by - ay) * dy;
      if (along <= 2) continue;
      const across = Math.abs((bx - ax) * dy) + Math.abs((by - ay) * dx);
      const score = along + across * 3;
      if (score < bestScore) {
        bestScore = score;
        best = el;
      }
    }
    if (best) {
      best.focus();
      best.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }
}
