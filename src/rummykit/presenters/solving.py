"""What an interface needs to run a game's solver (the presenter's ``solver``) without game code.

A :class:`Request` goes to ``presenter.solver``, which returns an :class:`Answer`
(lines and one JSON object) or raises a :class:`SolveError`;
:func:`request_from_json` reads one line of batch input; within
:func:`notices_to`, the notice that the solver's search is being compiled
(first use after installing) goes to the given stream.
"""

from __future__ import annotations

from rummykit.solve.command import Answer, Request, SolveError, request_from_json
from rummykit.solve.compiled import notices_to

__all__ = ["Answer", "Request", "SolveError", "notices_to", "request_from_json"]
