"""The statistics of the reports and tournaments: Wilson intervals and Bradley-Terry ratings.

Everything here is plain Python on small tables, deterministic for a given
seed.

>>> low, high = wilson(50, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
>>> fit = bradley_terry(["a", "b"], {("a", "b"): (30.0, 40)})
>>> round(fit["a"] - fit["b"])  # 30.5 of 41 with the prior: 400 * log10(30.5 / 10.5)
185
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rummykit.engine.rng import Rng

__all__ = ["ELO_MEAN", "Z95", "bootstrap_ratings", "bradley_terry", "games_for_width", "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""
ELO_MEAN = 1500.0
"""Ratings are placed so that their mean is this."""
PRIOR = 0.5
"""Virtual wins each way between every two players: keeps a rating finite when one side never scored."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0.

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 3)
    (0.0, 0.278)
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # the interval always holds p; keep it so where rounding would put an end a hair inside
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def games_for_width(width: float) -> int:
    """Games that make a 95% interval of a proportion at most ``width`` wide wherever it lies (p = 1/2).

    >>> games_for_width(0.2), games_for_width(0.1)
    (97, 385)
    """
    if not 0 < width < 1:
        raise ValueError(f"an interval's width is between 0 and 1, got {width}")
    half = width / 2
    return math.ceil((Z95 * 0.5 / half) ** 2)


def bradley_terry(
    players: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]], *, iterations: int = 10_000
) -> dict[str, float]:
    """Bradley-Terry strengths fitted by maximum likelihood, on the Elo scale (mean :data:`ELO_MEAN`).

    ``results[(a, b)] = (score, n)``: in ``n`` comparisons of ``a`` with ``b``,
    ``a`` scored ``score`` (1 a win, 1/2 a draw). Each pair also gets
    :data:`PRIOR` virtual wins each way, so the fit exists even when one side
    never scored. Fitted by Hunter's MM iteration; a difference of ``d``
    points means ``1 / (1 + 10 ** (-d / 400))`` expected score.
    """
    names = list(players)
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    counts = [[0.0] * k for _ in range(k)]
    for (a, b), (score, n) in results.items():
        i, j = index[a], index[b]
        wins[i][j] += score
        wins[j][i] += n - score
        counts[i][j] += n
        counts[j][i] += n
    for i in range(k):
        for j in range(k):
            if i != j:
                wins[i][j] += PRIOR
                counts[i][j] += 2 * PRIOR
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            total = sum(wins[i][j] for j in range(k) if j != i)
            denom = sum(counts[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i and counts[i][j])
            new.append(total / denom if denom else strength[i])
        log_mean = sum(math.log(s) for s in new) / k
        new = [s / math.exp(log_mean) for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    return {name: ELO_MEAN + 400 * math.log10(strength[index[name]]) for name in names}


Game = Sequence[tuple[str, float]]
"""One game as (player, result) pairs: the result is 1 for a winner, 0 otherwise."""


def pair_results(games: Sequence[Game]) -> dict[tuple[str, str], tuple[float, int]]:
    """Every game split into comparisons of two of its players: ``a`` scores 1, 1/2 or 0 against ``b``.

    >>> pair_results([[("a", 1), ("b", 0), ("c", 0)]])
    {('a', 'b'): (1.0, 1), ('a', 'c'): (1.0, 1), ('b', 'c'): (0.5, 1)}
    """
    out: dict[tuple[str, str], list[float]] = {}
    for game in games:
        for x in range(len(game)):
            for y in range(x + 1, len(game)):
                (a, ra), (b, rb) = game[x], game[y]
                if a == b:
                    continue
                score = 1.0 if ra > rb else 0.0 if ra < rb else 0.5
                if a > b:
                    a, b, score = b, a, 1.0 - score
                cell = out.setdefault((a, b), [0.0, 0.0])
                cell[0] += score
                cell[1] += 1
    return {pair: (cell[0], int(cell[1])) for pair, cell in sorted(out.items())}


def bootstrap_ratings(
    players: Sequence[str], groups: Sequence[Sequence[Game]], *, resamples: int = 200, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of the ratings: games redrawn with replacement within each group.

    ``groups`` are the games of each pairing or table, kept apart so every
    resample has the same design; a game's comparisons stay together, so
    the several comparisons of one multi-player game are not taken for
    independent games.
    """
    rng = Rng(seed)
    draws: dict[str, list[float]] = {name: [] for name in players}
    for _ in range(resamples):
        sample: list[Game] = []
        for group in groups:
            if group:
                sample.extend(group[rng.below(len(group))] for _ in range(len(group)))
        fit = bradley_terry(players, pair_results(sample), iterations=2_000)
        for name, value in fit.items():
            draws[name].append(value)
    out: dict[str, tuple[float, float]] = {}
    for name, values in draws.items():
        values.sort()
        if not values:
            out[name] = (math.nan, math.nan)
            continue
        low = values[int(0.025 * (len(values) - 1))]
        high = values[math.ceil(0.975 * (len(values) - 1))]
        out[name] = (low, high)
    return out
