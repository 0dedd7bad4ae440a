"""What a room tells its audiences: each one's log of the game, and the position's views and legal actions.

A :class:`Teller` belongs to one :class:`~rummykit.server.rooms.Room`. Each
audience (a seat, or the spectators, :data:`~rummykit.server.outbox.SPECTATORS`)
has its log: the game's events as it may see them, told by the game's
narrator. The position's views and each seat's legal actions are made once
per position (per ``seq`` and table status), whatever the number of
connections and frames that carry them.

When the game's narrator remembers only what the events show everyone
(a :class:`~rummykit.presenters.base.SharedNarrator`), each event is told
once for all: the spectators' narrator tells it, and a seat's log gets the
same lines, unless the event holds a secret of that seat's (a tile it drew),
which a copy of the spectators' narrator as it stood before the event tells
that seat alone. The lines are the ones each seat's own narrator would have
told (the narrator's contract), and no seat's log holds another's secret:
a secret is only ever told to the seat the event shows it to. Other
narrators tell each audience's events themselves, as events are asked for.

>>> from rummykit.catalogue import games
>>> from rummykit.presenters.registry import presenter_for
>>> from rummykit.presenters.text import Style
>>> style = Style(color=False, width=0)
>>> shared = [i for i in games() if isinstance(presenter_for(i.id).narrator(['a', 'b'], style), SharedNarrator)]
>>> info = shared[0]
>>> state, presenter = info.new(players=2, seed=1), presenter_for(info.id)
>>> teller = Teller(presenter, style, GameSession(state, [None, None]))
>>> for _ in range(6):
...     _ = state.apply(state.legal_actions(min(state.must_act))[0])
>>> def own(seat):  # what the audience's own narrator tells
...     narrator = presenter.narrator(list(state.players), style)
...     return [line for event in state.history for line in narrator.describe(event.seen_by(seat))]
>>> all(teller.lines(a) == own(None if a == SPECTATORS else a) for a in (SPECTATORS, 0, 1))
True
>>> teller.lines(0) != teller.lines(1)  # each seat was told its own secrets (its rack, its draws)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rummykit.engine.core import Action, GameState, ViewHeader
from rummykit.presenters.base import Narrator, Presenter, SharedNarrator
from rummykit.presenters.text import Style
from rummykit.rulesets.freetable_views import views_of
from rummykit.server import questions
from rummykit.server.frames import LegalJSON, Status
from rummykit.server.outbox import SPECTATORS
from rummykit.session import GameSession

__all__ = ["Teller"]


class Teller:
    """The logs, views and legal actions a room's frames carry (see the module's docs)."""

    def __init__(self, presenter: Presenter, style: Style, session: GameSession) -> None:
        self.session = session
        names = list(session.state.players)
        audiences = [SPECTATORS, *range(len(names))]
        self.narrators: dict[int, Narrator] = {a: presenter.narrator(names, style) for a in audiences}
        self.logs: dict[int, list[str]] = {a: [] for a in audiences}
        self.narrated: dict[int, int] = {a: 0 for a in audiences}
        public = self.narrators[SPECTATORS]
        self.shared = public if isinstance(public, SharedNarrator) else None
        """The spectators' narrator, when it may tell the seats' public events too (else None)."""
        self.starts: list[int] = [0]
        """Where each event's lines start in the spectators' log, and (last) its end (with :attr:`shared`)."""
        self.secrets: dict[int, list[str]] = {}
        """The lines of an event with a secret, as its seat is told them, by the event's number (with :attr:`shared`)."""
        self._at: tuple[int, Status] | None = None
        self._views: dict[int, ViewHeader] = {}
        self._legal: dict[int, LegalJSON] = {}
        self._forms: dict[int, questions.ListedForms] = {}
        """Each seat's listed actions in their forms, kept from its last listing (see :class:`~rummykit.server.questions.ListedForms`)."""

    @property
    def state(self) -> GameState:
        return self.session.state

    # -- logs --------------------------------------------------------------------------------

    def lines(self, audience: int) -> list[str]:
        """The audience's whole log, told up to the last event (lazily: only when a frame needs it)."""
        if self.shared is None:
            self._tell_own(audience)
        else:
            self._tell_public()
            if audience != SPECTATORS:
                self._share(audience)
        return self.logs[audience]

    def _tell_own(self, audience: int) -> None:
        history = self.state.history
        start = self.narrated[audience]
        if start >= len(history):
            return
        seat = None if audience == SPECTATORS else audience
        narrator = self.narrators[audience]
        lines = self.logs[audience]
        for event in history[start:]:
            lines.extend(narrator.describe(event.seen_by(seat)))
        self.narrated[audience] = len(history)

    def _tell_public(self) -> None:
        """Tell the spectators every new event, and each seat the events that hold a secret of theirs."""
        public = self.shared
        assert public is not None
        history = self.state.history
        start = self.narrated[SPECTATORS]
        lines = self.logs[SPECTATORS]
        for number in range(start, len(history)):
            event = history[number]
            seat = event.player
            if event.secret and seat is not None and seat in self.narrators:
                # Told from where the spectators' narrator stands before it: the seat's narrator would be there.
                self.secrets[number] = public.fork().describe(event.seen_by(seat))
            lines.extend(public.describe(event.seen_by(None)))
            self.starts.append(len(lines))
        self.narrated[SPECTATORS] = len(history)

    def _share(self, seat: int) -> None:
        """Give a seat's log the events it has not had: the spectators' lines, or its own for its secrets."""
        start, end = self.narrated[seat], self.narrated[SPECTATORS]
        if start >= end:
            return
        public = self.logs[SPECTATORS]
        lines = self.logs[seat]
        for number in range(start, end):
            event = self.state.history[number]
            if event.secret and event.player == seat:
                lines.extend(self.secrets.pop(number))
            else:
                lines.extend(public[self.starts[number]:self.starts[number + 1]])
        self.narrated[seat] = end

    # -- the position --------------------------------------------------------------------

    def _fresh(self, seq: int, status: Status) -> None:
        if self._at != (seq, status):
            self._at = (seq, status)
            self._views = {}
            self._legal = {}

    def prepare(self, audiences: Iterable[int], seq: int, status: Status) -> None:
        """Make these audiences' views of the position at once (a free table's common parts built once: they are
        shared read-only, see :func:`~rummykit.rulesets.freetable_views.views_of`)."""
        self._fresh(seq, status)
        missing = [a for a in dict.fromkeys(audiences) if a not in self._views]
        if len(missing) > 1:
            made = views_of(self.state, [None if a == SPECTATORS else a for a in missing])
            self._views.update(zip(missing, made, strict=True))

    def view(self, audience: int, seq: int, status: Status) -> ViewHeader:
        """The audience's view of the position after ``seq`` actions (made once per position; read-only)."""
        self._fresh(seq, status)
        view = self._views.get(audience)
        if view is None:
            view = self._views[audience] = self.state.view(None if audience == SPECTATORS else audience)
        return view

    def listed_action(self, seat: int, data: Mapping[str, object]) -> Action | None:
        """The action of the seat's kept listing whose JSON form ``data`` is (see :meth:`ListedForms.action_for
        <rummykit.server.questions.ListedForms.action_for>`), or None: the game reads ``data`` then."""
        kept = self._forms.get(seat)
        return None if kept is None else kept.action_for(data)

    def record_text(self, action: Action) -> str:
        """``str(action)``: the seat, then its text, taken from its seat's kept listing when it was listed there."""
        kept = self._forms.get(action.player)
        text = None if kept is None else kept.text_of(action)
        return str(action) if text is None else f"{action.player} {text}"

    def legal(self, seat: int | None, seq: int, status: Status) -> LegalJSON | None:
        """The seat's legal actions for its state frame (None for a spectator; none while the table waits).

        Made once per position and seat (read-only).
        """
        if seat is None:
            return None
        if status == "waiting":
            return {"actions": [], "truncated": False}
        self._fresh(seq, status)
        found = self._legal.get(seat)
        if found is None:
            kept = self._forms.get(seat)
            if kept is None:
                kept = self._forms[seat] = questions.ListedForms(self.state)
            found = self._legal[seat] = questions.listing(self.state, seat, kept)
        return found
