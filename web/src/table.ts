// The table page /t/<table>#seat=<n>&token=<t>: one connection, the header (round, turn, stock, each seat's
// hidden pieces, scores, clock: all from the view's common header), the game's own layout, the actions the
// server lists, the log and the score sheet. The layout is picked from the game's draft capability
// (welcome's table) and otherwise from the view's shape (its typed body), never from a list of game ids. The seat's actions come in each state frame; every action
// sent carries the seq of the state it was made from (the server refuses it STALE if the game moved on).

import {
  isColumnsView,
  isSpreadPileView,
  refusal,
  type ActionJson,
  type Draft,
  type Frame,
  type LegalAction,
  type SeatInfo,
  type StateFrame,
  type TableInfo,
  type View,
} from "./api";
import { ColumnsLayout } from "./columns";
import { Connection, type ConnStatus } from "./conn";
import { clear, h } from "./dom";
import { FreeTableLayout } from "./freetable";
import { GridLayout } from "./grid";
import { SpreadPileLayout } from "./spreadpile";
import { shown } from "./numbers";

export interface Ctx {
  conn: Connection;
  seat: number | null;
  /** Send an action (JSON, the seat may be omitted) or its text; the reply is a state or an error frame. */
  act(action: ActionJson | string): void;
  say(message: string, error?: boolean): void;
  /** The seat's legal actions in the newest state frame. */
  legal(): LegalAction[];
  myTurn(): boolean;
  /** Let the chance out of turn the newest state frame asks about pass (nothing when none is asked). */
  letPass(): void;
  /** Whether the newest state frame asks this seat about a chance out of turn (a claim, a jump-in...). */
  askedClaim(): boolean;
}

export interface Layout {
  /** Draw the table for a new state frame (seq tells whether the game moved on). */
  render(view: View, seq: number): HTMLElement;
  /** A key pressed on the page; true when the layout used it. */
  key?(event: KeyboardEvent): boolean;
  /** Hint lines and action from the server (the layout may highlight the pieces). */
  hint?(action: ActionJson | null): void;
}

function pickLayout(view: View, ctx: Ctx, draft: Draft | undefined): Layout | null {
  if (draft === "table") return new FreeTableLayout(ctx);
  if (draft === "grid") return new GridLayout(ctx);
  if (isColumnsView(view)) return new ColumnsLayout(ctx);
  if (isSpreadPileView(view)) return new SpreadPileLayout(ctx);
  return null;
}

interface Stored {
  seat: number;
  token: string;
}

function storageKey(table: string): string {
  return `rummykit:table:${table}`;
}

/** The seat and token: from the URL fragment (and then kept), else from this browser's storage. */
function credentials(table: string): { seat: number | null; token: string | null } {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (params.has("watch")) return { seat: null, token: null };
  const token = params.get("token");
  const seat = params.get("seat");
  if (token) {
    const stored: Stored = { seat: Number(seat ?? -1), token };
    try {
      localStorage.setItem(storageKey(table), JSON.stringify(stored));
    } catch {
      /* storage may be off; the fragment still works for this page */
    }
    return { seat: stored.seat, token };
  }
  try {
    const raw = localStorage.getItem(storageKey(table));
    if (raw) {
      const stored = JSON.parse(raw) as Stored;
      if (typeof stored.token === "string") return { seat: stored.seat, token: stored.token };
    }
  } catch {
    /* ignore a broken entry */
  }
  return { seat: null, token: null };
}

