// The spread pile layout (the view has `discard` and `melds`): the stock as a face-down pile, the whole discard
// pile spread out (bottom first), the melds with who laid each card, and the seat's hand, all played by hand:
//
// - tap/click hand cards to select them (they lift); "Meld" lays the selection down, tapping a meld adds the
//   selection to it, "Discard" (or tapping the pile, or dragging a card onto it) throws the one selected card;
// - tap/click a pile card to take it with every card above it (what that obliges you to do is on its title, and
//   in a small popover on long press or keyboard focus); tap the stock to draw;
// - "Rummy!" lights up for every seat while the server lists it a rummy call; "Let it pass" lets a chance out of
//   turn go by.
//
// The server judges: every gesture is matched against the seat's listed legal actions (their JSON); a gesture
// that matches none is put to the server as a `check`, whose refusal (in its words, counted from 1) is said.
// The pile and the melds are numbered from 1, as on the terminal's screens and in the typed commands
// (`take N`, `addon CARD to N`): data-* attributes keep the view's 0-based positions.

import "./spreadpile.css";
import { isSpreadPileView, refusal, type ActionJson, type LegalAction, type SpreadPileView, type View } from "./api";
import { h } from "./dom";
import { pieceEl } from "./pieces";
import { shown } from "./numbers";
import type { Ctx, Layout } from "./table";

const CARD = /^(10|[2-9AJQK])([CDHS])$/;
const RANK_WORDS: Record<string, string> = { A: "ace", J: "jack", Q: "queen", K: "king" };
const SUIT_WORDS: Record<string, string> = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SIGNS: Record<string, string> = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

/** A card as a person says it: "queen of hearts", "10 of spades". */
export function cardName(card: string): string {
  const m = CARD.exec(card);
  if (!m) return card;
  return `${RANK_WORDS[m[1]] ?? m[1]} of ${SUIT_WORDS[m[2]]}`;
}

/** A card short, as printed: "Q\u2665". */
function cardShort(card: string): string {
  const m = CARD.exec(card);
  return m ? `${m[1]}${SUIT_SIGNS[m[2]]}` : card;
}

function cardsShort(cards: string[]): string {
  return cards.map(cardShort).join(" ");
}

function cardsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.toUpperCase().replace(/^T([CDHS])$/, "10$1"))
    .filter((w) => CARD.test(w));
}

function sameCards(a: unknown, b: string[]): boolean {
  if (!Array.isArray(a) || a.length !== b.length) return false;
  const want = new Set(b);
  return a.every((c) => typeof c === "string" && want.has(c));
}

/** The word for the gesture on this device. */
const tap = (): string => (navigator.maxTouchPoints > 0 ? "tap" : "click");

type Zone = "stock" | "pile" | "meld" | "hand" | "act";
const ZONES: Zone[] = ["stock", "pile", "meld", "hand", "act"];


interface SeenMove {
  seq: number;
  seat: number;
  text: string;
}

export class SpreadPileLayout implements Layout {
  private view: SpreadPileView | null = null;
  private selected: string[] = [];
  /** The zone and item (a card, a meld's number, a button's id) that had the keyboard focus. */
  private focusKey: { zone: Zone; id: string } | null = null;
  private cursor: Partial<Record<Zone, string>> = {};
  private root: HTMLElement | null = null;
  private seq = -1;
  private round = -1;
  /** The other seats' moves since this seat last moved (what the board highlights). */
  private others: SeenMove[] = [];
  /** Whether this seat has moved since the others' moves in ``others``. */
  private mineSince = false;
  private seenHand: Set<string> | null = null;
  /** The hand's cards that came with the newest frame. */
  private fresh = new Set<string>();
  private picking = false;
  private pop: HTMLElement | null = null;
  private pressTimer = 0;
  private pressed = false;
  /** The move the last hint suggested (null: none shown); cleared when the state changes. */
  private hintAction: ActionJson | null = null;

  constructor(private ctx: Ctx) {}

  // -- the server's list ------------------------------------------------------------------------------

  private listed(pred: (a: ActionJson) => boolean): LegalAction[] {
    return this.ctx.legal().filter((a) => pred(a.json));
  }

