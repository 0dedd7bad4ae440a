"""``rummikub``: standard tile rummy (seed 003, rulings in RULES-NOTES section 1).

Rules as enforced are described in ``docs/games/rummikub.md``; every rule id
quoted in an error (``RK-...``) is defined there.

>>> import rummykit
>>> state = rummykit.new_game('rummikub', players=2, seed=3)
>>> seat = state.view(None)['turn']
>>> len(state.view(seat)['rack']), state.view(seat)['pool_size']
(14, 78)
>>> state.apply(state.parse_action(f'{seat} draw'))[0].kind
'draw'
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.blocks.table import FreeTable, Opening, TableDraft
from rummykit.engine.core import JSON, Action, GameInfo, GameState, Outcome, register
from rummykit.engine.options import OptionSpec
from rummykit.errors import ParseError, RuleError
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER, MAX_NUMBER, Tile, format_tiles, parse_tiles

GAME_ID = "rummikub"
RACK_SIZE = 14
COPIES = 2
PENALTY_TILES = 3

OPTIONS = (
    OptionSpec("jokers", int, 2, "jokers in play", minimum=0, maximum=4),
    OptionSpec(
        "initial_meld_points",
        int,
        30,
        "least total of a player's initial meld (0: no initial-meld rule)",
        minimum=0,
        maximum=300,
    ),
    OptionSpec(
        "target",
        int,
        None,
        "play a match of rounds until a player's total reaches this (none: one round)",
        minimum=1,
        allow_none=True,
    ),
)

TABLE: FreeTable[Tile] = FreeTable(check_tiles, format_tiles, "RK", "tile")

TileSet = tuple[Tile, ...]
Table = tuple[TileSet, ...]


def full_set(jokers: int) -> list[Tile]:
    """Every tile in play: two of each colour and number, then the jokers.

    >>> len(full_set(2)), len(full_set(4))
    (106, 108)
    """
    tiles = [Tile(c, n) for c in COLOURS for n in range(1, MAX_NUMBER + 1) for _ in range(COPIES)]
    return tiles + [JOKER] * jokers


# -- actions ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw one tile from the pool, ending the turn."""

    def text(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the turn without playing, when the pool is empty."""

    def text(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Commit a turn: the tiles taken from the rack and the whole final table."""

    placed: TileSet
    table: Table

    def text(self) -> str:
        return f"play {format_tiles(self.placed)} : {format_table(self.table)}"


@dataclass(frozen=True, slots=True)
class Fail(Action):
    """Commit a turn whose table is invalid: the table is restored and the player draws 3."""

    placed: TileSet
    table: Table

    def text(self) -> str:
        return f"fail {format_tiles(self.placed)} : {format_table(self.table)}"


def format_table(table: Iterable[Iterable[Tile]]) -> str:
    """Sets in notation separated by ``|``.

    >>> format_table([parse_tiles('R1 R2 R3'), parse_tiles('K5 B5 O5')])
    'R1 R2 R3 | K5 B5 O5'
    """
    return " | ".join(format_tiles(s) for s in table)


def parse_table(text: str) -> Table:
    """Read sets separated by ``|`` (an empty text is an empty table).

    >>> parse_table('r1 r2 r3 | k5 b5 o5')[1]
    (Tile.parse('K5'), Tile.parse('B5'), Tile.parse('O5'))
    """
    if not text.strip():
        return ()
    parts = text.split("|")
    sets = tuple(tuple(parse_tiles(p)) for p in parts)
    for i, s in enumerate(sets):
        if not s:
            raise ParseError(f"set {i + 1} of {text.strip()!r} is empty (two '|' in a row?)")
    return sets


# -- the state ----------------------------------------------------------------


class Rummikub(GameState):
    """A game (a round, or a match of rounds) of standard tile rummy."""

    game_id = GAME_ID

    def __init__(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, Any],
        *,
        deal: bool = True,
    ) -> None:
        super().__init__(players, seed, options)
        n = len(self.players)
        self.pool: list[Tile] = []
        self.racks: list[list[Tile]] = [[] for _ in range(n)]
        self.table: list[TileSet] = []
        self.down: list[bool] = [False] * n
        self.current = 0
        self.first = 0
        self.idle_turns = 0
        self.round_no = 1
        self.turn_no = 1
        self.totals: list[int] = [0] * n
        if deal:
            self.first = self._draw_for_first_player()
            self._deal_round()

    # -- setup ----------------------------------------------------------------

    @property
    def threshold(self) -> int:
        """The initial-meld threshold (0: no initial-meld rule)."""
        return int(self.options["initial_meld_points"])

    def _draw_for_first_player(self) -> int:
        """Each player draws a tile; highest (joker highest) starts; ties draw again."""
        pool = full_set(self.options["jokers"])
        self.rng.shuffle(pool)
        contenders = list(range(len(self.players)))
        drawn_all: list[Tile] = []
        while True:
            if len(pool) < len(contenders):
                pool.extend(drawn_all)
                drawn_all.clear()
                self.rng.shuffle(pool)
            drawn = {p: pool.pop() for p in contenders}
            drawn_all.extend(drawn.values())
            self.emit("first-draw", None, {"tiles": {str(p): str(t) for p, t in drawn.items()}})
            best = max(_draw_rank(t) for t in drawn.values())
            contenders = [p for p in contenders if _draw_rank(drawn[p]) == best]
            if len(contenders) == 1:
                self.emit("first-player", contenders[0])
                return contenders[0]

    def _deal_round(self) -> None:
        self.pool = full_set(self.options["jokers"])
        self.rng.shuffle(self.pool)
        n = len(self.players)
        self.racks = [[] for _ in range(n)]
        for i in range(n):
            seat = (self.first + i) % n
            self.racks[seat] = [self.pool.pop() for _ in range(RACK_SIZE)]
        self.table = []
        self.down = [self.threshold == 0] * n
        self.current = self.first
        self.idle_turns = 0
        self.emit(
            "deal",
            None,
            {"round": self.round_no, "first": self.first, "rack_size": RACK_SIZE},
        )
        for seat in range(n):
            self.emit("rack", seat, {}, {"rack": [str(t) for t in sorted(self.racks[seat])]})

    # -- the contract ---------------------------------------------------------

    @property
    def to_act(self) -> frozenset[int]:
        return frozenset() if self.outcome is not None else frozenset((self.current,))

    def _apply(self, action: Action) -> None:
        if isinstance(action, Draw):
            self._draw(action.player)
        elif isinstance(action, Pass):
            self._pass(action.player)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Fail):
            self._fail(action)
        else:
            raise RuleError("ACTION", f"{action!r} is not a rummikub action")

    def _draw(self, seat: int) -> None:
        if not self.pool:
            raise RuleError("RK-POOL-EMPTY", "the pool is empty: play or pass")
        tile = self.pool.pop()
        self.racks[seat].append(tile)
        self.emit("draw", seat, {"pool_size": len(self.pool)}, {"tile": str(tile)})
        self._end_turn(played=False, pool_was_empty=False)

    def _pass(self, seat: int) -> None:
        if self.pool:
            raise RuleError("RK-DRAW", "a player who does not play draws a tile; pass only when the pool is empty")
        self.emit("pass", seat)
        self._end_turn(played=False, pool_was_empty=True)

    def _opening(self, seat: int) -> Opening | None:
        if self.down[seat]:
            return None
        return Opening(min_points=self.threshold, name="initial meld")

    def verify_play(self, action: Play | Fail) -> list[TileSet] | RuleError:
        """Check a committed turn. Raises for broken conservation; returns the
        normalised table when the turn is valid, or the table fault otherwise."""
        seat = action.player
        TABLE.verify_pieces(self.table, self.racks[seat], action.placed, action.table)
        fault = TABLE.turn_fault(self.table, action.placed, action.table, self._opening(seat))
        if fault is not None:
            return fault
        return TABLE.normalise(action.table)

    def _play(self, action: Play) -> None:
        result = self.verify_play(action)
        if isinstance(result, RuleError):
            raise result
        seat = action.player
        rack = self.racks[seat]
        for t in action.placed:
            rack.remove(t)
        self.table = result
        first = not self.down[seat]
        self.down[seat] = True
        self.emit(
            "play",
            seat,
            {
                "placed": [str(t) for t in action.placed],
                "table": [[str(t) for t in s] for s in result],
                "initial_meld": first,
                "rack_size": len(rack),
            },
        )
        if not rack:
            self._end_round(seat, "rack-empty")
        else:
            self._end_turn(played=True, pool_was_empty=not self.pool)

    def _fail(self, action: Fail) -> None:
        result = self.verify_play(action)
        if not isinstance(result, RuleError):
            raise RuleError("RK-FAIL-VALID", "this table is valid: commit it as a play, not as a failed turn")
        seat = action.player
        pool_was_empty = not self.pool
        drawn = [self.pool.pop() for _ in range(min(PENALTY_TILES, len(self.pool)))]
        self.racks[seat].extend(drawn)
        self.emit(
            "penalty",
            seat,
            {"reason": str(result), "drawn": len(drawn), "pool_size": len(self.pool)},
            {"tiles": [str(t) for t in drawn]},
        )
        self._end_turn(played=False, pool_was_empty=pool_was_empty)

    def _end_turn(self, *, played: bool, pool_was_empty: bool) -> None:
        n = len(self.players)
        if played:
            self.idle_turns = 0
        elif pool_was_empty:
            self.idle_turns += 1
            if self.idle_turns >= n:
                self._end_round(None, "blocked")
                return
        self.current = (self.current + 1) % n
        self.turn_no += 1

    def _end_round(self, winner: int | None, reason: str) -> None:
        totals = [sum(t.points for t in rack) for rack in self.racks]
        if winner is not None:
            winners: tuple[int, ...] = (winner,)
        else:
            low = min(totals)
            winners = tuple(i for i, v in enumerate(totals) if v == low)
        losers_sum = sum(v for i, v in enumerate(totals) if i not in winners)
        scores = tuple(
            losers_sum - totals[i] if i in winners else -totals[i] for i in range(len(totals))
        )
        for i, s in enumerate(scores):
            self.totals[i] += s
        target = self.options["target"]
        match_over = target is None or max(self.totals) >= target
        result = Outcome(winners, reason, scores, tuple(self.totals), match_over, self.round_no)
        self.rounds.append(result)
        self.emit(
            "round-end",
            None,
            {**result.to_json(), "racks": [[str(t) for t in sorted(r)] for r in self.racks]},
        )
        if match_over:
            best = max(self.totals)
            match_winners = winners if target is None else tuple(
                i for i, v in enumerate(self.totals) if v == best
            )
            self.outcome = Outcome(
                match_winners,
                reason if target is None else "target",
                scores,
                tuple(self.totals),
                True,
                self.round_no,
            )
            self.emit("match-end", None, self.outcome.to_json())
            return
        self.round_no += 1
        self.turn_no = 1
        self.first = (self.first + 1) % len(self.players)
        self._deal_round()

    # -- listable actions -----------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        """Draw (or pass), every single new set from the rack, every one-tile lay-off.

        Plays that rearrange the table cannot be listed; they are still legal
        when committed with :class:`Play`. See :func:`listable_actions`.
        """
        if player not in self.to_act:
            return []
        return listable_actions(
            player,
            self.racks[player],
            self.table,
            down=self.down[player],
            threshold=self.threshold,
            pool_size=len(self.pool),
        )

    # -- views ----------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, JSON]:
        n = len(self.players)
        v: dict[str, JSON] = {
            "game": GAME_ID,
            "seat": player,
            "players": list(self.players),
            "options": dict(self.options),
            "round": self.round_no,
            "turn_number": self.turn_no,
            "turn": self.current,
            "to_act": sorted(self.to_act),
            "table": [[t._text for t in s] for s in self.table],
            "rack_sizes": [len(r) for r in self.racks],
            "pool_size": len(self.pool),
            "down": list(self.down),
            "idle_turns": self.idle_turns,
            "totals": list(self.totals),
            "rounds": [r.to_json() for r in self.rounds],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }
        if player is not None:
            if not 0 <= player < n:
                raise RuleError("SEAT", f"there is no seat {player} in this game")
            v["rack"] = [t._text for t in sorted(self.racks[player])]
        return v

    def snapshot(self) -> dict[str, JSON]:
        rng = hashlib.sha256(repr(self.rng.getstate()).encode()).hexdigest()
        return {
            "game": GAME_ID,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "pool": [str(t) for t in self.pool],
            "racks": [[str(t) for t in r] for r in self.racks],
            "table": [[str(t) for t in s] for s in self.table],
            "down": list(self.down),
            "current": self.current,
            "first": self.first,
            "idle_turns": self.idle_turns,
            "round": self.round_no,
            "turn_number": self.turn_no,
            "totals": list(self.totals),
            "rounds": [r.to_json() for r in self.rounds],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "rng": rng,
            "history": len(self.history),
            "actions": [str(a) for a in self.actions],
        }

    def copy(self) -> Rummikub:
        other = object.__new__(Rummikub)
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.rng = self.rng.copy()
        other.history = list(self.history)
        other.actions = list(self.actions)
        other.rounds = list(self.rounds)
        other.pool = list(self.pool)
        other.racks = [list(r) for r in self.racks]
        other.table = list(self.table)
        other.down = list(self.down)
        other.totals = list(self.totals)
        return other

    # -- notation -------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        seat, rest = self.split_seat(text)
        return parse_action_text(seat, rest)

    def position(self) -> str:
        """This position as a one-line string (see :func:`from_position`)."""
        racks = " / ".join(format_tiles(sorted(r)) for r in self.racks)
        down = "".join("1" if d else "0" for d in self.down)
        return (
            f"table: {format_table(self.table)}; racks: {racks}; pool: {format_tiles(self.pool)};"
            f" turn: {self.current}; down: {down}; idle: {self.idle_turns}"
        )

    def draft(self, seat: int) -> TableDraft[Tile]:
        """A turn draft for ``seat`` (see :func:`draft_from_view`)."""
        return draft_from_view(self.view(seat))


def _draw_rank(tile: Tile) -> int:
    return MAX_NUMBER + 1 if tile.is_joker else tile.number


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in rummikub notation.

    >>> parse_action_text(0, 'play R4 : R1 R2 R3 R4')
    Play(player=0, placed=(Tile.parse('R4'),), table=((Tile.parse('R1'), Tile.parse('R2'), Tile.parse('R3'), Tile.parse('R4')),))
    """
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    if verb in ("draw", "pass"):
        if rest.strip():
            raise ParseError(f"'{verb}' takes nothing after it, got {rest.strip()!r}")
        return Draw(seat) if verb == "draw" else Pass(seat)
    if verb in ("play", "fail"):
        placed_text, sep, table_text = rest.partition(":")
        if not sep:
            raise ParseError(
                f"write '{verb} <placed tiles> : <final table>', sets separated by '|'; got {text!r}"
            )
        placed = tuple(parse_tiles(placed_text))
        table = parse_table(table_text)
        return (Play if verb == "play" else Fail)(seat, placed, table)
    raise ParseError(f"unknown rummikub action {verb!r}: use draw, pass, play or fail")


