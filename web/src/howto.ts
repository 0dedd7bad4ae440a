// "How to play" for a game: its short guide and a first-turn tip, from the server (GET /api/games/{game}/guide:
// the same guide the terminal app shows under F1 → Rules). The guide's example melds are drawn with pieceEl.
//
// howToButton(game) opens the guide in a modal dialog: focus stays inside it (Tab and Shift+Tab go round its
// buttons), Escape or a Close button closes it, and the focus goes back to the button. The guide can also be
// opened by a link: any page whose address's fragment holds how-to-play=<game> opens it on load.

import "./howto.css";
import { clear, h } from "./dom";
import { pieceEl } from "./pieces";

/** The server's guide body (server/guides.py GuideOut). */
export interface Guide {
  game: string;
  title: string;
  sections: { heading: string; paragraphs: string[] }[];
  melds: { pieces: string[]; caption: string }[];
  tip: string;
}

const guides = new Map<string, Promise<Guide>>();

/** The guide of a game, asked of the server once per page. */
export function loadGuide(game: string): Promise<Guide> {
  let guide = guides.get(game);
  if (!guide) {
    guide = fetch(`/api/games/${encodeURIComponent(game)}/guide`).then(async (res) => {
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error(body?.error?.message ?? `the server answered ${res.status}`);
      return body as Guide;
    });
    guide.catch(() => guides.delete(game)); // a failed load is asked again next time
    guides.set(game, guide);
  }
  return guide;
}

/** A button that opens the game's guide (a dialog). */
export function howToButton(game: string): HTMLElement {
  const button = h("button.howto", { type: "button", "data-game": game, "aria-haspopup": "dialog" }, "How to play");
  button.addEventListener("click", () => void openGuide(game, button));
  return button;
}

/** A one-line tip for a seat's first turn, or null (the guide could not be had). */
export function firstTurnTip(game: string): Promise<string | null> {
  return loadGuide(game).then(
    (guide) => guide.tip,
    () => null,
  );
}

/** The guide's sections, the melds drawn under "Melds". */
function guideBody(guide: Guide): HTMLElement[] {
  return guide.sections.map((section) => {
    const paragraphs =
      section.paragraphs.length > 1
        ? h("ul", null, section.paragraphs.map((p) => h("li", null, p)))
        : h("p", null, section.paragraphs[0] ?? "");
    const melds =
      section.heading === "Melds"
        ? h(
            "ul.howto-melds",
            { "aria-label": "example melds" },
            guide.melds.map((meld) =>
              h(
                "li",
                null,
                h("span.howto-meld", { role: "group", "aria-label": meld.caption }, meld.pieces.map((p) => pieceEl(p))),
                h("span.howto-caption", { "aria-hidden": "true" }, meld.caption),
              ),
            ),
          )
        : null;
    const tip = section.heading === "Your first turn";
    return h(`section${tip ? ".howto-tip" : ""}`, null, h("h3", null, section.heading), paragraphs, melds);
  });
}

let open: HTMLDialogElement | null = null;

/** Open the guide of ``game`` in a modal dialog; the focus goes back to ``opener`` (default: what had it) when it closes. */
export async function openGuide(game: string, opener: HTMLElement | null = null): Promise<HTMLDialogElement> {
  open?.close();
  const back = opener ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
  const title = h("h2", { id: "howto-title" }, "How to play");
  const body = h("div.howto-body", { "aria-live": "polite" }, h("p.muted", null, "Loading the guide…"));
  const closeX = h("button.howto-x", { type: "button", "aria-label": "Close the guide" }, "×");
  const closeButton = h("button.howto-close", { type: "button" }, "Close");
  const dialog = h(
    "dialog.howto-dialog",
    { "aria-labelledby": "howto-title", "data-game": game },
    h("header", null, title, closeX),
    body,
    h("footer", null, closeButton),
  ) as HTMLDialogElement;
  const close = (): void => dialog.close();
  closeX.addEventListener("click", close);
  closeButton.addEventListener("click", close);
  dialog.addEventListener("click", (event) => {
    // a click on the backdrop (outside the dialog's box; a click on its scroll bar stays inside)
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (event.target === dialog && !inside) close();
  });
  dialog.addEventListener("keydown", (event) => {
    event.stopPropagation(); // the page's own keys (a table's D, Escape, ...) do nothing while the guide is open
    if (event.key === "Escape") {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== "Tab") return;
    const stops = [...dialog.querySelectorAll<HTMLElement>("button, [href], [tabindex]:not([tabindex='-1'])")].filter(
      (el) => !el.hasAttribute("disabled") && el.offsetParent !== null,
    );
    if (!stops.length) return;
    const first = stops[0];
    const last = stops[stops.length - 1];
    const here = document.activeElement;
    if (event.shiftKey && (here === first || !dialog.contains(here))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (here === last || !dialog.contains(here))) {
      event.preventDefault();
      first.focus();
    }
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (open === dialog) open = null;
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (params.has(LINK)) {
      params.delete(LINK); // the rest of the address (a seat's invite) stays as it was
      const rest = params.toString();
      history.replaceState(null, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
    }
    back?.focus();
  });
  document.body.append(dialog);
  open = dialog;
  dialog.showModal();
  closeX.focus(); // at the top, so the guide shows from its start
  try {
    const guide = await loadGuide(game);
    title.textContent = `How to play ${guide.title.replace(/\s*\(.*\)$/, "")}`; // the name without its gloss
    clear(body);
    body.append(...guideBody(guide));
    dialog.dataset.loaded = "true";
  } catch (err) {
    clear(body);
    body.append(h("p.error", { role: "alert" }, `The guide could not be loaded: ${(err as Error).message}`));
    dialog.dataset.loaded = "error";
  }
  return dialog;
}

// A link to a game's guide opens it: #how-to-play=<game>, also after a seat's invite (#seat=0&token=…&how-to-play=…).
const LINK = "how-to-play";

function fromAddress(): void {
  const game = new URLSearchParams(location.hash.replace(/^#/, "")).get(LINK);
  if (game && open?.dataset.game !== game) void openGuide(game);
}
window.addEventListener("hashchange", fromAddress);
fromAddress();
