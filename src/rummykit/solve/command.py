"""What ``rummykit solve`` (one position or a batch) and the ``hint`` command print.

The command line passes text in and out only: a :class:`Request` (the table,
the rack and what to look for) goes to the game's solver, which refuses a bad
request with a :class:`SolveError` (one line) or returns an :class:`Answer`,
both as lines of text and as one JSON object.

>>> status, out = solve_command('R1 R2 R3 | K5 B5 O5', 'R4 J K7')
>>> status
0
>>> print(out)
place 2 tiles (34 points): R4 J
  add R4 J from your rack to set 1: R1 R2 R3 R4 J
final table: R1 R2 R3 R4 J | K5 B5 O5
>>> solve_command('R1 R2 | K5 B5 O5', 'R4')
(2, 'table set 1 (R1 R2) is invalid: a set needs at least 3 tiles: R1 R2')
>>> solve_command('', 'J J J')
(2, 'J x3: the game has 2 jokers (for a game with more: --option jokers=N)')
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired, TypedDict, TypeVar, cast

from rummykit.engine.options import OptionSpec, OptionValue, resolve_options
from rummykit.errors import RummykitError
from rummykit.rulesets.freetable import FreeTableView, format_table, parse_table_with
from rummykit.solve.steps import StepJSON, screen_order

if TYPE_CHECKING:
    from rummykit.solve.dominoes import DominoSolution
    from rummykit.solve.play import TileSolution

Piece = TypeVar("Piece")

EXIT_OK = 0
EXIT_BAD = 2


class SolveError(RummykitError):
    """A request the solver refuses: a bad position, option or combination (one line)."""


@dataclass(frozen=True)
class Request:
    """One position to solve and what to look for.

    ``table`` holds sets separated by ``|``; ``objective`` None is the game's
    first; ``threshold`` None is the game's own (rummikub: the option
    ``initial_meld_points``); ``options`` are the game's options as text.
    ``batch`` says the request is a line of ``--batch`` input, which only
    changes how errors name the fields.
    """

    table: str = ""
    rack: str = ""
    initial: bool = False
    objective: str | None = None
    threshold: int | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    batch: bool = False

    def name(self, what: str) -> str:
        """How the request's source names a field: ``--threshold`` or ``"threshold"``."""
        return f'"{what}"' if self.batch else f"--{what}"


class TileSolutionJSON(TypedDict):
    """A tile solution as one JSON object (see :func:`solution_json`); no ``objective`` when there is no play."""

    play: str | None
    objective: NotRequired[str]
    tiles_placed: int
    points_placed: int
    placed: list[str]
    table: list[list[str]]
    steps: list[StepJSON]
    meld_points: NotRequired[int]


class DominoSolutionJSON(TypedDict):
    """A domino solution as one JSON object (see :func:`domino_json`); no ``objective`` when there is no play."""

    play: str | None
    objective: NotRequired[str]
    dominoes_placed: int
    points_placed: int
    placed: list[str]
    table: list[list[str]]
    steps: list[StepJSON]


@dataclass(frozen=True)
class Answer:
    """A solved request: lines for a person and one JSON object."""

    lines: list[str]
    data: TileSolutionJSON | DominoSolutionJSON


Solver = Callable[[Request], Answer]
"""A game's solver: an answer, or a :class:`SolveError`."""


# -- batch lines --------------------------------------------------------------------

BATCH_FIELDS = ("table", "rack", "initial", "objective", "threshold", "options", "id")