def play_from_table(seat: int, old_table: Iterable[Iterable[Tile]], new_table: Iterable[Iterable[Tile]]) -> Play:
    """The :class:`Play` that turns ``old_table`` into ``new_table`` (placed tiles derived)."""
    new = tuple(tuple(s) for s in new_table)
    placed = Counter(t for s in new for t in s) - Counter(t for s in old_table for t in s)
    return Play(seat, tuple(sorted(placed.elements())), new)


# -- listing plays ----------------------------------------------------------------


def rack_sets(rack: Iterable[Tile]) -> list[TileSet]:
    """Every valid set (in normal form) that can be made from the rack's tiles.

    >>> [format_tiles(s) for s in rack_sets(parse_tiles('R1 R2 R3 B3 K3'))]
    ['K3 B3 R3', 'R1 R2 R3']
    """
    jokers = 0
    numbers_mask: dict[int, int] = {}
    colour_mask = [0] * len(COLOURS)
    for t in rack:
        if t.colour is None:
            jokers += 1
            continue
        ci = t.code // MAX_NUMBER
        numbers_mask[t.number] = numbers_mask.get(t.number, 0) | 1 << ci
        colour_mask[ci] |= 1 << t.number
    found: dict[TileSet, None] = {}
    for number in sorted(numbers_mask):
        found.update(dict.fromkeys(_groups_from(number, numbers_mask[number], min(jokers, 3))))
    for ci, mask in enumerate(colour_mask):
        if mask:
            found.update(dict.fromkeys(_runs_from(ci, mask, min(jokers, MAX_NUMBER - 1))))
    return list(found)


