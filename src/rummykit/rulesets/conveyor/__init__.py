"""``conveyor``: Conveyor Rummy, rummy with dominoes drawn from conveyor columns (seed 000).

Rules as enforced, with every ruling of RULES-NOTES section 4 and every
option, are in ``docs/games/conveyor.md``; every rule id quoted in an error
(``CV-...``) is defined there.

A round has two parts. In the **selection round** the players, in turn,
either reveal one face-down domino of an unclaimed column or claim a column
as their hand. Then **play**: on a turn a player draws the domino at one end
of a conveyor (an unclaimed column), may lay down melds and lay dominoes off
onto melds, and discards one domino face up to the opposite end of the same
conveyor. A player whose hand is empty at the end of a turn has *closed* and
scores.

Every step is one action, checked completely before anything changes:

==========================  ===================================================
``0 reveal 3 5``            selection: turn up cell 5 (from the top) of column 3
``0 claim 3``               selection: take column 3 as your hand
``0 draw 2 top``            draw the domino at the top end of conveyor 2
``0 meld 3-4 4-4 4-5``      lay down a meld from your hand
``0 layoff 1 4-6 high``     add 4-6 at the high end of meld 1
``0 discard 2-5``           discard to the opposite end of the conveyor drawn from
``0 close 2-5``             ``domino_runs``: discard 2-5, the rest of the hand is one line
``0 close``                 ``domino_runs``: the whole hand is one line (close on the pickup)
``0 jump 3-5``              ``jump_ins``: claim the domino just discarded ("Mine!")
``0 jump 3-5 with 3-3 3-4`` ... and lay it down at once in a meld (``jump_in_only_on_completion``)
``0 decline``               ``jump_ins``: let the discard go
==========================  ===================================================

>>> import rummykit.rulesets.conveyor
>>> from rummykit import new_game
>>> state = new_game('conveyor', players=2, seed=4)
>>> view = state.view(None)
>>> view['phase'], len(view['columns']), view['columns'][0]['cells'][4:7]
('select', 5, ['??', '1-6', '??'])
>>> seat = view['turn']
>>> _ = state.apply(state.parse_action(f'{seat} claim 0'))
>>> len(state.view(seat)['hand']), state.view(1 - seat)['hand_sizes'][seat]
(11, 11)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.blocks.conveyor import BOTTOM, ENDS, TOP, UNKNOWN, Conveyors, opposite
from rummykit.engine.core import JSON, Action, GameInfo, GameState, Outcome
from rummykit.engine.options import OptionSpec
from rummykit.errors import OptionError, ParseError, RuleError
from rummykit.melds.conveyor import END_NAMES, HIGH, LINE, LOW, MIN_MELD, ConveyorMelds, by_code
from rummykit.pieces.dominoes import Domino, double_set, format_dominoes, parse_dominoes

__all__ = [
    "INFO",
    "OPTIONS",
    "Claim",
    "Close",
    "Conveyor",
    "Decline",
    "Discard",
    "Draw",
    "Jump",
    "Layoff",
    "Meld",
    "Reveal",
    "TableMeld",
    "actions_from_view",
    "default_layout",
    "from_position",
    "list_actions",
    "parse_action_text",
]

GAME_ID = "conveyor"
PREFIX = "CV"
SETS = (6, 9, 12)

SELECT = "select"
DRAW = "draw"
PLAY = "play"
JUMP = "jump"
OVER = "over"

OPTIONS = (
    OptionSpec(
        "set",
        int,
        None,
        "the domino set, double-6, double-9 or double-12 (none: 9 for 2 players, 12 for 3-4)",
        minimum=6,
        maximum=12,
        allow_none=True,
    ),
    OptionSpec(
        "columns",
        int,
        None,
        "columns laid out at the start (none: the set's usual layout)",
        minimum=1,
        maximum=91,
        allow_none=True,
    ),
    OptionSpec(
        "column_length",
        int,
        None,
        "dominoes per column, which is also the hand size (none: the set's usual layout)",
        minimum=1,
        maximum=91,
        allow_none=True,
    ),
    OptionSpec(
        "target",
        int,
        None,
        "play rounds until a total reaches this (none: 120 for 2 players, 240 for 3-4; 0: one round)",
        minimum=0,
        allow_none=True,
    ),
    OptionSpec("max_turns", int, 200, "a round with this many turns and no close ends with no score", minimum=1, maximum=100_000),
    OptionSpec("max_rounds", int, 100, "a match ends after this many rounds even below the target", minimum=1, maximum=10_000),
    OptionSpec("domino_runs", bool, False, "variant: a whole hand laid end to end as one line of play closes"),
    OptionSpec("branch_on_doubles", bool, False, "with domino_runs: a double may branch the line"),
    OptionSpec("no_milling", bool, False, "variant: never discard a domino that was face up when you drew it"),
    OptionSpec("never_close_on_pickup", bool, False, "variant: a player always closes by discarding"),
    OptionSpec("jump_ins", bool, False, "variant (3-4 players): other players may claim each discard out of turn"),
    OptionSpec("jump_in_only_on_completion", bool, False, "with jump_ins: a claimed discard must complete a meld at once"),
    OptionSpec("partners", bool, False, "variant (4 players): seats across the table are partners"),
)

Pieces = tuple[Domino, ...]

_BY_TEXT: dict[str, Domino] = {str(d): d for d in double_set(12)}


def _dom(text: str) -> Domino:
    """A domino from its canonical text (fast path for views), else parsed."""
    d = _BY_TEXT.get(text)
    return d if d is not None else Domino.parse(text)


def _err(rule: str, message: str) -> RuleError:
    return RuleError(rule, message)


def default_layout(top: int, players: int) -> tuple[int, int]:
    """The usual (columns, column length) of a set.

    Double-9: 5 columns of 11 (the seed's 2-player layout); double-12: 7 of
    13 (the seed's 3-4-player layout); double-6 (the seed's aside, 28
    dominoes): 4 columns of 7, or 7 columns of 4 for 4 players, who need 5
    columns or more.

    >>> default_layout(9, 2), default_layout(12, 4), default_layout(6, 2), default_layout(6, 4)
    ((5, 11), (7, 13), (4, 7), (7, 4))
    """
    if top == 9:
        return 5, 11
    if top == 12:
        return 7, 13
    return (4, 7) if players <= 3 else (7, 4)


def resolve_options(players: int, given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill in the options that depend on the number of players and check the layout.

    >>> o = resolve_options(2, {'set': None, 'columns': None, 'column_length': None, 'target': None,
    ...     'jump_ins': False, 'jump_in_only_on_completion': False, 'partners': False,
    ...     'domino_runs': False, 'branch_on_doubles': False})
    >>> o['set'], o['columns'], o['column_length'], o['target']
    (9, 5, 11, 120)
    """
    options = dict(given)
    top = options.get("set")
    if top is None:
        top = 9 if players == 2 else 12
    if top not in SETS:
        raise OptionError(f"option set needs 6, 9 or 12 (a double-6, double-9 or double-12 set), got {top}")
    count = (top + 1) * (top + 2) // 2
    columns, length = options.get("columns"), options.get("column_length")
    if columns is None and length is None:
        columns, length = default_layout(top, players)
    elif columns is None:
        assert length is not None
        if count % length:
            raise OptionError(f"a double-{top} set has {count} dominoes, which do not make columns of {length}")
        columns = count // length
    elif length is None:
        if count % columns:
            raise OptionError(f"a double-{top} set has {count} dominoes, which do not split into {columns} equal columns")
        length = count // columns
    if columns * length != count:
        raise OptionError(
            f"{columns} columns of {length} hold {columns * length} dominoes, but a double-{top} set has {count}"
        )
    if columns < players + 1:
        raise OptionError(
            f"{columns} columns are too few for {players} players: each claims one and at least one must stay"
            " on the table as a conveyor"
        )
    if length < MIN_MELD:
        raise OptionError(f"columns of {length} make hands of {length}: a hand needs at least {MIN_MELD} dominoes")
    options.update({"set": top, "columns": columns, "column_length": length})
    if options.get("target") is None:
        options["target"] = 120 if players == 2 else 240
    if options.get("jump_ins") and players < 3:
        raise OptionError("jump_ins is a variant for 3 or 4 players")
    if options.get("jump_in_only_on_completion") and not options.get("jump_ins"):
        raise OptionError("jump_in_only_on_completion needs jump_ins")
    if options.get("branch_on_doubles") and not options.get("domino_runs"):
        raise OptionError("branch_on_doubles needs domino_runs")
    if options.get("partners") and players != 4:
        raise OptionError("partners is a variant for exactly 4 players (seats across the table are partners)")
    return options


# -- actions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Selection round: turn a face-down domino of an unclaimed column face up."""

    column: int
    index: int

    def text(self) -> str:
        return f"reveal {self.column} {self.index}"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Selection round: take an unclaimed column as your hand."""

    column: int

    def text(self) -> str:
        return f"claim {self.column}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Start a turn: take the domino at ``end`` (``top``/``bottom``) of a conveyor."""

    column: int
    end: str

    def text(self) -> str:
        return f"draw {self.column} {self.end}"


@dataclass(frozen=True, slots=True)
class Meld(Action):
    """Lay down a meld from your hand (any order; the table keeps its normal order)."""

    dominoes: Pieces

    def text(self) -> str:
        return f"meld {format_dominoes(self.dominoes)}"


@dataclass(frozen=True, slots=True)
class Layoff(Action):
    """Add one domino from your hand at one end (``low``/``high``) of a meld on the table."""

    meld: int
    domino: Domino
    end: str

    def text(self) -> str:
        return f"layoff {self.meld} {self.domino} {self.end}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """End the turn: put a domino face up at the opposite end of the conveyor drawn from."""

    domino: Domino

    def text(self) -> str:
        return f"discard {self.domino}"


@dataclass(frozen=True, slots=True)
class Close(Action):
    """``domino_runs``: close with the hand as one line (after discarding ``discard``, if given)."""

    discard: Domino | None = None

    def text(self) -> str:
        return "close" if self.discard is None else f"close {self.discard}"


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """``jump_ins``: claim the domino just discarded, with the rest of a meld it completes if required."""

    domino: Domino
    with_: Pieces = ()

    def text(self) -> str:
        if not self.with_:
            return f"jump {self.domino}"
        return f"jump {self.domino} with {format_dominoes(self.with_)}"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """``jump_ins``: let the discard go."""

    def text(self) -> str:
        return "decline"


def _int(word: str, what: str, text: str) -> int:
    if not word.isdigit():
        raise ParseError(f"{what} must be a whole number from 0, got {word!r} in {text!r}")
    return int(word)


def _domino_word(word: str, text: str) -> Domino:
    try:
        return Domino.parse(word)
    except ParseError:
        raise ParseError(f"bad domino {word!r} in {text!r}: write its halves like 3-5") from None


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in conveyor notation.

    >>> parse_action_text(1, 'layoff 0 4-6 HIGH')
    Layoff(player=1, meld=0, domino=Domino.parse('4-6'), end='high')
    >>> parse_action_text(0, 'jump 5:3 with 3-3 3-4').text()
    'jump 3-5 with 3-3 3-4'
    """
    words = text.split()
    if not words:
        raise ParseError("an empty action: use reveal, claim, draw, meld, layoff, discard, close, jump or decline")
    verb, args = words[0].lower(), words[1:]

    def need(count: int, usage: str) -> None:
        if len(args) != count:
            raise ParseError(f"write '{usage}', got {text.strip()!r}")

    if verb == "reveal":
        need(2, "reveal COLUMN INDEX")
        return Reveal(seat, _int(args[0], "the column", text), _int(args[1], "the index", text))
    if verb == "claim":
        need(1, "claim COLUMN")
        return Claim(seat, _int(args[0], "the column", text))
    if verb == "draw":
        need(2, "draw COLUMN top|bottom")
        end = args[1].lower()
        if end not in ENDS:
            raise ParseError(f"a conveyor's ends are 'top' and 'bottom', got {args[1]!r}")
        return Draw(seat, _int(args[0], "the column", text), end)
    if verb == "meld":
        if not args:
            raise ParseError(f"write 'meld DOMINO DOMINO DOMINO ...', got {text.strip()!r}")
        return Meld(seat, tuple(_domino_word(w, text) for w in args))
    if verb == "layoff":
        need(3, "layoff MELD DOMINO low|high")
        end = args[2].lower()
        if end not in END_NAMES:
            raise ParseError(f"a meld's ends are 'low' and 'high', got {args[2]!r}")
        return Layoff(seat, _int(args[0], "the meld number", text), _domino_word(args[1], text), end)
    if verb == "discard":
        need(1, "discard DOMINO")
        return Discard(seat, _domino_word(args[0], text))
    if verb == "close":
        if len(args) > 1:
            raise ParseError(f"write 'close' or 'close DOMINO-TO-DISCARD', got {text.strip()!r}")
        return Close(seat, _domino_word(args[0], text) if args else None)
    if verb == "jump":
        if not args or (len(args) > 1 and (args[1].lower() != "with" or len(args) < 3)):
            raise ParseError(f"write 'jump DOMINO' or 'jump DOMINO with DOMINO DOMINO ...', got {text.strip()!r}")
        return Jump(seat, _domino_word(args[0], text), tuple(_domino_word(w, text) for w in args[2:]))
    if verb == "decline":
        need(0, "decline")
        return Decline(seat)
    raise ParseError(
        f"unknown action {verb!r}: use reveal, claim, draw, meld, layoff, discard, close, jump or decline"
    )


# -- the table of melds ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its owner (who laid it down), kind and dominoes in table order.

    ``layout`` is the written layout of a line (``domino_runs``), else None;
    ``royal`` and ``score`` are worked out once, by :meth:`make`.
    """

    owner: int
    kind: str
    dominoes: Pieces
    layout: str | None
    royal: bool
    score: int

    @classmethod
    def make(cls, rules: ConveyorMelds, owner: int, kind: str, dominoes: Pieces, layout: str | None = None) -> TableMeld:
        """A meld with its royal mark and score computed from the set in play."""
        return cls(owner, kind, dominoes, layout, rules.is_royal(kind, dominoes), rules.score(kind, dominoes))

    def to_json(self, index: int) -> dict[str, JSON]:
        """The meld as plain data for views and events."""
        return {
            "index": index,
            "owner": self.owner,
            "kind": self.kind,
            "dominoes": [str(d) for d in self.dominoes],
            "layout": self.layout,
            "royal": self.royal,
            "score": self.score,
        }


@dataclass(slots=True)
class _Window:
    """An open claim window after a discard (``jump_ins``)."""

    domino: Domino
    column: int
    end: str
    discarder: int
    waiting: set[int]
    claims: dict[int, Jump | None]

    def copy(self) -> _Window:
        return _Window(self.domino, self.column, self.end, self.discarder, set(self.waiting), dict(self.claims))


@dataclass(frozen=True, slots=True)
class _Drawn:
    """This turn's pickup: where from, what, whether it was face up, whether it was a jump-in."""

    column: int
    end: str
    domino: Domino
    face_up: bool
    jumped: bool = False


# -- listing actions ---------------------------------------------------------------------


def list_actions(
    seat: int,
    *,
    phase: str,
    hand: Sequence[Domino],
    rules: ConveyorMelds,
    options: Mapping[str, Any],
    open_columns: Sequence[tuple[int, Sequence[int]]],
    melds: Sequence[tuple[str, Pieces]],
    milled: Domino | None,
    window_domino: Domino | None,
) -> list[Action]:
    """Every legal action of ``seat`` (which must be one that may act), from what it can see.

    ``open_columns`` lists each unclaimed column with its face-down cells
    (needed in the selection round only); ``melds`` the table's melds (kind,
    dominoes; needed after the draw only); ``milled`` the domino drawn
    this turn if it was face up; ``window_domino`` the discard a claim window
    is open for. Everything legal is listed: melds are every valid meld from
    the hand (see :meth:`ConveyorMelds.hand_melds`), nothing is capped.
    """
    out: list[Action] = []
    if phase == SELECT:
        out.extend(Claim(seat, c) for c, _down in open_columns)
        for c, down in open_columns:
            out.extend(Reveal(seat, c, i) for i in down)
        return out
    if phase == DRAW:
        for c, _down in open_columns:
            out.append(Draw(seat, c, TOP))
            out.append(Draw(seat, c, BOTTOM))
        return out
    can_empty = not options["never_close_on_pickup"]
    no_milling = options["no_milling"]
    if phase == PLAY:
        have = set(hand)
        size = len(hand)
        stuck = milled if no_milling and milled in have else None  # may not be the only domino kept

        def keeps(removed: Sequence[Domino]) -> bool:
            left = size - len(removed)
            if left == 0:
                return can_empty
            return not (left == 1 and stuck is not None and stuck not in removed)

        for d in sorted(have, key=by_code):
            if d != stuck:
                out.append(Discard(seat, d))
        for m in rules.hand_melds(hand):
            if keeps(m):
                out.append(Meld(seat, m))
        for i, (kind, pieces) in enumerate(melds):
            for end in END_NAMES:
                for d in rules.fits(kind, pieces, end):
                    if d in have and keeps((d,)):
                        out.append(Layoff(seat, i, d, end))
        if options["domino_runs"]:
            branching = bool(options["branch_on_doubles"])
            if can_empty and size >= MIN_MELD and rules.line(hand, branching=branching) is not None:
                out.append(Close(seat))
            if size - 1 >= MIN_MELD:
                for d in sorted(have, key=by_code):
                    if no_milling and d == milled:
                        continue
                    if rules.line([x for x in hand if x != d], branching=branching) is not None:
                        out.append(Close(seat, d))
        return out
    if phase == JUMP and window_domino is not None:
        out.append(Decline(seat))
        if options["jump_in_only_on_completion"]:
            for m in rules.melds_with(hand, window_domino):
                if len(m) <= len(hand) or can_empty:
                    out.append(Jump(seat, window_domino, tuple(d for d in m if d != window_domino)))
        else:
            out.append(Jump(seat, window_domino))
    return out


def actions_from_view(view: Mapping[str, JSON]) -> list[Action]:
    """:func:`list_actions` for the seat whose view this is (empty if it may not act)."""
    seat = view.get("seat")
    if seat is None or seat not in view["to_act"]:
        return []
    options = view["options"]
    phase = view["phase"]
    drawn = view["drawn"]
    milled = _dom(drawn["domino"]) if drawn is not None and drawn["face_up"] else None
    window = view["jump_window"]
    selecting = phase == SELECT
    return list_actions(
        seat,
        phase=phase,
        hand=[_dom(x) for x in view["hand"]] if phase in (PLAY, JUMP) else [],
        rules=_rules(options["set"]),
        options=options,
        open_columns=[
            (col["column"], [i for i, x in enumerate(col["cells"]) if x == UNKNOWN] if selecting else [])
            for col in view["columns"]
            if col["claimed_by"] is None
        ],
        melds=[(m["kind"], tuple(_dom(x) for x in m["dominoes"])) for m in view["melds"]] if phase == PLAY else [],
        milled=milled,
        window_domino=None if window is None else _dom(window["domino"]),
    )


_RULES: dict[int, ConveyorMelds] = {}


def _rules(top: int) -> ConveyorMelds:
    rules = _RULES.get(top)
    if rules is None:
        rules = _RULES[top] = ConveyorMelds(top)
    return rules


# -- the state -------------------------------------------------------------------------


class Conveyor(GameState):
    """A match (or one round, with ``target`` 0) of Conveyor Rummy."""

    game_id = GAME_ID
    PREFIX = PREFIX

    def __init__(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, Any],
        *,
        deal: bool = True,
    ) -> None:
        super().__init__(players, seed, resolve_options(len(players), options))
        n = len(self.players)
        self.top: int = self.options["set"]
        self.rules = _rules(self.top)
        self.belt: Conveyors[Domino] = Conveyors([], [], [], self.options["column_length"])
        self.hands: list[list[Domino]] = [[] for _ in range(n)]
        self.known: list[set[Domino]] = [set() for _ in range(n)]
        self.table: list[TableMeld] = []
        self.phase = SELECT
        self.current = 0
        self.first_claimer: int | None = None
        self.turn_no = 0
        self.drawn: _Drawn | None = None
        self.window: _Window | None = None
        if deal:
            self.first = self.rng.below(n)
            self.emit("first-player", self.first, {"by": "lot"})
            self._deal_round()

    # -- setup ---------------------------------------------------------------------

    def _deal_round(self) -> None:
        pieces = double_set(self.top)
        self.rng.shuffle(pieces)
        self.belt = Conveyors.layout(pieces, columns=self.options["columns"], length=self.options["column_length"])
        n = len(self.players)
        self.hands = [[] for _ in range(n)]
        self.known = [set() for _ in range(n)]
        self.table = []
        self.phase = SELECT
        self.current = self.first
        self.first_claimer = None
        self.turn_no = 0
        self.drawn = None
        self.window = None
        self.emit(
            "layout",
            None,
            {
                "round": self.round_no,
                "first": self.first,
                "columns": [self.belt.public_cells(c) for c in range(self.belt.count)],
            },
        )

    @property
    def teams(self) -> list[list[int]] | None:
        """The partnerships (``partners``): seats across the table, else None."""
        if not self.options["partners"]:
            return None
        return [[0, 2], [1, 3]]

    def team_of(self, seat: int) -> set[int]:
        """The seats that score together with ``seat`` (itself alone without ``partners``)."""
        if self.options["partners"]:
            return {seat, (seat + 2) % 4}
        return {seat}

    # -- the contract ----------------------------------------------------------------

    @property
    def turn_seat(self) -> int | None:
        return self.current

    def current_phase(self) -> str:
        return self.phase

    @property
    def priority_seat(self) -> int:
        """In a jump-in window the seat after the discarder comes first (nearest in turn order)."""
        if self.window is not None:
            return (self.window.discarder + 1) % len(self.players)
        return self.current

    @property
    def must_act(self) -> frozenset[int]:
        if self.outcome is not None:
            return frozenset()
        if self.phase == JUMP:
            assert self.window is not None
            return frozenset(self.window.waiting)
        return frozenset((self.current,))

    def _apply(self, action: Action) -> None:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise RuleError("ACTION", f"{action!r} is not an action of {GAME_ID}")
        handler(self, action)

    def _phase_is(self, action: Action, *phases: str) -> None:
        if self.phase in phases:
            return
        expected = {
            SELECT: "the selection round: reveal or claim",
            DRAW: "the start of a turn: draw from a conveyor end",
            PLAY: "after the draw: meld, lay off, then discard (or close)",
            JUMP: "a claim window: jump or decline",
        }[self.phase]
        raise _err(f"{PREFIX}-PHASE", f"'{action.text()}' cannot be played now; the game is at {expected}")

    # -- selection round -----------------------------------------------------------

    def _open_column(self, column: int, what: str) -> None:
        if not self.belt.has_column(column):
            raise _err(f"{PREFIX}-COLUMN", f"there is no column {column}: columns are 0..{self.belt.count - 1}")
        if not self.belt.is_open(column):
            raise _err(
                f"{PREFIX}-COLUMN-CLAIMED",
                f"column {column} was claimed by seat {self.belt.claimed_by[column]}: {what} an unclaimed column",
            )

    def _reveal(self, action: Reveal) -> None:
        self._phase_is(action, SELECT)
        self._open_column(action.column, "reveal in")
        length = len(self.belt.columns[action.column])
        if not 0 <= action.index < length:
            raise _err(f"{PREFIX}-REVEAL", f"column {action.column} has cells 0..{length - 1}, not {action.index}")
        if self.belt.up[action.column][action.index]:
            raise _err(
                f"{PREFIX}-REVEAL",
                f"cell {action.index} of column {action.column} is already face up; reveal a face-down domino",
            )
        domino = self.belt.reveal(action.column, action.index)
        self.emit("reveal", action.player, {"column": action.column, "index": action.index, "domino": str(domino)})
        self._next_selector()

    def _claim(self, action: Claim) -> None:
        self._phase_is(action, SELECT)
        self._open_column(action.column, "claim")
        seat = action.player
        taken = self.belt.claim(action.column, seat)
        self.hands[seat] = [d for d, _up in taken]
        self.known[seat] = {d for d, up in taken if up}
        if self.first_claimer is None:
            self.first_claimer = seat
        self.emit(
            "claim",
            seat,
            {"column": action.column, "size": len(taken), "face_up": [str(d) for d, up in taken if up]},
            {"hand": [str(d) for d in sorted(self.hands[seat], key=by_code)]},
        )
        if all(s in self.belt.claimed_by for s in range(len(self.players))):
            assert self.first_claimer is not None
            self.phase = DRAW
            self.current = self.first_claimer
            self.turn_no = 1
            self.emit("play-starts", self.current, {"conveyors": self.belt.open_columns()})
        else:
            self._next_selector()

    def _next_selector(self) -> None:
        n = len(self.players)
        claimed = set(self.belt.claimed_by)
        seat = self.current
        for _ in range(n):
            seat = (seat + 1) % n
            if seat not in claimed:
                self.current = seat
                return

    # -- a turn ------------------------------------------------------------------------

    def _draw(self, action: Draw) -> None:
        self._phase_is(action, DRAW)
        c = action.column
        if not self.belt.has_column(c) or not self.belt.is_open(c):
            conveyors = ", ".join(str(x) for x in self.belt.open_columns())
            raise _err(f"{PREFIX}-COLUMN", f"column {c} is not a conveyor; the conveyors are {conveyors}")
        if action.end not in ENDS:
            raise _err(f"{PREFIX}-COLUMN", f"a conveyor's ends are top and bottom, not {action.end!r}")
        seat = action.player
        domino, was_up = self.belt.draw(c, action.end)
        self.hands[seat].append(domino)
        if was_up:
            self.known[seat].add(domino)
        self.drawn = _Drawn(c, action.end, domino, was_up)
        self.phase = PLAY
        public: dict[str, JSON] = {"column": c, "end": action.end, "face_up": was_up}
        if was_up:
            public["domino"] = str(domino)
        self.emit("draw", seat, public, {"domino": str(domino)})

    def _in_hand(self, seat: int, dominoes: Iterable[Domino]) -> None:
        hand = self.hands[seat]
        for d in dominoes:
            if d not in hand:
                raise _err(f"{PREFIX}-HAND", f"{d} is not in seat {seat}'s hand")

    def _keeps_discard(self, seat: int, removed: Sequence[Domino], what: str) -> None:
        """Check what a meld or lay-off leaves in the hand.

        Either nothing (closing on the pickup, refused under
        ``never_close_on_pickup``) or at least one domino the player may
        discard (under ``no_milling``, not only the face-up domino just drawn).
        """
        rest = [d for d in self.hands[seat] if d not in removed]
        if not rest:
            if self.options["never_close_on_pickup"]:
                raise _err(
                    f"{PREFIX}-PICKUP-CLOSE",
                    f"{what} would empty the hand without a discard; with never_close_on_pickup a player closes"
                    " only by discarding",
                )
            return
        drawn = self.drawn
        if self.options["no_milling"] and drawn is not None and drawn.face_up and rest == [drawn.domino]:
            raise _err(
                f"{PREFIX}-KEEP-DISCARD",
                f"{what} would leave only {drawn.domino}, which no_milling forbids discarding this turn;"
                " keep a domino you may discard",
            )

    def _checked_meld(self, seat: int, dominoes: Pieces) -> Pieces:
        self._in_hand(seat, dominoes)
        check = self.rules.check(dominoes)
        if not check.valid:
            raise check.error()
        return check.pieces

    def _meld(self, action: Meld) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        pieces = self._checked_meld(seat, action.dominoes)
        self._keeps_discard(seat, pieces, "this meld")
        self._lay_meld(seat, pieces)
        if not self.hands[seat]:
            self._end_round(seat, "pickup")

    def _lay_meld(self, seat: int, pieces: Pieces) -> None:
        check = self.rules.check(pieces)
        assert check.kind is not None
        meld = TableMeld.make(self.rules, seat, check.kind, check.pieces)
        self._take(seat, pieces)
        self.table.append(meld)
        self.emit("meld", seat, {**_meld_event(meld.to_json(len(self.table) - 1)), "hand_size": len(self.hands[seat])})

    def _take(self, seat: int, dominoes: Iterable[Domino]) -> None:
        hand = self.hands[seat]
        known = self.known[seat]
        for d in dominoes:
            hand.remove(d)
            known.discard(d)

    def _layoff(self, action: Layoff) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        if not 0 <= action.meld < len(self.table):
            raise _err(
                f"{PREFIX}-LAYOFF-MELD",
                f"there is no meld {action.meld}" + (f": melds are 0..{len(self.table) - 1}" if self.table else ": the table is empty"),
            )
        self._in_hand(seat, (action.domino,))
        meld = self.table[action.meld]
        if meld.kind == LINE:
            raise _err(f"{PREFIX}-LAYOFF-LINE", "a closing line of play takes no lay-offs")
        if action.end not in END_NAMES:
            raise _err(f"{PREFIX}-LAYOFF-FIT", f"a meld's ends are low and high, not {action.end!r}")
        grown = self.rules.extend(meld.kind, meld.dominoes, action.domino, action.end)
        if grown is None:
            other = HIGH if action.end == LOW else LOW
            where = (
                f"; it fits the {other} end"
                if self.rules.extend(meld.kind, meld.dominoes, action.domino, other) is not None
                else ""
            )
            fits = [str(d) for d in self.rules.fits(meld.kind, meld.dominoes, action.end)]
            wanted = " or ".join(fits) if len(fits) <= 3 else f"a domino of {meld.dominoes[0].pips} pips"
            raise _err(
                f"{PREFIX}-LAYOFF-FIT",
                f"{action.domino} does not fit the {action.end} end of meld {action.meld}"
                f" ({format_dominoes(meld.dominoes)}), which takes {wanted or 'nothing more'}{where}",
            )
        self._keeps_discard(seat, (action.domino,), "this lay-off")
        self._take(seat, (action.domino,))
        self.table[action.meld] = TableMeld.make(self.rules, meld.owner, meld.kind, grown, meld.layout)
        self.emit(
            "layoff",
            seat,
            {
                "meld": action.meld,
                "domino": str(action.domino),
                "end": action.end,
                "dominoes": [str(d) for d in grown],
                "hand_size": len(self.hands[seat]),
            },
        )
        if not self.hands[seat]:
            self._end_round(seat, "pickup")

    def _check_discard(self, seat: int, domino: Domino) -> None:
        self._in_hand(seat, (domino,))
        drawn = self.drawn
        if self.options["no_milling"] and drawn is not None and drawn.face_up and drawn.domino == domino:
            raise _err(
                f"{PREFIX}-MILLING",
                f"{domino} was face up when you took it; with no_milling it cannot go straight back",
            )

    def _discard(self, action: Discard) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        self._check_discard(seat, action.domino)
        column, end = self._put_discard(seat, action.domino)
        if not self.hands[seat]:
            self._end_round(seat, "discard")
        else:
            self._end_turn(seat, column, end)

    def _put_discard(self, seat: int, domino: Domino) -> tuple[int, str]:
        """Discard to the end opposite the draw; returns (column, end) where it now lies."""
        drawn = self.drawn
        assert drawn is not None
        self._take(seat, (domino,))
        to = self.belt.discard(domino)
        self.emit(
            "discard",
            seat,
            {
                "column": drawn.column,
                "end": to,
                "domino": str(domino),
                "milled": drawn.face_up and drawn.domino == domino,
                "hand_size": len(self.hands[seat]),
            },
        )
        self.drawn = None
        return drawn.column, to

    def _close(self, action: Close) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        if not self.options["domino_runs"]:
            raise _err(f"{PREFIX}-LINE-OFF", "closing with a line of play needs the domino_runs variant")
        hand = list(self.hands[seat])
        if action.discard is None:
            self._keeps_discard(seat, hand, "closing with the whole hand as a line")
        else:
            self._check_discard(seat, action.discard)
            hand.remove(action.discard)
        if len(hand) < MIN_MELD:
            raise _err(f"{PREFIX}-LINE", f"a closing line needs at least {MIN_MELD} dominoes, not {len(hand)}")
        layout = self.rules.line(hand, branching=self.options["branch_on_doubles"])
        if layout is None:
            how = "with branches at doubles" if self.options["branch_on_doubles"] else "in one line"
            raise _err(
                f"{PREFIX}-LINE", f"{format_dominoes(sorted(hand, key=by_code))} cannot be laid end to end {how} with matching halves"
            )
        if action.discard is not None:
            self._put_discard(seat, action.discard)
        meld = TableMeld.make(self.rules, seat, LINE, tuple(sorted(hand, key=by_code)), layout)
        self._take(seat, hand)
        self.table.append(meld)
        self.emit("meld", seat, {**_meld_event(meld.to_json(len(self.table) - 1)), "hand_size": 0})
        self._end_round(seat, "line")

    def _end_turn(self, seat: int, column: int, end: str) -> None:
        if self.turn_no >= self.options["max_turns"]:
            self._end_round(None, "max-turns")
            return
        if self.options["jump_ins"]:
            domino = self.belt.at_end(column, end)[0]
            others = {s for s in range(len(self.players)) if s != seat}
            self.window = _Window(domino, column, end, seat, others, {})
            self.phase = JUMP
            self.emit("jump-window", None, {"domino": str(domino), "column": column, "end": end, "discarder": seat})
            return
        self._next_turn((seat + 1) % len(self.players))

    def _next_turn(self, seat: int) -> None:
        self.current = seat
        self.turn_no += 1
        self.phase = DRAW

    # -- jump-ins ------------------------------------------------------------------------

    def _jump(self, action: Jump) -> None:
        self._phase_is(action, JUMP)
        window = self.window
        assert window is not None
        seat = action.player
        if action.domino != window.domino:
            raise _err(f"{PREFIX}-JUMP-DOMINO", f"the discard on offer is {window.domino}, not {action.domino}")
        if self.options["jump_in_only_on_completion"]:
            if not action.with_:
                raise _err(
                    f"{PREFIX}-JUMP-COMPLETE",
                    f"with jump_in_only_on_completion, name the dominoes {window.domino} completes a meld with:"
                    f" 'jump {window.domino} with ...'",
                )
            if window.domino in action.with_:
                raise _err(f"{PREFIX}-HAND", f"{window.domino} is the discard, not a domino of your hand")
            self._in_hand(seat, action.with_)
            check = self.rules.check((window.domino, *action.with_))
            if not check.valid:
                raise check.error()
            # after the pickup the hand holds one more domino; the meld empties it if it uses all of them
            if len(action.with_) >= len(self.hands[seat]):
                self._keeps_discard(seat, self.hands[seat], "this jump's meld")
        elif action.with_:
            raise _err(
                f"{PREFIX}-JUMP-WITH",
                "without jump_in_only_on_completion a jump takes only the domino; lay melds down in the turn that follows",
            )
        self._answer(seat, action)

    def _decline(self, action: Decline) -> None:
        self._phase_is(action, JUMP)
        self._answer(action.player, None)

    def _answer(self, seat: int, claim: Jump | None) -> None:
        window = self.window
        assert window is not None
        window.waiting.discard(seat)
        window.claims[seat] = claim
        self.emit("jump-answer", seat, {}, {"claim": None if claim is None else claim.text()})
        if not window.waiting:
            self._resolve_window()

    def _resolve_window(self) -> None:
        window = self.window
        assert window is not None
        n = len(self.players)
        order = [(window.discarder + k) % n for k in range(1, n)]
        claimers = [s for s in order if window.claims.get(s) is not None]
        winner = claimers[0] if claimers else None
        self.window = None
        self.emit(
            "jump-resolved",
            winner,
            {"claimers": claimers, "winner": winner, "domino": str(window.domino)},
        )
        if winner is None:
            self._next_turn((window.discarder + 1) % n)
            return
        claim = window.claims[winner]
        assert claim is not None
        self.current = winner
        self.turn_no += 1
        domino, _up = self.belt.draw(window.column, window.end)
        self.hands[winner].append(domino)
        self.known[winner].add(domino)
        self.drawn = _Drawn(window.column, window.end, domino, True, jumped=True)
        self.phase = PLAY
        self.emit("jump", winner, {"column": window.column, "end": window.end, "domino": str(domino)})
        if claim.with_:
            self._lay_meld(winner, (domino, *claim.with_))
            if not self.hands[winner]:
                self._end_round(winner, "pickup")

    # -- the end of a round ------------------------------------------------------------

    def round_scores(self, closer: int) -> tuple[tuple[int, ...], list[dict[str, JSON]], int]:
        """Per-seat scores of a close, the scored melds, and the dominoes counted from opponents."""
        n = len(self.players)
        team = self.team_of(closer)
        scored: list[dict[str, JSON]] = []
        points = 0
        for i, meld in enumerate(self.table):
            if meld.owner == closer:
                points += meld.score
                scored.append(meld.to_json(i))
        left = sum(len(self.hands[s]) for s in range(n) if s not in team)
        points += left
        return tuple(points if s in team else 0 for s in range(n)), scored, left

    def _end_round(self, closer: int | None, how: str) -> None:
        n = len(self.players)
        if closer is None:
            scores: tuple[int, ...] = (0,) * n
            winners: tuple[int, ...] = ()
            reason = "max-turns"
            detail: dict[str, JSON] = {}
        else:
            scores, scored, left = self.round_scores(closer)
            winners = tuple(sorted(self.team_of(closer)))
            reason = "closed"
            detail = {"closer": closer, "how": how, "melds": scored, "dominoes_left": left}
            self.emit("close", closer, {"how": how})
        self.phase = OVER
        self.drawn = None
        self.window = None
        if self.finish_round(winners, scores, reason, {**detail, "hand_sizes": [len(h) for h in self.hands]}):
            return
        self._deal_round()

    # -- listing ------------------------------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        """Every legal action of ``player`` now (see :func:`list_actions`); empty if it may not act."""
        if player not in self.to_act:
            return []
        drawn = self.drawn
        selecting = self.phase == SELECT
        return list_actions(
            player,
            phase=self.phase,
            hand=self.hands[player],
            rules=self.rules,
            options=self.options,
            open_columns=[(c, self.belt.face_down(c) if selecting else []) for c in self.belt.open_columns()],
            melds=[(m.kind, m.dominoes) for m in self.table] if self.phase == PLAY else [],
            milled=drawn.domino if drawn is not None and drawn.face_up else None,
            window_domino=None if self.window is None else self.window.domino,
        )

    # -- views ---------------------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, JSON]:
        """What ``player`` may see (``None``: a spectator).

        Face-down dominoes are ``??`` for everyone; a seat sees its own hand
        and, for every hand, the dominoes all players saw go into it
        (``hand_known``); the spectator sees no hand.
        """
        if player is not None and not 0 <= player < len(self.players):
            raise RuleError("SEAT", f"there is no seat {player} in this game")
        belt = self.belt
        columns: list[JSON] = []
        for c in range(belt.count):
            cells = belt.public_cells(c)
            columns.append(
                {
                    "column": c,
                    "claimed_by": belt.claimed_by[c],
                    "cells": cells,
                    "top": cells[0] if cells else None,
                    "bottom": cells[-1] if cells else None,
                }
            )
        drawn_view: dict[str, JSON] | None = None
        if self.drawn is not None:
            d = self.drawn
            drawn_view = {
                "column": d.column,
                "end": d.end,
                "discard_end": opposite(d.end),
                "face_up": d.face_up,
                "jumped": d.jumped,
                "domino": str(d.domino) if d.face_up or player == self.current else UNKNOWN,
            }
        window_view: dict[str, JSON] | None = None
        if self.window is not None:
            w = self.window
            window_view = {
                "domino": str(w.domino),
                "column": w.column,
                "end": w.end,
                "discarder": w.discarder,
                "waiting": sorted(w.waiting),
                "answered": sorted(w.claims),
            }
            if player is not None and player in w.claims:
                mine = w.claims[player]
                window_view["my_answer"] = "decline" if mine is None else mine.text()
        v: dict[str, JSON] = {
            "game": GAME_ID,
            "seat": player,
            "players": list(self.players),
            "options": dict(self.options),
            "round": self.round_no,
            "phase": self.phase,
            "turn": self.current,
            "to_act": sorted(self.to_act),
            "turn_number": self.turn_no,
            "first_selector": self.first,
            "first_claimer": self.first_claimer,
            "columns": columns,
            "conveyors": belt.open_columns(),
            "hand_sizes": [len(h) for h in self.hands],
            "hand_known": [[str(d) for d in sorted(k, key=by_code)] for k in self.known],
            "melds": [m.to_json(i) for i, m in enumerate(self.table)],
            "drawn": drawn_view,
            "jump_window": window_view,
            "teams": self.teams,
            "totals": list(self.totals),
            "rounds": [r.to_json() for r in self.rounds],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }
        if player is not None:
            v["hand"] = [str(d) for d in sorted(self.hands[player], key=by_code)]
        return v

    def snapshot(self) -> dict[str, JSON]:
        rng = hashlib.sha256(repr(self.rng.getstate()).encode()).hexdigest()
        belt = self.belt
        window: dict[str, JSON] | None = None
        if self.window is not None:
            w = self.window
            window = {
                "domino": str(w.domino),
                "column": w.column,
                "end": w.end,
                "discarder": w.discarder,
                "waiting": sorted(w.waiting),
                "claims": {str(s): None if c is None else c.text() for s, c in sorted(w.claims.items())},
            }
        drawn = None
        if self.drawn is not None:
            d = self.drawn
            drawn = [d.column, d.end, str(d.domino), d.face_up, d.jumped]
        return {
            "game": GAME_ID,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "columns": [[str(p) for p in col] for col in belt.columns],
            "face_up": [list(u) for u in belt.up],
            "claimed_by": list(belt.claimed_by),
            "pending": None if belt.pending is None else list(belt.pending),
            "hands": [[str(d) for d in h] for h in self.hands],
            "known": [[str(d) for d in sorted(k, key=by_code)] for k in self.known],
            "melds": [[m.owner, m.kind, [str(d) for d in m.dominoes], m.layout] for m in self.table],
            "phase": self.phase,
            "current": self.current,
            "first": self.first,
            "first_claimer": self.first_claimer,
            "turn_number": self.turn_no,
            "drawn": drawn,
            "window": window,
            "round": self.round_no,
            "totals": list(self.totals),
            "rounds": [r.to_json() for r in self.rounds],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "rng": rng,
            "history": len(self.history),
            "actions": [str(a) for a in self.actions],
        }

    def parse_action(self, text: str) -> Action:
        seat, rest = self.split_seat(text)
        return parse_action_text(seat, rest)

    def position(self) -> str:
        """This position as a one-line string (the start of a turn only; see :func:`from_position`)."""
        if self.phase != DRAW:
            raise _err(
                f"{PREFIX}-POSITION", f"a position string describes the start of a turn; the game is at {self.phase}"
            )
        cols: list[str] = []
        for c in range(self.belt.count):
            owner = self.belt.claimed_by[c]
            if owner is not None:
                cols.append(f"claimed {owner}")
            else:
                cols.append(
                    " ".join(
                        str(p) if up else f"?{p}" for p, up in zip(self.belt.columns[c], self.belt.up[c], strict=True)
                    )
                )
        hands = " / ".join(format_dominoes(sorted(h)) for h in self.hands)
        melds = " | ".join(f"{m.owner}: {format_dominoes(m.dominoes)}" for m in self.table)
        known = " / ".join(format_dominoes(sorted(k)) for k in self.known)
        return (
            f"columns: {' / '.join(cols)}; hands: {hands}; melds: {melds}; known: {known};"
            f" turn: {self.current}; turns: {self.turn_no - 1}"
        )