  /** Send the listed action; with none, ask the server why the gesture's action is refused and say it. */
  private attempt(found: LegalAction | undefined, wanted: ActionJson, what: string): void {
    if (found) {
      this.ctx.act(found.json);
      return;
    }
    void this.ctx.conn.request({ type: "check", action: wanted }).then((reply) => {
      if (reply.type === "checked") {
        if (reply.ok) this.ctx.act(wanted);
        else this.ctx.say(`Cannot ${what}: ${reply.worded ?? reply.message ?? reply.rule ?? "refused"}`, true);
      } else if (reply.type === "error") {
        this.ctx.say(`Cannot ${what}: ${refusal(reply)}`, true);
      }
    });
  }

  private draw(): void {
    this.attempt(this.listed((j) => j.type === "draw")[0], { type: "draw" }, "draw from the stock");
  }

  private take(card: string, index: number): void {
    const takes = this.listed((j) => j.type === "take" && j.card === card);
    if (!takes.length) {
      // a rummy call on this card is the pile gesture out of turn (or once the draw is done)
      const calls = this.listed((j) => j.type === "rummy" && Array.isArray(j.cards) && j.cards.includes(card));
      if (calls.length) {
        this.rummy(calls);
        return;
      }
    }
    this.attempt(takes[0], { type: "take", card }, `take ${cardName(card)} (card ${shown(index)} of the pile)`);
  }

  private meld(): void {
    const sel = this.selected;
    if (sel.length === 0) {
      this.ctx.say(`Select the cards of the meld in your hand first (${tap()} them), then press Meld.`);
      return;
    }
    const found = this.listed((j) => j.type === "meld" && sameCards(j.cards, sel))[0];
    this.attempt(found, { type: "meld", cards: sel }, `meld ${cardsShort(sel)}`);
  }

  private addTo(meldIndex: number): void {
    const v = this.view;
    if (!v) return;
    const meld = v.melds[meldIndex];
    const sel = this.selected;
    this.picking = false;
    if (!meld) return;
    if (sel.length === 0) {
      const calls = this.listed((j) => j.type === "rummy" && typeof j.meld === "string" && meld.cards.includes(j.meld));
      if (calls.length) {
        this.rummy(calls);
        return;
      }
      this.ctx.say(`Select cards in your hand first, then ${tap()} meld ${shown(meldIndex)} to add them to it.`);
      this.redraw();
      return;
    }
    const found = this.listed((j) => j.type === "addon" && sameCards(j.cards, sel) && typeof j.meld === "string" && meld.cards.includes(j.meld))[0];
    this.attempt(found, { type: "addon", cards: sel, meld: meld.cards[0] }, `add ${cardsShort(sel)} to meld ${shown(meldIndex)}`);
  }

  /** "Add to": with one meld taking the selection, add it; else ask for a meld to be tapped. */
  private addButton(): void {
    const sel = this.selected;
    if (sel.length === 0) {
      this.ctx.say(`Select cards in your hand first, then ${tap()} the meld to add them to.`);
      return;
    }
    const targets = this.acceptingMelds();
    if (targets.length === 1) {
      this.addTo(targets[0]);
      return;
    }
    this.picking = true;
    this.ctx.say(targets.length ? `Now ${tap()} the meld to add them to (the marked melds take them).` : `Now ${tap()} the meld to add them to.`);
    this.redraw();
  }

  private discard(card?: string): void {
    const sel = card ? [card] : this.selected;
    if (sel.length !== 1) {
      this.ctx.say(sel.length ? "Select just one card to discard." : `Select the card to discard in your hand (${tap()} it), then press Discard.`);
      return;
    }
    const found = this.listed((j) => j.type === "discard" && j.card === sel[0])[0];
    this.attempt(found, { type: "discard", card: sel[0] }, `discard ${cardName(sel[0])}`);
  }

  private rummy(calls?: LegalAction[]): void {
    const all = calls ?? this.listed((j) => j.type === "rummy");
    if (!all.length) {
      this.ctx.say("No rummy call is open to you now: the server lists none (no discard-pile card fits a meld for you).");
      return;
    }
    if (all.length === 1) {
      this.ctx.act(all[0].json);
      return;
    }
    this.showChoices(all);
  }