@functools.lru_cache(maxsize=4096)
def _groups_from(number: int, colours: int, jokers: int) -> tuple[TileSet, ...]:
    """Every group of ``number`` from the colours in the bit mask plus up to ``jokers`` jokers."""
    tiles = [Tile(c, number) for c in COLOURS if colours >> c.index & 1]
    found: dict[TileSet, None] = {}
    for size in (3, 4):
        for k in range(max(1, size - jokers), min(size, len(tiles)) + 1):
            for combo in itertools.combinations(tiles, k):
                c = check_tiles((JOKER,) * (size - k) + combo)
                if c.valid:
                    found[c.pieces] = None
    return tuple(found)


@functools.lru_cache(maxsize=1 << 16)
def _runs_from(colour_index: int, numbers: int, jokers: int) -> tuple[TileSet, ...]:
    """Every run of one colour from the numbers in the bit mask plus up to ``jokers`` jokers."""
    colour = COLOURS[colour_index]
    found: dict[TileSet, None] = {}
    for start in range(1, MAX_NUMBER - 1):
        missing = 0
        for end in range(start, MAX_NUMBER + 1):
            if not numbers >> end & 1:
                missing += 1
                if missing > jokers:
                    break
            if end - start >= 2 and missing < end - start + 1:
                cand = tuple(
                    Tile(colour, v) if numbers >> v & 1 else JOKER for v in range(start, end + 1)
                )
                c = check_tiles(cand)
                if c.valid:
                    found[c.pieces] = None
    return tuple(found)


