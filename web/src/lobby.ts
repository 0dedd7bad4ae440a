// The lobby: the games and their options (from GET /api/games, nothing hard-coded per game), a form to open
// a table (seats as person or bot level, seed, turn clock), the invite links, and the open tables.

import { createTable, getGames, getTables, type Created, type GameEntry, type OptionSpec } from "./api";
import { clear, h } from "./dom";
import { shown } from "./numbers";

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

function absolute(path: string): string {
  return new URL(path, location.origin).toString();
}

function invites(created: Created): HTMLElement {
  const rows = created.seats.map((seat) => {
    if (!seat.invite) return h("li", null, `seat ${shown(seat.seat)}: ${seat.name} (${seat.kind})`);
    const url = absolute(seat.invite);
    const copy = h("button", { type: "button" }, "copy");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = "copied";
      } catch {
        copy.textContent = "select the link and copy it";
      }
    });
    return h(
      "li",
      { "data-seat": seat.seat },
      h("span", null, `seat ${shown(seat.seat)}: ${seat.name} `),
      h("input.invite", { readonly: true, value: url, "aria-label": `invite link for seat ${shown(seat.seat)}`, onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
      copy,
      h("a", { href: seat.invite }, "open"),
    );
  });
  return h(
    "section.created",
    { "data-table": created.table },
    h("h2", null, `Table ${created.table}`),
    h("p", null, "Send each person their own link: it holds the seat's secret token. Anyone may watch with the watch link."),
    h("ul.invites", null, rows),
    h("p", null, "Watch: ", h("a.watch", { href: created.watch }, absolute(created.watch))),
  );
}

