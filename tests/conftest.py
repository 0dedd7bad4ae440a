"""Shared test settings: Hypothesis profiles and a guard that fails the session on skips.

Profiles: ``default`` for everyday runs, ``ci`` (chosen when the ``CI``
environment variable is set) with more examples and a fixed derandomised
search, so a CI failure reproduces exactly. Select another with
``HYPOTHESIS_PROFILE=<name>``.

Nothing may be skipped silently: a skipped (or expected-to-fail) test turns
the whole session into a failure, with the tests named in the summary.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from browser_support import browser, server  # noqa: F401  (the browser tests' fixtures)
from hypothesis import HealthCheck, settings

from rummykit.engine.core import Action, GameState, Omit, plain
from rummykit.errors import RuleError

settings.register_profile(
    "default",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=80,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default"))


_NOT_RUN: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Remember every test that was skipped or marked as an expected failure."""
    if report.skipped:
        why = "expected to fail (xfail)" if hasattr(report, "wasxfail") else "skipped"
        _NOT_RUN.append(f"{report.nodeid}: {why}")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """A whole module skipped at collection counts too."""
    if report.skipped:
        _NOT_RUN.append(f"{report.nodeid}: skipped at collection")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session when anything was skipped (unless it already failed)."""
    if _NOT_RUN and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say clearly why the session failed when tests were skipped."""
    if _NOT_RUN:
        terminalreporter.section("tests that did not run (this fails the session)", sep="=", red=True)
        for line in _NOT_RUN:
            terminalreporter.line(line, red=True)
        terminalreporter.line(
            "Every test must run: fix the cause instead of skipping or xfailing it.", red=True
        )


@pytest.fixture(autouse=True, scope="session")
def _records_away_from_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Games the tests play without ``--record`` save into a temporary folder, never the user's own.

    ``RUMMYKIT_RECORDS`` covers the program run with the real environment (and
    subprocesses); ``HOME`` covers ``main(..., environ={})``, which falls back
    to the home folder.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RUMMYKIT_RECORDS", str(tmp_path_factory.mktemp("records")))
        patch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
        yield


# -- shared helpers ------------------------------------------------------------

Rejecter = Callable[[GameState, Action | str, str], RuleError]

S = TypeVar("S", bound=GameState)


def as_game(state: GameState, kind: type[S]) -> S:
    """``state`` as the game's own state class, whose ``view`` has the game's view type (checked)."""
    assert isinstance(state, kind), f"a {kind.__name__} was expected, not a {type(state).__name__}"
    return state


def state_data(state: GameState) -> dict[str, Any]:
    """Everything a state holds, as plain data, for the checks that an action changed nothing.

    Each attribute of the state, keyed by its name: its part of the derived
    snapshot (an attribute the game has not declared is in it all the same),
    the whole history (the snapshot counts its events) and, as plain data, the
    attributes the snapshot leaves out, except caches of the rest.
    """
    fields = state.position_fields()
    snapshot = state.snapshot()
    out: dict[str, Any] = {"game": snapshot.pop("game"), "history": plain(state.history)}
    for name, value in vars(state).items():
        how = fields.get(name)
        if how is None:
            out[name] = snapshot[name]
        elif isinstance(how, Omit):
            if not how.cache:
                out[name] = plain(value)
        elif name != "history":
            out[name] = {key: snapshot[key] for key in how.keys(name)}
    return out


def changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The names of the attributes that differ between two :func:`state_data` (gained or lost ones too)."""
    return sorted(k for k in before.keys() | after.keys() if before.get(k, changed) != after.get(k, changed))


def _assert_rejected(state: GameState, action: Action | str, rule: str) -> RuleError:
    """Apply ``action`` expecting a RuleError for ``rule``, with the state exactly unchanged."""
    if isinstance(action, str):
        action = state.parse_action(action)
    before = state_data(state)
    views = [state.view(s) for s in range(len(state.players))]
    with pytest.raises(RuleError) as info:
        state.apply(action)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.rule == rule, f"expected rule {rule}, got {error.rule}: {error}"
    assert f"(rule {rule})" in str(error), str(error)
    assert error.reason and error.reason in str(error)
    after = state_data(state)
    assert after == before, f"the rejected action {action} changed {', '.join(changed(before, after))}"
    assert [state.view(s) for s in range(len(state.players))] == views
    return error


@pytest.fixture
def assert_rejected() -> Rejecter:
    """``assert_rejected(state, action, rule)``: the action is refused for that rule, state unchanged."""
    return _assert_rejected
