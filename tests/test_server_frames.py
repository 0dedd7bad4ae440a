"""The TypedDicts of ``rummykit.server.frames`` have exactly the keys of the protocol's pydantic models.

The models check frames and publish their schema; the TypedDicts type the
frames the server builds as dicts and the client reads. A key added to one
and not the other fails here.
"""

from __future__ import annotations

import typing

import pytest
from pydantic import BaseModel

from rummykit.server import frames as f
from rummykit.server import protocol as p
from rummykit.server.serve import WEBSOCKET_SETTINGS

PAIRS: list[tuple[type, type[BaseModel]]] = [
    (f.SeatJSON, p.SeatInfo),
    (f.TableInfoJSON, p.TableInfo),
    (f.ListedJSON, p.ListedAction),
    (f.LegalJSON, p.LegalActions),
    (f.ClockJSON, p.Clock),
    (f.AskedJSON, p.Asked),
    (f.SetVerdictJSON, p.SetVerdict),
    (f.WelcomeFrame, p.Welcome),
    (f.StateFrame, p.State),
    (f.ErrorFrame, p.Error),
    (f.CheckedFrame, p.Checked),
    (f.LegalFrame, p.LegalList),
    (f.HintFrame, p.HintOut),
    (f.PongFrame, p.Pong),
    (f.RoundFrame, p.Round),
]


def _keys(model: type[BaseModel]) -> set[str]:
    return {field.alias or name for name, field in model.model_fields.items()}


@pytest.mark.parametrize(("typed", "model"), PAIRS, ids=[m.__name__ for _, m in PAIRS])
def test_each_frame_typeddict_has_its_models_keys(typed: type, model: type[BaseModel]) -> None:
    assert typing.is_typeddict(typed)
    assert set(typed.__annotations__) == _keys(model)
    assert vars(typed)["__required_keys__"] == frozenset(typed.__annotations__), "every key of a frame is sent"


def test_every_server_frame_type_has_its_typeddict() -> None:
    typed = [typing.get_args(typing.get_type_hints(td)["type"])[0] for td in typing.get_args(f.ServerFrameJSON)]
    models = [m.model_fields["type"].default for m in typing.get_args(p.ServerModel)]
    assert sorted(typed) == sorted(models) and len(set(typed)) == len(typed)


def test_the_websocket_settings_are_uvicorns() -> None:
    import uvicorn

    config = uvicorn.Config(app=None, **WEBSOCKET_SETTINGS)  # type: ignore[arg-type]
    assert config.ws_max_size == WEBSOCKET_SETTINGS["ws_max_size"]
    assert config.ws_per_message_deflate is False
