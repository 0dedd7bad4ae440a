"""``rummykit report``: a summary of game rows on the terminal and a self-contained HTML page with plots.

Rows are grouped by their option setting (the ``opt_NAME`` columns that
differ within the file); each group is one series in every plot, side by
side. A seat *wins* a game when it is among the winners, so with shared wins
the rates of a game's seats add up to more than 1. Intervals are 95% Wilson
score intervals.

* win rate by position in the playing order (1st = the seat that started
  the first round): the first-player advantage;
* win rate by seat number and by bot level;
* the distributions of game length (turns, actions, rounds) and of the
  final totals of winners and of the other seats;
* the end reasons, each explained in words (:data:`REASONS`);
* with several settings, the mean difference in turns and actions from the
  first setting, deal by deal (the settings of one run share their deals).

Where every game of the file took exactly one action a turn (rummikub and
domino-rummikub: a turn is one play or one draw), turns and actions are the
same numbers, so the report shows them once, as turns, and says why.

The pictures are drawn with matplotlib (Agg, no display), written as PNG
files and embedded in ``report.html`` as base64 so the page stands alone.
"""

from __future__ import annotations

import base64
import html
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rummykit.errors import OptionError
from rummykit.study.runner import Row
from rummykit.study.stats import Z95, wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "REASONS",
    "Group",
    "Rate",
    "cmd_report",
    "group_rows",
    "one_action_a_turn",
    "paired_difference",
    "reason_lines",
    "summary_lines",
    "write_report",
]

REASONS: dict[str, str] = {
    "rack-empty": "a player placed their last tile and went out (rummikub, domino-rummikub)",
    "trays-empty": "a player emptied both trays (two-tray)",
    "out": "a player discarded their last card and went out (mummus)",
    "closed": "a player ended a turn with an empty hand and closed the round (conveyor)",
    "blocked": "the pool was empty and a full round of turns passed without a play; the lowest total left"
    " in hand won (rummikub, domino-rummikub, two-tray)",
    "max-turns": "nobody went out or closed within the turn limit (option max_turns); conveyor scores"
    " nothing, mummus scores the round as it stood",
    "target": "a match: a player's total reached the target (option target); the highest total won",
    "max-rounds": "a match: the round limit (option max_rounds) came before the target; the highest total won",
}
"""What each end reason of a game row means (the ``reason`` column; a one-round game ends with its round's reason).

Every reason a game of the catalogue can end with is here (``tests/test_study_report.py`` checks the
games' own lists); the rules pages say more.
"""


@dataclass
class Rate:
    """A win rate: ``wins`` of ``n``, with its 95% interval."""

    label: str
    wins: float
    n: int

    @property
    def share(self) -> float:
        """wins / n (0 when n is 0)."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval."""
        return wilson(self.wins, self.n)

    def text(self) -> str:
        """``53.1% [48.7, 57.5] of 500``."""
        low, high = self.interval
        return f"{100 * self.share:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {self.n}"


