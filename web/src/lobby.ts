// The lobby: one card per game with "Play vs computer" (one click: a table with you and the computer, opened at
// once), the tables you host (their invite links, "give to the computer", "close"), a custom table form (seats,
// bot levels, options, seed, clock, name) and the open tables. Everything about a game comes from GET /api/games,
// in the server's order; nothing here names a game. Seats are counted from 1 wherever a person reads them.

import "./lobby.css";
import { createTable, getGames, getTables, HttpError, type Created, type CreatedSeat, type GameEntry, type OptionSpec, type SeatInfo, type TableInfo } from "./api";
import { clear, h } from "./dom";
import { howToButton } from "./howto";
import { shown } from "./numbers";

/** What POST /api/tables answers beyond `Created`: the table's name and the host token. */
interface Hosted extends Created {
  name: string;
  host: string;
  game: string;
  made: number;
}

/** A listed table, with its readable name (servers before names had none). */
type Listed = TableInfo & { name?: string };

const HOSTED_KEY = "rummykit:hosted";
const NAME_KEY = "rummykit:name";
const HOSTED_KEPT = 30;

// -- storage: the tables this browser made (host token and invites), and the person's name ----------------------

function loadHosted(): Hosted[] {
  try {
    const raw = localStorage.getItem(HOSTED_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as Hosted[]).filter((t) => t && typeof t.table === "string" && typeof t.host === "string") : [];
  } catch {
    return [];
  }
}

function saveHosted(list: Hosted[]): void {
  try {
    localStorage.setItem(HOSTED_KEY, JSON.stringify(list.slice(-HOSTED_KEPT)));
  } catch {
    /* storage may be off: the host controls then last as long as this page */
  }
}

function remember(created: Hosted): void {
  saveHosted([...loadHosted().filter((t) => t.table !== created.table), created]);
}

function forget(table: string): void {
  saveHosted(loadHosted().filter((t) => t.table !== table));
}

function myName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

// -- small helpers ------------------------------------------------------------------------------------------------

/** A game's short title ("Title"), its one-line tagline ("what it is", from "Title (what it is)")
 * and what more its summary says. */
function titleParts(game: GameEntry): { short: string; tagline: string; more: string } {
  const m = /^(.*?)\s*\((.*)\)\s*$/.exec(game.title);
  if (m) return { short: m[1], tagline: m[2], more: game.summary ?? "" };
  // no words in brackets: the summary's first clause says what the game is, the rest says more
  const [first, ...rest] = (game.summary ?? "").split(";");
  const more = rest.join(";").trim();
  return { short: game.title, tagline: first.trim(), more: more.charAt(0).toUpperCase() + more.slice(1) };
}

function span(game: GameEntry): string {
  return game.min_players === game.max_players ? `${game.min_players} players` : `${game.min_players} to ${game.max_players} players`;
}

function absolute(path: string): string {
  return new URL(path, location.origin).toString();
}

function defaultLevel(game: GameEntry): string {
  return game.bot_levels.includes("greedy") ? "greedy" : game.bot_levels[0];
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data as { error?: { rule?: string; message?: string } } | null)?.error;
    throw new HttpError(err ? `${err.rule ?? ""}: ${err.message ?? ""}` : `${response.status} ${response.statusText}`);
  }
  return data as T;
}

/** Where the creator goes once a table is made: their own seat (the first person's), or the watch link. */
function firstPage(created: Created): string {
  return created.seats.find((s) => s.invite)?.invite ?? created.watch;
}

function copyButton(url: string, label: string): HTMLElement {
  const button = h("button.lb-copy", { type: "button", "aria-label": label }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select the link to copy it";
    }
  });
  return button;
}

function seatWords(seat: SeatInfo): string {
  if (seat.kind === "bot") return `computer${seat.level ? ` (${seat.level})` : ""}`;
  return seat.connected ? "here" : "not here";
}

function statusWords(t: Listed): string {
  if (t.status === "waiting") {
    const away = t.seats.filter((s) => s.kind === "person" && !s.connected).map((s) => s.name);
    return away.length ? `Waiting for ${away.join(", ")}` : "Starting";
  }
  return t.status === "playing" ? "Being played" : "Over";
}

// -- the lobby ------------------------------------------------------------------------------------------------------