export async function showLobby(root: HTMLElement): Promise<void> {
  clear(root);
  document.title = "rummykit: lobby";
  const status = h("p.status", { role: "status" });
  const tablesBox = h("section.tables", null, h("h2", null, "Open tables"), h("p", null, "loading…"));
  const createdBox = h("div");
  root.append(h("header.top", null, h("h1", null, "rummykit"), h("span.sub", null, "online tables")));
  let games: GameEntry[];
  try {
    games = await getGames();
  } catch (err) {
    root.append(h("p.error", null, `The server did not list its games: ${String(err)}`));
    return;
  }

  const gameSelect = h("select", { id: "game", name: "game" }) as HTMLSelectElement;
  for (const game of games) gameSelect.append(h("option", { value: game.id }, `${game.title} (${game.id})`));
  const playersInput = h("input", { id: "players", type: "number", value: "2" }) as HTMLInputElement;
  const seatsBox = h("div.seats");
  const optionsBox = h("div.options");
  const seedInput = h("input", { id: "seed", name: "seed", placeholder: "random", inputmode: "numeric" }) as HTMLInputElement;
  const clockInput = h("input", { id: "clock", name: "clock", placeholder: "none", inputmode: "numeric" }) as HTMLInputElement;

  const current = (): GameEntry => games.find((g) => g.id === gameSelect.value) ?? games[0];

  function drawSeats(): void {
    const game = current();
    const n = Math.max(game.min_players, Math.min(game.max_players, Number(playersInput.value) || game.min_players));
    playersInput.min = String(game.min_players);
    playersInput.max = String(game.max_players);
    playersInput.value = String(n);
    const previous = Array.from(seatsBox.querySelectorAll<HTMLSelectElement>("select.kind")).map((s) => s.value);
    clear(seatsBox);
    for (let seat = 0; seat < n; seat++) {
      const kind = h("select.kind", { id: `seat-${seat}-kind`, "aria-label": `seat ${shown(seat)}` }) as HTMLSelectElement;
      kind.append(h("option", { value: "person" }, "person"));
      for (const level of game.bot_levels) kind.append(h("option", { value: `bot:${level}` }, `bot: ${level}`));
      kind.value = previous[seat] && Array.from(kind.options).some((o) => o.value === previous[seat]) ? previous[seat] : seat === 0 ? "person" : "person";
      const name = h("input.name", { id: `seat-${seat}-name`, placeholder: `name (P${shown(seat)})`, "aria-label": `seat ${shown(seat)} name` });
      seatsBox.append(h("div.seat", null, h("label", null, `seat ${shown(seat)}`), kind, name));
    }
  }

  function drawOptions(): void {
    clear(optionsBox);
    for (const spec of current().options) {
      const range = [spec.min !== null ? `from ${spec.min}` : "", spec.max !== null ? `to ${spec.max}` : ""].filter(Boolean).join(" ");
      optionsBox.append(
        h(
          "div.option",
          null,
          h("label", { for: `opt-${spec.name}` }, spec.name),
          optionInput(spec),
          h("small", null, spec.help + (range ? ` (${range})` : "")),
        ),
      );
    }
  }

  const summary = h("p.summary");
  const drawSummary = () => (summary.textContent = current().summary ?? "");
  gameSelect.addEventListener("change", () => {
    drawSummary();
    drawSeats();
    drawOptions();
  });
  playersInput.addEventListener("change", drawSeats);

  const form = h(
    "form.create",
    { id: "create" },
    h("h2", null, "Open a table"),
    h("div.row", null, h("label", { for: "game" }, "game"), gameSelect),
    summary,
    h("div.row", null, h("label", { for: "players" }, "players"), playersInput),
    seatsBox,
    h("details", null, h("summary", null, "options"), optionsBox),
    h("div.row", null, h("label", { for: "seed" }, "seed"), seedInput),
    h("div.row", null, h("label", { for: "clock" }, "turn clock (seconds)"), clockInput),
    h("button", { type: "submit", id: "create-table" }, "Open the table"),
    status,
  ) as HTMLFormElement;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    const options: Record<string, unknown> = {};
    const game = current();
    for (const el of Array.from(optionsBox.querySelectorAll<HTMLElement>("[data-option]"))) {
      const name = el.dataset.option!;
      const value = optionValue(el);
      const spec = game.options.find((o) => o.name === name);
      // Send only what differs from the default, so the server's own default stays the source of truth.
      if (spec && JSON.stringify(spec.default) === JSON.stringify(value)) continue;
      options[name] = value;
    }
    const seats = Array.from(seatsBox.querySelectorAll<HTMLElement>(".seat")).map((row) => {
      const kind = (row.querySelector("select.kind") as HTMLSelectElement).value;
      const name = (row.querySelector("input.name") as HTMLInputElement).value.trim() || null;
      return kind.startsWith("bot:") ? { kind: "bot", level: kind.slice(4), name } : { kind: "person", level: null, name };
    });
    const seedText = seedInput.value.trim();
    const clockText = clockInput.value.trim();
    try {
      const created = await createTable({
        game: game.id,
        options,
        seats,
        seed: seedText ? Number(seedText) : null,
        clock: clockText ? Number(clockText) : null,
      });
      clear(createdBox);
      createdBox.append(invites(created));
      void refresh();
    } catch (err) {
      status.textContent = `Not opened: ${err instanceof Error ? err.message : String(err)}`;
      status.classList.add("error");
    }
  });

  async function refresh(): Promise<void> {
    try {
      const tables = await getTables();
      clear(tablesBox);
      tablesBox.append(h("h2", null, "Open tables"));
      if (!tables.length) tablesBox.append(h("p", null, "No table yet."));
      const list = h("ul.table-list");
      for (const t of tables) {
        const seats = t.seats.map((s) => `${s.name} (${s.kind}${s.kind === "person" ? (s.connected ? ", here" : ", away") : ""})`).join(", ");
        list.append(h("li", { "data-table": t.table }, h("a", { href: `/t/${t.table}` }, `${t.table}`), ` ${t.game}: ${t.status}. `, h("small", null, seats)));
      }
      tablesBox.append(list);
    } catch (err) {
      clear(tablesBox);
      tablesBox.append(h("h2", null, "Open tables"), h("p.error", null, String(err)));
    }
  }

  drawSummary();
  drawSeats();
  drawOptions();
  root.append(h("main.lobby", null, form, createdBox, tablesBox));
  await refresh();
  const timer = window.setInterval(() => {
    if (!document.body.contains(tablesBox)) window.clearInterval(timer);
    else void refresh();
  }, 5000);
}