  private showChoices(calls: LegalAction[]): void {
    const box = this.root?.querySelector<HTMLElement>(".sp-choices");
    if (!box) return;
    box.replaceChildren(
      h("p", null, "Rummy! Which claim?"),
      ...calls.map((a, i) =>
        h(
          "button.sp-choice",
          { type: "button", "data-choice": i, onclick: () => this.ctx.act(a.json) },
          this.callWords(a.json),
        ),
      ),
      h("button", { type: "button", onclick: () => box.replaceChildren() }, "cancel"),
    );
    box.querySelector<HTMLElement>("button")?.focus();
  }

  private callWords(json: ActionJson): string {
    const cards = Array.isArray(json.cards) ? json.cards.map(String) : [];
    const v = this.view;
    if (typeof json.meld === "string" && v) {
      const i = v.melds.findIndex((m) => m.cards.includes(json.meld as string));
      return `claim ${cardsShort(cards)} onto meld ${shown(i)}`;
    }
    return `claim ${cardsShort(cards)} as a new meld`;
  }

  /** The melds (their 0-based indices) that a listed add-on of exactly the selection goes to. */
  private acceptingMelds(): number[] {
    const v = this.view;
    if (!v || !this.selected.length) return [];
    const refs = this.listed((j) => j.type === "addon" && sameCards(j.cards, this.selected)).map((a) => String(a.json.meld));
    return v.melds.filter((m) => m.cards.some((c) => refs.includes(c))).map((m) => m.index);
  }

  private toggle(card: string): void {
    this.selected = this.selected.includes(card) ? this.selected.filter((c) => c !== card) : [...this.selected, card];
    this.picking = this.picking && this.selected.length > 0;
    this.ctx.say("");
    this.redraw();
  }

  // -- drawing ----------------------------------------------------------------------------------------

  private redraw(): void {
    const old = this.root;
    if (!old || !this.view || !old.parentElement) return;
    const fresh = this.build(this.view, false);
    old.replaceWith(fresh);
    this.refocus();
  }

  render(view: View, seq: number): HTMLElement {
    if (!isSpreadPileView(view)) return h("p.muted", null, "(this view has no discard pile)");
    const moved = seq !== this.seq;
    if (moved) {
      if (view.round !== this.round) this.others = [];
      this.round = view.round;
      // the others' moves stay marked through this seat's next turn; their first move after it starts afresh
      const lm = view.last_move;
      if (lm && lm.seat === this.ctx.seat) this.mineSince = true;
      else if (lm && !this.others.some((m) => m.seq === seq) && seq > this.seq) {
        if (this.mineSince) this.others = [];
        this.mineSince = false;
        this.others.push({ seq, seat: lm.seat, text: lm.text });
      }
      this.seq = seq;
      this.hintAction = null; // a hint is for the state it was asked in
    }
    const hand = view.hand ?? [];
    if (moved) {
      // the cards that came into the hand with this frame (a draw, a take) slide in
      this.fresh = this.seenHand === null ? new Set() : new Set(hand.filter((c) => !this.seenHand!.has(c)));
      this.seenHand = new Set(hand);
    }
    this.selected = this.selected.filter((c) => hand.includes(c));
    if (!this.selected.length) this.picking = false;
    this.view = view;
    // the page drops the old board before drawing the new one: a focus that was on the board (and did not
    // go elsewhere since) comes back to the same card, meld or button
    const el = this.build(view, moved);
    if (this.focusKey) window.setTimeout(() => this.refocus(), 0);
    return el;
  }

  /** Show the hint's move on the board: the pile card to take (or the stock), the cards to meld, add on,
   * claim or discard, each marked `.hinted` with words for a screen reader; null clears it. */
  hint(action: ActionJson | null): void {
    this.hintAction = action;
    this.redraw();
  }

