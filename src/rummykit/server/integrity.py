"""What makes a stored table trustworthy: seat tokens kept as hashes, state fingerprints, the chain of actions.

A table is written to the database one action at a time (``store.py``). On
start the server replays every unfinished table from its actions and checks
it against what was stored with it: the chain hash of every action row, and
the fingerprint of the engine's whole state where it was last taken
(:func:`replay`). A table that does not replay stops the server
(:class:`RestoreError`) rather than being played on from a changed record.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from rummykit.catalogue import find_game
from rummykit.engine.core import GameInfo, GameState
from rummykit.errors import RummykitError
from rummykit.server.store import StoredTable, chain_next, chain_start

__all__ = [
    "FINGERPRINT_EVERY",
    "RestoreError",
    "check_chain",
    "fingerprint",
    "fingerprint_due",
    "legacy_fingerprint",
    "replay",
    "token_hash",
]


class RestoreError(RuntimeError):
    """A stored table does not replay to its stored snapshot (or cannot be replayed at all)."""


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


FINGERPRINT_EVERY = 16
"""A table's stored fingerprint is renewed after every this many actions, and after its last one."""


def fingerprint(state: GameState, action_texts: Sequence[str] | None = None) -> str:
    """``<actions>:<digest>``: the number of actions applied and a BLAKE2b digest of the engine's complete state.

    The state is the game's ``snapshot()`` (hidden parts included) as canonical
    JSON. It costs milliseconds late in a game (the snapshot lists every
    action), so a room renews it only every :data:`FINGERPRINT_EVERY` actions
    and at the end; the count says where a restore must check it. A room
    gives the texts of the actions it recorded (``action_texts``, ``str`` of
    each action, in order): the snapshot takes them rather than writing every
    action again, the same text (``tests/test_server13_fingerprint.py``).
    """
    text = json.dumps(state.snapshot(action_texts), sort_keys=True, separators=(",", ":"), default=str)
    return f"{len(state.actions)}:{hashlib.blake2b(text.encode(), digest_size=24).hexdigest()}"


def legacy_fingerprint(state: GameState) -> str:
    """The SHA-256 form stored (after every action) by earlier servers, still checked on restore."""
    text = json.dumps(state.snapshot(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def fingerprint_due(seq: int, over: bool) -> bool:
    """Whether the action that brought a table to ``seq`` renews its stored fingerprint."""
    return over or seq % FINGERPRINT_EVERY == 0


def replay(stored: StoredTable) -> tuple[GameInfo, GameState]:
    """The game of a stored table, replayed from its actions and checked (:class:`RestoreError`).

    Checked: the chain of its action rows (:func:`check_chain`), that every
    action replays, and the stored fingerprint where it was taken.
    """
    if len(stored.actions) != stored.seq:
        raise RestoreError(f"table {stored.id}: {len(stored.actions)} actions stored but the table says {stored.seq}")
    # Where the stored fingerprint was taken: ``<actions>:<digest>``, or (earlier servers) a SHA-256 after all.
    count, colon, _ = stored.snapshot.partition(":")
    at = int(count) if colon and count.isdigit() else stored.seq
    if at > stored.seq:
        raise RestoreError(f"table {stored.id}: its snapshot is after action {at} but only {stored.seq} are stored")
    mismatch = RestoreError(f"table {stored.id} does not replay to its stored snapshot (after {at} actions)")
    check_chain(stored)

    def matches(state: GameState) -> bool:
        return (fingerprint(state) if colon else legacy_fingerprint(state)) == stored.snapshot

    try:
        info = find_game(stored.game)
        names = [s["name"] for s in stored.seats]
        state = info.new(players=names, seed=stored.seed, **stored.options)
        for number, text in enumerate(stored.actions, 1):
            if number - 1 == at and not matches(state):
                raise mismatch
            try:
                state.apply(info.parse_action(text))
            except RummykitError as exc:
                raise RestoreError(f"table {stored.id}: action {number} ({text!r}) does not replay: {exc}") from None
    except RummykitError as exc:
        raise RestoreError(f"table {stored.id}: cannot set the game up again: {exc}") from None
    if at == stored.seq and not matches(state):
        raise mismatch
    return info, state


def check_chain(stored: StoredTable) -> None:
    """Every stored action is the one written there: its row's chain hash, and the table's, match (:class:`RestoreError`).

    Each action row holds the hash of the previous row's hash and its own
    action text (the first from :func:`~rummykit.server.store.chain_start`),
    and the table row the last one, so any change to any stored action
    (even a legal one after the last fingerprint) breaks the chain there.
    """
    head = chain_start(stored.id)
    for number, (text, chain) in enumerate(zip(stored.actions, stored.chains, strict=True), 1):
        head = chain_next(head, text)
        if chain != head:
            raise RestoreError(
                f"table {stored.id}: action {number} ({text!r}) is not the action stored there"
                " (its chain hash does not match: the record was changed after it was written)"
            )
    if stored.chain != head:
        raise RestoreError(
            f"table {stored.id}: its chain hash does not match its {len(stored.actions)} stored actions"
            " (the record was changed after it was written)"
        )