@dataclass
class Group:
    """The rows of one option setting."""

    label: str
    rows: list[Row] = field(default_factory=list)

    def by_position(self) -> list[Rate]:
        """Win rate by position in the playing order of the first round (1st, 2nd, ...)."""
        most = max(int(r["players"]) for r in self.rows)
        rates = [Rate(_ordinal(p + 1), 0.0, 0) for p in range(most)]
        for row in self.rows:
            n = int(row["players"])
            for position in range(n):
                seat = (int(row["first_seat"]) + position) % n
                rates[position].n += 1
                rates[position].wins += bool(row.get(f"won_{seat}"))
        return rates

    def by_seat(self) -> list[Rate]:
        """Win rate by seat number."""
        most = max(int(r["players"]) for r in self.rows)
        rates = [Rate(f"seat {s}", 0.0, 0) for s in range(most)]
        for row in self.rows:
            for seat in range(int(row["players"])):
                rates[seat].n += 1
                rates[seat].wins += bool(row.get(f"won_{seat}"))
        return rates

    def by_bot(self) -> list[Rate]:
        """Win rate of each bot level, over every seat it sat in."""
        rates: dict[str, Rate] = {}
        for row in self.rows:
            for seat in range(int(row["players"])):
                level = str(row.get(f"bot_{seat}"))
                rate = rates.setdefault(level, Rate(level, 0.0, 0))
                rate.n += 1
                rate.wins += bool(row.get(f"won_{seat}"))
        return [rates[k] for k in sorted(rates)]

    def values(self, column: str) -> list[float]:
        """A whole-game column's values."""
        return [float(r[column]) for r in self.rows if r.get(column) is not None]

    def totals(self, winners: bool) -> list[float]:
        """The final totals of the winning seats (or of the other seats)."""
        out: list[float] = []
        for row in self.rows:
            for seat in range(int(row["players"])):
                if bool(row.get(f"won_{seat}")) == winners and row.get(f"total_{seat}") is not None:
                    out.append(float(row[f"total_{seat}"]))
        return out

    def reasons(self) -> Counter[str]:
        """How the games ended."""
        return Counter(str(r.get("reason")) for r in self.rows)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def group_rows(rows: Sequence[Row]) -> list[Group]:
    """The rows grouped by option setting (the option columns that differ), in the order first seen.

    >>> rows = [{"opt_a": "1", "opt_b": "x"}, {"opt_a": "2", "opt_b": "x"}, {"opt_a": "1", "opt_b": "x"}]
    >>> [(g.label, len(g.rows)) for g in group_rows(rows)]
    [('a=1', 2), ('a=2', 1)]
    """
    option_columns = sorted({k for row in rows for k in row if k.startswith("opt_")})
    varying = [c for c in option_columns if len({str(row.get(c)) for row in rows}) > 1]
    groups: dict[str, Group] = {}
    for row in rows:
        label = ", ".join(f"{c[4:]}={row.get(c)}" for c in varying) or "all games"
        groups.setdefault(label, Group(label)).rows.append(row)
    return list(groups.values())


def paired_difference(base: Group, other: Group, column: str) -> tuple[float, float, int] | None:
    """Mean of ``other - base`` in ``column`` over the deals both played (same seed), with its 95% half-width.

    Settings of one ``simulate`` run play game ``i`` on the same deal, so the
    difference is measured deal by deal, which removes most of the luck of
    the deal. None when the groups share fewer than two deals.

    >>> a = Group("a", [{"seed": s, "turns": 10 + s} for s in range(4)])
    >>> b = Group("b", [{"seed": s, "turns": 12 + s} for s in range(4)])
    >>> paired_difference(a, b, "turns")
    (2.0, 0.0, 4)
    """
    first = {r["seed"]: r[column] for r in base.rows if r.get(column) is not None}
    diffs = [float(r[column]) - float(first[r["seed"]]) for r in other.rows if r.get("seed") in first]
    if len(diffs) < 2:
        return None
    spread = statistics.stdev(diffs) / len(diffs) ** 0.5
    return statistics.fmean(diffs), Z95 * spread, len(diffs)


def _paired_lines(groups: list[Group]) -> list[str]:
    lines: list[str] = []
    columns = _lengths([r for g in groups for r in g.rows])
    for other in groups[1:]:
        for column in columns:
            found = paired_difference(groups[0], other, column)
            if found is not None:
                mean, half, n = found
                lines.append(
                    f"{other.label} against {groups[0].label}: {column} {mean:+.2f} per game"
                    f" (95% interval {mean - half:+.2f} to {mean + half:+.2f}; {n} deals played in both)"
                )
    return lines


def one_action_a_turn(rows: Sequence[Row]) -> bool:
    """True when every game took exactly one action a turn, so its turns and actions are the same number.

    >>> one_action_a_turn([{"turns": 30, "actions": 30}, {"turns": 12, "actions": 12}])
    True
    >>> one_action_a_turn([{"turns": 30, "actions": 30}, {"turns": 12, "actions": 40}])
    False
    """
    return all(r.get("turns") == r.get("actions") for r in rows)