  /** The places the shown hint points at: `pile` cards, `hand` cards, and whether it draws from the stock. */
  private hintedCards(): { pile: Set<string>; hand: Set<string>; stock: boolean } {
    const out = { pile: new Set<string>(), hand: new Set<string>(), stock: false };
    const a = this.hintAction;
    if (!a) return out;
    const cards = Array.isArray(a.cards) ? (a.cards as string[]) : [];
    if (a.type === "draw") out.stock = true;
    else if (a.type === "take" && typeof a.card === "string") out.pile.add(a.card);
    else if (a.type === "rummy") for (const c of cards) out.pile.add(c);
    else if (a.type === "meld" || a.type === "addon") for (const c of cards) out.hand.add(c);
    else if (a.type === "discard" && typeof a.card === "string") out.hand.add(a.card);
    return out;
  }

  private refocus(): void {
    const key = this.focusKey;
    if (!key || !this.root) return;
    const active = document.activeElement;
    if (active && active !== document.body) return; // focus is somewhere already
    const items = this.items(key.zone);
    const el = items.find((e) => e.dataset.id === key.id) ?? items[0];
    el?.focus({ preventScroll: true });
  }

  private items(zone: Zone): HTMLElement[] {
    return this.root ? Array.from(this.root.querySelectorAll<HTMLElement>(`[data-zone="${zone}"]`)).filter((e) => !e.hidden) : [];
  }

