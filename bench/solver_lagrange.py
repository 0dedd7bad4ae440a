"""A measurement, not part of the solver: how much a Lagrangian bound over the groups would
cut the final sweep of the slow positions.

    PYTHONPATH=src:bench .venv/bin/python bench/solver_lagrange.py 45:1026 --objective points

The relaxation of ``rummykit.solve.kernel`` bounds each colour alone. Colours meet in
groups: at a number ``v`` without kept-group slots, a colour giving ``g_c`` tiles to groups
needs two more members in each of them, so ``2 g_c <= sum of the other colours' g + J_v``
(``J_v`` the jokers in groups there), and all the jokers used from here on are at most the
jokers left. Moving those constraints into the objective with multipliers ``mu[c, v] >= 0``
and ``nu >= 0`` keeps a bound for any multipliers and still splits by colour: a colour's
group tile at ``v`` is worth ``M_v - 3 mu[c, v]`` more (``M_v`` the sum over the colours),
a joker in its runs ``nu`` less, and the jokers left add ``nu`` plus the best ``M_v - nu``
each. The multipliers are set by subgradient steps on the bound at the start (Polyak's
step, toward the value of the play the sweep starts with).

This script wraps ``_Kernel.run``: when a call reaches its sweep, it works out these
tables from the same problem and work arrays, runs a copy of the sweep that also drops the
states this bound rules out, and prints both sweeps' states and whether the copy found the
same path (the answers must not change).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numba
import numpy as np
from solver_positions import make_position

from rummykit.solve import kernel as K
from rummykit.solve import solve_tiles, warm_up
from rummykit.solve import tiles as solver_tiles

NEGF = -1e300
COLOURS = K.COLOURS
CELLS = K.CELLS
TOP = K.TOP
MAX_SIDS = K.MAX_SIDS
JS = K.JOKER_SLOTS
STEPS = K.STEPS


@numba.njit(cache=True)
def tables(p: Any, w: Any, levels: Any, counts: Any, wt: Any, nu: float, R: Any, H: Any) -> None:
    """R[c, v, sid, jl]: the most colour c adds from number v on (weights at every number);
    H: the same without the weight at v itself."""
    total = p[K.P_TOTAL]
    pool = K._pool(w)
    for c in range(COLOURS):
        for v in range(TOP, 0, -1):
            gain = K._value(p[K.P_PRIMARY + v], p[K.P_SECONDARY + v])
            for q in range(counts[c, v]):
                sid = levels[c, v, q]
                for jl in range(total + 1):
                    start, n = K._colour_options(v, c, sid, jl, K._as_bool(False), p, w)
                    best = NEGF
                    best_h = NEGF
                    for oi in range(n):
                        row = pool + (start + oi) * K.O_WIDTH
                        dj = w[row + K.O_DJ]
                        rest = jl - dj
                        groups = w[row + K.O_GROUPS]
                        if not K._groups_possible(c, v, groups, rest, p):
                            continue
                        if v == TOP:
                            later = 0.0
                        else:
                            later = R[c, v + 1, w[row + K.O_SID], rest]
                            if later <= NEGF:
                                continue
                        base = w[row + K.O_USED] * gain - nu * dj + later
                        best_h = max(best_h, base)
                        best = max(best, base + groups * wt[c, v])
                    R[c, v, sid, jl] = best
                    H[c, v, sid, jl] = best_h


@numba.njit(cache=True)
def walk(p: Any, w: Any, wt: Any, nu: float, R: Any, g: Any, djs: Any) -> None:
    """The relaxed optimum of each colour from the start: its group tiles and run jokers."""
    total = p[K.P_TOTAL]
    pool = K._pool(w)
    for c in range(COLOURS):
        sid = 0
        jl = total
        djs[c] = 0
        for v in range(1, TOP + 1):
            gain = K._value(p[K.P_PRIMARY + v], p[K.P_SECONDARY + v])
            start, n = K._colour_options(v, c, sid, jl, K._as_bool(False), p, w)
            best = NEGF
            pick = -1
            for oi in range(n):
                row = pool + (start + oi) * K.O_WIDTH
                dj = w[row + K.O_DJ]
                rest = jl - dj
                groups = w[row + K.O_GROUPS]
                if not K._groups_possible(c, v, groups, rest, p):
                    continue
                if v == TOP:
                    later = 0.0
                else:
                    later = R[c, v + 1, w[row + K.O_SID], rest]
                    if later <= NEGF:
                        continue
                x = w[row + K.O_USED] * gain - nu * dj + later + groups * wt[c, v]
                if x > best:
                    best = x
                    pick = oi
            if pick < 0:
                g[c, v] = 0
                continue
            row = pool + (start + pick) * K.O_WIDTH
            g[c, v] = w[row + K.O_GROUPS]
            djs[c] += w[row + K.O_DJ]
            jl -= w[row + K.O_DJ]
            sid = w[row + K.O_SID]


@numba.njit(cache=True)
def lag_bound(key: int, s: int, total: int, R: Any, H: Any, jt: Any) -> float:
    """The bound on what the state after step ``s`` can still add (NEGF: cannot finish)."""
    v = s // 5 + 1
    c = s % 5
    jl = total - ((key >> K.J_SHIFT) & 15)
    acc = jl * jt[v]
    for c2 in range(COLOURS):
        sid = (key >> (K.SID_BITS * c2)) & K.SID_MASK
        if c2 <= c:
            if v == TOP:
                continue
            x = R[c2, v + 1, sid, jl]
        else:
            x = H[c2, v, sid, jl]
        if x <= NEGF:
            return NEGF
        acc += x
    return acc


@numba.njit(cache=True)
def sweep(
    size: int,
    low: int,
    incumbent: int,
    path: Any,
    result: Any,
    p: Any,
    w: Any,
    R: Any,
    H: Any,
    jt: Any,
    use: bool,
) -> int:
    """A copy of ``kernel._breadth_first_py`` that also drops what the Lagrangian bound rules out."""
    result[0] = 0
    total = p[K.P_TOTAL]
    jf = p[K.P_RACK_JOKERS_FULL]
    low_full = max(K._floor_full(low), incumbent)
    rows = 16 * size
    layer = np.empty(K.REC * rows, np.int64)
    starts = np.zeros(STEPS + 2, np.int64)
    t = K._new_records(size)
    out = np.empty((K.MAX_SUCC, 4), np.int64)
    layer[0] = p[K.P_START]
    layer[1] = 0
    layer[2] = -1
    layer[3] = 0
    starts[1] = 1
    n = 1
    REC = K.REC
    for s in range(STEPS):
        bound = p[K.P_AHEAD + s + 1]
        bound_full = p[K.P_AHEAD_FULL + s + 1]
        t_count = 0
        for row in range(starts[s], starts[s + 1]):
            key = layer[REC * row]
            val = layer[REC * row + 1]
            count = K._successors(s, key, val, low_full, p, w, out, K._as_int(0))
            for q in range(count):
                nval = val + out[q, 1]
                if (nval >> K.PRIMARY_SHIFT) + bound < low or nval + bound_full < incumbent:
                    continue
                nkey = out[q, 0]
                if use and s < STEPS - 1:
                    lb = lag_bound(nkey, s, total, R, H, jt)
                    if lb <= NEGF or nval + lb + jf + 1.0 < incumbent:
                        continue
                at = REC * K._slot_rec(t, 0, size, nkey, s, True)
                if t[at + 1] == s:
                    r = REC * t[at + 2]
                    if layer[r + 1] < nval:
                        layer[r + 1] = nval
                        layer[r + 2] = row
                        layer[r + 3] = out[q, 2] | (out[q, 3] << 32)
                    continue
                if (t_count + 1) * 2 > size:
                    t = K._layer_enlarged(t, size, s)
                    size *= 4
                    at = REC * K._slot_rec(t, 0, size, nkey, s, True)
                if n == rows:
                    layer = K._rows_enlarged(layer, rows)
                    rows *= 2
                t[at] = nkey
                t[at + 1] = s
                t[at + 2] = n
                t_count += 1
                r = REC * n
                layer[r] = nkey
                layer[r + 1] = nval
                layer[r + 2] = row
                layer[r + 3] = out[q, 2] | (out[q, 3] << 32)
                n += 1
        starts[s + 2] = n
        if starts[s + 2] == starts[s + 1]:
            return n
    best_full = K.NEG
    best_row = -1
    best_placed = 0
    for row in range(starts[STEPS], starts[STEPS + 1]):
        full, placed = K._finish(layer[REC * row], layer[REC * row + 1], p)
        if placed >= 0 and K._primary_of(full) >= low and (best_row < 0 or full > best_full):
            best_full = full
            best_row = row
            best_placed = placed
    if best_row < 0:
        return n
    result[0] = 1
    result[1] = best_full
    result[2] = best_placed
    result[3] = (layer[REC * best_row] >> K.J_SHIFT) & 15
    row = best_row
    for s in range(STEPS - 1, -1, -1):
        before = layer[REC * row + 2]
        how = layer[REC * row + 3]
        K._fill_path_row(path, s, layer[REC * before], how & K._LOW32, how >> 32, p, w)
        row = before
    return n


def multipliers(p: Any, w: Any, target: int, iterations: int, verbose: bool) -> tuple[Any, Any, Any, float]:
    total = int(p[K.P_TOTAL])
    levels, counts = K.reachable_runs(p, w)
    R = np.full((COLOURS, CELLS + 1, MAX_SIDS, JS), NEGF)
    H = np.full((COLOURS, CELLS + 1, MAX_SIDS, JS), NEGF)
    mu = np.zeros((COLOURS, CELLS + 1))
    nu = 0.0
    free = np.array([1.0 if p[K.P_NSLOTS + v] == 0 and 1 <= v <= TOP else 0.0 for v in range(CELLS + 1)])
    g = np.zeros((COLOURS, CELLS + 1), np.int64)
    djs = np.zeros(COLOURS, np.int64)
    jf = float(p[K.P_RACK_JOKERS_FULL])
    best_bound = float("inf")
    best = (mu.copy(), nu)
    scale = 1.0
    stale = 0
    for it in range(iterations + 1):
        M = mu.sum(axis=0)
        wt = M[None, :] - 3 * mu
        tables(p, w, levels, counts, wt, nu, R, H)
        gains = M - nu
        jbest = max(0.0, float(gains[1 : TOP + 1].max()))
        bound = float(sum(R[c, 1, 0, total] for c in range(COLOURS))) + total * (nu + jbest) + jf
        if verbose:
            print(f"      iteration {it}: bound {bound / 2**32:.3f} (target {target / 2**32:.3f})")
        if bound < best_bound:
            best_bound = bound
            best = (mu.copy(), nu)
            stale = 0
        else:
            stale += 1
            if stale >= 2:
                scale /= 2
                stale = 0
        if it == iterations or bound < target:
            break
        walk(p, w, wt, nu, R, g, djs)
        J = np.zeros(CELLS + 1)
        if jbest > 0:
            J[int(np.argmax(gains[1 : TOP + 1])) + 1] = total
        G = g.sum(axis=0)
        h = (G[None, :] - 3 * g + J[None, :]) * free[None, :]
        h_nu = total - djs.sum() - J.sum()
        norm = float((h * h).sum() + h_nu * h_nu)
        if norm == 0:
            break
        step = scale * (bound - target) / norm
        mu = np.maximum(0.0, mu - step * h) * free[None, :]
        nu = max(0.0, nu - step * h_nu)
    mu, nu = best
    M = mu.sum(axis=0)
    wt = M[None, :] - 3 * mu
    tables(p, w, levels, counts, wt, nu, R, H)
    jt = np.zeros(CELLS + 2)
    gains = M - nu
    for v in range(1, TOP + 1):
        later = gains[v + 1 : TOP + 1]
        jt[v] = nu + (max(0.0, float(later.max())) if len(later) else 0.0)
    return R, H, jt, best_bound


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="*", default=["45:1026", "30:1050", "45:1098", "45:1122", "60:7"])
    parser.add_argument("--objective", choices=("tiles", "points"), default="tiles")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    warm_up()
    kernel_class: Any = solver_tiles._Kernel
    run = kernel_class.run

    def wrapped(self: Any, strategy: int, target: int, node_limit: int = -1, *rest: Any, **named: Any) -> Any:
        if strategy != self.k.SWEEP:
            return run(self, strategy, target, node_limit, *rest, **named)
        incumbent = named.get("incumbent", rest[0] if rest else K.NEG)
        t0 = time.process_time()
        answer = run(self, strategy, target, node_limit, *rest, **named)
        t1 = time.process_time()
        old_states = int(self.result[5])
        old_path = self.path.copy()
        old_result = self.result.copy()
        # the sweep's own value, for the multipliers' target: the incumbent it started with
        start = time.process_time()
        R, H, jt, lb = multipliers(self.P, self.W, incumbent, args.iterations, args.verbose)
        t2 = time.process_time()
        path = np.zeros_like(self.path)
        result = np.zeros_like(self.result)
        states = sweep(self.size, target, incumbent, path, result, self.P, self.W, R, H, jt, True)
        t3 = time.process_time()
        same = bool((path == old_path).all() and (result[:4] == old_result[:4]).all())
        print(
            f"   sweep: {old_states} states {1e3 * (t1 - t0):.1f} ms; Lagrangian: start bound"
            f" {lb / 2**32:.2f} (incumbent {incumbent / 2**32:.2f}, found {old_result[1] / 2**32:.2f}),"
            f" multipliers {1e3 * (t2 - start):.1f} ms, sweep {states} states {1e3 * (t3 - t2):.1f} ms,"
            f" same path: {same}"
        )
        return answer

    kernel_class.run = wrapped
    for spec in args.positions:
        size, seed = map(int, spec.split(":"))
        position = make_position(seed, size)
        print(f"{args.objective} {size} tiles seed {seed}")
        solve_tiles(position.table, position.rack, objective=args.objective, tidy=False)


if __name__ == "__main__":
    main()