def _lengths(rows: Sequence[Row]) -> tuple[str, ...]:
    """The length columns worth showing: turns, and actions unless they are the same numbers."""
    return ("turns",) if one_action_a_turn(rows) else ("turns", "actions")


SAME_LENGTHS = "every game took one action a turn, so its actions are its turns (shown once, as turns)"
"""Said where the actions would be shown, when they are the turns."""


def reason_lines(rows: Sequence[Row]) -> list[str]:
    """What each end reason found in ``rows`` means, one line each (see :data:`REASONS`).

    >>> reason_lines([{"reason": "blocked"}, {"reason": "blocked"}])[0][:44]
    'blocked: the pool was empty and a full round'
    >>> reason_lines([{"reason": "surrender"}])
    ["surrender: a reason this report does not know; see the game's rules page"]
    """
    unknown = "a reason this report does not know; see the game's rules page"
    found = dict.fromkeys(str(r.get("reason")) for r in rows)
    return [f"{reason}: {REASONS.get(reason, unknown)}" for reason in found]


def _describe(values: list[float]) -> str:
    if not values:
        return "none"
    return f"mean {statistics.fmean(values):.1f}, median {statistics.median(values):g}"


def _game_name(rows: Sequence[Row]) -> str:
    return f"{len(rows)} games"


def summary_lines(rows: Sequence[Row]) -> list[str]:
    """The terminal summary: per setting, the game lengths, end reasons and win rates with 95% intervals."""
    lines: list[str] = []
    lengths = _lengths(rows)
    for group in group_rows(rows):
        n = len(group.rows)
        lines.append(f"{group.label}: {n} games")
        if lengths == ("turns",):
            lines.append(f"  turns: {_describe(group.values('turns'))} (one action a turn: actions are the same)")
        else:
            lines.append(f"  turns: {_describe(group.values('turns'))}; actions: {_describe(group.values('actions'))}")
        if any(v > 1 for v in group.values("rounds")):
            lines.append(f"  rounds: {_describe(group.values('rounds'))}")
        reasons = ", ".join(f"{reason} {100 * count / n:.1f}%" for reason, count in group.reasons().most_common())
        lines.append(f"  ended by: {reasons}")
        lines.append("  win rate by position in the playing order (95% interval):")
        lines.extend(f"    {rate.label}: {rate.text()}" for rate in group.by_position())
        bots = group.by_bot()
        if len(bots) > 1:
            lines.append("  win rate by bot:")
            lines.extend(f"    {rate.label}: {rate.text()}" for rate in bots)
    paired = _paired_lines(group_rows(rows))
    if paired:
        lines.append("on the same deals:")
        lines.extend(f"  {line}" for line in paired)
    lines.append("what \"ended by\" means:")
    lines.extend(f"  {line}" for line in reason_lines(rows))
    return lines


# -- pictures ---------------------------------------------------------------------------------


Measure = Callable[[Group], list[float]]
"""One number per game of a group (a histogram's data)."""


def _use_agg() -> None:
    """Draw without a display (matplotlib is imported only when a report is drawn)."""
    import matplotlib

    matplotlib.use("Agg")


