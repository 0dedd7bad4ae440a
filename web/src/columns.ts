// The columns layout (the view has `columns`: a belt of columns drawn from at either end): the columns with
// their top and bottom ends, the melds on the table, this turn's pickup, a jump-in offer, and the seat's hand.
// Actions come from the server's list.

import { isColumnsView, type View } from "./api";
import { h } from "./dom";
import { pieceEl } from "./pieces";
import type { Ctx, Layout } from "./table";
import { shown } from "./numbers";

export class ColumnsLayout implements Layout {
  constructor(private ctx: Ctx) {}

  render(view: View): HTMLElement {
    if (!isColumnsView(view)) return h("p.muted", null, "(this view has no columns)");
    const names = view.players;
    const columns = h(
      "div.columns",
      { "aria-label": "columns" },
      view.columns.map((col) => {
        const cells = col.cells;
        return h(
          "div.column",
          { "data-column": col.column, class: view.open_columns.includes(col.column) ? "belt" : "" },
          h("div.col-head", null, `column ${shown(col.column)}`, col.claimed_by !== null ? ` \u2192 ${names[col.claimed_by] ?? col.claimed_by}` : ""),
          cells.map((cell, i) => {
            const end = i === 0 ? "top" : i === cells.length - 1 ? "bottom" : "";
            const el = pieceEl(cell, { "data-end": end || undefined });
            if (end) el.classList.add("end");
            return el;
          }),
        );
      }),
    );
    const melds = view.melds.map((m) =>
      h(
        "div.meld",
        { "data-meld": m.index },
        h("span.meld-no", null, `${shown(m.index)}: ${m.kind}${m.royal ? " (royal)" : ""}, ${names[m.owner] ?? m.owner}, ${m.score} pts`),
        m.pieces.map((d) => pieceEl(d)),
      ),
    );
    const drawn = view.drawn
      ? h(
          "p.drawn",
          null,
          `Picked up from column ${shown(view.drawn.column)} (${view.drawn.end}${view.drawn.face_up ? ", face up" : ""}): `,
          pieceEl(view.drawn.piece),
          ` discard goes to the ${view.drawn.discard_end} end`,
        )
      : null;
    const jw = view.jump_window;
    const jump = jw
      ? h("p.jump", null, `Jump-in offer: `, pieceEl(jw.piece), ` discarded by ${names[jw.discarder] ?? jw.discarder} at column ${shown(jw.column)} ${jw.end}; waiting for ${jw.waiting.map((s) => names[s] ?? s).join(", ")}`)
      : null;
    const known = view.hand_known.map((k, s) =>
      k.length && s !== this.ctx.seat ? h("p.known", null, `${names[s]} is known to hold `, k.map((d) => pieceEl(d))) : null,
    );
    const hand = view.hand
      ? [h("h3", null, `Your hand (${view.hand.length})`), h("div.rack.hand", null, view.hand.map((d) => pieceEl(d)))]
      : [h("p.muted", null, "(a spectator sees no hand)")];
    return h(
      "div.columns-table",
      null,
      columns,
      drawn,
      jump,
      h("h3", null, "Melds"),
      melds.length ? h("div.melds", null, melds) : h("p.muted", null, "No meld yet."),
      known,
      hand,
    );
  }
}