def layoffs(rack: Iterable[Tile], table: Sequence[TileSet]) -> list[tuple[Tile, int, TileSet]]:
    """Every (tile, set index, new set) adding one rack tile to one end of a table set.

    >>> [(str(t), i, format_tiles(s)) for t, i, s in layoffs(parse_tiles('R4 K5'), parse_table('R1 R2 R3'))]
    [('R4', 0, 'R1 R2 R3 R4')]
    """
    have = set(rack)
    out: list[tuple[Tile, int, TileSet]] = []
    for i, s in enumerate(table):
        for t, new in _extensions(s):
            if t in have:
                out.append((t, i, new))
    return out


@functools.lru_cache(maxsize=1 << 16)
def _extensions(s: TileSet) -> tuple[tuple[Tile, TileSet], ...]:
    """Every tile that makes a valid set when added at one end of ``s``, with that set."""
    out = []
    natural = [t for t in s if t.colour is not None]
    colours = {t.colour for t in natural}
    numbers = {t.number for t in natural}
    for t in ALL_TILES:
        if t.colour is not None and t.colour not in colours and t.number not in numbers:
            continue
        for cand in ((*s, t), (t, *s)):
            c = check_tiles(cand)
            if c.valid:
                out.append((t, c.pieces))
                break
    return tuple(out)