def _rate_figure(groups: list[Group], rates_of: str, title: str, fair: bool) -> Figure:
    """Grouped bars of win rates with their 95% intervals, one colour per setting."""
    _use_agg()
    import matplotlib.pyplot as plt

    series = [(g.label, getattr(g, rates_of)()) for g in groups]
    labels: list[str] = []
    for _, rates in series:
        for rate in rates:
            if rate.label not in labels:
                labels.append(rate.label)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(labels) * max(1, len(series)) ** 0.5 + 2), 3.6))
    width = 0.8 / len(series)
    for k, (name, rates) in enumerate(series):
        by_label = {r.label: r for r in rates}
        xs, ys, errs_low, errs_high = [], [], [], []
        for i, label in enumerate(labels):
            if label in by_label and by_label[label].n:
                rate = by_label[label]
                low, high = rate.interval
                xs.append(i - 0.4 + width * (k + 0.5))
                ys.append(rate.share)
                errs_low.append(max(0.0, rate.share - low))  # never below 0 through rounding
                errs_high.append(max(0.0, high - rate.share))
        ax.bar(xs, ys, width, yerr=[errs_low, errs_high], capsize=3, label=name)
    if fair:
        players = {int(r["players"]) for g in groups for r in g.rows}
        if len(players) == 1:
            ax.axhline(1 / players.pop(), color="grey", linestyle="--", linewidth=1, label="an equal share")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    if len(series) > 1 or fair:
        ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def _histogram_figure(groups: list[Group], panels: list[tuple[str, Measure]], title: str) -> Figure:
    """Histograms (one panel per measure), the settings overlaid as outlines."""
    _use_agg()
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.4), squeeze=False)
    for ax, (name, get) in zip(axes[0], panels, strict=True):
        data = [(g.label, get(g)) for g in groups]
        every = [v for _, values in data for v in values]
        if not every:
            ax.set_visible(False)
            continue
        low, high = min(every), max(every)
        integers = all(float(v).is_integer() for v in every)
        span = high - low
        bins = 30 if span == 0 else min(40, int(span) + 1) if integers else 30
        for label, values in data:
            if values:
                ax.hist(values, bins=bins, range=(low - 0.5, high + 0.5) if integers else None,
                        histtype="step", linewidth=1.5, density=len(groups) > 1, label=label)
        ax.set_xlabel(name)
        ax.set_ylabel("share of games" if len(groups) > 1 else "games")
        if len(groups) > 1:
            ax.legend(fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def figures(rows: Sequence[Row]) -> list[tuple[str, str, Figure]]:
    """(file name, caption, matplotlib figure) for each picture of the report."""
    groups = group_rows(rows)
    out = [
        (
            "positions.png",
            "Win rate by position in the playing order (1st = the seat that started), with 95% intervals",
            _rate_figure(groups, "by_position", "Win rate by position in the playing order", fair=True),
        ),
        ("seats.png", "Win rate by seat number", _rate_figure(groups, "by_seat", "Win rate by seat", fair=True)),
    ]
    levels = {r.label for g in groups for r in g.by_bot()}
    if len(levels) > 1:
        out.append(("bots.png", "Win rate by bot level", _rate_figure(groups, "by_bot", "Win rate by bot", fair=True)))
    length: list[tuple[str, Measure]] = [("turns per game", lambda g: g.values("turns"))]
    if not one_action_a_turn(rows):
        length.append(("actions per game", lambda g: g.values("actions")))
    if any(v > 1 for g in groups for v in g.values("rounds")):
        length.append(("rounds per game", lambda g: g.values("rounds")))
    caption = f"Game length ({SAME_LENGTHS})" if one_action_a_turn(rows) else "Game length"
    out.append(("length.png", caption, _histogram_figure(groups, length, "Game length")))
    scores: list[tuple[str, Measure]] = [
        ("final total of a winner", lambda g: g.totals(True)),
        ("final total of another seat", lambda g: g.totals(False)),
    ]
    out.append(("scores.png", "Final totals", _histogram_figure(groups, scores, "Final totals")))
    return out


# -- the page ---------------------------------------------------------------------------------


def _rate_table(title: str, groups: list[Group], rates_of: str) -> str:
    cells = "".join(f"<th>{html.escape(g.label)}</th>" for g in groups)
    labels: list[str] = []
    per_group = [{r.label: r for r in getattr(g, rates_of)()} for g in groups]
    for table in per_group:
        labels.extend(label for label in table if label not in labels)
    body = "".join(
        f"<tr><th>{html.escape(label)}</th>"
        + "".join(f"<td>{html.escape(t[label].text()) if label in t else ''}</td>" for t in per_group)
        + "</tr>"
        for label in labels
    )
    return f"<h2>{html.escape(title)}</h2><table><tr><th></th>{cells}</tr>{body}</table>"


def _overview(groups: list[Group]) -> str:
    lengths = _lengths([r for g in groups for r in g.rows])
    head = (
        "<tr><th>setting</th><th>games</th>"
        + "".join(f"<th>{c}</th>" for c in lengths)
        + "<th>rounds</th><th>ended by</th></tr>"
    )
    body = ""
    for g in groups:
        n = len(g.rows)
        reasons = ", ".join(f"{r} {100 * c / n:.1f}%" for r, c in g.reasons().most_common())
        body += (
            f"<tr><th>{html.escape(g.label)}</th><td>{n}</td>"
            + "".join(f"<td>{_describe(g.values(c))}</td>" for c in lengths)
            + f"<td>{_describe(g.values('rounds'))}</td><td>{html.escape(reasons)}</td></tr>"
        )
    note = f"<p>{html.escape(SAME_LENGTHS[0].upper() + SAME_LENGTHS[1:])}.</p>" if lengths == ("turns",) else ""
    return f"<table>{head}{body}</table>{note}"


def _reasons_html(rows: Sequence[Row]) -> str:
    items = "".join(
        f"<dt>{html.escape(reason)}</dt><dd>{html.escape(words.strip())}</dd>"
        for reason, words in (line.split(":", 1) for line in reason_lines(rows))
    )
    return f"<h2>How the games ended</h2><dl class='reasons'>{items}</dl>"


STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}"
    "img{max-width:100%;display:block;margin:.5em 0 1.5em}figcaption{color:#555}"
    "dl.reasons dt{font-weight:600}dl.reasons dd{margin:0 0 .4em 1.5em}"
)