function optionInput(spec: OptionSpec): HTMLElement {
  const id = `opt-${spec.name}`;
  const def = spec.default;
  if (spec.choices && spec.choices.length) {
    const select = h("select", { id, name: spec.name, "data-option": spec.name });
    if (spec.allow_none || def === null) select.append(h("option", { value: "null", selected: def === null }, "none"));
    for (const choice of spec.choices) {
      select.append(h("option", { value: JSON.stringify(choice), selected: choice === def }, String(choice)));
    }
    return select;
  }
  if (spec.kind === "bool" || typeof def === "boolean") {
    return h("input", { id, type: "checkbox", name: spec.name, "data-option": spec.name, checked: def });
  }
  return h("input", {
    id,
    name: spec.name,
    "data-option": spec.name,
    value: def === null || def === undefined ? "" : String(def),
    placeholder: def === null ? "none" : "",
    inputmode: spec.kind === "int" ? "numeric" : undefined,
  });
}

/** The option's value as JSON for the server: numbers when they look like numbers, "" = none. */
function optionValue(el: HTMLElement): unknown {
  if (el instanceof HTMLSelectElement) return JSON.parse(el.value);
  const input = el as HTMLInputElement;
  if (input.type === "checkbox") return input.checked;
  const text = input.value.trim();
  if (text === "" || text.toLowerCase() === "none") return null;
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

export async function showLobby(root: HTMLElement): Promise<void> {
  clear(root);
  document.title = "rummykit: play rummy";
  document.body.classList.add("lb-body");
  const header = h(
    "header.lb-top",
    null,
    h("div.lb-brand", null, h("h1", null, "rummykit"), h("p.lb-tagline", null, "Tile, domino and card rummy in the browser: against the computer or with friends.")),
  );
  root.append(header);
  let games: GameEntry[];
  try {
    games = await getGames();
  } catch (err) {
    root.append(h("p.error", { role: "alert" }, `The server did not list its games: ${message(err)}`));
    return;
  }
  const byId = new Map(games.map((g) => [g.id, g]));

  // your name, kept in this browser
  const nameInput = h("input", { id: "my-name", name: "my-name", value: myName(), maxlength: 24, autocomplete: "nickname", placeholder: "player 1" }) as HTMLInputElement;
  nameInput.addEventListener("change", () => {
    try {
      localStorage.setItem(NAME_KEY, nameInput.value.trim());
    } catch {
      /* not kept */
    }
  });
  header.append(h("div.lb-me", null, h("label", { for: "my-name" }, "Your name"), nameInput));

  const quickStatus = h("p.lb-quick-status.status", { role: "alert" });

  async function open(body: Record<string, unknown>, game: GameEntry, say: HTMLElement): Promise<void> {
    say.textContent = "";
    say.classList.remove("error");
    try {
      const created = (await createTable(body)) as Hosted;
      remember({ ...created, game: game.id, made: Date.now() });
      location.assign(firstPage(created));
    } catch (err) {
      say.textContent = `Not opened: ${message(err)}`;
      say.classList.add("error");
    }
  }

  function playComputer(game: GameEntry, button: HTMLButtonElement): void {
    const bots = Math.max(1, game.min_players - 1);
    const seats: Record<string, unknown>[] = [{ kind: "person", name: nameInput.value.trim() || null }];
    for (let i = 0; i < bots; i++) seats.push({ kind: "bot", level: defaultLevel(game) });
    button.disabled = true;
    button.textContent = "Opening…";
    void open({ game: game.id, options: {}, seats, seed: null, clock: null }, game, quickStatus).finally(() => {
      button.disabled = false;
      button.textContent = "Play vs computer";
    });
  }

  // -- the game cards ----------------------------------------------------------------------------------------------
  const cards = h("ul.lb-cards");
  for (const game of games) {
    const { short, tagline, more } = titleParts(game);
    const titleId = `card-${game.id}`;
    const play = h(
      "button.lb-play",
      { type: "button", "data-game": game.id, "aria-describedby": titleId },
      "Play vs computer",
    ) as HTMLButtonElement;
    play.addEventListener("click", () => playComputer(game, play));
    const custom = h("button.lb-custom-link", { type: "button", "data-game": game.id, "aria-describedby": titleId }, "Custom table…");
    custom.addEventListener("click", () => {
      gameSelect.value = game.id;
      gameSelect.dispatchEvent(new Event("change"));
      form.scrollIntoView({ behavior: "smooth", block: "start" });
      gameSelect.focus();
    });
    cards.append(
      h(
        "li.lb-card",
        { "data-game": game.id },
        h("h3", { id: titleId }, short),
        tagline ? h("p.lb-card-tagline", null, tagline) : null,
        more ? h("p.lb-card-summary", null, more) : null,
        h("p.lb-span", null, span(game)),
        h("div.lb-card-actions", null, play, custom, howToButton(game.id)),
      ),
    );
  }

  // -- the custom table form ---------------------------------------------------------------------------------------
  const gameSelect = h("select", { id: "game", name: "game" }) as HTMLSelectElement;
  for (const game of games) gameSelect.append(h("option", { value: game.id }, titleParts(game).short));
  const playersInput = h("input", { id: "players", type: "number", value: "2", inputmode: "numeric" }) as HTMLInputElement;
  const seatsBox = h("fieldset.lb-seats", null);
  const optionsBox = h("div.lb-options");
  const seedInput = h("input", { id: "seed", name: "seed", placeholder: "random", inputmode: "numeric" }) as HTMLInputElement;
  const clockInput = h("input", { id: "clock", name: "clock", placeholder: "no clock", inputmode: "numeric" }) as HTMLInputElement;
  const tableName = h("input", { id: "table-name", name: "table-name", placeholder: "made up for you", maxlength: 24 }) as HTMLInputElement;
  const status = h("p.status", { role: "alert" });
  const current = (): GameEntry => byId.get(gameSelect.value) ?? games[0];

  function drawSeats(): void {
    const game = current();
    const n = Math.max(game.min_players, Math.min(game.max_players, Number(playersInput.value) || game.min_players));
    playersInput.min = String(game.min_players);
    playersInput.max = String(game.max_players);
    playersInput.value = String(n);
    const previous = Array.from(seatsBox.querySelectorAll<HTMLSelectElement>("select.kind")).map((s) => s.value);
    clear(seatsBox);
    seatsBox.append(h("legend", null, "Seats"));
    for (let seat = 0; seat < n; seat++) {
      const label = `Seat ${shown(seat)}`;
      const kind = h("select.kind", { id: `seat-${seat}-kind`, "aria-label": `${label}: who plays` }) as HTMLSelectElement;
      kind.append(h("option", { value: "person" }, "a person"));
      for (const level of game.bot_levels) kind.append(h("option", { value: `bot:${level}` }, `computer (${level})`));
      const fallback = seat === 0 ? "person" : `bot:${defaultLevel(game)}`;
      kind.value = previous[seat] && Array.from(kind.options).some((o) => o.value === previous[seat]) ? previous[seat] : fallback;
      const name = h("input.name", {
        id: `seat-${seat}-name`,
        placeholder: seat === 0 && nameInput.value.trim() ? nameInput.value.trim() : `name (optional)`,
        "aria-label": `${label}: name`,
        maxlength: 24,
      });
      seatsBox.append(h("div.lb-seat", null, h("span.lb-seat-no", { "aria-hidden": "true" }, label), kind, name));
    }
  }

  function drawOptions(): void {
    clear(optionsBox);
    const options = current().options;
    if (!options.length) optionsBox.append(h("p.lb-muted", null, "This game has no options."));
    for (const spec of options) {
      const range = [spec.min !== null ? `from ${spec.min}` : "", spec.max !== null ? `to ${spec.max}` : ""].filter(Boolean).join(" ");
      optionsBox.append(
        h(
          "div.lb-option",
          null,
          h("label", { for: `opt-${spec.name}` }, spec.name.replace(/_/g, " ")),
          optionInput(spec),
          h("small", null, spec.help + (range ? ` (${range})` : "")),
        ),
      );
    }
  }

  const summary = h("p.lb-summary");
  const drawSummary = () => (summary.textContent = `${current().summary ?? ""} ${span(current())}.`);
  gameSelect.addEventListener("change", () => {
    drawSummary();
    drawSeats();
    drawOptions();
  });
  playersInput.addEventListener("change", drawSeats);

  const field = (label: string, id: string, input: HTMLElement) => h("div.lb-field", null, h("label", { for: id }, label), input);
  const form = h(
    "form.create.lb-panel",
    { id: "create", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, "Custom table"),
    h("p.lb-muted", null, "Choose the seats (people or the computer), the options and a turn clock. You get an invite link for each person."),
    field("Game", "game", gameSelect),
    summary,
    field("Players", "players", playersInput),
    seatsBox,
    h("details.lb-more", null, h("summary", null, "Game options"), optionsBox),
    field("Table name", "table-name", tableName),
    field("Turn clock (seconds)", "clock", clockInput),
    field("Seed", "seed", seedInput),
    h("button.lb-primary", { type: "submit", id: "create-table" }, "Open the table"),
    status,
  ) as HTMLFormElement;

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const game = current();
    const options: Record<string, unknown> = {};
    for (const el of Array.from(optionsBox.querySelectorAll<HTMLElement>("[data-option]"))) {
      const name = el.dataset.option!;
      const value = optionValue(el);
      const spec = game.options.find((o) => o.name === name);
      // Send only what differs from the default, so the server's own default stays the source of truth.
      if (spec && JSON.stringify(spec.default) === JSON.stringify(value)) continue;
      options[name] = value;
    }
    const seats = Array.from(seatsBox.querySelectorAll<HTMLElement>(".lb-seat")).map((row, i) => {
      const kind = (row.querySelector("select.kind") as HTMLSelectElement).value;
      const typed = (row.querySelector("input.name") as HTMLInputElement).value.trim();
      const name = typed || (i === 0 && kind === "person" ? nameInput.value.trim() : "") || null;
      return kind.startsWith("bot:") ? { kind: "bot", level: kind.slice(4), name } : { kind: "person", level: null, name };
    });
    const seedText = seedInput.value.trim();
    const clockText = clockInput.value.trim();
    void open(
      {
        game: game.id,
        options,
        seats,
        seed: seedText ? Number(seedText) : null,
        clock: clockText ? Number(clockText) : null,
        name: tableName.value.trim() || null,
      },
      game,
      status,
    );
  });

  // -- your tables and the open tables -----------------------------------------------------------------------------
  const hostedBox = h("section.lb-panel.lb-hosted", { "aria-labelledby": "hosted-title" });
  const tablesBox = h("section.lb-panel.tables", { "aria-labelledby": "tables-title" }, h("h2", { id: "tables-title" }, "Open tables"), h("p", null, "Loading…"));
  const liveNote = h("p.lb-live", { role: "status", "aria-live": "polite" });

  function seatLine(s: SeatInfo): HTMLElement {
    return h(
      "li",
      { "data-seat": s.seat, class: s.kind === "person" && !s.connected ? "lb-free" : "" },
      h("span.lb-seat-no", null, `Seat ${shown(s.seat)}`),
      " ",
      h("span.lb-seat-name", null, s.name),
      " ",
      h("span.lb-seat-what", null, seatWords(s)),
    );
  }

  function hostedCard(mine: Hosted, listed: Listed): HTMLElement {
    const game = byId.get(listed.game);
    const rows = listed.seats.map((s) => {
      const made: CreatedSeat | undefined = mine.seats.find((x) => x.seat === s.seat);
      const row = seatLine(s);
      if (s.kind === "person" && made?.invite) {
        const url = absolute(made.invite);
        const label = `Seat ${shown(s.seat)} (${s.name})`;
        row.append(
          h(
            "div.lb-invite",
            null,
            h("input.invite", {
              readonly: true,
              value: url,
              "aria-label": `invite link for ${label}`,
              onfocus: (e: Event) => (e.target as HTMLInputElement).select(),
            }),
            copyButton(url, `copy the invite link for ${label}`),
            h("a.lb-open", { href: made.invite, "aria-label": `open ${label}` }, "Open"),
          ),
        );
        if (!s.connected && listed.status !== "over") {
          const give = h("button.lb-give", { type: "button" }, `Give seat ${shown(s.seat)} to the computer`);
          give.addEventListener("click", async () => {
            give.setAttribute("disabled", "");
            try {
              await post(`/api/tables/${encodeURIComponent(mine.table)}/seats/${s.seat}/bot`, { host: mine.host, level: game ? defaultLevel(game) : null });
              liveNote.textContent = `${s.name}'s seat at ${mine.name} is played by the computer now.`;
            } catch (err) {
              liveNote.textContent = `Seat ${shown(s.seat)} stays as it is: ${message(err)}`;
            }
            void refresh();
          });
          row.append(give);
        }
      }
      return row;
    });
    const closeBox = h("div.lb-close");
    const close = h("button.lb-danger", { type: "button", "aria-label": `Close table ${mine.name}` }, "Close table");
    close.addEventListener("click", () => {
      clear(closeBox);
      const yes = h("button.lb-danger", { type: "button" }, "Yes, close it");
      const no = h("button", { type: "button" }, "Keep it");
      yes.addEventListener("click", async () => {
        try {
          await post(`/api/tables/${encodeURIComponent(mine.table)}/close`, { host: mine.host });
          forget(mine.table);
          liveNote.textContent = `Table ${mine.name} is closed.`;
        } catch (err) {
          liveNote.textContent = `Not closed: ${message(err)}`;
        }
        void refresh();
      });
      no.addEventListener("click", () => {
        clear(closeBox);
        closeBox.append(close);
        close.focus();
      });
      closeBox.append(h("span", null, `Close ${mine.name} for everyone?`), yes, no);
      yes.focus();
    });
    closeBox.append(close);
    return h(
      "li.created.lb-table",
      { "data-table": mine.table },
      h(
        "div.lb-table-head",
        null,
        h("h3", null, h("a", { href: mine.seats.find((x) => x.invite)?.invite ?? `/t/${mine.table}` }, mine.name)),
        h("span.lb-game", null, game ? titleParts(game).short : listed.game),
        h("span.lb-state", { "data-status": listed.status }, statusWords(listed)),
      ),
      h("ol.lb-seat-list", null, rows),
      h("p.lb-muted", null, "Send each person their own link: it holds their seat's secret. Anyone may watch: ", h("a.watch", { href: mine.watch }, "watch link"), "."),
      closeBox,
    );
  }

  function tableRow(t: Listed): HTMLElement {
    const game = byId.get(t.game);
    const name = t.name || `table ${t.table}`;
    const free = t.seats.filter((s) => s.kind === "person" && !s.connected).length;
    return h(
      "li.lb-table",
      { "data-table": t.table },
      h(
        "div.lb-table-head",
        null,
        h("h3", null, name),
        h("span.lb-game", null, game ? titleParts(game).short : t.game),
        h("span.lb-state", { "data-status": t.status }, statusWords(t)),
      ),
      h("ol.lb-seat-list", null, t.seats.map(seatLine)),
      h(
        "p.lb-table-foot",
        null,
        free && t.status === "waiting" ? h("span.lb-muted", null, `${free} ${free === 1 ? "seat is" : "seats are"} free: a seat is joined with its invite link, from the table's host. `) : null,
        h("a.lb-watch", { href: `/t/${t.table}#watch`, "aria-label": `Watch ${name}` }, "Watch"),
      ),
    );
  }

  let refreshing = false;
  async function refresh(): Promise<void> {
    if (refreshing) return;
    refreshing = true;
    try {
      const tables = (await getTables()) as Listed[];
      const byTable = new Map(tables.map((t) => [t.table, t]));
      const hosted = loadHosted();
      // a table this browser made that the server no longer lists is over, closed or expired: forget it
      const kept = hosted.filter((mine) => byTable.has(mine.table));
      if (kept.length !== hosted.length) saveHosted(kept);
      clear(hostedBox);
      hostedBox.hidden = kept.length === 0;
      if (kept.length) {
        hostedBox.append(
          h("h2", { id: "hosted-title" }, "Your tables"),
          h("ul.table-list.lb-table-list", null, kept.slice().reverse().map((mine) => hostedCard(mine, byTable.get(mine.table)!))),
        );
      }
      const mineIds = new Set(kept.map((t) => t.table));
      const others = tables.filter((t) => !mineIds.has(t.table));
      clear(tablesBox);
      tablesBox.append(h("h2", { id: "tables-title" }, "Open tables"));
      if (!others.length) tablesBox.append(h("p.lb-muted", null, "No other table is open. Start one above: it takes one click."));
      // waiting tables first (someone may be looking for a player), then those being played
      const ordered = [...others.filter((t) => t.status === "waiting"), ...others.filter((t) => t.status !== "waiting")];
      tablesBox.append(h("ul.table-list.lb-table-list", null, ordered.map(tableRow)));
    } catch (err) {
      clear(tablesBox);
      tablesBox.append(h("h2", { id: "tables-title" }, "Open tables"), h("p.error", null, message(err)));
    } finally {
      refreshing = false;
    }
  }

  drawSummary();
  drawSeats();
  drawOptions();
  root.append(
    h(
      "main.lobby.lb-main",
      null,
      h(
        "section.lb-quick",
        { "aria-labelledby": "quick-title" },
        h("h2", { id: "quick-title" }, "Play vs computer"),
        h("p.lb-muted", null, "One click opens a table with you and the computer, and the game starts at once: the computer answers your turns."),
        quickStatus,
        cards,
      ),
      liveNote,
      h("div.lb-columns", null, h("div.lb-col", null, hostedBox, tablesBox), h("div.lb-col", null, form)),
    ),
  );
  hostedBox.hidden = true;
  await refresh();
  const timer = window.setInterval(() => {
    if (!document.body.contains(tablesBox)) window.clearInterval(timer);
    else if (!hostedBox.contains(document.activeElement)) void refresh(); // never redraw under the keyboard focus
  }, 5000);
}
