"""``two-tray``: Two-Tray Tile Rummy (seed 002, rulings in RULES-NOTES section 2).

Rummikub for two players who each keep two trays of tiles that take turns,
with the table laid out as a crossword: every line of touching tiles, across
or down, must be a group or a run. Rules as enforced are described in
``docs/games/two-tray.md``; every rule id quoted in an error (``TT-...``) is
defined there.

The package, by concern: :mod:`~rummykit.rulesets.two_tray.options`
(constants, options, the grid rules), :mod:`~rummykit.rulesets.two_tray.actions`
(actions and their text), :mod:`~rummykit.rulesets.two_tray.calls` (joker
calls), :mod:`~rummykit.rulesets.two_tray.state` (the rules of a round),
:mod:`~rummykit.rulesets.two_tray.listing` (listed actions, also from a view),
:mod:`~rummykit.rulesets.two_tray.views` (the view's type) and
:mod:`~rummykit.rulesets.two_tray.position` (position strings). It is built
on the shared blocks: the grid (:mod:`rummykit.blocks.grid`), the racks
(two trays per player), the tile meld family and the tile-rummy basics
(:mod:`rummykit.rulesets.tilerummy`).

>>> import rummykit
>>> state = rummykit.new_game('two-tray', seed=3)
>>> seat = state.view(None)['turn']
>>> state.view(None)['tray_sizes'], state.view(None)['pool_size']
([{'A': 14, 'B': 14}, {'A': 14, 'B': 14}], 50)
>>> [e.kind for e in state.apply(state.parse_action(f'{seat} draw B'))]
['draw']
>>> state.view(None)['playing'][seat]
'A'
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.blocks.grid import GridDraft
from rummykit.engine.core import GameInfo, GameState
from rummykit.engine.options import OptionValue, int_option
from rummykit.errors import RuleError
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets.two_tray.actions import (
    DOWN,
    Call,
    Draw,
    End,
    Fail,
    Pass,
    Play,
    parse_action_text,
    parse_changes,
    parse_tray,
    split_down,
)
from rummykit.rulesets.two_tray.calls import call_fault, call_options, group_options
from rummykit.rulesets.two_tray.listing import (
    Situation,
    actions_from_view,
    draft_lines,
    extensions,
    free_row,
    grid_from_view,
    listable_actions,
    new_lines,
    situation_from_view,
)
from rummykit.rulesets.two_tray.options import (
    GAME_ID,
    GRID,
    INVALID_TABLE_PENALTY,
    MERGED,
    OPTIONS,
    PREFIX,
    TRAY_SIZE,
    TRAYS,
    WRONG_TRAY_PENALTY,
    TileGrid,
)
from rummykit.rulesets.two_tray.position import from_position, position
from rummykit.rulesets.two_tray.state import PlayCheck, TwoTray
from rummykit.rulesets.two_tray.typed import playing_tray, read_typed
from rummykit.rulesets.two_tray.views import CellView, TwoTrayView, two_tray_view

__all__ = [
    "DOWN",
    "GAME_ID",
    "GRID",
    "INFO",
    "INVALID_TABLE_PENALTY",
    "MERGED",
    "OPTIONS",
    "PREFIX",
    "TRAYS",
    "TRAY_SIZE",
    "WRONG_TRAY_PENALTY",
    "Call",
    "CellView",
    "Draw",
    "End",
    "Fail",
    "Pass",
    "Play",
    "PlayCheck",
    "Situation",
    "TileGrid",
    "TwoTray",
    "TwoTrayView",
    "actions_from_view",
    "call_fault",
    "call_options",
    "draft_action",
    "draft_from_view",
    "extensions",
    "free_row",
    "from_position",
    "grid_from_view",
    "group_options",
    "joker_options",
    "listable_actions",
    "new_lines",
    "parse_action_text",
    "parse_changes",
    "parse_tray",
    "playing_tray",
    "position",
    "read_typed",
    "situation_from_view",
    "split_down",
]


def draft_from_view(view: Mapping[str, object], tray: str | None = None) -> GridDraft[Tile]:
    """A turn draft for the seat whose view this is, playing from ``tray`` (by default the playing tray,
    or tray A on the seat's first turn).

    Only a seat's first turn may choose its tray; later, the trays take turns
    and another tray is refused (``TT-WRONG-TRAY``, with the ``tray`` asked
    for and the ``playing`` one as params).
    """
    seen = two_tray_view(view)
    seat, own = seen["seat"], seen.get("trays")
    if seat is None or own is None:
        raise RuleError("TT-DRAFT", "a spectator cannot draft a turn")
    trays = {name: parse_tiles(tiles) for name, tiles in own.items()}
    playing = seen["playing"][seat]
    name = tray or playing or next(iter(trays))
    if name not in trays:
        raise RuleError(
            "TT-TRAY", "you have no tray {tray} (your trays: {trays})", tray=name, trays=list(trays)
        )
    if playing is not None and name != playing:
        raise RuleError(
            "TT-WRONG-TRAY", "this turn plays from tray {playing}; the trays take turns", tray=name, playing=playing
        )
    opening = None if seen["down"][seat] else int_option(seen["options"], "initial_meld_points")
    return GridDraft(
        GRID,
        trays[name],
        grid_from_view(seen),
        opening=opening,
        tray_name=name,
        others={n: t for n, t in trays.items() if n != name},
        opening_name="first play",
    )


def draft_action(seat: int, draft: GridDraft[Tile], *, accept_penalty: bool = False) -> Play | Fail:
    """The action committing a draft: a :class:`Play`, or with ``accept_penalty`` a :class:`Fail`.

    In the turn a player goes down it names the going-down lines as the
    draft first held them, when the drafted grid no longer shows them
    (:meth:`~rummykit.blocks.grid.GridDraft.down_changes`).
    """
    cls = Fail if accept_penalty else Play
    return cls(seat, draft.tray_name, draft.changes(), draft.down_changes())


def joker_options(view: Mapping[str, object]) -> dict[tuple[int, int], list[str]]:
    """What each joker on a view's grid can stand for, as the grid reads it (for interfaces)."""
    grid = grid_from_view(view)
    verdict = GRID.verdict(grid)
    return {cell: sorted(str(t) for t in tiles) for cell, tiles in sorted(verdict.options.items())}


def _factory(players: tuple[str, ...], seed: int, options: dict[str, OptionValue]) -> GameState:
    return TwoTray(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Two-Tray Tile Rummy",
    summary=(
        "Rummikub for two, each player with two trays that take turns;"
        " the table is a crossword where every line across and down is a group or a run."
    ),
    min_players=2,
    max_players=2,
    options=OPTIONS,
    factory=_factory,
    aliases=("twotray", "tt"),
    from_position=from_position,
    view_actions=actions_from_view,
    rules_page="docs/games/two-tray.md",
    parse_action_text=parse_action_text,
    actions=(Draw, Pass, Play, Fail, Call, End),
    parse_piece=Tile.parse,
    draft="grid",
    draft_lines=draft_lines,
    read_typed=read_typed,
)
TwoTray.info = INFO