  private build(v: SpreadPileView, moved: boolean): HTMLElement {
    const names = v.players;
    const me = this.ctx.seat;
    const mine = this.ctx.myTurn() && v.turn === me;
    const legal = this.ctx.legal();
    const hasRummy = legal.some((a) => a.json.type === "rummy");
    const claimable = new Set<string>(v.claimable);
    const latest = this.others[this.others.length - 1];
    const newest = moved && latest?.seq === this.seq ? latest : undefined; // it came with this frame: it slides in
    const hinted = this.hintedCards();
    const hintWords = (what: string): string => {
      const t = this.hintAction?.type;
      return t === "take" ? "the hint: take this card" : t === "rummy" ? "the hint: claim this card" : t === "discard" ? "the hint: discard this card" : `the hint: ${what}`;
    };

    // what the other seats did since this seat's last move: their cards on the board are marked
    const marked = new Map<string, boolean>(); // card -> arrived with the newest move
    const told: string[] = [];
    for (const m of this.others) {
      const verb = m.text.split(/\s+/)[0];
      const cards = cardsOf(m.text);
      // `addon CARDS to CARD`, `rummy CARDS to CARD`: the last card names the meld, the others were laid
      const laid = m.text.includes(" to ") ? cards.slice(0, -1) : cards;
      const fresh = m === newest;
      const who = names[m.seat] ?? `player ${shown(m.seat)}`;
      if (verb === "draw") told.push(`${who} drew from the stock`);
      else if (verb === "take") told.push(`${who} took ${cardsShort(cards)} from the pile`);
      else if (verb === "discard") told.push(`${who} discarded ${cardsShort(cards)}`);
      else if (verb === "meld") told.push(`${who} melded ${cardsShort(cards)}`);
      else if (verb === "addon") told.push(`${who} added ${cardsShort(laid)} to a meld`);
      else if (verb === "rummy") told.push(`${who} called rummy and claimed ${cardsShort(laid)}`);
      else told.push(`${who}: ${m.text}`);
      if (verb !== "take" && verb !== "draw") for (const c of laid) marked.set(c, fresh || (marked.get(c) ?? false));
    }
    const mark = (el: HTMLElement, card: string): void => {
      if (!marked.has(card)) return;
      el.classList.add("last-move");
      if (marked.get(card)) el.classList.add("arrived");
    };

    const focusable = (zone: Zone, id: string, first: boolean): number => {
      const cur = this.cursor[zone];
      return (cur === undefined ? first : cur === id) ? 0 : -1;
    };

    // the stock
    const stockCount = v.stock_count ?? 0;
    const canDraw = legal.some((a) => a.json.type === "draw");
    const stock = h(
      "div.sp-stock",
      {
        role: "button",
        tabindex: 0,
        "data-zone": "stock",
        "data-id": "stock",
        class: canDraw ? "live" : "",
        "aria-label": `stock, ${stockCount} cards face down: draw its top card`,
        title: `Stock: ${stockCount} cards. ${tap() === "tap" ? "Tap" : "Click"} to draw the top card.`,
        onclick: () => this.draw(),
      },
      h("span.sp-back", { "aria-hidden": "true" }),
      h("span.sp-back", { "aria-hidden": "true" }),
      h("span.sp-count", { "aria-hidden": "true" }, String(stockCount)),
    );
    if (hinted.stock) {
      stock.classList.add("hinted");
      stock.setAttribute("aria-label", `${stock.getAttribute("aria-label") ?? "stock"}; the hint: draw from the stock`);
    }

    // the discard pile, bottom first; tapping a card takes it and every card above it
    const top = v.discard.length - 1;
    const pop = h("div.sp-pop", { id: "sp-pop", role: "tooltip", hidden: true });
    this.pop = pop;
    const pileCards = v.discard.map((c, i) => {
      const above = top - i;
      const duty =
        i === top
          ? `Take ${cardName(c)}: the top card, an ordinary draw.`
          : `Take ${cardName(c)} and the ${above === 1 ? "card" : `${above} cards`} above it: you must then use ${cardName(c)} in a meld or an add-on this turn.`;
      const takeable = legal.some((a) => a.json.type === "take" && a.json.card === c);
      const el = pieceEl(c, {
        "data-index": i,
        "data-number": shown(i),
        "data-zone": "pile",
        "data-id": c,
        role: "button",
        tabindex: focusable("pile", c, i === top),
        "aria-label": `${cardName(c)}, card ${shown(i)} of the pile${claimable.has(c) ? ", a rummy call can claim it" : ""}`,
        "aria-describedby": "sp-pop",
        title: `${cardName(c)}, card ${shown(i)} of the pile. ${duty}${claimable.has(c) ? " A rummy call can claim it." : ""}`,
        "data-duty": duty,
      });
      el.append(h("sub.pile-no", { "aria-hidden": "true" }, String(shown(i))));
      if (claimable.has(c)) el.classList.add("claimable");
      if (takeable) el.classList.add("takeable");
      if (i === top) el.classList.add("top");
      if (v.deep === c) el.classList.add("deep");
      if (i === top) mark(el, c);
      if (hinted.pile.has(c)) {
        el.classList.add("hinted");
        el.setAttribute("aria-label", `${el.getAttribute("aria-label") ?? cardName(c)}; ${hintWords("use this card")}`);
      }
      el.addEventListener("click", (e) => {
        e.stopPropagation();
        if (this.pressed) {
          this.pressed = false;
          return;
        }
        this.take(c, i);
      });
      el.addEventListener("pointerdown", (e) => {
        this.pressed = false;
        if (e.pointerType !== "touch") return;
        window.clearTimeout(this.pressTimer);
        this.pressTimer = window.setTimeout(() => {
          this.pressed = true;
          this.showPop(el);
        }, 500);
      });
      const cancel = (): void => window.clearTimeout(this.pressTimer);
      el.addEventListener("pointerup", cancel);
      el.addEventListener("pointercancel", cancel);
      el.addEventListener("pointerleave", cancel);
      el.addEventListener("contextmenu", (e) => e.preventDefault());
      el.addEventListener("focus", () => {
        if (el.matches(":focus-visible")) this.showPop(el); // the keyboard's focus (a tap's has the long press)
      });
      el.addEventListener("blur", () => this.hidePop());
      return el;
    });
    const oneSelected = this.selected.length === 1 && legal.some((a) => a.json.type === "discard");
    const pile = h(
      "div.discard",
      {
        class: oneSelected ? "drop-ready" : "",
        "aria-label": `discard pile, ${v.discard.length} cards, numbered from the bottom`,
        role: "group",
        onclick: () => {
          if (this.selected.length === 1) this.discard();
        },
        ondragover: (e: DragEvent) => {
          e.preventDefault();
          pile.classList.add("over");
        },
        ondragleave: () => pile.classList.remove("over"),
        ondrop: (e: DragEvent) => {
          e.preventDefault();
          pile.classList.remove("over");
          const card = e.dataTransfer?.getData("text/plain") ?? "";
          if (CARD.test(card)) this.discard(card);
        },
      },
      pileCards.length ? pileCards : h("span.sp-empty", null, "empty: discards go here"),
    );

    // the melds, numbered from 1; tapping one adds the selection to it
    const accepting = new Set(this.acceptingMelds());
    const rummyMelds = new Set(
      legal
        .filter((a) => a.json.type === "rummy" && typeof a.json.meld === "string")
        .map((a) => v.melds.findIndex((m) => m.cards.includes(a.json.meld as string))),
    );
    const melds = v.melds.map((m) => {
      const n = shown(m.index);
      const owners: string[] = [];
      const cardEls = m.cards.map((c, i) => {
        const el = pieceEl(c, { "aria-hidden": "true", title: `${cardName(c)}, laid by ${names[m.laid_by[i]] ?? m.laid_by[i]}` });
        el.style.gridColumn = String(i + 1);
        mark(el, c);
        return el;
      });
      // one readable owner tag under each run of cards laid by the same seat
      const tags: HTMLElement[] = [];
      let start = 0;
      for (let i = 1; i <= m.cards.length; i++) {
        if (i === m.cards.length || m.laid_by[i] !== m.laid_by[start]) {
          const who = names[m.laid_by[start]] ?? `player ${shown(m.laid_by[start])}`;
          owners.push(i - start > 1 ? `${who} (${i - start} cards)` : who);
          const tag = h("span.sp-owner", { "aria-hidden": "true", title: `laid by ${who}` }, who);
          tag.style.gridColumn = `${start + 1} / ${i + 1}`;
          if (m.laid_by[start] === me) tag.classList.add("mine");
          tags.push(tag);
          start = i;
        }
      }
      const id = String(m.index);
      return h(
        "div.sp-meld",
        {
          "data-meld": m.index,
          "data-zone": "meld",
          "data-id": id,
          role: "button",
          tabindex: focusable("meld", id, m.index === 0),
          class: [accepting.has(m.index) ? "accepts" : "", this.picking ? "picking" : "", rummyMelds.has(m.index) ? "rummy" : ""].join(" "),
          "aria-label": `meld ${n}: ${m.kind}, ${m.cards.map(cardName).join(", ")}; laid by ${owners.join(", ")}`,
          onclick: () => this.addTo(m.index),
        },
        h("span.sp-meld-head", { "aria-hidden": "true" }, "meld ", h("span.meld-no", null, String(n)), ` \u00B7 ${m.kind}`),
        h("div.sp-meld-cards", null, cardEls, tags),
      );
    });

    // the hand: tap to select (the card lifts)
    const hand = v.hand ?? [];
    const handCards = hand.map((c, i) => {
      const sel = this.selected.includes(c);
      const el = pieceEl(c, {
        "data-zone": "hand",
        "data-id": c,
        role: "button",
        tabindex: focusable("hand", c, i === 0),
        "aria-pressed": sel ? "true" : "false",
        "aria-label": `${cardName(c)}, card ${shown(i)} of your hand`,
        title: `${cardName(c)}: ${tap()} to ${sel ? "unselect" : "select"}`,
        draggable: "true",
        onclick: () => this.toggle(c),
        ondragstart: (e: DragEvent) => {
          e.dataTransfer?.setData("text/plain", c);
          if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
        },
      });
      if (sel) el.classList.add("selected", "lifted");
      if (moved && this.fresh.has(c)) el.classList.add("arrived", "just-drawn");
      if (v.deep === c && mine) {
        el.classList.add("must-use");
        el.setAttribute("aria-label", `${cardName(c)}, card ${shown(i)} of your hand, taken from deep in the pile: meld it or add it on this turn`);
      }
      if (v.hand_known[me ?? -1]?.includes(c)) el.classList.add("known");
      if (hinted.hand.has(c)) {
        el.classList.add("hinted");
        el.setAttribute("aria-label", `${el.getAttribute("aria-label") ?? cardName(c)}; ${hintWords(this.hintAction?.type === "meld" ? "meld this card" : "add this card on")}`);
      }
      return el;
    });

    // the actions next to the hand
    const asked = this.ctx.askedClaim();
    const hasMeld = legal.some((a) => a.json.type === "meld" && sameCards(a.json.cards, this.selected));
    const hasAdd = accepting.size > 0;
    const hasDiscard = this.selected.length === 1 && legal.some((a) => a.json.type === "discard" && a.json.card === this.selected[0]);
    const btn = (id: string, label: string, onclick: () => void, opts: { lit?: boolean; off?: boolean; title?: string } = {}): HTMLElement =>
      h(
        "button.sp-btn",
        {
          type: "button",
          id: `sp-${id}`,
          "data-zone": "act",
          "data-id": id,
          class: opts.lit ? "lit" : "",
          "aria-disabled": opts.off ? "true" : undefined,
          title: opts.title,
          onclick,
        },
        label,
      );
    const actions = h(
      "div.sp-actions",
      { role: "toolbar", "aria-label": "hand actions" },
      btn("meld", "Meld", () => this.meld(), { lit: hasMeld, off: this.selected.length === 0, title: "lay the selected cards down as a new meld (key M)" }),
      btn("add", "Add to\u2026", () => this.addButton(), { lit: hasAdd, off: this.selected.length === 0, title: `add the selected cards to a meld: then ${tap()} the meld (key A)` }),
      btn("discard", "Discard", () => this.discard(), { lit: hasDiscard, off: this.selected.length !== 1, title: "discard the one selected card, ending your turn (key D)" }),
      btn("rummy", "Rummy!", () => this.rummy(), { lit: hasRummy, off: !hasRummy, title: hasRummy ? "a discard fits: call rummy to claim it (key R)" : "no rummy to call now" }),
      asked ? btn("pass", "Let it pass", () => this.ctx.letPass(), { title: "let this chance out of turn go by (key P)" }) : null,
    );
    const clearBtn = this.selected.length
      ? h(
          "button.sp-clear",
          { type: "button", id: "sp-clear", title: "unselect every card (Esc)", onclick: () => { this.selected = []; this.picking = false; this.redraw(); } },
          `unselect ${this.selected.length}`,
        )
      : null;

    // what to do now, in a few words
    const prompt = this.prompt(v, mine, asked, hasRummy);

    const known = v.hand_known.map((k, s) =>
      k.length && s !== me
        ? h("p.sp-known", null, `${names[s]} holds (seen taken): `, k.map((c) => pieceEl(c, { role: "img", "aria-label": cardName(c), title: cardName(c) })))
        : null,
    );
    const laid = v.laid_points.map((p, s) => `${names[s]} ${p}`).join(", ");

    const root = h(
      "div.pile-table.sp",
      { "data-turn": mine ? "mine" : "other" },
      told.length
        ? h("p.sp-lastmove", { role: "status" }, h("span.sp-lm-dot", { "aria-hidden": "true" }), told.join(" \u00B7 "))
        : null,
      h(
        "div.sp-top",
        null,
        h("div.sp-stockbox", null, h("h3", null, "Stock"), stock),
        h(
          "div.sp-pilebox",
          null,
          h("h3", null, `Discard pile (${v.discard.length})`),
          pile,
          pop,
          v.discard.length
            ? h("p.muted.how.sp-typed", null, `${tap() === "tap" ? "Tap" : "Click"} a card to take it with every card above it (typed: take CARD or take N).`)
            : null,
        ),
      ),
      h(
        "div.sp-meldsbox",
        null,
        h("h3", null, `Melds (${v.melds.length})`, h("span.sp-laid", null, ` \u00B7 points laid: ${laid}`)),
        melds.length ? h("div.sp-melds", { role: "group", "aria-label": "melds" }, melds) : h("p.muted", null, "No meld yet."),
      ),
      known,
      h("div.sp-choices", { role: "group", "aria-label": "rummy claims" }),
      v.hand
        ? h(
            "div.sp-dock",
            null,
            h("div.sp-handhead", null, h("h3", null, `Your hand (${hand.length})`), prompt, clearBtn),
            h(
              "div.sp-handrow",
              null,
              h("div.rack.hand.sp-hand", { role: "group", "aria-label": `your hand, ${hand.length} cards` }, handCards),
              actions,
            ),
            navigator.maxTouchPoints > 0 ? null : h("p.sp-keys", null, "Keys: arrows move, Space selects, Enter takes/adds/draws, M meld, A add to, D discard, R rummy, P let pass, Esc clear."),
          )
        : h("p.muted", null, "(a spectator sees no hand)"),
    );
    root.addEventListener("focusin", (e) => {
      const t = e.target as HTMLElement;
      const zone = t.dataset?.zone as Zone | undefined;
      if (zone && t.dataset.id !== undefined) {
        this.focusKey = { zone, id: t.dataset.id };
        this.cursor[zone] = t.dataset.id;
      }
    });
    root.addEventListener("focusout", (e) => {
      const next = e.relatedTarget as Node | null;
      if (next && !root.contains(next)) this.focusKey = null; // the person moved on, out of the board
    });
    this.root = root;
    return root;
  }

