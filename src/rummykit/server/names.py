"""A table's id, its readable name and its tokens."""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["new_table_id", "new_token", "table_name"]


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


_COLOURS = (
    "Amber", "Azure", "Bronze", "Cedar", "Cobalt", "Copper", "Coral", "Crimson", "Dusky", "Ember", "Fern", "Frosty",
    "Golden", "Hazel", "Indigo", "Ivory", "Jade", "Lemon", "Lilac", "Linen", "Maple", "Mossy", "Ochre", "Olive",
    "Pearl", "Plum", "Rosy", "Russet", "Saffron", "Sage", "Silver", "Teal",
)
_ANIMALS = (
    "Badger", "Beaver", "Bison", "Crane", "Curlew", "Dolphin", "Falcon", "Ferret", "Finch", "Gecko", "Heron", "Ibex",
    "Koala", "Lark", "Lemur", "Lynx", "Marten", "Moose", "Newt", "Ocelot", "Otter", "Owl", "Panda", "Puffin",
    "Quail", "Raven", "Robin", "Seal", "Stoat", "Tapir", "Walrus", "Wren",
)


def table_name(table_id: str) -> str:
    """A readable name made from a table's id, always the same for the same id (1024 names).

    >>> table_name("abc") == table_name("abc"), len(table_name("abc").split())
    (True, 2)
    """
    digest = hashlib.blake2b(table_id.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return f"{_COLOURS[digest[0] % len(_COLOURS)]} {_ANIMALS[digest[1] % len(_ANIMALS)]}"


def new_token() -> str:
    return secrets.token_urlsafe(24)
