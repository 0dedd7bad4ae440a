"""Actions and events: what a player does and what happened, with their serial forms.

An action is written two ways, both read back without a live state: its
text in record notation and its JSON form (:meth:`Action.to_json`, read by
:func:`decode_field` field by field through
:meth:`~rummykit.engine.core.GameInfo.action_from_json`).
"""

from __future__ import annotations

import dataclasses
import operator
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rummykit.engine.values import JSON
from rummykit.errors import ParseError
from rummykit.pieces.text import keeps_notation

__all__ = ["Action", "Event", "decode_field", "field_hints", "json_forms", "new_event", "slot_setter"]


@dataclass(frozen=True, slots=True)
class Action:
    """Something a player does. Every game's actions subclass this and name their player.

    Each action has two serial forms, both read back by the game without a
    live state (:meth:`GameInfo.parse_action`, :meth:`GameInfo.action_from_json`):
    its text in record notation (``str(action)``: the seat, then :meth:`text`)
    and a JSON object (:meth:`to_json`: ``type``, ``player`` and the fields,
    pieces in notation).
    """

    player: int
    type: ClassVar[str] = "action"
    """The action's name in its JSON form (by default the class name in lower case)."""

    def __init_subclass__(cls) -> None:
        # No super() call: slots dataclasses rebuild the class, which breaks the zero-argument form.
        if "type" not in cls.__dict__:
            cls.type = cls.__name__.lower()

    def text(self) -> str:
        """The action in record notation, without the seat (e.g. ``draw``)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, JSON]:
        """The action as a JSON object: ``type``, ``player`` and each field, pieces as text.

        >>> from rummykit.rulesets.rummikub import Play, parse_table
        >>> Play(1, parse_table('R4')[0], parse_table('R1 R2 R3 R4')).to_json()
        {'type': 'play', 'player': 1, 'placed': ['R4'], 'table': [['R1', 'R2', 'R3', 'R4']]}
        """
        out: dict[str, JSON] = {"type": self.type, "player": self.player}
        for f in dataclasses.fields(self):
            if f.name != "player":
                out[f.name] = _encode(getattr(self, f.name))
        return out

    def __str__(self) -> str:
        return f"{self.player} {self.text()}"


def slot_setter(cls: type, name: str) -> Callable[[object, Any], None]:
    """The setter of the slot ``name`` that ``cls`` declares, which a frozen dataclass's refusal does not stop.

    For making many small immutable values (events, listed actions) fast: a
    frozen dataclass's own ``__init__`` sets each field through
    ``object.__setattr__``, about twice the cost. The value made must set every
    field, as the class's ``__init__`` would.
    """
    setter: Callable[[object, Any], None] = vars(cls)[name].__set__
    return setter


def json_forms(
    actions: Sequence[Action], kept: dict[int, tuple[object, JSON]] | None = None
) -> list[dict[str, JSON]]:
    """Each action's :meth:`~Action.to_json`, a value that several of them hold (the same object) encoded once.

    For a list of legal actions, whose tables share most of their sets: the
    encoded values are shared between the answers, so treat them as read-only.
    ``kept`` carries the encodings of tuples from one call to the next (a
    seat's next listing shows most of the same table sets): each is kept with
    the tuple it encodes, so no other value can take its ``id``; on return it
    holds the tuples this call met (and no others), so it stays as small as one call.

    >>> from rummykit.rulesets.rummikub import Play, parse_table
    >>> table = parse_table('R1 R2 R3 | K5 B5 O5')
    >>> a, b = json_forms([Play(0, (), table), Play(0, (), table[:1])])
    >>> a == Play(0, (), table).to_json(), a["table"][0] is b["table"][0]
    (True, True)
    >>> kept = {}
    >>> c, = json_forms([Play(0, (), table)], kept)
    >>> d, = json_forms([Play(0, (), table[1:])], kept)
    >>> d["table"][0] is c["table"][1], len(kept)
    (True, 3)
    """
    memo: dict[int, JSON] = {}  # by id(): every value encoded is held by an action, alive till the end
    new: dict[int, tuple[object, JSON]] | None = None
    if kept is not None:
        for key, (_, encoded) in kept.items():
            memo[key] = encoded
        new = {}
    out: list[dict[str, JSON]] = []
    for action in actions:
        cls = type(action)
        if cls.to_json is not Action.to_json:  # a class that writes its own
            out.append(action.to_json())
            continue
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name != "player")
        data: dict[str, JSON] = {"type": action.type, "player": action.player}
        for name in names:
            data[name] = _encode_shared(getattr(action, name), memo, new)
        out.append(data)
    if kept is not None and new is not None:
        kept.clear()
        kept.update(new)
    return out


def _encode_shared(value: object, memo: dict[int, JSON], new: dict[int, tuple[object, JSON]] | None) -> JSON:
    """:func:`json_forms`'s encoding of one value: a tuple or list met before (by ``id``) is the list made then.

    A plain function rather than a closure over ``memo``: a closure that calls itself is a
    reference cycle, which would leave the memo and all it holds to the garbage collector
    (tests/test_server13_fingerprint.py). ``new`` (when kept) collects each tuple met with its encoding.
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if not isinstance(value, tuple | list):
        return str(value)
    key = id(value)
    found = memo.get(key)
    if found is None:
        kinds = set(map(type, value))
        kind = kinds.pop() if len(kinds) == 1 else None
        if kind is not None and not issubclass(kind, _PLAIN):  # pieces
            write = _NOTATION.get(kind)
            if write is None:
                write = _NOTATION[kind] = _notation(kind)
            found = list(map(write, value))
        else:  # sets of a table (most were encoded for an action before), or mixed values
            found = []
            for item in value:
                if type(item) is tuple:  # a set met before is taken here, without a call
                    got = memo.get(id(item))
                    if got is not None:
                        if new is not None:
                            new[id(item)] = (item, got)
                        found.append(got)
                        continue
                found.append(_encode_shared(item, memo, new))
        memo[key] = found
    if new is not None and type(value) is tuple:
        new[key] = (value, found)
    return found


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_NOTATION: dict[type, Callable[[Any], str]] = {}
"""How :func:`json_forms` writes a piece of each kind (see :func:`_notation`)."""


def _notation(kind: type) -> Callable[[Any], str]:
    """``str`` for pieces of ``kind``, read straight from the notation a piece keeps when it keeps one.

    Every kind of piece (:mod:`rummykit.pieces.text`) is interned with its notation in ``_text``, which its
    ``str()`` returns; reading the slot spares a method call per piece (a table's sets in every listed play).
    """
    if keeps_notation(kind):
        return operator.attrgetter("_text")
    return str


_PLAIN = (bool, int, str, tuple, list, type(None))
"""What :func:`json_forms` does not write as ``str(value)``."""


def _encode(value: object) -> JSON:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return str(value)


@dataclass(frozen=True, slots=True)
class Event:
    """What happened, appended to the state's history.

    ``data`` is public; ``secret`` is known only to ``player`` (say, the tile
    a player drew). Both hold plain JSON data, read-only like the event
    itself: a game may share parts between events (the free-table games'
    table texts). Views, by contrast, are the caller's own to change.
    """

    kind: str
    player: int | None
    data: Mapping[str, JSON] = field(default_factory=dict)
    secret: Mapping[str, JSON] = field(default_factory=dict)

    def seen_by(self, seat: int | None) -> dict[str, JSON]:
        """The event as the given seat (or a spectator, ``None``) may see it."""
        out: dict[str, JSON] = {"kind": self.kind, "player": self.player, **self.data}
        if seat is not None and seat == self.player:
            out.update(self.secret)
        return out


_new_object = object.__new__
_set_kind = slot_setter(Event, "kind")
_set_player = slot_setter(Event, "player")
_set_data = slot_setter(Event, "data")
_set_secret = slot_setter(Event, "secret")


def new_event(kind: str, player: int | None, data: dict[str, JSON], secret: dict[str, JSON]) -> Event:
    """``Event(kind, player, data, secret)``, its slots set directly (a frozen dataclass's own ``__init__`` goes
    through ``object.__setattr__`` for each field, about twice the cost). It holds the dicts given: a game
    recording its own events from fresh dicts whose keys are never ``kind`` or ``player`` may append it to
    its history itself; :meth:`~rummykit.engine.core.GameState.emit` checks and copies what it is given."""
    event = _new_object(Event)
    _set_kind(event, kind)
    _set_player(event, player)
    _set_data(event, data)
    _set_secret(event, secret)
    return event


def field_hints(cls: type[Action]) -> dict[str, object]:
    """The type of each field of an action class (worked out once per class)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


_HINTS: dict[type, dict[str, object]] = {}


def decode_field(value: object, hint: object, parse_piece: Callable[[str], object], where: str) -> object:
    """One field of an action's JSON form, by its type: numbers and words as they are, pieces parsed."""
    args = _args(hint)
    if value is None:
        if type(None) in args:
            return None
        raise ParseError(f"{where} may not be null")
    if type(None) in args:
        hint = next(a for a in args if a is not type(None))
    if isinstance(hint, type) and hint in (int, bool, str):
        if type(value) is not hint:
            raise ParseError(f"{where} needs a {hint.__name__}, got {value!r}")
        return value
    if isinstance(value, list):
        inner = _args(hint)[0] if _args(hint) else object
        if inner not in (int, bool, str) and not _args(inner) and _origin(inner) is None and all(
            type(v) is str for v in value
        ):
            # Pieces in notation (the bulk of a table): what the branch for a text below does, the reader found once.
            reader = getattr(inner, "from_notation", None)
            try:
                return tuple(parse_piece(v) for v in value) if reader is None else tuple(reader(v, parse_piece) for v in value)
            except ParseError as exc:
                raise ParseError(f"{where}: {exc}") from None
        return tuple(decode_field(v, inner, parse_piece, where) for v in value)
    if isinstance(value, str):
        # A field whose type writes its own notation (a grid change, say) reads it back itself.
        reader = getattr(_origin(hint) or hint, "from_notation", None)
        try:
            return parse_piece(value) if reader is None else reader(value, parse_piece)
        except ParseError as exc:
            raise ParseError(f"{where}: {exc}") from None
    raise ParseError(f"{where}: cannot read {value!r}")


def _args(hint: object) -> tuple[object, ...]:
    """``typing.get_args(hint)``, kept per hint (the hints of the action classes' fields: a few dozen)."""
    try:
        return _ARGS[hint]
    except KeyError:
        found = _ARGS[hint] = typing.get_args(hint)
        return found
    except TypeError:  # a hint that is not hashable
        return typing.get_args(hint)


def _origin(hint: object) -> object:
    """``typing.get_origin(hint)``, kept per hint as :func:`_args` is."""
    try:
        return _ORIGINS[hint]
    except KeyError:
        found = _ORIGINS[hint] = typing.get_origin(hint)
        return found
    except TypeError:
        return typing.get_origin(hint)


_ARGS: dict[object, tuple[object, ...]] = {}
_ORIGINS: dict[object, object] = {}
