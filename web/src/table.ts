// The table page /t/<table>#seat=<n>&token=<t>: one connection, the table's bar (its name, How to play, hint,
// sound), the seats (counted from 1, with their names), whose turn it is, the game's own layout on the felt,
// the log of moves (one entry per move, pieces drawn as pieces), the fallback list of every listed move (in the
// command layer's words) and the score sheet. The layout is picked from the game's draft capability
// (welcome's table) and otherwise from the view's shape (its typed body), never from a list of game ids. The
// seat's actions come in each state frame; every action sent carries the seq of the state it was made from (the
// server refuses it STALE if the game moved on).

import {
  getGames,
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
import { firstTurnTip, howToButton } from "./howto";
import { shown } from "./numbers";
import { kindsIn, pieceEl, readPieceWord, setJokerDominoes, type PieceKind } from "./pieces";
import { SpreadPileLayout } from "./spreadpile";

export interface Ctx {
  conn: Connection;
  seat: number | null;
  /** Send an action (JSON, the seat may be omitted) or its text; the reply is a state or an error frame. */
  act(action: ActionJson | string): void;
  say(message: string, error?: boolean): void;
  /** The seat's legal actions in the newest state frame. */
  legal(): LegalAction[];
  /** Whether the table waits for this seat now (never while the table waits for its players). */
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

function remembered(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage may be off: the choice lasts for this page */
  }
}

/** The seat and token: from the URL fragment (and then kept), else from this browser's storage. */
function credentials(table: string): { seat: number | null; token: string | null } {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (params.has("watch")) return { seat: null, token: null };
  const token = params.get("token");
  const seat = params.get("seat");
  if (token) {
    const stored: Stored = { seat: Number(seat ?? -1), token };
    remember(storageKey(table), JSON.stringify(stored));
    return { seat: stored.seat, token };
  }
  try {
    const raw = remembered(storageKey(table));
    if (raw) {
      const stored = JSON.parse(raw) as Stored;
      if (typeof stored.token === "string") return { seat: stored.seat, token: stored.token };
    }
  } catch {
    /* ignore a broken entry */
  }
  return { seat: null, token: null };
}

/** A game id as a title until the server's title is known: "tile-game" -> "Tile Game". */
function titled(game: string): string {
  return game.replace(/[-_]/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

const SOUND_KEY = "rummykit:sound";

/** A short two-note chime (Web Audio; nothing when the browser has none or blocks it). */
function chime(): void {
  try {
    const Audio = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Audio) return;
    const ac = new Audio();
    const now = ac.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
      osc.connect(gain).connect(ac.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.3);
    }
    window.setTimeout(() => void ac.close(), 800);
  } catch {
    /* no sound */
  }
}

/** Compare two texts with their numbers as numbers ("column 2" before "column 10"). */
const natural = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** Words of a line, with pieces of this table's kinds drawn as pieces (whole words only). */
function withPieces(line: string, kinds: ReadonlySet<PieceKind>): (Node | string)[] {
  const out: (Node | string)[] = [];
  for (const token of line.split(/(\s+)/)) {
    const found = token.trim() ? readPieceWord(token, kinds) : null;
    if (!found) {
      out.push(token);
      continue;
    }
    if (found.mark) out.push(h("span.mark", { title: found.mark === "+" ? "placed from the rack" : "moved from another set" }, found.mark));
    out.push(pieceEl(found.piece));
    if (found.tail) out.push(found.tail);
  }
  return out;
}

/** A continuation line that is a grid drawn as text (rows of cells, dots for empty ones): the board shows it. */
function gridRow(line: string, kinds: ReadonlySet<PieceKind>): boolean {
  const tokens = line.trim().split(/\s+/);
  return (
    tokens.length >= 3 &&
    tokens.some((t) => t === "." || /^-?\d+$/.test(t)) &&
    tokens.every((t) => t === "." || /^-?\d+$/.test(t) || readPieceWord(t, kinds) !== null)
  );
}

export function showTable(root: HTMLElement, table: string): void {
  clear(root);
  const creds = credentials(table);
  let seat: number | null = null;
  let info: TableInfo | null = null;
  let last: StateFrame | null = null;
  let layout: Layout | null = null;
  let seats: SeatInfo[] = [];
  let kinds: Set<PieceKind> = new Set();
  let wasMyTurn = false;
  let titles = new Map<string, string>();
  let soundOn = remembered(SOUND_KEY) === "on";

  const banner = h("div.banner", { role: "status", "aria-live": "polite" });
  const titleEl = h("h1.title", null, "");
  const tools = h("div.tools");
  const seatsBox = h("ul.seats", { "aria-label": "players" });
  const factsBox = h("div.facts");
  const turnBox = h("p.turn-banner", { role: "status", "aria-live": "polite" });
  const tipBox = h("div.tipbox");
  const board = h("section.board", { "aria-label": "table" });
  const actionsBox = h("section.actions");
  const hintBox = h("div.hint", { "aria-live": "polite" });
  const logBox = h("ol.log", { "aria-label": "log of moves", tabindex: "0" });
  const statusLine = h("p.status", { role: "alert" });
  const sheet = h("div.sheet", { hidden: true, role: "dialog", "aria-label": "score sheet" });

  const waiting = (): boolean => last?.status === "waiting";

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
      return seat !== null && !!last && !waiting() && last.view.to_act.includes(seat);
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

  function nameOf(i: number): string {
    return last?.view.players[i] ?? seats.find((s) => s.seat === i)?.name ?? `player ${shown(i)}`;
  }

  /** The people whose invite link is still to be opened (the table waits for them). */
  function notHere(): string[] {
    return seats.filter((s) => s.kind === "person" && !s.connected).map((s) => (s.seat === seat ? "you" : s.name || `player ${shown(s.seat)}`));
  }

  function drawTitle(): void {
    const name = info?.name?.trim();
    const game = titles.get(info?.game ?? "") ?? titled(info?.game ?? "");
    titleEl.textContent = name ? `${name} \u00B7 ${game}` : game ? `${game} table` : "table";
    const mine = ctx.myTurn();
    document.title = `${mine ? "\u25CF Your turn \u2014 " : ""}${name || game || "table"} \u2014 rummykit`;
  }

  function drawTools(): void {
    clear(tools);
    if (!info) return;
    tools.append(howToButton(info.game));
    if (info.hint && seat !== null) {
      tools.append(h("button", { type: "button", id: "hint", onclick: () => void askHint() }, "Hint"));
    }
    const sound = h(
      "button",
      { type: "button", id: "sound", "aria-pressed": soundOn ? "true" : "false", title: "a chime when your turn comes" },
      soundOn ? "\u266A Sound on" : "\u266A Sound off",
    );
    sound.addEventListener("click", () => {
      soundOn = !soundOn;
      remember(SOUND_KEY, soundOn ? "on" : "off");
      if (soundOn) chime();
      drawTools();
    });
    tools.append(sound);
  }

  function drawHeader(): void {
    clear(seatsBox);
    clear(factsBox);
    if (!last) return;
    const v = last.view;
    const sizes = v.piece_counts;
    for (const [i, name] of v.players.entries()) {
      const s = seats.find((x) => x.seat === i);
      const state = s ? (s.kind === "bot" ? `bot${s.level ? ` (${s.level})` : ""}` : s.connected ? "" : "away") : "";
      const clock = last.clock && last.clock.seat === i ? h("span.clock", { "data-deadline": last.clock.deadline }, "") : null;
      const bits = [
        sizes[i] !== undefined ? `${sizes[i]} piece${sizes[i] === 1 ? "" : "s"}` : "",
        v.totals?.[i] !== undefined ? `${v.totals[i]} pts` : "",
        state,
      ].filter(Boolean);
      seatsBox.append(
        h(
          "li.seat-chip",
          {
            class: [i === v.turn ? "current" : "", i === seat ? "me" : "", state === "away" ? "away" : ""].join(" "),
            "data-seat": i,
            "aria-current": i === v.turn ? "true" : undefined,
          },
          h("span.no", { "aria-label": `player ${shown(i)}` }, String(shown(i))),
          h("span.name", null, name, i === seat ? " (you)" : ""),
          h("span.info", null, bits.join(" \u00B7 ")),
          clock,
        ),
      );
    }
    const stock = v.stock_count;
    factsBox.append(
      ...[
        h("span", null, `round ${v.round}`),
        v.turn_number > 0 ? h("span", null, `turn ${v.turn_number}`) : null, // 0: no turn yet (a selection round)
        stock !== null ? h("span.pool", null, `${stock} left to draw`) : null,
        waiting() ? h("span.waiting", null, "waiting for every player to open their link") : null,
        seat === null ? h("span", null, "you are watching") : null,
      ].filter((el): el is HTMLElement => el !== null),
    );
    clear(turnBox);
    turnBox.className = "turn-banner";
    if (waiting()) {
      const missing = notHere();
      turnBox.classList.add("waiting");
      turnBox.textContent = missing.length
        ? `Waiting for ${missing.join(", ")} to open ${missing.length === 1 && missing[0] !== "you" ? "their" : "the"} invite link.`
        : "Waiting for every player to open their invite link.";
    } else if (v.outcome?.match_over || v.turn === null || v.turn === undefined) {
      turnBox.textContent = v.outcome ? (v.outcome.match_over ? "The match is over." : "The round is over.") : "Between rounds.";
    } else if (ctx.myTurn()) {
      turnBox.classList.add("mine");
      turnBox.textContent = last.asked?.claim ? "You may act out of turn now." : "Your turn.";
    } else {
      turnBox.textContent = `${nameOf(v.turn)} is playing\u2026`;
    }
    tickClock();
  }

  function tickClock(): void {
    for (const el of Array.from(seatsBox.querySelectorAll<HTMLElement>(".clock"))) {
      const left = Math.max(0, Math.round(Number(el.dataset.deadline) - Date.now() / 1000));
      el.textContent = `\u23F1 ${left}s`;
    }
  }
  window.setInterval(tickClock, 1000);

  /** Add log lines: one entry per move; an indented line continues the entry before it. */
  function drawLog(lines: string[]): void {
    for (const line of lines) {
      const continued = /^\s/.test(line) && logBox.lastElementChild;
      if (!continued) {
        logBox.append(h("li", { "data-line": line }, h("span.said", null, withPieces(line, kinds))));
        continue;
      }
      const entry = logBox.lastElementChild as HTMLElement;
      const text = line.trim();
      if (!text || gridRow(line, kinds)) continue; // a grid printed as text: the board shows the grid
      if (/^table:/.test(text) || /^\(\+ placed/.test(text)) {
        let details = entry.querySelector<HTMLElement>("details.after");
        if (!details) {
          details = h("details.after", null, h("summary", null, "the table after this move"));
          entry.append(details);
        }
        details.append(h("span.more", null, withPieces(text, kinds)));
        continue;
      }
      entry.append(h("span.more", null, withPieces(text, kinds)));
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
    const scores = h(
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
      h("h2", null, matchOver || v?.outcome?.match_over ? "Match over" : "Round over"),
      h("ul", null, lines.map((l) => h("li", null, withPieces(l, kinds)))),
      scores,
      h("button.primary", { type: "button", onclick: () => (sheet.hidden = true) }, "Close"),
    );
    sheet.hidden = false;
  }

  function drawActions(): void {
    clear(actionsBox);
    const seq = last?.seq ?? -1;
    if (seat === null) {
      actionsBox.append(h("p.muted", null, "You are watching this table."));
      document.body.dataset.legalSeq = String(seq);
      return;
    }
    const textBox = h("input", { id: "command", placeholder: "type a move, e.g. draw", "aria-label": "command", autocomplete: "off" }) as HTMLInputElement;
    const form = h("form.command", null, textBox, h("button", { type: "submit" }, "Send")) as HTMLFormElement;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = textBox.value.trim();
      if (text) ctx.act(text);
      textBox.value = "";
    });
    const legalBox = h("div.legal");
    const panel = h(
      "details.all-moves",
      { open: remembered("rummykit:all-moves") !== "closed" },
      h("summary", null, "All moves"),
      legalBox,
      form,
    ) as HTMLDetailsElement;
    panel.addEventListener("toggle", () => remember("rummykit:all-moves", panel.open ? "open" : "closed"));
    actionsBox.append(hintBox, panel);
    if (waiting()) {
      const missing = notHere();
      legalBox.append(
        h("p", null, "Waiting for every player to open their invite link", missing.length ? `: ${missing.join(", ")} still to come.` : "."),
      );
      document.body.dataset.legalSeq = String(seq);
      return;
    }
    if (!ctx.myTurn()) {
      legalBox.append(h("p.muted", null, "Not your turn."));
      document.body.dataset.legalSeq = String(seq);
      return;
    }
    if (last?.asked?.claim) {
      // the table waits for this answer, as the terminal waits for a line: act out of turn, or let it pass
      legalBox.append(
        h(
          "div.chance",
          null,
          h("p", null, "You may act out of turn now: play a move, or let the chance pass", h("span.key-hint", null, " (key P)"), "."),
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
      const words = (a: LegalAction) => a.said || a.typed;
      list.sort((a, b) => natural.compare(words(a), words(b)));
      const box = h("details.group", { open: list.length <= 12, "data-kind": kind }, h("summary", null, `${kind} (${list.length})`));
      for (const a of list) {
        box.append(
          h(
            "button.legal-action",
            { type: "button", "data-kind": kind, "data-action": JSON.stringify(a.json), title: `type: ${a.typed}`, onclick: () => ctx.act(a.json) },
            words(a),
          ),
        );
      }
      legalBox.append(box);
    }
    if (!actions.length) legalBox.append(h("p", null, "The server lists no move here: use the table or type a command."));
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
      hintBox.append(h("p.no-hint", { "data-rule": reply.rule }, reply.worded ?? reply.message));
      ctx.say("");
    }
  }

  /** On the seat's first turn at this table, the game's tip (once; dismissible). */
  async function firstTip(): Promise<void> {
    if (!info || seat === null) return;
    const key = `rummykit:tip:${table}:${seat}`;
    if (remembered(key)) return;
    remember(key, "shown");
    const tip = await firstTurnTip(info.game);
    if (!tip) return;
    clear(tipBox);
    tipBox.append(
      h(
        "div.tip",
        { role: "note" },
        h("p", null, tip),
        h("button", { type: "button", "aria-label": "dismiss the tip", onclick: () => clear(tipBox) }, "Got it"),
      ),
    );
  }

  function onFrame(frame: Frame): void {
    switch (frame.type) {
      case "welcome":
        seat = frame.seat;
        info = frame.table;
        seats = info.seats;
        setJokerDominoes(info.jokers ?? []);
        drawTools();
        drawTitle();
        // a new connection's first state frame carries the recent log again: start the log afresh
        clear(logBox);
        break;
      case "state": {
        const moved = !last || last.seq !== frame.seq;
        last = frame;
        seats = frame.seats ?? seats;
        kinds = kindsIn(frame.view);
        if (!layout) layout = pickLayout(frame.view, ctx, info?.draft);
        drawHeader();
        drawLog(frame.log ?? []);
        clear(board);
        board.append(layout ? layout.render(frame.view, frame.seq) : h("pre", null, JSON.stringify(frame.view, null, 1)));
        // bench/bench_web.py reads this mark: navigation start to the first drawn table
        if (!performance.getEntriesByName("rummykit:first-table").length) performance.mark("rummykit:first-table");
        // while the table waits for its players, nothing on the board can be used
        board.toggleAttribute("inert", waiting());
        if (moved) clear(hintBox);
        drawActions();
        const mine = ctx.myTurn();
        if (mine && !wasMyTurn) {
          if (soundOn) chime();
          void firstTip();
        }
        wasMyTurn = mine;
        drawTitle();
        document.body.dataset.seq = String(frame.seq);
        document.body.dataset.turn = mine ? "mine" : "other";
        document.body.dataset.asked = frame.asked ? (frame.asked.claim ? "claim" : "turn") : "";
        document.body.dataset.status = frame.status ?? "";
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
    if (waiting()) return;
    if ((event.key === "p" || event.key === "P") && !event.ctrlKey && !event.metaKey && !event.altKey && last?.asked?.claim) {
      letPass();
      event.preventDefault();
      return;
    }
    if (layout?.key?.(event)) event.preventDefault();
  });

  void getGames()
    .then((games) => {
      // the title's name, without its description in brackets: "Title (what it is)" -> "Title"
      titles = new Map(games.map((g) => [g.id, g.title.replace(/\s*\(.*\)\s*$/, "") || g.title]));
      drawTitle();
    })
    .catch(() => undefined);

  document.title = "rummykit";
  root.append(
    h("header.tablebar", null, h("a.home", { href: "/", title: "back to the lobby" }, "rummykit"), titleEl, tools),
    banner,
    h(
      "div.layout",
      null,
      h("main.main", null, seatsBox, factsBox, turnBox, tipBox, board, statusLine),
      h("aside.side", { "aria-label": "moves and log" }, actionsBox, h("h2", { class: "log-head" }, "Log"), logBox),
    ),
    sheet,
  );
  conn.start();
}
