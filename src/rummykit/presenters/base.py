"""The presenter interface: what every interface (line prompt, terminal app, browser) asks of a game.

A presenter turns a game's *views* and *events* (plain data a seat may see)
into words and lines, and a person's typed commands into the game's own
actions. It holds no rule: whether an action is legal is for the engine to
say (``state.apply``, or the game's listing of actions from a view), and a
presenter never reads a game state, only views, so it cannot show what the
seat may not know.

Each game's presenter module (named by ``presenters.registry.presenter_module``)
exports one object, ``PRESENTER``, that satisfies :class:`Presenter`.

>>> words = Vocabulary(piece='domino', rack='hand', pool='boneyard', reasons={'blocked': 'the {pool} ran out'})
>>> words.count(1), words.count(3), words.reason('blocked'), words.reason('odd')
('1 domino', '3 dominoes', 'the boneyard ran out', 'odd')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rummykit.engine.core import Action
from rummykit.errors import RuleError, seat_param
from rummykit.presenters.text import HelpRow, Style, counted, plural_of

if TYPE_CHECKING:
    from rummykit.solve.command import Answer, Request

__all__ = [
    "TEXT_TABLE",
    "Board",
    "BoardSet",
    "EventNarrator",
    "HelpRow",
    "Narrator",
    "Presenter",
    "Quit",
    "SharedNarrator",
    "Solver",
    "Style",
    "Turn",
    "Vocabulary",
    "table_kind",
    "word_refusal",
]

View = Mapping[str, Any]
"""A seat's (or a spectator's) view, as ``GameState.view`` returns it."""

Say = Callable[..., None]
"""Where a turn prints lines it shows on request (``help``, ``show``...): ``say(*lines)``."""


TEXT_TABLE = "text"
"""The table kind of a presenter that names none: the table is drawn as the presenter's lines."""


def table_kind(presenter: object) -> str:
    """The family of table widget an interface draws for a presenter's game (its ``table_kind``).

    A presenter may name one (``melds-pile``: melds and a spread discard pile
    with a hand); an interface that has no widget of that kind, or a presenter
    that names none, falls back to :data:`TEXT_TABLE`: the presenter's lines.

    >>> table_kind(object())
    'text'
    """
    kind = getattr(presenter, "table_kind", TEXT_TABLE)
    return kind if isinstance(kind, str) else TEXT_TABLE


def word_refusal(
    exc: BaseException, names: Sequence[str] = (), viewer: int | None = None, *, draft_rules: bool = True
) -> str:
    """A refusal (or any bad-input error) in one line as a person reads it: the one place that words them.

    The engine's :class:`~rummykit.errors.RuleError` carries its data; here
    its positions (columns, cells, melds, sets, rows) are counted from 1 as
    the screen counts them, a seat is named (``names``; "you" for
    ``viewer``), and the rule id is kept at the end (a draft's own
    bookkeeping, rules ending ``-DRAFT``, only with ``draft_rules``: the line
    prompt leaves those out). Anything else reads as its message.

    >>> exc = RuleError("CV-COLUMN-CLAIMED", "column {column} was claimed by {seat}", column=2, seat=1,
    ...                 counted=("column",))
    >>> str(exc)
    'column 2 was claimed by seat 1 (rule CV-COLUMN-CLAIMED)'
    >>> word_refusal(exc), word_refusal(exc, ["Ann", "Bo"], viewer=1)
    ('column 3 was claimed by P2 (rule CV-COLUMN-CLAIMED)', 'column 3 was claimed by you (rule CV-COLUMN-CLAIMED)')
    """
    if isinstance(exc, RuleError):
        reason = exc.worded(1, seat_param(names, viewer) if names else None)
        text = reason if exc.rule.endswith("-DRAFT") and not draft_rules else f"{reason} (rule {exc.rule})"
    else:
        text = str(exc)
    return " ".join(text.split())


class Quit(Exception):
    """The person asked to stop the game (``quit``): the interface saves the record and stops."""


@dataclass(frozen=True)
class Vocabulary:
    """What a game calls its things, for every sentence an interface builds.

    ``piece`` is one piece (``tile``, ``domino``) and ``pieces`` its plural
    (derived when left empty); ``rack`` what a player holds (``rack``,
    ``hand``); ``pool`` where pieces are drawn from (``pool``, ``boneyard``,
    ``conveyors``); ``opening`` a player's first play (``initial meld``);
    ``reasons`` the wording of each reason a round or match ends (``{pool}``
    is replaced by the pool's name).
    """

    piece: str = "tile"
    pieces: str = ""
    rack: str = "rack"
    pool: str = "pool"
    opening: str = "initial meld"
    reasons: Mapping[str, str] = field(default_factory=dict)

    @property
    def plural(self) -> str:
        """The plural of :attr:`piece` (``tiles``, ``dominoes``)."""
        return self.pieces or plural_of(self.piece)

    def count(self, n: int) -> str:
        """``1 tile``, ``14 tiles``."""
        return counted(n, self.piece, self.plural)

    def reason(self, reason: Any) -> str:
        """Why a round or match ended, in words (the reason's id if the game has no wording for it)."""
        return self.reasons.get(str(reason), str(reason)).format(pool=self.pool)