_HANDLERS: dict[type, Any] = {
    Reveal: Conveyor._reveal,
    Claim: Conveyor._claim,
    Draw: Conveyor._draw,
    Meld: Conveyor._meld,
    Layoff: Conveyor._layoff,
    Discard: Conveyor._discard,
    Close: Conveyor._close,
    Jump: Conveyor._jump,
    Decline: Conveyor._decline,
}


# -- positions ----------------------------------------------------------------------------

_FIELDS = ("columns", "hands", "melds", "known", "turn", "turns")


def _position_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = key.strip().lower()
        if not sep or key not in _FIELDS:
            raise ParseError(f"bad position field {part.strip()!r}: fields are {', '.join(_FIELDS)}")
        if key in fields:
            raise ParseError(f"position field {key!r} given twice")
        fields[key] = value.strip()
    for needed in ("columns", "hands"):
        if needed not in fields:
            raise ParseError(f"a conveyor position needs '{needed}: ...'")
    return fields


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ParseError(f"{what} must be a whole number, got {text!r}") from None


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: Any,
) -> Conveyor:
    """Set up the start of a turn from its one-line string.

    ``columns: <col> / <col> ...; hands: <hand> / <hand> ...; melds: <seat>:
    <dominoes> | ...; known: <dominoes> / ...; turn: <seat>; turns: <n>``.
    A column lists its dominoes from top to bottom, each face-down one written
    with a ``?`` before it; a claimed column is ``claimed <seat>``. ``melds``
    gives each meld's owner and dominoes in table order; ``known`` the
    dominoes of each hand that everyone has seen (default none); ``turn`` the
    seat about to draw (default 0); ``turns`` the turns already played in the
    round (default 0). The set is the largest half found (unless the option
    ``set`` says it), the layout the columns given. The seed is used by the
    rounds that follow in a match.

    >>> s = from_position('columns: claimed 0 / ?0-0 ?0-1 ?0-2 0-3 ?0-4 ?0-5 ?0-6 / '
    ...     '?1-1 ?1-2 ?1-3 1-4 ?1-5 ?1-6 ?2-2 / claimed 1; hands: 4-6 5-5 3-6 5-6 6-6 2-5 4-5 / '
    ...     '2-3 3-4 2-4 3-3; melds: 1: 2-6 3-5 4-4; turn: 1')
    >>> s.view(0)['columns'][1]['cells'], s.view(0)['melds'][0]['kind'], s.options['set']
    (['??', '??', '??', '0-3', '??', '??', '??'], 'sum', 6)
    >>> s.position().split('; ')[-2:]
    ['turn: 1', 'turns: 0']
    """
    from rummykit.engine.core import check_seed, default_names
    from rummykit.engine.options import resolve_options as resolve_specs

    fields = _position_fields(text)
    hand_texts = fields["hands"].split("/")
    names = default_names(len(hand_texts) if players is None else players)
    n = len(names)
    if len(hand_texts) != n:
        raise ParseError(f"the position has {len(hand_texts)} hands but {n} players were named")
    if not INFO.min_players <= n <= INFO.max_players:
        raise ParseError(f"{GAME_ID} is for {INFO.min_players} to {INFO.max_players} players, not {n}")

    hands = [parse_dominoes(h) for h in hand_texts]
    column_texts = [c.strip() for c in fields["columns"].split("/")]
    cols: list[list[Domino]] = []
    ups: list[list[bool]] = []
    claimed: list[int | None] = []
    for ct in column_texts:
        words = ct.split()
        if words and words[0].lower() == "claimed":
            if len(words) != 2 or not words[1].isdigit() or int(words[1]) >= n:
                raise ParseError(f"write a claimed column as 'claimed SEAT' with a seat 0..{n - 1}, got {ct!r}")
            cols.append([])
            ups.append([])
            claimed.append(int(words[1]))
            continue
        col: list[Domino] = []
        up: list[bool] = []
        for w in words:
            col.append(Domino.parse(w[1:] if w.startswith("?") else w))
            up.append(not w.startswith("?"))
        if not col:
            raise ParseError("an unclaimed column needs its dominoes (two '/' in a row?)")
        cols.append(col)
        ups.append(up)
        claimed.append(None)
    if sorted(s for s in claimed if s is not None) != list(range(n)):
        raise ParseError(f"each of the {n} seats must have claimed exactly one column ('claimed SEAT')")
    lengths = {len(c) for c in cols if c}
    if len(lengths) != 1:
        raise ParseError(f"every unclaimed column must have the same length, got {sorted(lengths)}")
    length = lengths.pop()
    melds: list[tuple[int, Pieces]] = []
    if fields.get("melds", "").strip():
        for part in fields["melds"].split("|"):
            owner_text, sep, dominoes_text = part.partition(":")
            if not sep or not owner_text.strip().isdigit() or int(owner_text) >= n:
                raise ParseError(f"write a meld as 'SEAT: dominoes' with a seat 0..{n - 1}, got {part.strip()!r}")
            melds.append((int(owner_text), tuple(parse_dominoes(dominoes_text))))
    every = [d for c in cols for d in c] + [d for h in hands for d in h] + [d for _o, m in melds for d in m]
    given = resolve_specs(INFO.options, options)  # checked and converted; None where not given
    for name, value in (("set", max((d.high for d in every), default=0)), ("columns", len(cols)), ("column_length", length)):
        if given[name] is None:
            given[name] = value
        elif given[name] != value:
            raise ParseError(f"option {name} is {given[name]} but the position has {value}")
    if given["set"] not in SETS:
        raise ParseError(f"the dominoes make a double-{given['set']} set; conveyor uses double-6, -9 or -12")
    top = int(given["set"])
    full = double_set(top)
    if sorted(every) != full:
        counts: dict[Domino, int] = {}
        for d in every:
            counts[d] = counts.get(d, 0) + 1
        problems = []
        twice = sorted(d for d, k in counts.items() if k > 1)
        missing = sorted(set(full) - set(every))
        outside = sorted(set(every) - set(full))
        if twice:
            problems.append(f"twice: {format_dominoes(twice)}")
        if missing:
            problems.append(f"missing: {format_dominoes(missing)}")
        if outside:
            problems.append(f"not in the double-{top} set: {format_dominoes(outside)}")
        raise ParseError(f"a position holds every domino of the set exactly once ({'; '.join(problems)})")
    state = Conveyor.__new__(Conveyor)
    GameState.__init__(state, names, check_seed(seed), resolve_options(n, given))
    state.top = top
    state.rules = _rules(top)
    state.belt = Conveyors(cols, ups, claimed, length)
    state.hands = [list(h) for h in hands]
    known_text = fields.get("known", "")
    known_texts = known_text.split("/") if known_text.strip() else [""] * n
    if len(known_texts) != n:
        raise ParseError(f"'known' needs one list per seat ({n}), separated by '/'")
    state.known = [set(parse_dominoes(k)) for k in known_texts]
    for s in range(n):
        if not state.known[s] <= set(hands[s]):
            raise ParseError(f"known dominoes of seat {s} must be in that seat's hand")
    state.table = []
    for owner, pieces in melds:
        check = state.rules.check(pieces)
        if not check.valid or check.kind is None:
            raise ParseError(f"meld {format_dominoes(pieces)} is invalid: {check.reason}")
        # a run keeps its one normal order; a sum keeps the order written (its ends as laid)
        state.table.append(
            TableMeld.make(state.rules, owner, check.kind, pieces if check.kind == "sum" else check.pieces)
        )
    state.current = _whole(fields.get("turn", "0"), "turn")
    if not 0 <= state.current < n:
        raise ParseError(f"turn must be a seat 0..{n - 1}, got {state.current}")
    played = _whole(fields.get("turns", "0"), "turns")
    if not 0 <= played < state.options["max_turns"]:
        raise ParseError(f"turns must be 0..{state.options['max_turns'] - 1} (max_turns), got {played}")
    state.phase = DRAW
    state.first = state.current
    state.first_claimer = state.current
    state.turn_no = played + 1
    state.drawn = None
    state.window = None
    state.position_text = text.strip()
    # The event says only what the table shows; each seat learns its own hand.
    state.emit("position", None, {"hand_sizes": [len(h) for h in state.hands], "turn": state.current})
    for seat in range(n):
        state.emit("hand", seat, {}, {"hand": [str(d) for d in sorted(state.hands[seat], key=by_code)]})
    return state


def _meld_event(data: dict[str, JSON]) -> dict[str, JSON]:
    """A meld's data for an event: its kind under ``meld_kind`` (``kind`` names the event)."""
    out = dict(data)
    out["meld_kind"] = out.pop("kind")
    return out


def _factory(players: tuple[str, ...], seed: int, options: dict[str, Any]) -> GameState:
    return Conveyor(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Conveyor Rummy (dominoes drawn from conveyor columns)",
    summary="Double-9 or double-12 dominoes in columns; claim a column as your hand, draw from one end of a"
    " conveyor and discard to the other; runs, runs of pairs and sums.",
    min_players=2,
    max_players=4,
    options=OPTIONS,
    factory=_factory,
    aliases=("conveyor-rummy", "cv"),
    from_position=from_position,
    view_actions=actions_from_view,
    rules_page="docs/games/conveyor.md",
)
Conveyor.info = INFO