def listable_actions(
    seat: int,
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    *,
    down: bool,
    threshold: int,
    pool_size: int,
) -> list[Action]:
    """The listable actions of the player to move, from what that player can see.

    Draw (or pass when the pool is empty); every play of one new set from the
    rack (before the initial meld: one whose value reaches the threshold); and,
    once down, every lay-off of one rack tile onto one table set.
    """
    actions: list[Action] = [Draw(seat) if pool_size else Pass(seat)]
    base = tuple(table)
    for s in rack_sets(rack):
        if down or check_tiles(s).points >= threshold:
            actions.append(Play(seat, s, (*base, s)))
    if down:
        for t, i, new in layoffs(rack, table):
            actions.append(Play(seat, (t,), base[:i] + (new,) + base[i + 1 :]))
    return actions


def actions_from_view(view: Mapping[str, JSON]) -> list[Action]:
    """:func:`listable_actions` for the seat whose view this is (empty if it may not act)."""
    seat = view.get("seat")
    if seat is None or seat not in view["to_act"]:
        return []
    return listable_actions(
        seat,
        parse_tiles(view["rack"]),
        [tuple(parse_tiles(s)) for s in view["table"]],
        down=view["down"][seat],
        threshold=int(view["options"]["initial_meld_points"]),
        pool_size=int(view["pool_size"]),
    )


