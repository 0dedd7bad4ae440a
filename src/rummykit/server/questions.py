"""A seat's questions that change nothing: would this be accepted, what may I play, what would you play.

Each answer is worked out on a copy of the game taken under the room's lock,
in a worker thread, so a slow one (a hint's solver) never holds the table.
The game itself is the only judge: a check applies the action (or the draft
table's play) to the copy and reports what the engine said.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar, cast

import orjson

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.engine.actions import json_forms
from rummykit.engine.commands import command_table
from rummykit.engine.core import Action, GameState
from rummykit.engine.rng import Rng
from rummykit.engine.values import JSON
from rummykit.errors import RuleError, RummykitError, seat_param
from rummykit.presenters.advice import HINT_LEVEL, advice, advice_said
from rummykit.rulesets.freetable import FreeTableGame, play_from_table
from rummykit.server import protocol as p
from rummykit.server.frames import ActionJSON, CheckedFrame, HintFrame, LegalFrame, LegalJSON, ListedJSON
from rummykit.server.refusals import Refusal

if TYPE_CHECKING:
    from rummykit.server.rooms import Room

__all__ = ["HINT_LEVEL", "ListedForms", "as_at_turn", "check", "hint", "legal", "listing"]
# HINT_LEVEL (rummykit.presenters.advice): the bot level whose choice a hint frame suggests as an action.

P = TypeVar("P")


def listing(state: GameState, seat: int, kept: ListedForms | None = None) -> LegalJSON:
    """The seat's legal actions in their forms, as a state frame and the ``legal`` frame carry them.

    ``text`` is the record's notation (positions counted from 0), ``typed`` the
    command a person types for it (counted from 1, as screens show it), ``said``
    the action in a person's words (what a client labels its buttons with).

    Built without pydantic (it is on every state frame of a seat); the shape
    is :class:`~rummykit.server.protocol.LegalActions`. With ``kept`` (the
    seat's own :class:`ListedForms`), the forms of an action listed at the
    seat's last listing are taken from there rather than written again.
    """
    found = state.legal_actions(seat)
    if kept is not None:
        return kept.listing(found)
    # indexed_actions' order (by the record text, stably), each text written once for the order and the forms
    texts = [a.text() for a in found]
    order = sorted(range(len(found)), key=texts.__getitem__)[: p.MAX_LEGAL]
    actions = [found[i] for i in order]
    table = command_table(state.info.actions)
    typed, said = table.typed_text_given, table.said_text
    return {
        "actions": [
            {"json": data, "text": texts[i], "typed": typed(a, texts[i]), "said": said(a)}
            for i, a, data in zip(order, actions, json_forms(actions), strict=True)
        ],
        "truncated": len(found) > p.MAX_LEGAL,
    }


class ListedForms:
    """One seat's listed actions in their forms, kept from its last listing to the next.

    Actions are immutable values whose forms (text, typed, said, JSON) depend
    on nothing else, and a seat's listing changes little from one turn to the
    next (the draw, and the plays the table and rack still allow: most turns
    the engine even hands back the same action objects), so the forms of an
    action equal to one listed last time are that one's. Only the last
    listing's actions are kept (an empty listing, out of turn, keeps them) (bounded by the listing itself), for one seat:
    nothing of one seat's listing reaches another's.
    ``tests/test_server_listing.py`` holds the result to :func:`listing`'s
    plain computation, key for key, in seeded games of every game.
    """

    __slots__ = ("commands", "encoded", "forms")

    def __init__(self, state: GameState) -> None:
        self.commands = command_table(state.info.actions)
        self.forms: dict[Action, tuple[str, ListedJSON | None]] = {}
        """By action: its text, and its listed entry once it was in a list sent (None: beyond MAX_LEGAL)."""
        self.encoded: dict[int, tuple[object, JSON]] = {}
        """The JSON forms of the tuples (table sets) the last entries made held (see :func:`json_forms`'s ``kept``)."""

    def action_for(self, data: Mapping[str, object]) -> Action | None:
        """The kept action whose listed JSON form is ``data`` exactly (keys in any order), or None.

        A client most often sends back an action's JSON form as it was listed;
        that action is the one the game reads from it (an action's JSON form
        reads back as the same action: ``tests/test_server_listing.py`` checks
        every listed one), so reading it again is spared. Anything else (a
        value of another JSON type, a key more or less) finds none and is read
        by the game, refusals and all.
        """
        for action, (_, entry) in self.forms.items():
            # Python's == first (in C, and most entries differ at once), then the JSON text, which tells 1 from 1.0 and true
            if entry is not None and entry["json"] == data:
                try:
                    same = orjson.dumps(data, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
                        entry["json"], option=orjson.OPT_SORT_KEYS
                    )
                except TypeError:  # orjson.JSONEncodeError is one (an integer beyond 64 bits, say): not a listed form
                    return None
                return action if same else None
        return None

    def text_of(self, action: Action) -> str | None:
        """The text (``action.text()``) of a kept action equal to ``action``, or None."""
        try:
            form = self.forms.get(action)
        except TypeError:  # an action that does not hash
            return None
        return None if form is None else form[0]

    def listing(self, found: list[Action]) -> LegalJSON:
        """The listing of ``found`` (the seat's legal actions now), as :func:`listing` writes it."""
        if not found:  # not the seat's turn: the forms of its last listing are kept for its next turn
            return {"actions": [], "truncated": False}
        try:
            return self._listing(found)
        except TypeError:  # an action that does not hash (a field holding a list): written afresh
            self.forms = {}
            texts = [a.text() for a in found]
            order = sorted(range(len(found)), key=texts.__getitem__)[: p.MAX_LEGAL]
            return {"actions": self._entries([(found[i], texts[i]) for i in order]), "truncated": len(found) > p.MAX_LEGAL}

    def _listing(self, found: list[Action]) -> LegalJSON:
        old = self.forms
        forms: dict[Action, tuple[str, ListedJSON | None]] = {}
        texts: list[str] = []
        for action in found:
            form = forms.get(action)
            if form is None:
                form = old.get(action)
                if form is None:
                    form = (action.text(), None)
                forms[action] = form
            texts.append(form[0])
        order = sorted(range(len(found)), key=texts.__getitem__)[: p.MAX_LEGAL]
        missing: dict[Action, str] = {}
        for i in order:
            action = found[i]
            if forms[action][1] is None:
                missing[action] = texts[i]
        if missing:
            for (action, text), entry in zip(missing.items(), self._entries(list(missing.items())), strict=True):
                forms[action] = (text, entry)
        listed = [forms[found[i]][1] for i in order]
        self.forms = forms
        return {"actions": cast("list[ListedJSON]", listed), "truncated": len(found) > p.MAX_LEGAL}

    def _entries(self, pairs: list[tuple[Action, str]]) -> list[ListedJSON]:
        """The listed entries of these actions (with their texts), their JSON forms sharing what they share."""
        typed, said = self.commands.typed_text_given, self.commands.said_text
        return [
            {"json": data, "text": text, "typed": typed(a, text), "said": said(a)}
            for (a, text), data in zip(pairs, json_forms([a for a, _ in pairs], self.encoded), strict=True)
        ]


def _verdict(frame_id: p.RequestId, action: ActionJSON, exc: RuleError | None, names: list[str], seat: int,
             sets: list[p.SetVerdict] | None = None, lines: list[p.LineVerdict] | None = None) -> CheckedFrame:
    if exc is None:
        checked = p.Checked(id=frame_id, ok=True, rule=None, message=None, sets=sets, action=action, lines=lines)
        return cast("CheckedFrame", checked.model_dump(mode="json"))
    checked = p.Checked(
        id=frame_id,
        ok=False,
        rule=exc.rule,
        message=exc.reason,
        worded=exc.worded(1, seat_param(names, seat)),
        params=dict(exc.params) or None,
        sets=sets,
        action=action,
        lines=lines,
    )
    return cast("CheckedFrame", checked.model_dump(mode="json"))


async def _judge(trial: GameState, action: Action) -> RuleError | None:
    try:
        await asyncio.to_thread(trial.apply, action)
    except RuleError as exc:
        return exc
    return None


async def check(room: Room, seat: int, frame: p.Check) -> CheckedFrame:
    """Would the engine accept this action (or this draft table) now? Nothing changes."""
    if frame.table is not None:
        return await _check_table(room, seat, frame)
    action = room.read_action(seat, frame.action, frame.text)
    async with room.lock:
        trial = room.state.copy()
        judge_lines = room.info.draft_lines
        seen = trial.view(seat) if judge_lines is not None else None
    lines = None
    if judge_lines is not None and seen is not None:
        judged = judge_lines(seen, action)  # a grid game's draft: each line the play touches, judged by the engine
        lines = None if judged is None else [p.LineVerdict.model_validate(line) for line in judged]
    refused = await _judge(trial, action)
    return _verdict(frame.id, action.to_json(), refused, list(trial.players), seat, lines=lines)


async def _check_table(room: Room, seat: int, frame: p.Check) -> CheckedFrame:
    if room.info.draft != "table":
        raise Refusal("FREE-TABLE", f"{room.info.id} has no free table to draft; check an action instead")
    async with room.lock:
        trial = cast("FreeTableGame[object]", room.state.copy())  # a game whose draft is the table is a free-table game
    assert frame.table is not None
    try:
        table = [tuple(room.info.parse_piece(t) for t in s) for s in frame.table]
    except RummykitError as exc:
        raise Refusal("PARSE", str(exc)) from None
    sets: list[p.SetVerdict] = []
    for i, pieces in enumerate(table):
        verdict = trial.TABLE.check(pieces)
        sets.append(p.SetVerdict(index=i, ok=verdict.valid, rule=verdict.rule, message=verdict.reason))
    play = play_from_table(seat, trial.table, table)
    refused = await _judge(trial, play)
    return _verdict(frame.id, play.to_json(), refused, list(trial.players), seat, sets)


async def legal(room: Room, seat: int, frame: p.Legal) -> LegalFrame:
    """The seat's legal actions (the same list its state frames carry)."""
    async with room.lock:
        trial = room.state.copy()
    listed = await asyncio.to_thread(listing, trial, seat)
    return {"type": "legal", "id": frame.id, "actions": listed["actions"], "truncated": listed["truncated"]}


async def hint(room: Room, seat: int, frame: p.Hint) -> HintFrame:
    """The game's hint for the seat, from its own view; out of turn, the best play from the table as it stands.

    Out of turn the lines say so first, and the suggested action (the
    ``solver`` bot's choice, asked as if it were the seat's turn) is for
    when the turn comes, if the table has not changed by then. A game
    that is over, or a hint that cannot be worked out, gets a
    :class:`Refusal` saying why (an error frame), never a closed connection.
    """
    async with room.lock:
        state = room.state
        view = state.view(seat)
        over = state.outcome is not None
        yours = seat in state.to_act
        turn = state.describe_turn()
    if over:
        raise Refusal("GAME-OVER", "the game is over: there is no play left to hint")
    if not room.presenter.hint:
        raise Refusal("NO-HINT", f"no hint for {room.info.id} yet")
    suggestion: ActionJSON | None = None
    asked = view if yours else as_at_turn(view, seat)
    try:
        if getattr(room.presenter, "advised", False):
            # The hint is the strong bot's advice: worked out once, for both the lines and the action.
            found = await asyncio.to_thread(advice, room.info.id, asked)
            lines, suggestion = advice_said(room.info.id, found), found.action.to_json()
        else:
            lines = list(await asyncio.to_thread(room.presenter.hint_lines, view))
        if suggestion is None and HINT_LEVEL in bot_levels(room.info.id):
            # The game's strongest bot, choosing from this seat's view only, names the action.
            bot = make_bot(HINT_LEVEL, room.info.id)
            chosen = await asyncio.to_thread(bot.choose, asked, Rng(0))
            suggestion = chosen.to_json()
    except RummykitError as exc:
        raise Refusal("HINT", f"no hint now: {exc}") from None
    if not yours:
        lines.insert(
            0,
            f"It is not your turn ({turn}): this is the best play from the table as it is now;"
            " the table may change before your turn.",
        )
    return cast("HintFrame", p.HintOut(id=frame.id, lines=lines, action=suggestion).model_dump(mode="json"))


def as_at_turn(view: Mapping[str, object], seat: int) -> dict[str, object]:
    """A seat's view with only the header changed to say it is that seat's turn (for a hint asked out of turn)."""
    return {**view, "turn": seat, "to_act": [seat], "must_act": [seat], "may_act": []}
