"""The seeded random generator every game draws its chance from.

Only ``getrandbits`` of Python's Mersenne Twister is used, and shuffling is
done here, so the same seed gives the same deal on every machine and Python
version.

>>> a, b = Rng(7), Rng(7)
>>> xs, ys = list(range(10)), list(range(10))
>>> a.shuffle(xs); b.shuffle(ys)
>>> xs == ys, sorted(xs) == list(range(10))
(True, True)

A generator counts the 32-bit words it has drawn, so its position in the
stream can be written down (say, in a game record) and reached again from the
seed alone:

>>> c = Rng(7)
>>> c.skip(a.draws)
>>> c.getstate() == a.getstate(), c.draws == a.draws
(True, True)
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")

MAX_SEED = 2**63 - 1


class Rng:
    """A seeded generator with a stable shuffle and a copyable state."""

    __slots__ = ("_random", "digested", "draws", "seed")

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, got {seed!r}")
        self.seed = seed
        self._random = random.Random(seed)
        self.draws = 0
        """How many 32-bit words of the stream have been used (every draw goes through :meth:`below`)."""
        self.digested: tuple[tuple[object, ...], str] | None = None
        """The last state a snapshot digested, and its digest (see ``engine.snapshot.rng_digest``)."""

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling on raw bits)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        bits = n.bit_length()
        words = (bits + 31) // 32  # what one getrandbits(bits) uses of the stream
        getrandbits = self._random.getrandbits
        r = getrandbits(bits)
        self.draws += words
        while r >= n:
            r = getrandbits(bits)
            self.draws += words
        return r

    def skip(self, draws: int) -> None:
        """Move ``draws`` 32-bit words further along the stream, as if that much had been drawn."""
        if draws < 0:
            raise ValueError(f"cannot skip back ({draws} words)")
        left = draws
        while left:  # getrandbits(32 * k) uses exactly k words; a few thousand at a time
            step = min(left, 4096)
            self._random.getrandbits(32 * step)
            left -= step
        self.draws += draws

    def shuffle(self, items: list[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        # :meth:`below` written out (the same draws from the same stream): a deal shuffles a hundred pieces.
        getrandbits = self._random.getrandbits
        draws = 0
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            bits = n.bit_length()
            words = (bits + 31) // 32
            j = getrandbits(bits)
            draws += words
            while j >= n:
                j = getrandbits(bits)
                draws += words
            items[i], items[j] = items[j], items[i]
        self.draws += draws

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]

    def getstate(self) -> tuple[object, ...]:
        """The generator's full state (for snapshots and copies)."""
        return self._random.getstate()

    def setstate(self, state: tuple[object, ...]) -> None:
        """Restore a state from :meth:`getstate` (:attr:`draws` is left as it is)."""
        self._random.setstate(state)

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        other = Rng(self.seed)
        other.setstate(self.getstate())
        other.draws = self.draws
        return other
