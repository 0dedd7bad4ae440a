"""Write the published JSON Schemas of the game contract to ``docs/schema/``.

One file each for:

* ``view-header.json``: the :class:`~rummykit.engine.core.ViewHeader` every view starts with
  (other keys allowed: they are the game's body);
* ``<game>-view.json``: each game's whole view, header and body (no other keys);
* ``event.json``: an event as :meth:`~rummykit.engine.core.Event.seen_by` gives it
  (``kind``, ``player`` and the event's data);
* ``<game>-actions.json``: each game's actions in their JSON form
  (:meth:`~rummykit.engine.core.Action.to_json`), one object schema per action
  class, told apart by ``type``;
* ``protocol.json``: the online protocol of ``rummykit serve`` (HTTP bodies and
  WebSocket frames), from the pydantic models in ``rummykit.server.protocol``.

Everything is derived from the code with pydantic (``TypeAdapter(...).json_schema()``):
the views from the TypedDict each game's ``view`` method is annotated with, the
actions from the dataclass fields of the classes in ``INFO.actions``. Run it
after changing either::

    .venv/bin/python tools/gen_schema.py          # rewrite docs/schema/*.json
    .venv/bin/python tools/gen_schema.py --check  # exit 1 if a file is stale

``tests/test_schema.py`` fails while the committed files differ from what this
writes, and validates real views and actions with the same adapters.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import re
import sys
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin

import typing_extensions
from pydantic import ConfigDict, Field, TypeAdapter, with_config

from rummykit.catalogue import games
from rummykit.engine.core import Action, GameInfo, ViewHeader

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "schema"
DIALECT = "https://json-schema.org/draft/2020-12/schema"

Extra = Literal["allow", "forbid"]

# -- TypedDicts that pydantic accepts ---------------------------------------------
#
# pydantic needs ``typing_extensions.TypedDict`` on Python < 3.12, and the
# package's views are ``typing.TypedDict``s with postponed annotations (whose
# ``__required_keys__`` miss ``NotRequired`` on 3.11). So each view TypedDict is
# rebuilt, field by field, from its resolved annotations.


def _clean_doc(doc: str | None) -> str | None:
    """A docstring as a schema description: one paragraph per blank line, Sphinx roles as plain names."""
    if not doc:
        return None
    text = re.sub(r":\w+:`~?(?:[\w.]+\.)?(\w+)`", r"\1", doc)
    text = text.replace("``", "`")
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip())]
    return "\n\n".join(p for p in paragraphs if p)


def _convert(hint: Any, extra: Extra) -> Any:
    """``hint`` with every TypedDict in it rebuilt for pydantic."""
    if typing.is_typeddict(hint):
        return pydantic_typeddict(hint, extra)
    origin, args = get_origin(hint), get_args(hint)
    if origin is None or not args or origin is Literal:
        return hint
    new = tuple(_convert(a, extra) for a in args)
    if origin in (Union, types.UnionType):
        return functools.reduce(lambda a, b: a | b, new)
    if isinstance(hint, types.GenericAlias):
        return types.GenericAlias(origin, new)
    return hint.copy_with(new)


@functools.cache
def pydantic_typeddict(cls: type, extra: Extra = "forbid") -> Any:
    """The TypedDict ``cls`` rebuilt as a ``typing_extensions.TypedDict`` with pydantic's ``extra`` setting.

    Keys marked ``NotRequired`` (or every key of a ``total=False`` class) stay
    optional; nested TypedDicts are rebuilt the same way.
    """
    fields: dict[str, Any] = {}
    total = getattr(cls, "__total__", True)
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        optional = not total
        if get_origin(hint) is NotRequired:
            optional, hint = True, get_args(hint)[0]
        elif get_origin(hint) is Required:
            optional, hint = False, get_args(hint)[0]
        hint = _convert(hint, extra)
        fields[name] = typing_extensions.NotRequired[hint] if optional else hint
    make: Any = typing_extensions.TypedDict
    rebuilt: Any = make(cls.__name__, fields)
    rebuilt.__doc__ = _clean_doc(cls.__doc__)
    rebuilt.__module__ = cls.__module__
    return with_config(ConfigDict(extra=extra))(rebuilt)


# -- views and events -------------------------------------------------------------


def view_typeddict(info: GameInfo) -> type:
    """The TypedDict a game's ``view`` method returns (its return annotation)."""
    state = info.new(players=info.min_players, seed=0)
    hint = typing.get_type_hints(type(state).view).get("return")
    if not typing.is_typeddict(hint):
        raise TypeError(f"{info.id}: {type(state).__name__}.view must be annotated to return its view TypedDict")
    assert isinstance(hint, type)
    return hint


@functools.cache
def view_adapter(game_id: str) -> TypeAdapter[Any]:
    """Validates a whole view of the game: the header and the game's body, nothing else."""
    info = next(i for i in games() if i.id == game_id)
    return TypeAdapter(pydantic_typeddict(view_typeddict(info), "forbid"))


@functools.cache
def header_adapter() -> TypeAdapter[Any]:
    """Validates the common header of any view (the game's own keys are let through)."""
    return TypeAdapter(pydantic_typeddict(ViewHeader, "allow"))