  private prompt(v: SpreadPileView, mine: boolean, asked: boolean, hasRummy: boolean): HTMLElement {
    let text: string;
    if (v.outcome) text = "The round is over.";
    else if (asked) text = hasRummy ? "A discard fits a meld: call Rummy!, add on, or let it pass." : "You may add on out of turn, or let it pass.";
    else if (mine && v.phase === "draw") text = `Your turn: ${tap()} the stock to draw, or a pile card to take it.`;
    else if (mine && v.deep) text = `Use ${cardName(v.deep)} (taken from deep in the pile) in a meld or an add-on, then discard.`;
    else if (mine) text = "Select cards to meld or add on, then discard one card.";
    else text = `${v.players[v.turn ?? -1] ?? "Another player"} to play.${hasRummy ? " A discard fits: Rummy!" : ""}`;
    if (this.picking) text = `${tap() === "tap" ? "Tap" : "Click"} the meld to add the selected cards to.`;
    return h("p.sp-prompt", { "aria-live": "polite" }, text);
  }

  private showPop(el: HTMLElement): void {
    const pop = this.pop;
    if (!pop) return;
    pop.textContent = el.dataset.duty ?? "";
    pop.hidden = false;
    const box = pop.parentElement?.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    if (box) {
      const left = Math.max(0, Math.min(r.left - box.left, box.width - 240));
      pop.style.left = `${left}px`;
      pop.style.top = `${r.bottom - box.top + 4}px`;
    }
  }

