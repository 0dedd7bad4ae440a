"""Exact solvers for free-table games: the best play of a rack onto a table.

``solve_tiles`` (``rummikub``) and ``solve_dominoes`` (``domino-rummikub``)
return an optimal play (the pieces placed and a complete valid final table)
or None when no play exists; ``plan_steps`` turns a play into moves a person
can follow. No interface code lives here (``solve.command`` only formats
text for the command line).
"""

from rummykit.solve.dominoes import DOMINO_OBJECTIVES, DominoSolution, solve_dominoes
from rummykit.solve.play import OBJECTIVES, TileSolution, placeable, solve_tiles
from rummykit.solve.steps import Step, plan_steps

__all__ = [
    "DOMINO_OBJECTIVES",
    "OBJECTIVES",
    "DominoSolution",
    "Step",
    "TileSolution",
    "placeable",
    "plan_steps",
    "solve_dominoes",
    "solve_tiles",
    "warm_up",
]


def warm_up() -> float:
    """Compile the tile solver's search now; returns the seconds it took.

    The search is compiled by numba on its first use and the machine code is
    cached on disk, so only the first call after an install (or an upgrade)
    takes long (15 to 40 seconds on a 2-core machine, with a notice on stderr);
    ``make play`` and ``make test`` call this once while setting up.
    """
    from rummykit.solve.compiled import warm_up as load

    return load()