class EventForm(typing_extensions.TypedDict):
    """An event as a seat (or a spectator) sees it: its kind, the seat it concerns (or null), then its data.

    The data keys depend on the kind (see each game's page); a seat's own
    events also carry their secret part.
    """

    kind: str
    player: int | None


with_config(ConfigDict(extra="allow"))(EventForm)


@functools.cache
def event_adapter() -> TypeAdapter[Any]:
    """Validates an event's seen form."""
    return TypeAdapter(EventForm)


# -- actions ----------------------------------------------------------------------

Seat = Annotated[int, Field(ge=0, description="the acting seat, from 0")]
Piece = Annotated[str, Field(description="a piece in the game's notation")]


def _json_hint(hint: Any) -> Any:
    """The JSON type of an action field: numbers, words and booleans as they are, pieces as text."""
    if hint in (int, str, bool, type(None)):
        return hint
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        return functools.reduce(lambda a, b: a | b, (_json_hint(a) for a in args))
    if origin in (tuple, list) and args:
        return list[_json_hint(args[0])]  # type: ignore[misc]
    notation = getattr(origin or hint, "NOTATION", None)
    if isinstance(notation, str) and hasattr(origin or hint, "from_notation"):
        return Annotated[str, Field(description=notation)]  # a value that writes its own notation
    return Piece


def action_typeddict(cls: type[Action]) -> Any:
    """The JSON object of one action class: ``type`` (a constant), ``player`` and every field, all required
    except a field with a default (``GameInfo.action_from_json`` lets it be left out)."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {"type": Literal[cls.type], "player": Seat}
    for f in dataclasses.fields(cls):
        if f.name != "player":
            hint = _json_hint(hints[f.name])
            fields[f.name] = hint if f.default is dataclasses.MISSING else typing_extensions.NotRequired[hint]
    make: Any = typing_extensions.TypedDict
    model: Any = make(cls.__name__, fields)
    model.__doc__ = _clean_doc(cls.__doc__)
    return with_config(ConfigDict(extra="forbid"))(model)


@functools.cache
def action_adapter(game_id: str) -> TypeAdapter[Any]:
    """Validates one action of the game in its JSON form (any of its action classes, by ``type``)."""
    info = next(i for i in games() if i.id == game_id)
    if not info.actions:
        raise LookupError(f"{info.id}: INFO.actions is empty, so its actions have no JSON schema yet")
    models = [action_typeddict(cls) for cls in sorted(info.actions, key=lambda c: c.type)]
    if len(models) == 1:
        return TypeAdapter(models[0])
    union: Any = Union[tuple(models)]  # noqa: UP007 (a runtime union of several classes)
    return TypeAdapter(Annotated[union, Field(discriminator="type")])


# -- the files --------------------------------------------------------------------


def _document(schema: dict[str, Any], title: str, description: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"$schema": DIALECT, "title": title}
    if description:
        out["description"] = description
    out.update((k, v) for k, v in schema.items() if k not in out)
    return out


def schemas() -> dict[str, dict[str, Any]]:
    """Every published schema by file name (in ``docs/schema``)."""
    out: dict[str, dict[str, Any]] = {
        "view-header.json": _document(
            header_adapter().json_schema(), "ViewHeader", _clean_doc(ViewHeader.__doc__)
        ),
        "event.json": _document(event_adapter().json_schema(), "Event", _clean_doc(EventForm.__doc__)),
    }
    for info in games():
        view = view_typeddict(info)
        out[f"{info.id}-view.json"] = _document(
            view_adapter(info.id).json_schema(), f"{info.id} view ({view.__name__})", _clean_doc(view.__doc__)
        )
        out[f"{info.id}-actions.json"] = _document(
            action_adapter(info.id).json_schema(),
            f"{info.id} action",
            f"One {info.name} action in its JSON form (Action.to_json): `type`, `player` and the"
            " action's fields, pieces in notation. Read back with GameInfo.action_from_json.",
        )
    out["protocol.json"] = protocol_schema()
    return dict(sorted(out.items()))


def protocol_schema() -> dict[str, Any]:
    """The online protocol's models as one document (each part a property, the frames told apart by type)."""
    from rummykit.server.protocol import ProtocolDocument

    return _document(
        ProtocolDocument.model_json_schema(), "rummykit online protocol", _clean_doc(ProtocolDocument.__doc__)
    )


def render(schema: dict[str, Any]) -> str:
    """A schema as the committed file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only report stale or missing files (exit 1)")
    args = parser.parse_args(argv)
    wanted = {name: render(schema) for name, schema in schemas().items()}
    stale = sorted(
        name for name, text in wanted.items() if not (OUT / name).is_file() or (OUT / name).read_text("utf-8") != text
    )
    extra = sorted(p.name for p in OUT.glob("*.json") if p.name not in wanted) if OUT.is_dir() else []
    if args.check:
        for name in stale:
            print(f"stale: docs/schema/{name}")
        for name in extra:
            print(f"not generated: docs/schema/{name}")
        return 1 if stale or extra else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name in stale:
        (OUT / name).write_text(wanted[name], encoding="utf-8")
        print(f"wrote docs/schema/{name}")
    for name in extra:
        (OUT / name).unlink()
        print(f"removed docs/schema/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