@dataclass(frozen=True)
class BoardSet:
    """One set of a :class:`Board`: its number on the screen (from 1), its pieces and what is wrong with it.

    ``marks`` has one change mark per piece (``+`` placed from the rack this
    turn, ``*`` moved from another set, ``""`` kept); ``problem`` is the
    engine's reason and rule id when the set is invalid. An empty set is a
    slot emptied this turn (it is left out when the turn is committed).
    ``items`` are the same pieces as the game's objects, for the steps an
    interface builds (:meth:`Turn.step`).
    """

    number: int
    pieces: tuple[str, ...]
    marks: tuple[str, ...]
    problem: str | None = None
    items: tuple[object, ...] = ()


@dataclass(frozen=True)
class Board:
    """A turn being built on a free table, as data, for an interface that draws it itself (the terminal app).

    ``rack`` lists the pieces left in the rack in the order the seat chose
    (a piece held twice appears twice); ``problems`` what is wrong with the
    turn as a whole; ``ready`` is True when committing would pass the
    engine's checks of the draft. ``rack_items`` are the rack's pieces as
    the game's objects (in the same order), and each set's ``items`` its
    pieces: an interface builds the draft's steps from them (the steps
    declared in :mod:`rummykit.rulesets.draft_steps`, set numbers from 0)
    and takes them with :meth:`Turn.step`, the way a typed step is taken
    once read.
    """

    sets: tuple[BoardSet, ...]
    rack: tuple[str, ...]
    placed: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    ready: bool = False
    changed: bool = False
    rack_items: tuple[object, ...] = ()


@runtime_checkable
class Turn(Protocol):
    """One person at the keyboard for one seat: typed commands in, the game's actions out.

    Nothing a turn does changes the game: the interface applies the action
    :meth:`command` returns (the engine refuses it or not) and, if the same
    seat is to act again, gives the turn the new view with :meth:`update`.
    """

    seat: int
    """The seat the turn is for (the player of every step and action it takes)."""

    @property
    def order(self) -> str:
        """The order the seat chose for its rack (kept by the interface from turn to turn)."""
        ...

    @property
    def label(self) -> str:
        """What the person is doing, for prompts and headings: ``turn``, ``answer``..."""
        ...

    echo: bool
    """True (the line prompt): a drafting step says the new draft. An interface that draws
    :meth:`board` itself sets it False."""

    def board(self) -> Board | None:
        """The turn being built on a free table, as data (None: the game has no such draft)."""
        ...

    def command(self, line: str) -> Action | None:
        """Run one typed line: the action to apply, or None (the line only showed or drafted something).

        Raises :class:`~rummykit.errors.RummykitError` for bad input (nothing
        changed) or :class:`Quit`.
        """
        ...

    def step(self, step: Action) -> Action | None:
        """Take one draft step built from typed values (a declared step of the seat's draft, numbers from 0),
        as :meth:`command` takes a typed step once read: the action to apply (a commit), or None."""
        ...

    def act(self, action: Action) -> Action | None:
        """A game action built from typed values, as :meth:`command` takes a typed one once read: the action
        to apply, or None (a drafted game drafted it)."""
        ...

    def undo(self) -> None:
        """Take back the draft's last step (as the ``undo`` command)."""
        ...

    def reset(self) -> None:
        """Start a drafted turn again (as the ``reset`` command)."""
        ...

    def screen(self) -> list[str]:
        """Everything the seat sees now, as lines."""
        ...

    def accepted(self) -> list[str]:
        """Lines to show once the engine accepted the action :meth:`command` returned last."""
        ...

    def update(self, view: View) -> list[str]:
        """Take the seat's new view (it acts again); the lines worth showing."""
        ...

    def completions(self, words: Sequence[str]) -> list[str]:
        """The words that may be typed next after ``words`` (those already typed), for tab completion.

        With no words, the commands; after a command, what it takes that the
        seat holds or may name: the pieces left in its rack (those typed on the
        line already left out), a sort order, a keyword. The interface offers
        those that begin with the word being typed. Nothing here judges a move.
        """
        ...


@runtime_checkable
class Narrator(Protocol):
    """Tells one game's events in order, as they happen, to one audience (a seat or a spectator).

    A narrator may remember what it told (the table before a play, so that
    it can mark what the play changed); make one per game and audience with
    :meth:`Presenter.narrator` and give it every event in order.
    """

    def describe(self, event: View) -> list[str]:
        """Lines telling the event (as :meth:`Presenter.describe_event`), ``[]`` for nothing to tell."""
        ...