  private hidePop(): void {
    if (this.pop) this.pop.hidden = true;
  }

  // -- the keyboard -----------------------------------------------------------------------------------

  key(event: KeyboardEvent): boolean {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const t = event.target as HTMLElement | null;
    const zone = t?.dataset?.zone as Zone | undefined;
    const inMine = !!t && !!this.root && this.root.contains(t);
    const k = event.key;
    if (inMine && zone) {
      const items = this.items(zone);
      const at = items.indexOf(t!);
      if (k === "ArrowLeft" || k === "ArrowRight") {
        const next = items[Math.max(0, Math.min(items.length - 1, at + (k === "ArrowLeft" ? -1 : 1)))];
        this.moveFocus(zone, next);
        return true;
      }
      if (k === "ArrowUp" || k === "ArrowDown") {
        let zi = ZONES.indexOf(zone);
        for (;;) {
          zi += k === "ArrowUp" ? -1 : 1;
          if (zi < 0 || zi >= ZONES.length) return true;
          const there = this.items(ZONES[zi]);
          if (there.length) {
            const id = this.cursor[ZONES[zi]];
            this.moveFocus(ZONES[zi], there.find((e) => e.dataset.id === id) ?? there[0]);
            return true;
          }
        }
      }
      if (k === " " || k === "Enter") {
        if (zone === "act") return false; // a real button: the browser clicks it
        t!.click();
        return true;
      }
    }
    if (t && (t.tagName === "BUTTON" || t.tagName === "A") && (k === " " || k === "Enter")) return false;
    switch (k) {
      case "m":
      case "M":
        this.meld();
        return true;
      case "a":
      case "A":
        this.addButton();
        return true;
      case "d":
      case "D":
        this.discard();
        return true;
      case "r":
      case "R":
        this.rummy();
        return true;
      case "Escape":
        if (!this.selected.length) return false;
        this.selected = [];
        this.picking = false;
        this.redraw();
        return true;
      default:
        return false;
    }
  }

  private moveFocus(zone: Zone, el: HTMLElement | undefined): void {
    if (!el) return;
    for (const e of this.items(zone)) if (e.tagName !== "BUTTON") e.tabIndex = -1;
    el.tabIndex = 0;
    this.cursor[zone] = el.dataset.id;
    el.focus();
  }
}