def write_report(rows: Sequence[Row], folder: str | Path, *, title: str = "rummykit report") -> Path:
    """Write ``report.html`` (pictures embedded) and the PNG files into ``folder``; the page's path."""
    if not rows:
        raise OptionError("no games to report on")
    out = Path(folder).expanduser()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"cannot create the report folder {folder}: {exc.strerror or exc}") from None
    _use_agg()
    import matplotlib.pyplot as plt

    groups = group_rows(rows)
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        "<p>A seat wins a game when it is among the winners (shared wins count for each)."
        " Intervals are 95% Wilson score intervals.</p>",
        _overview(groups),
        _reasons_html(rows),
    ]
    paired = _paired_lines(groups)
    if paired:
        parts.append("<h2>On the same deals</h2><ul>")
        parts.extend(f"<li>{html.escape(line)}</li>" for line in paired)
        parts.append("</ul>")
    for name, caption, fig in figures(rows):
        path = out / name
        try:
            fig.savefig(path, dpi=100)
        finally:
            plt.close(fig)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        parts.append(
            f"<figure><img alt='{html.escape(caption)}' src='data:image/png;base64,{data}'>"
            f"<figcaption>{html.escape(caption)} ({name})</figcaption></figure>"
        )
    parts.append(_rate_table("Win rate by position in the playing order", groups, "by_position"))
    parts.append(_rate_table("Win rate by seat", groups, "by_seat"))
    parts.append(_rate_table("Win rate by bot", groups, "by_bot"))
    parts.append("</body></html>\n")
    page = out / "report.html"
    page.write_text("".join(parts), encoding="utf-8")
    return page


def cmd_report(file: str, folder: str | None, out: TextIO) -> int:
    """``rummykit report FILE [--out DIR]``: the summary on ``out`` and the HTML report with its PNG files."""
    from rummykit.study.table import read_rows

    rows = read_rows(file)
    path = Path(file).expanduser()
    target = Path(folder) if folder is not None else path.with_name(path.stem + "-report")
    out.write("".join(line + "\n" for line in summary_lines(rows)))
    page = write_report(rows, target, title=f"rummykit report: {path.name}")
    out.write(f"report: {page}\n")
    return 0