@runtime_checkable
class SharedNarrator(Narrator, Protocol):
    """A :class:`Narrator` whose memory comes from what the events show everyone: one may serve every audience.

    Its promise: two such narrators of a game (same names, same style) that
    were told its events in order, each as its audience sees them, are in
    the same state, whatever secrets the events showed either audience. So an
    event that shows one audience no more than the spectators is told to it
    in the spectators' lines, and :meth:`fork` tells the one audience an
    event shows a secret to (``rummykit serve`` narrates each event once).
    """

    def fork(self) -> Narrator:
        """A narrator in this one's state, to tell one event to one audience; telling it leaves this one as it is."""
        ...


class EventNarrator:
    """A :class:`Narrator` for a game whose every event says all there is to tell: no memory needed."""

    def __init__(self, describe: Callable[[View], list[str]]) -> None:
        self._describe = describe

    def describe(self, event: View) -> list[str]:
        """The event told on its own."""
        return self._describe(event)

    def fork(self) -> EventNarrator:
        """This narrator itself: it has no memory to keep apart (see :class:`SharedNarrator`)."""
        return self


class Solver(Protocol):
    """A position solver for ``rummykit solve``: an answer (lines and JSON) for a request, or a
    :class:`~rummykit.solve.command.SolveError` (see :mod:`rummykit.solve.command`)."""

    def __call__(self, request: Request) -> Answer: ...


@runtime_checkable
class Presenter(Protocol):
    """Everything an interface needs to show one game and take a person's turns.

    Every method reads views, events (as a seat sees them, see
    :meth:`~rummykit.engine.core.Event.seen_by`) or outcomes, never a game
    state; ``names`` are the players' names by seat, ``labels`` a note per
    seat (``you``, ``bot greedy``), ``order`` a rack order of
    :attr:`orders` (None: the first).
    """

    @property
    def game(self) -> str:
        """The id of the game presented."""
        ...

    @property
    def words(self) -> Vocabulary:
        """The game's vocabulary."""
        ...

    @property
    def orders(self) -> Sequence[str]:
        """The orders a rack can be shown in (the first is the default)."""
        ...

    @property
    def playable(self) -> bool:
        """True when people can take turns through :meth:`turn` (a presenter may show a game first)."""
        ...

    @property
    def hint(self) -> bool:
        """True when :meth:`hint_lines` can show the best play (the ``hint`` command)."""
        ...

    @property
    def solver(self) -> Solver | None:
        """The position solver behind ``rummykit solve``, if the game has one."""
        ...

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """Lines telling one event as a seat sees it (``[]``: nothing to tell)."""
        ...

    def narrator(self, names: Sequence[str], style: Style) -> Narrator:
        """A :class:`Narrator` that tells a whole game's events in order (and marks what plays changed)."""
        ...

    def rules_lines(self) -> list[str]:
        """The rules in brief, for ``rummykit rules`` (the full rules are on the game's page)."""
        ...

    def notation_lines(self) -> list[str]:
        """What the pieces' notation means (colour letters, domino halves, jokers), for ``rummykit rules``."""
        ...

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """Where the game stands: round, turn, pool and one line per seat."""
        ...

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The table (and whatever else lies open between the players)."""
        ...

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's own pieces (none in a spectator's view)."""
        ...

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """The whole game as the view shows it: status, table, rack."""
        ...

    def help_rows(self, view: View) -> list[HelpRow]:
        """The turn commands (those of the options in play), as rows of a command list."""
        ...

    def command_text(self, action: Action) -> str:
        """The command a person types for ``action`` (numbers as the screen shows them, from 1)."""
        ...

    def help_lines(self, view: View, style: Style | None = None) -> list[str]:
        """The command list, with its heading (laid out to the style's width when given)."""
        ...

    def turn(
        self,
        view: View,
        *,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
        parse_action: Callable[[str], Action] | None = None,
    ) -> Turn:
        """A :class:`Turn` for the seat whose view this is.

        Every game's turn is the one generic :class:`~rummykit.presenters.turn.Turn`,
        which reads typed commands with the game's command table and
        :meth:`~rummykit.engine.core.GameInfo.parse_typed`; ``parse_action`` is
        accepted for callers that still pass it, and not used.
        """
        ...

    def hint_lines(self, view: View) -> list[str]:
        """The best play for the seat whose view this is, as steps (nothing is played)."""
        ...

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of a round (a ``round-end`` event): who won it, why, the scores."""
        ...

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of the match (an outcome or a ``match-end`` event): the winners and final scores."""
        ...