def request_from_json(line: str, defaults: Request) -> Request:
    """A request from one line of ``--batch`` input (a JSON object), over ``defaults``.

    Fields: ``table`` (text with ``|`` between sets, or a list of sets, each a list
    or a text), ``rack`` (text or a list), ``initial`` (true/false), ``objective``,
    ``threshold`` (a whole number), ``options`` (an object) and ``id`` (anything,
    echoed in the answer). Every field may be left out.

    >>> request_from_json('{"table": [["R1", "R2", "R3"]], "rack": "R4"}', Request()).table
    'R1 R2 R3'
    >>> request_from_json('{"rack": 7}', Request())
    Traceback (most recent call last):
    ...
    rummykit.solve.command.SolveError: "rack" must be text or a list of pieces, not 7
    """
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise SolveError(f"not a JSON object: {exc.msg} (column {exc.colno})") from None
    if not isinstance(data, dict):
        raise SolveError(f"not a JSON object: {line.strip()[:40]}")
    unknown = sorted(set(data) - set(BATCH_FIELDS))
    if unknown:
        raise SolveError(f"unknown field {unknown[0]!r}: the fields are {', '.join(BATCH_FIELDS)}")
    table = defaults.table
    if "table" in data:
        table = _table_text(data["table"])
    rack = defaults.rack
    if "rack" in data:
        rack = _pieces_text(data["rack"], '"rack"')
    initial = defaults.initial
    if "initial" in data:
        if not isinstance(data["initial"], bool):
            raise SolveError(f'"initial" must be true or false, not {json.dumps(data["initial"])}')
        initial = data["initial"]
    objective = defaults.objective
    if "objective" in data:
        if not isinstance(data["objective"], str):
            raise SolveError(f'"objective" must be text, not {json.dumps(data["objective"])}')
        objective = data["objective"]
    threshold = defaults.threshold
    if "threshold" in data:
        value = data["threshold"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise SolveError(f'"threshold" must be a whole number, not {json.dumps(value)}')
        threshold = value
    options = dict(defaults.options)
    if "options" in data:
        if not isinstance(data["options"], dict):
            raise SolveError(f'"options" must be an object, not {json.dumps(data["options"])}')
        options.update({str(k): _option_text(v) for k, v in data["options"].items()})
    return Request(table, rack, initial, objective, threshold, options, batch=True)


def _table_text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " | ".join(_pieces_text(s, "each set of \"table\"") for s in value)
    raise SolveError(f'"table" must be text or a list of sets, not {json.dumps(value)}')


def _pieces_text(value: object, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(p, str) for p in value):
        return " ".join(value)
    raise SolveError(f"{what} must be text or a list of pieces, not {json.dumps(value)}")


def _option_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- checks shared by the games ------------------------------------------------------


def _options(specs: Sequence[OptionSpec], request: Request) -> dict[str, OptionValue]:
    """The game's options resolved from the request (a bad one is a :class:`SolveError`)."""
    try:
        return resolve_options(specs, dict(request.options))
    except RummykitError as exc:
        raise SolveError(str(exc)) from None


def _whole(options: Mapping[str, OptionValue], name: str) -> int:
    """A whole-number option's value (its spec allows no other; none is refused here)."""
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise SolveError(f"the option {name} needs a whole number here, not {_option_text(value)}")
    return value


def _objective(request: Request, choices: Sequence[str], game: str) -> str:
    objective = request.objective if request.objective is not None else choices[0]
    if objective not in choices:
        raise SolveError(f"unknown objective {objective!r} for {game}: use {' or '.join(choices)}")
    return objective


def _copies_problem(counts: Counter[Piece], limit: Callable[[Piece], int], what: str) -> str | None:
    over = sorted((p for p, k in counts.items() if k > limit(p)), key=str)
    if not over:
        return None
    return "more copies than the game has: " + ", ".join(f"{p} x{counts[p]}" for p in over) + f" ({what})"


# -- rummikub ------------------------------------------------------------------------


def solve_rummikub(request: Request) -> Answer:
    """The best rummikub play for a request (see :func:`rummykit.solve.solve_tiles`)."""
    from rummykit.melds.tiles import check_tiles
    from rummykit.pieces.tiles import format_tiles, parse_tiles
    from rummykit.rulesets.rummikub import COPIES, GAME_ID, OPTIONS
    from rummykit.solve.play import solve_tiles

    options = _options(OPTIONS, request)
    objective = _objective(request, ("tiles", "points"), GAME_ID)
    threshold = _whole(options, "initial_meld_points")
    if request.threshold is not None:
        if not request.initial:
            raise SolveError(
                f"{request.name('threshold')} is for an initial meld: add {request.name('initial')}"
                f" (or leave {request.name('threshold')} out)"
            )
        spec = next(s for s in OPTIONS if s.name == "initial_meld_points")
        low, high = spec.minimum or 0, spec.maximum or 0
        if not low <= request.threshold <= high:
            raise SolveError(f"{request.name('threshold')} must be {low}..{high}, not {request.threshold}")
        threshold = request.threshold
    try:
        table = [tuple(s) for s in parse_table_with(parse_tiles, request.table)]
        rack = parse_tiles(request.rack)
    except RummykitError as exc:
        raise SolveError(str(exc)) from None
    if not rack:
        raise SolveError(f"the rack is empty: give at least one tile with {request.name('rack')}")
    for i, s in enumerate(table):
        c = check_tiles(s)
        if not c.valid:
            raise SolveError(f"table set {i + 1} ({format_tiles(s)}) is invalid: {c.reason}")
    counts = Counter(t for s in table for t in s) + Counter(rack)
    jokers = sum(k for t, k in counts.items() if t.is_joker)
    allowed = _whole(options, "jokers")
    if jokers > allowed:
        raise SolveError(
            f"J x{jokers}: the game has {allowed} joker{'s' if allowed != 1 else ''}"
            f" (for a game with more: {'the option' if request.batch else '--option'} jokers=N)"
        )
    problem = _copies_problem(counts, lambda t: jokers if t.is_joker else COPIES, f"{COPIES} of each tile")
    if problem is not None:
        raise SolveError(problem)
    solution = solve_tiles(table, rack, objective="initial" if request.initial else objective, threshold=threshold)
    lines = solution_lines(table, solution, initial=request.initial, threshold=threshold)
    return Answer(lines, solution_json(table, solution, initial=request.initial))


def solve_command(
    table_text: str,
    rack_text: str,
    initial: bool = False,
    objective: str | None = None,
    as_json: bool = False,
    threshold: int | None = None,
) -> tuple[int, str]:
    """Solve a rummikub position given as text; returns (exit status, output).

    Sets are separated by ``|``. A bad request gives status 2 and a one-line reason.
    """
    try:
        answer = solve_rummikub(Request(table_text, rack_text, initial, objective, threshold))
    except SolveError as exc:
        return EXIT_BAD, str(exc)
    return EXIT_OK, json.dumps(answer.data) if as_json else "\n".join(answer.lines)


def solution_json(
    table: Sequence[Sequence[object]], solution: TileSolution | None, *, initial: bool = False
) -> TileSolutionJSON:
    """A tile solution as one JSON object (``tiles_placed``, ``points_placed``, ``placed``, ``table``, ``steps``)."""
    if solution is None:
        return {
            "play": None,
            "tiles_placed": 0,
            "points_placed": 0,
            "placed": [],
            "table": [[str(t) for t in s] for s in table],
            "steps": [],
        }
    out: TileSolutionJSON = {
        "play": f"play {' '.join(map(str, solution.placed))} : {format_table(solution.table)}",
        "objective": solution.objective,
        "tiles_placed": solution.tiles_placed,
        "points_placed": solution.points_placed,
        "placed": [str(t) for t in solution.placed],
        "table": [[str(t) for t in s] for s in solution.table],
        "steps": [s.to_json() for s in solution.steps],
    }
    if initial:
        out["meld_points"] = solution.meld_points
    return out


def solution_lines(
    table: Sequence[Sequence[object]],
    solution: TileSolution | None,
    *,
    initial: bool = False,
    threshold: int = 30,
) -> list[str]:
    """A tile solution as lines of text: what to place, the steps, the final table."""
    if solution is None:
        if initial:
            return [f"no initial meld reaches {threshold} points from this rack: draw a tile"]
        return ["no play: draw a tile (or pass if the pool is empty)"]
    head = f"place {solution.tiles_placed} tile{'s' if solution.tiles_placed != 1 else ''}"
    if initial:
        head += f" as an initial meld worth {solution.meld_points} points"
    else:
        head += f" ({solution.points_placed} points)"
    lines = [f"{head}: {' '.join(map(str, solution.placed))}"]
    lines.extend(f"  {s.text}" for s in solution.steps)
    lines.append(final_table_line(table, solution.table))
    return lines


def final_table_line(
    table: Sequence[Sequence[object]], final: Sequence[Sequence[object]], *, numbered: bool = False
) -> str:
    """The final table in the order the screen numbers it (the sets given first, new sets after
    them, as the steps number them); ``numbered`` writes each set's number, for a hint."""
    order = screen_order(table, final)
    if numbered:
        sets = "  ".join(f"[{n}] {' '.join(map(str, s))}" for n, s in order)
        return f"final table, numbered as on the screen: {sets}"
    return f"final table: {format_table(s for _, s in order)}"


def hint_lines(view: Mapping[str, object]) -> list[str]:
    """The best play for the seat whose rummikub view this is, as steps (it plays nothing)."""
    from rummykit.pieces.tiles import parse_tiles
    from rummykit.solve.play import solve_tiles

    free = cast("FreeTableView", view)  # a rummikub view is a free-table view
    seat = free.get("seat")
    if seat is None:
        return ["a spectator has no rack to play from"]
    table = [tuple(parse_tiles(s)) for s in free["table"]]
    rack = parse_tiles(free["rack"])
    threshold = _whole(free["options"], "initial_meld_points")
    initial = not free["down"][seat] and threshold > 0
    solution = solve_tiles(table, rack, objective="initial" if initial else "tiles", threshold=threshold)
    if solution is None:
        what = "draw a tile" if free.get("pool_size") else "pass"
        if initial:
            return [f"hint: no initial meld of {threshold}+ points in your rack: {what}"]
        return [f"hint: no play from your rack: {what}"]
    lines = solution_lines(table, solution, initial=initial, threshold=threshold)
    return ["hint: " + lines[0], *lines[1:-1], final_table_line(table, solution.table, numbered=True)]


# -- domino-rummikub -----------------------------------------------------------------


def solve_domino_rummikub(request: Request) -> Answer:
    """The best domino-rummikub play for a request (see :func:`rummykit.solve.solve_dominoes`).

    >>> answer = solve_domino_rummikub(Request('3-5 4-5 5-5', '5-6 1-1 2-3'))
    >>> answer.lines[0], answer.data['dominoes_placed']
    ('place 1 domino (11 points): 5-6', 1)
    """
    from rummykit.pieces.dominoes import parse_dominoes
    from rummykit.rulesets.domino_rummikub import COPIES, GAME_ID, MELDS, OPTIONS
    from rummykit.solve.dominoes import solve_dominoes

    options = _options(OPTIONS, request)
    objective = _objective(request, ("dominoes", "points"), GAME_ID)
    if request.threshold is not None:
        raise SolveError(
            f"{request.name('threshold')} is not used in {GAME_ID}: its starting group has a size, not points"
            f" ({'the option' if request.batch else '--option'} starting_group_size)"
        )
    try:
        table = [tuple(s) for s in parse_table_with(parse_dominoes, request.table)]
        rack = parse_dominoes(request.rack)
    except RummykitError as exc:
        raise SolveError(str(exc)) from None
    if not rack:
        raise SolveError(f"the rack is empty: give at least one domino with {request.name('rack')}")
    for i, s in enumerate(table):
        c = MELDS.check(s)
        if not c.valid:
            raise SolveError(f"table set {i + 1} ({' '.join(map(str, s))}) is invalid: {c.reason}")
    problem = _copies_problem(
        Counter(d for s in table for d in s) + Counter(rack), lambda d: COPIES, f"{COPIES} of each domino"
    )
    if problem is not None:
        raise SolveError(problem)
    size = str(options["starting_group_size"])
    solution = solve_dominoes(
        table, rack, objective="initial" if request.initial else objective, starting_group_size=size
    )
    return Answer(domino_lines(table, solution, initial=request.initial), domino_json(table, solution))


def domino_json(table: Sequence[Sequence[object]], solution: DominoSolution | None) -> DominoSolutionJSON:
    """A domino solution as one JSON object (as :func:`solution_json`, ``dominoes_placed`` for tiles)."""
    if solution is None:
        return {
            "play": None,
            "dominoes_placed": 0,
            "points_placed": 0,
            "placed": [],
            "table": [[str(d) for d in s] for s in table],
            "steps": [],
        }
    return {
        "play": f"play {' '.join(map(str, solution.placed))} : {format_table(solution.table)}",
        "objective": solution.objective,
        "dominoes_placed": solution.pieces_placed,
        "points_placed": solution.points_placed,
        "placed": [str(d) for d in solution.placed],
        "table": [[str(d) for d in s] for s in solution.table],
        "steps": [s.to_json() for s in solution.steps],
    }


def domino_lines(
    table: Sequence[Sequence[object]], solution: DominoSolution | None, *, initial: bool = False
) -> list[str]:
    """A domino solution as lines of text: what to place, the steps, the final table."""
    if solution is None:
        if initial:
            return ["no starting group in this rack: draw a domino"]
        return ["no play: draw a domino (or pass if the boneyard is empty)"]
    n = solution.pieces_placed
    head = f"place {n} domino{'es' if n != 1 else ''}"
    head += " as your starting group" if initial else f" ({solution.points_placed} points)"
    lines = [f"{head}: {' '.join(map(str, solution.placed))}"]
    lines.extend(f"  {s.text}" for s in solution.steps)
    lines.append(final_table_line(table, solution.table))
    return lines


HINT_NODES = 4000
"""How far a domino-rummikub hint searches before it settles for the best play found (a
fraction of a second; ``rummykit solve`` searches to the end)."""


def domino_hint_lines(view: Mapping[str, object]) -> list[str]:
    """The best play for the seat whose domino-rummikub view this is, as steps (it plays nothing).

    Before the seat is down, the best starting group; afterwards the play placing the
    most dominoes. The search stops after :data:`HINT_NODES` steps; a play found by then
    is shown with a note that a better one may exist.
    """
    from rummykit.pieces.dominoes import parse_dominoes
    from rummykit.solve.dominoes import solve_dominoes

    free = cast("FreeTableView", view)  # a domino-rummikub view is a free-table view
    seat = free.get("seat")
    if seat is None:
        return ["a spectator has no rack to play from"]
    table = [tuple(parse_dominoes(" ".join(s))) for s in free["table"]]
    rack = parse_dominoes(" ".join(free["rack"]))
    initial = not free["down"][seat]
    solution = solve_dominoes(
        table,
        rack,
        objective="initial" if initial else "dominoes",
        starting_group_size=str(free["options"]["starting_group_size"]),
        node_limit=HINT_NODES,
    )
    if solution is None:
        what = "draw a domino" if free.get("pool_size") else "pass"
        if initial:
            return [f"hint: no starting group in your rack: {what}"]
        return [f"hint: no play from your rack found quickly: {what} (`rummykit solve` searches to the end)"]
    lines = domino_lines(table, solution, initial=initial)
    lines[-1] = final_table_line(table, solution.table, numbered=True)
    if not solution.exact:
        lines.append("(the best play found quickly; a better one may exist: `rummykit solve` searches to the end)")
    return ["hint: " + lines[0], *lines[1:]]
