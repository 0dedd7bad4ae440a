"""Text at the server's edge: what a client sends is decoded and bounded before any model reads it, and
what the server shows of it (names, refused values, messages) is cut and made printable."""

from __future__ import annotations

import json
import re
import unicodedata

__all__ = ["MAX_DEPTH", "MAX_MESSAGE", "MAX_NAME", "BadName", "FrameError", "bounded", "clean_name", "decode_json", "display_text", "short", "too_deep"]

MAX_DEPTH = 16
"""The deepest a client's JSON may nest (objects and arrays), checked before it is decoded.

The deepest message the protocol needs is an ``act`` whose action holds a
list of lists (5 levels); the limit leaves room and keeps the decoders far
from Python's recursion limit.
"""
MAX_MESSAGE = 400
"""The longest ``message`` an error carries, in characters (longer ones are cut, saying so)."""
MAX_NAME = 24
"""A seat name's length in characters (longer names are cut)."""


class FrameError(ValueError):
    """A client frame that is not valid JSON of a known type and shape."""


_ESCAPE = re.compile(r"\\.", re.DOTALL)
_NOT_BRACKETS = bytes(range(256)).translate(None, b"[]{}")
_SQUARE = bytes.maketrans(b"{}", b"[]")


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the arrays and objects of JSON ``text`` nest deeper than ``limit``, found without decoding it.

    No decoder's recursion is involved, and every step runs in C (a few
    milliseconds for the worst 64 KiB frame, about what decoding it costs;
    nothing for a frame with fewer brackets than the limit): the strings are
    cut out, the brackets kept, and the innermost pairs removed ``limit`` times. What is
    left of well-formed JSON then holds a pair only if something nested
    deeper. Of malformed text (unclosed brackets), only a run of more than
    ``limit`` unclosed ones counts; the decoder refuses the rest before
    going deeper than twice the limit.

    >>> too_deep('{"a": [[1], "[[[[[[]"]}', 3), too_deep('{"a": [[[1]]]}', 3), too_deep("[" * 30000)
    (False, True, True)
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    if '"' in text:
        # what lies between strings (an escaped character first cut out, so an escaped quote ends none)
        text = "".join((_ESCAPE.sub("", text) if "\\" in text else text).split('"')[::2])
    brackets = text.encode("utf-8", "surrogatepass").translate(_SQUARE, _NOT_BRACKETS)
    if b"[" * (limit + 1) in brackets:
        return True
    for _ in range(limit):
        inner = brackets.replace(b"[]", b"")
        if len(inner) == len(brackets):
            break
        brackets = inner
    if b"[]" in brackets:
        return True
    # Unmatched brackets are left, in the order ]]..[[: text that is not JSON.
    return brackets.startswith(b"[") and len(brackets) > limit


def _encodes(text: str) -> bool:
    """Whether ``text`` is encodable as UTF-8 (holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _real_text(value: object) -> bool:
    """Whether every string (and key) in a decoded JSON value is encodable text: no lone surrogate."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_real_text(k) and _real_text(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_real_text(v) for v in value)
    return True


def decode_json(text: str, what: str = "a frame") -> object:
    """Decode a client's JSON; :class:`FrameError` when it nests too deep, is not JSON, or holds a lone surrogate.

    The depth is checked before decoding (:func:`too_deep`), so no input
    reaches a decoder's recursion limit.

    >>> decode_json('{"type": "ping"}')
    {'type': 'ping'}
    >>> decode_json("[" * 100)
    Traceback (most recent call last):
    ...
    rummykit.server.edgetext.FrameError: a frame nests at most 16 levels deep (arrays and objects)
    >>> decode_json('{"name": "\\ud800"}')
    Traceback (most recent call last):
    ...
    rummykit.server.edgetext.FrameError: a frame holds text that is not Unicode (a lone surrogate)
    """
    if too_deep(text):
        raise FrameError(f"{what} nests at most {MAX_DEPTH} levels deep (arrays and objects)")
    try:
        data = json.loads(text)
    except ValueError:
        raise FrameError(f"{what} is JSON; this is not") from None
    # A lone surrogate comes into decoded JSON from the text itself or from a \u escape: without either, none
    # is there (the walk over every string is then not needed).
    if ("\\u" in text or not _encodes(text)) and not _real_text(data):
        raise FrameError(f"{what} holds text that is not Unicode (a lone surrogate)")
    return data


def bounded(message: str, limit: int = MAX_MESSAGE) -> str:
    r"""A message as sent: at most ``limit`` characters, and encodable as UTF-8 (a lone surrogate escaped).

    A longer message loses its middle, where a quoted input usually sits, so
    that the explanation around it stays.

    >>> bounded("unknown game '" + "x" * 500 + "'; the games are: a, b", 60)
    "unknown game 'xx[496 characters cut]xx'; the games are: a, b"
    >>> bounded("bad \ud800")
    'bad \\ud800'
    """
    if len(message) > limit:
        cut = len(message) - limit
        while len(message) - cut + len(f"[{cut} characters cut]") > limit:
            cut += 1
        head = (len(message) - cut) * 2 // 5
        message = f"{message[:head]}[{cut} characters cut]{message[head + cut :]}"
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def short(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message names the input it refuses, it does not echo it.

    >>> short("x" * 100, 12)
    "'xxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class BadName(ValueError):
    """A seat name the server refuses (rule ``NAME``)."""


def clean_name(name: str) -> str:
    r"""A seat name as the server keeps it: NFC, every run of white space one plain space, trimmed, cut to :data:`MAX_NAME`.

    Refused (:class:`BadName`): a character that does not print (control and
    format characters such as a zero-width space or a direction mark, lone
    surrogates) and ``|`` or ``#``, which the records' notation uses.

    >>> clean_name("  Zoe\u0301 \t\u00a0Ray "), clean_name("a" * 30)
    ('Zoé Ray', 'aaaaaaaaaaaaaaaaaaaaaaaa')
    >>> clean_name("ann\x07")
    Traceback (most recent call last):
    ...
    rummykit.server.edgetext.BadName: a seat name is printable text without '|' or '#', not 'ann\x07'
    """
    text = " ".join(unicodedata.normalize("NFC", name).split()) if _real_text(name) else name
    if not _real_text(text) or not text.isprintable() or "|" in text or "#" in text:
        raise BadName(f"a seat name is printable text without '|' or '#', not {short(text)}")
    return text[:MAX_NAME].rstrip()


def display_text(value: object, limit: int = 4 * MAX_NAME) -> str:
    r"""Stored text made safe to show: a string of at most ``limit`` characters, every unprintable one escaped.

    For rows written before the server checked names (a lone surrogate cannot
    even be encoded to send).

    >>> display_text("\ud800 ann"), display_text("a\nb"), display_text(5)
    ('\\ud800 ann', 'a\\nb', '5')
    """
    text = (value if isinstance(value, str) else str(value))[:limit]
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   if _real_text(ch) else f"\\u{ord(ch):04x}" for ch in text)
