// The spread pile layout (the view has `discard` and `melds`): the stock, the whole discard pile spread out (bottom first,
// the cards that may be taken marked), the melds with who laid each card, and the seat's hand.
// The pile and the melds are numbered from 1, as on the terminal's screens: the command box takes
// `take 10H` (the form the action list shows) or `take N` by the pile's number, and `addon N CARD` by a
// meld's number; the server reads them (the game's typed reading), the client only shows the numbers.

import { isSpreadPileView, type View } from "./api";
import { h } from "./dom";
import { pieceEl } from "./pieces";
import type { Ctx, Layout } from "./table";

export class SpreadPileLayout implements Layout {
  constructor(private ctx: Ctx) {}

  render(view: View): HTMLElement {
    if (!isSpreadPileView(view)) return h("p.muted", null, "(this view has no discard pile)");
    const names = view.players;
    const claimable = new Set<string>(view.claimable);
    const pile = h(
      "div.discard",
      { "aria-label": "discard pile, bottom first" },
      view.discard.map((c, i) => {
        const el = pieceEl(c, { "data-index": i, "data-number": i + 1 });
        el.append(h("sub.pile-no", { "aria-label": `card ${i + 1} from the bottom` }, String(i + 1)));
        if (claimable.has(c)) {
          el.classList.add("claimable");
          el.title = `${c} (card ${i + 1}): a rummy call can claim it`;
        }
        if (view.deep === c) el.classList.add("deep");
        return el;
      }),
    );
    const melds = view.melds.map((m) =>
      h(
        "div.meld",
        { "data-meld": m.index },
        h("span.meld-no", null, `${m.index + 1}: ${m.kind}`),
        m.cards.map((c, i) => {
          const el = pieceEl(c);
          el.append(h("sub", null, String(names[m.laid_by[i]] ?? m.laid_by[i]).slice(0, 3)));
          el.title = `${c}, laid by ${names[m.laid_by[i]] ?? m.laid_by[i]}`;
          return el;
        }),
      ),
    );
    const known = view.hand_known.map((k, s) =>
      k.length && s !== this.ctx.seat ? h("p.known", null, `${names[s]} is known to hold `, k.map((c) => pieceEl(c))) : null,
    );
    const laid = view.laid_points.map((p, s) => `${names[s]} ${p}`).join(", ");
    return h(
      "div.pile-table",
      null,
      h("p", null, `Stock: ${view.stock_count ?? 0} cards. Dealer: ${names[view.dealer] ?? view.dealer}. Laid this round: ${laid}.`),
      h("h3", null, `Discard pile (${view.discard.length}, numbered from the bottom)`),
      view.discard.length ? h("p.muted.how", null, "take CARD or take N takes that card and every card above it") : null,
      view.discard.length ? pile : h("p.muted", null, "empty"),
      h("h3", null, "Melds (numbered from 1: addon N CARD adds to meld N)"),
      melds.length ? h("div.melds", null, melds) : h("p.muted", null, "No meld yet."),
      known,
      view.hand
        ? [h("h3", null, `Your hand (${view.hand.length})`), h("div.rack.hand", null, view.hand.map((c) => pieceEl(c)))]
        : h("p.muted", null, "(a spectator sees no hand)"),
    );
  }
}