# -- drafts -------------------------------------------------------------------


def draft_from_view(view: Mapping[str, JSON]) -> TableDraft[Tile]:
    """A turn draft for the seat whose view this is."""
    if view.get("seat") is None:
        raise RuleError("RK-DRAFT", "a spectator cannot draft a turn")
    seat = int(view["seat"])
    threshold = int(view["options"]["initial_meld_points"])
    opening = None if view["down"][seat] else Opening(min_points=threshold, name="initial meld")
    return TableDraft(
        TABLE,
        parse_tiles(view["rack"]),
        [parse_tiles(s) for s in view["table"]],
        opening,
    )


def draft_action(seat: int, draft: TableDraft[Tile], *, accept_penalty: bool = False) -> Action:
    """The action committing a draft: a :class:`Play`, or with ``accept_penalty`` a :class:`Fail`."""
    table = tuple(tuple(s) for s in draft.sets)
    placed = tuple(draft.placed())
    if accept_penalty:
        return Fail(seat, placed, table)
    return Play(seat, placed, table)


# -- positions ----------------------------------------------------------------


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: Any,
) -> Rummikub:
    """Set up a position from its one-line string.

    ``table: <sets>; racks: <rack> / <rack> ...; pool: <tiles> | seed <n>;
    turn: <seat>; down: <one 0/1 per seat>; idle: <n>``. ``pool`` lists the
    tiles in draw order (the last is drawn first), or ``seed N`` to shuffle the
    tiles that are not on the table or in a rack with seed N. ``down``,
    ``idle`` and ``turn`` default to nobody down, 0 and seat 0.

    >>> s = from_position('table: R1 R2 R3; racks: R4 K9 / B1 B2; pool: seed 5; turn: 1')
    >>> s.view(1)['rack'], s.view(None)['pool_size']
    (['B1', 'B2'], 99)
    """
    from rummykit.engine.core import check_seed, default_names, find_game
    from rummykit.engine.options import resolve_options

    fields: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("table", "racks", "pool", "turn", "down", "idle"):
            raise ParseError(
                f"bad position field {part.strip()!r}: fields are table, racks, pool, turn, down, idle"
            )
        if key in fields:
            raise ParseError(f"position field {key!r} given twice")
        fields[key] = value.strip()
    if "racks" not in fields:
        raise ParseError("a position needs 'racks: ...' with one rack per seat, separated by '/'")
    racks = [parse_tiles(r) for r in fields["racks"].split("/")]
    names = default_names(len(racks) if players is None else players)
    info = find_game(GAME_ID)
    if len(names) != len(racks):
        raise ParseError(f"the position has {len(racks)} racks but {len(names)} players were named")
    if not info.min_players <= len(names) <= info.max_players:
        raise ParseError(f"rummikub is for {info.min_players} to {info.max_players} players, not {len(names)}")
    state = Rummikub(names, check_seed(seed), resolve_options(info.options, options), deal=False)
    table = parse_table(fields.get("table", ""))
    bad = TABLE.faults(table)
    if bad:
        i, c = bad[0]
        raise ParseError(f"table set {i + 1} is invalid: {c.reason}")
    state.table = TABLE.normalise(table)
    state.racks = [list(r) for r in racks]
    used = Counter(t for s in state.table for t in s)
    for r in racks:
        used.update(r)
    full = Counter(full_set(state.options["jokers"]))
    over = used - full
    if over:
        raise ParseError(f"more copies than the set holds: {format_tiles(sorted(over.elements()))}")
    pool_text = fields.get("pool", "")
    rest = sorted((full - used).elements())
    if pool_text.lower().startswith("seed"):
        try:
            pool_seed = check_seed(int(pool_text[4:].strip()))
        except ValueError:
            raise ParseError(f"write 'pool: seed N' with a whole number N, got {pool_text!r}") from None
        from rummykit.engine.rng import Rng

        Rng(pool_seed).shuffle(rest)
        state.pool = rest
    else:
        state.pool = parse_tiles(pool_text)
        extra = Counter(state.pool) - (full - used)
        if extra:
            raise ParseError(f"the pool holds tiles beyond the set: {format_tiles(sorted(extra.elements()))}")
    n = len(names)
    try:
        state.current = int(fields.get("turn", "0"))
    except ValueError:
        raise ParseError(f"turn must be a seat number, got {fields['turn']!r}") from None
    if not 0 <= state.current < n:
        raise ParseError(f"turn must be a seat 0..{n - 1}, got {state.current}")
    state.first = state.current
    down_text = fields.get("down", "0" * n).replace(" ", "")
    if len(down_text) != n or set(down_text) - {"0", "1"}:
        raise ParseError(f"down needs one 0 or 1 per seat ({n}), got {down_text!r}")
    state.down = [c == "1" or state.threshold == 0 for c in down_text]
    try:
        state.idle_turns = int(fields.get("idle", "0"))
    except ValueError:
        raise ParseError(f"idle must be a whole number, got {fields['idle']!r}") from None
    if not 0 <= state.idle_turns < n or (state.idle_turns and state.pool):
        raise ParseError("idle counts turns without a play since the pool emptied: 0..players-1, and 0 while the pool has tiles")
    state.position_text = text.strip()
    state.emit("position", None, {"position": state.position_text})
    return state


def _factory(players: tuple[str, ...], seed: int, options: dict[str, Any]) -> GameState:
    return Rummikub(players, seed, options)


INFO = register(
    GameInfo(
        id=GAME_ID,
        name="Rummikub (standard tile rummy)",
        summary="106 tiles, groups and runs, a 30-point initial meld, then free rearrangement of the table.",
        min_players=2,
        max_players=4,
        options=OPTIONS,
        factory=_factory,
        aliases=("tile-rummy", "rk"),
        from_position=from_position,
        view_actions=lambda view: actions_from_view(view),
        rules_page="docs/games/rummikub.md",
    )
)
Rummikub.info = INFO