export function showTable(root: HTMLElement, table: string): void {
  clear(root);
  document.title = `rummykit: table ${table}`;
  const creds = credentials(table);
  let seat: number | null = null;
  let info: TableInfo | null = null;
  let last: StateFrame | null = null;
  let layout: Layout | null = null;
  let seats: SeatInfo[] = [];
  const logLines: string[] = [];

  const banner = h("div.banner", { role: "status", "aria-live": "polite" });
  const header = h("section.header");
  const board = h("section.board");
  const actionsBox = h("section.actions");
  const hintBox = h("div.hint", { "aria-live": "polite" });
  const logBox = h("ol.log", { "aria-label": "log" });
  const statusLine = h("p.status", { role: "alert" });
  const sheet = h("div.sheet", { hidden: true, role: "dialog", "aria-label": "score sheet" });
  const whoami = h("span.whoami");

  const ctx: Ctx = {
    conn: null as unknown as Connection,
    get seat() {
      return seat;
    },
    act(action) {
      const msg = typeof action === "string" ? { type: "act", text: action } : { type: "act", action };
      if (!conn.send({ ...msg, seq: last?.seq, id: `a${Date.now()}` })) ctx.say("Not connected: the action was not sent.", true);
      else ctx.say("");
    },
    say(message, error = false) {
      statusLine.textContent = message;
      statusLine.classList.toggle("error", error);
    },
    legal() {
      return last?.legal?.actions ?? [];
    },
    myTurn() {
      return seat !== null && !!last && last.view.to_act.includes(seat);
    },
    letPass() {
      letPass();
    },
    askedClaim() {
      return !!last?.asked?.claim;
    },
  };

  /** Let the chance out of turn the newest state frame asks about pass (the `pass` frame, with its seq). */
  function letPass(): void {
    if (!last?.asked?.claim) return;
    if (!conn.send({ type: "pass", seq: last.seq, id: `p${Date.now()}` })) ctx.say("Not connected: nothing was sent.", true);
    else ctx.say("");
  }

  function drawHeader(): void {
    clear(header);
    if (!last) return;
    const v = last.view;
    const names = v.players;
    const sizes = v.piece_counts;
    const stock = v.stock_count;
    const facts = h(
      "div.facts",
      null,
      h("span", null, `${v.game}`),
      h("span", null, `round ${v.round}`),
      v.turn_number > 0 ? h("span", null, `turn ${v.turn_number}`) : null, // 0: no turn yet (a selection round)
      h("span", null, `phase ${v.phase}`),
      last.status === "waiting" ? h("span.waiting", null, "waiting for every player to open their link") : null,
      stock !== null ? h("span.pool", null, `to draw ${stock}`) : null,
      h("span.turn", null, v.turn === null || v.turn === undefined ? "match over" : `${names[v.turn] ?? v.turn} to play`),
    );
    const rows = names.map((name, i) => {
      const s = seats.find((x) => x.seat === i);
      const clock = last!.clock && last!.clock.seat === i ? h("span.clock", { "data-deadline": last!.clock.deadline }, "") : null;
      return h(
        "tr",
        { class: [i === v.turn ? "current" : "", i === seat ? "me" : ""].join(" "), "data-seat": i },
        h("td", null, i === v.turn ? "\u25B6 " : "", name, i === seat ? " (you)" : ""),
        h("td", null, s ? (s.kind === "bot" ? "bot" : s.connected ? "here" : "away") : ""),
        h("td.size", null, String(sizes[i] ?? "")),
        h("td.total", null, String(v.totals?.[i] ?? "")),
        h("td", null, clock),
      );
    });
    header.append(
      facts,
      h(
        "table.players",
        null,
        h("thead", null, h("tr", null, h("th", null, "player"), h("th", null, ""), h("th", null, "pieces"), h("th", null, "total"), h("th", null, ""))),
        h("tbody", null, rows),
      ),
    );
    tickClock();
  }

  function tickClock(): void {
    for (const el of Array.from(header.querySelectorAll<HTMLElement>(".clock"))) {
      const left = Math.max(0, Math.round(Number(el.dataset.deadline) - Date.now() / 1000));
      el.textContent = `\u23F1 ${left}s`;
    }
  }
  window.setInterval(tickClock, 1000);

  function drawLog(lines: string[]): void {
    for (const line of lines) {
      logLines.push(line);
      logBox.append(h("li", null, line));
    }
    while (logBox.children.length > 300) logBox.removeChild(logBox.firstChild!);
    logBox.scrollTop = logBox.scrollHeight;
  }

  let sheetLines: string[] = [];
  let sheetOver = false;

  function showSheet(lines: string[], matchOver: boolean): void {
    sheetLines = lines;
    sheetOver = matchOver;
    clear(sheet);
    const v = last?.view;
    const names = v?.players ?? [];
    const rounds = v?.rounds ?? [];
    const table = h(
      "table.scores",
      null,
      h("thead", null, h("tr", null, h("th", null, "round"), names.map((n) => h("th", null, n)))),
      h(
        "tbody",
        null,
        rounds.map((r) => h("tr", null, h("td", null, String(r.round)), r.scores.map((s) => h("td", null, String(s))))),
        h("tr.totals", null, h("td", null, "total"), (v?.totals ?? []).map((t) => h("td", null, String(t)))),
      ),
    );
    sheet.append(
      h("h2", null, matchOver || v?.outcome ? "Match over" : "Round over"),
      h("ul", null, lines.map((l) => h("li", null, l))),
      table,
      h("button", { type: "button", onclick: () => (sheet.hidden = true) }, "close"),
    );
    sheet.hidden = false;
  }

  function drawActions(): void {
    clear(actionsBox);
    const textBox = h("input", { id: "command", placeholder: "command, e.g. draw", "aria-label": "command", autocomplete: "off" }) as HTMLInputElement;
    const form = h(
      "form.command",
      null,
      textBox,
      h("button", { type: "submit" }, "send"),
      h("button", { type: "button", id: "hint", onclick: () => void askHint() }, "hint"),
    ) as HTMLFormElement;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = textBox.value.trim();
      if (text) ctx.act(text);
      textBox.value = "";
    });
    const legalBox = h("div.legal");
    actionsBox.append(h("h3", null, "Actions"), form, hintBox, legalBox);
    if (seat === null) {
      clear(actionsBox);
      actionsBox.append(h("p", null, "You are watching this table."));
      return;
    }
    const seq = last?.seq ?? -1;
    if (last?.status === "waiting") {
      legalBox.append(h("p", null, "Waiting for every player to open their invite link."));
      document.body.dataset.legalSeq = String(seq);
      return;
    }
    if (!ctx.myTurn()) {
      legalBox.append(h("p", null, "Not your turn."));
      document.body.dataset.legalSeq = String(seq);
      return;
    }
    if (last?.asked?.claim) {
      // the table waits for this answer, as the terminal waits for a line: act out of turn, or let it pass
      legalBox.append(
        h(
          "div.chance",
          null,
          h("p", null, "You may act out of turn now: play a listed action, or let the chance pass (key P)."),
          h("button.let-pass", { type: "button", id: "let-pass", onclick: letPass }, "Let it pass"),
        ),
      );
    }
    const actions = ctx.legal();
    const groups = new Map<string, LegalAction[]>();
    for (const a of actions) {
      const kind = String(a.json.type ?? "other");
      if (!groups.has(kind)) groups.set(kind, []);
      groups.get(kind)!.push(a);
    }
    for (const [kind, list] of groups) {
      const box = h("details.group", { open: list.length <= 12, "data-kind": kind }, h("summary", null, `${kind} (${list.length})`));
      for (const a of list) {
        box.append(
          h("button.legal-action", { type: "button", "data-kind": kind, "data-action": JSON.stringify(a.json), onclick: () => ctx.act(a.json) }, a.typed),
        );
      }
      legalBox.append(box);
    }
    if (!actions.length) legalBox.append(h("p", null, "The server lists no action here: use the table or type a command."));
    document.body.dataset.legalSeq = String(seq);
  }

  async function askHint(): Promise<void> {
    clear(hintBox);
    hintBox.append(h("p.muted", null, "asking the server for a hint\u2026"));
    // a game's first hint may wait for its solver to compile on the server: allow minutes, not seconds
    const reply = await conn.request({ type: "hint" }, 300000);
    clear(hintBox);
    if (reply.type === "hint") {
      hintBox.append(h("ul", null, reply.lines.map((l) => h("li", null, l))));
      layout?.hint?.(reply.action);
    } else if (reply.type === "error") {
      // e.g. NO-HINT "no hint for GAME yet": said where the hint would be, in the server's words
      // (instead of under the table as a refused action, where the frame put it a moment ago)
      hintBox.append(h("p.no-hint", { "data-rule": reply.rule }, reply.worded ?? reply.message));
      ctx.say("");
    }
  }

  function onFrame(frame: Frame): void {
    switch (frame.type) {
      case "welcome":
        seat = frame.seat;
        info = frame.table;
        seats = info.seats;
        whoami.textContent = seat === null ? "watching" : `seat ${shown(seat)}`;
        // a new connection's first state frame carries the recent log again: start the log afresh
        clear(logBox);
        break;
      case "state": {
        const moved = !last || last.seq !== frame.seq;
        last = frame;
        seats = frame.seats ?? seats;
        if (!layout) layout = pickLayout(frame.view, ctx, info?.draft);
        drawHeader();
        drawLog(frame.log ?? []);
        clear(board);
        board.append(layout ? layout.render(frame.view, frame.seq) : h("pre", null, JSON.stringify(frame.view, null, 1)));
        if (moved) clear(hintBox);
        drawActions();
        document.body.dataset.seq = String(frame.seq);
        document.body.dataset.turn = ctx.myTurn() ? "mine" : "other";
        document.body.dataset.asked = frame.asked ? (frame.asked.claim ? "claim" : "turn") : "";
        if (frame.view.outcome) document.body.dataset.over = "true";
        // the score sheet may have come before the state that holds the round's scores: redraw it
        if (!sheet.hidden) showSheet(sheetLines, sheetOver);
        break;
      }
      case "round":
        showSheet(frame.lines, frame.match_over === true);
        break;
      case "error":
        ctx.say(refusal(frame), true);
        break;
      default:
        break;
    }
  }

  function onStatus(status: ConnStatus): void {
    document.body.dataset.conn = status;
    clear(banner);
    banner.className = `banner ${status}`;
    if (status === "reconnecting") {
      banner.append("reconnecting\u2026 ", h("button", { type: "button", onclick: () => conn.retryNow() }, "retry now"));
    } else if (status === "connecting") {
      banner.append("connecting\u2026");
    } else if (status === "closed") {
      banner.append("disconnected: ", statusLine.textContent || "the server closed the connection", " ", h("a", { href: "/" }, "lobby"));
    }
  }

  const conn = new Connection(table, creds.token, onFrame, onStatus);
  ctx.conn = conn;

  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if ((event.key === "p" || event.key === "P") && !event.ctrlKey && !event.metaKey && !event.altKey && last?.asked?.claim) {
      letPass();
      event.preventDefault();
      return;
    }
    if (layout?.key?.(event)) event.preventDefault();
  });

  root.append(
    h("header.top", null, h("a.home", { href: "/" }, "rummykit"), h("span.sub", null, `table ${table} `), whoami),
    banner,
    h("div.layout", null, h("div.main", null, header, board, statusLine), h("aside.side", null, actionsBox, h("h3", null, "Log"), logBox)),
    sheet,
  );
  conn.start();
}
