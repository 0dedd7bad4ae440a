"""``rummykit serve``: the app on uvicorn."""

from __future__ import annotations

import argparse
from typing import TextIO, TypedDict

from rummykit.server.app import MAX_TRANSPORT, create_app
from rummykit.server.rooms import RestoreError


class WebSocketSettings(TypedDict):
    """The keyword arguments of ``uvicorn.run`` that shape its WebSockets."""

    ws_max_size: int
    ws_per_message_deflate: bool


WEBSOCKET_SETTINGS: WebSocketSettings = {"ws_max_size": MAX_TRANSPORT, "ws_per_message_deflate": False}
"""uvicorn's WebSocket settings: frames over :data:`MAX_TRANSPORT` bytes are closed (1009), none compressed.

No per-message compression: frames are a few kilobytes, and compressing each
one cost the server about 6% of its time (bench/bench_server.py, 200 tables).
"""


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Open the database, restore the unfinished tables, and serve until interrupted."""
    import uvicorn

    if not args.expire_after > 0:
        err.write(f"rummykit: --expire-after is a number of seconds above 0, not {args.expire_after:g}\n")
        return 2
    try:
        app = create_app(
            args.db,
            allowed_origins=list(args.allow_origin),
            bot_delay=max(0.0, args.bot_delay),
            flood_rate=max(1.0, args.flood_rate),
            chosen_seeds=args.chosen_seeds,
            expire_after=args.expire_after,
            gc_pacing=True,
        )
    except RestoreError as exc:
        err.write(f"rummykit: refusing to start: {exc}\n")
        return 1
    except Exception as exc:  # a database that cannot be opened: say so plainly
        err.write(f"rummykit: cannot open the database {args.db or 'sqlite:///rummykit-server.db'}: {exc}\n")
        return 1
    tables = len(app.state.hall.rooms)
    out.write(f"rummykit server on http://{args.host}:{args.port}/ ({tables} unfinished tables restored)\n")
    out.flush()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **WEBSOCKET_SETTINGS)
    return 0
