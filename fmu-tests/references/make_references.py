#!/usr/bin/env python3
"""Compute the reference trajectories of the bundled example models.

The references are computed without mofmu: each one writes down the textbook
equations of its system by hand (the parameters are copied from the example
model's modifiers) and solves them in closed form, or, for the linear systems
without a handy closed form, by the matrix exponential of the exact affine
system. Every matrix-exponential result is cross-checked against an
independent implicit Runge-Kutta solution (scipy's Radau, rtol 1e-10,
atol 1e-12), so a slip in the augmented-matrix construction cannot go
unnoticed. The sampled-data (clocked) examples are exact the same way
between ticks (clocked_references.py); where a tick falls on the output grid
their reference has two rows at that time, before and after the tick.

The time grid and the compared variables of each reference come from
fmu-tests/cases.toml, so the manifest is the single place that says what is
compared. Usage:

    python make_references.py [--out DIR]

writes DIR/<reference>.csv (DIR defaults to this script's folder), and

    python make_references.py --check

computes them afresh in a temporary folder and checks that the committed
files are reproduced to within 1e-9 (absolute plus relative).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Callable

import numpy as np
from scipy.integrate import solve_ivp
from scipy.sparse import csc_matrix
from scipy.linalg import expm

import clocked_references
import electrical_references
import energy_flows_references
import event_references
import planar_references
import thermofluid_references
import vehicle_references

HERE = Path(__file__).resolve().parent
MANIFEST = HERE.parent / "cases.toml"

# How closely a re-run must reproduce the committed references.
REPRODUCE_TOL = 1e-9

# Largest disagreement tolerated between the matrix exponential and Radau,
# relative to the magnitude of the solution (Radau runs at rtol 1e-10).
CROSS_CHECK_REL = 1e-7


# ---------------------------------------------------------------------------
# Time grid and helpers
# ---------------------------------------------------------------------------


def time_grid(stop_time: float, output_interval: float) -> np.ndarray:
    """The output grid start + i*h, as FMPy and mofmu sample it."""
    n = int(round(stop_time / output_interval))
    if not math.isclose(n * output_interval, stop_time, rel_tol=1e-12):
        raise ValueError(f"stop time {stop_time} is not a multiple of {output_interval}")
    return np.arange(n + 1) * output_interval


def affine_expm(a: np.ndarray, b: np.ndarray, x0: np.ndarray, dt: float) -> np.ndarray:
    """Exact solution after dt of x' = A x + b (b constant) from x0.

    Uses the augmented matrix [[A, b], [0, 0]], whose exponential maps
    (x0, 1) to (x(dt), 1).
    """
    n = a.shape[0]
    m = np.zeros((n + 1, n + 1))
    m[:n, :n] = a
    m[:n, n] = b
    z0 = np.append(x0, 1.0)
    return (expm(m * dt) @ z0)[:n]


def piecewise_affine(
    a: np.ndarray,
    b_of_piece: Callable[[float], np.ndarray],
    switch_times: list[float],
    x0: np.ndarray,
    times: np.ndarray,
) -> np.ndarray:
    """Solve x' = A x + b(t) where b is constant between switch times.

    b_of_piece(t) gives b on the piece that starts at t. Returns an array
    of shape (len(times), n).
    """
    pieces = [0.0] + sorted(s for s in switch_times if s > 0.0)
    # The state at the start of every piece, by exact propagation.
    starts = [np.array(x0, dtype=float)]
    for k in range(1, len(pieces)):
        starts.append(affine_expm(a, b_of_piece(pieces[k - 1]), starts[-1], pieces[k] - pieces[k - 1]))
    out = np.empty((len(times), len(x0)))
    for i, t in enumerate(times):
        k = max(j for j, p in enumerate(pieces) if p <= t)
        out[i] = affine_expm(a, b_of_piece(pieces[k]), starts[k], t - pieces[k])
    return out


def radau_cross_check(
    name: str,
    a: np.ndarray,
    b_of_piece: Callable[[float], np.ndarray],
    switch_times: list[float],
    x0: np.ndarray,
    times: np.ndarray,
    exact: np.ndarray,
) -> None:
    """Solve the same system with Radau, piece by piece, and compare."""
    pieces = [0.0] + sorted(s for s in switch_times if s > 0.0) + [float(times[-1])]
    x = np.array(x0, dtype=float)
    result = np.empty_like(exact)
    # Large systems (the rod of 100 volumes) are sparse: Radau then factors
    # with a sparse LU, which keeps the check to seconds.
    jacobian = csc_matrix(a) if a.shape[0] >= 50 else a
    for k in range(len(pieces) - 1):
        t0, t1 = pieces[k], pieces[k + 1]
        if t1 <= t0:
            continue
        b = b_of_piece(t0)
        last = k == len(pieces) - 2
        mask = (times >= t0) & ((times <= t1) if last else (times < t1))
        # Evaluate on the grid points of this piece and at its end, which
        # starts the next piece.
        t_eval = np.append(times[mask], t1) if not last else times[mask]
        sol = solve_ivp(
            lambda _t, y, b=b: a @ y + b,
            (t0, t1),
            x,
            method="Radau",
            rtol=1e-10,
            atol=1e-12,
            t_eval=t_eval,
            jac=jacobian,
        )
        if not sol.success:
            raise RuntimeError(f"{name}: Radau failed: {sol.message}")
        result[mask] = sol.y[:, : int(np.count_nonzero(mask))].T
        x = sol.y[:, -1]
    scale = max(1.0, float(np.max(np.abs(exact))))
    worst = float(np.max(np.abs(result - exact)))
    if worst > CROSS_CHECK_REL * scale:
        raise RuntimeError(f"{name}: matrix exponential and Radau disagree by {worst:.3e}")
    print(f"{name}: Radau agrees with the matrix exponential to {worst:.1e}")


# ---------------------------------------------------------------------------
# Signals.Examples
# ---------------------------------------------------------------------------


def step_integrator(t: np.ndarray) -> dict[str, np.ndarray]:
    # step(height=2, offset=0, startTime=0.5) -> integrator(k=1.5, y_start=1)
    height, offset, start = 2.0, 0.0, 0.5
    k, y_start = 1.5, 1.0
    integral_of_step = offset * t + height * np.maximum(0.0, t - start)
    return {"integrator.x": y_start + k * integral_of_step}


def pulse_integrator(t: np.ndarray) -> dict[str, np.ndarray]:
    # pulse(amplitude=2, width=30 %, period=2, offset=0.5, startTime=1; its
    # first ten periods) -> integrator(k=1, y_start=0): the offset's ramp plus
    # 2 times the time spent inside the pulses [1 + 2j, 1.6 + 2j), j < 10.
    amplitude, width, period, offset, start = 2.0, 0.3, 2.0, 0.5, 1.0
    inside = sum(np.clip(t - (start + j * period), 0.0, width * period) for j in range(10))
    return {"integrator.x": offset * t + amplitude * inside}


def first_order_step(t: np.ndarray) -> dict[str, np.ndarray]:
    # step(height=1, offset=0, startTime=1) -> firstOrder(k=2, T=0.5, y_start=0.5)
    # T*x' + x = k*u, u = 0 before the step and 1 after it.
    height, start = 1.0, 1.0
    k, tau, y_start = 2.0, 0.5, 0.5
    before = y_start * np.exp(-t / tau)
    at_step = y_start * math.exp(-start / tau)
    final = k * height
    after = final + (at_step - final) * np.exp(-(t - start) / tau)
    return {"firstOrder.x": np.where(t < start, before, after)}


def sine_ramp_add(t: np.ndarray) -> dict[str, np.ndarray]:
    # sine(amplitude=1, freqHz=0.5, phase=0.3, offset=0.2, startTime=0.5)
    # ramp(height=2, duration=1.5, offset=-0.5, startTime=1)
    # add(k1=1, k2=-0.5) -> gain(k=3) -> integrator(k=1, y_start=0)
    amp, freq, phase, s_off, s_start = 1.0, 0.5, 0.3, 0.2, 0.5
    r_height, r_dur, r_off, r_start = 2.0, 1.5, -0.5, 1.0
    k1, k2, gain, k_int, y_start = 1.0, -0.5, 3.0, 1.0, 0.0
    omega = 2.0 * math.pi * freq

    # Integral from 0 to t of the sine source.
    running = t > s_start
    sine_integral = s_off * t + np.where(
        running, amp * (math.cos(phase) - np.cos(omega * (t - s_start) + phase)) / omega, 0.0
    )
    # Integral from 0 to t of the ramp source.
    tr = t - r_start
    ramp_integral = r_off * t + np.where(
        tr <= 0.0,
        0.0,
        np.where(tr < r_dur, r_height * tr**2 / (2.0 * r_dur), r_height * (r_dur / 2.0 + tr - r_dur)),
    )
    x = y_start + k_int * gain * (k1 * sine_integral + k2 * ramp_integral)
    return {"integrator.x": x}


def pi_control_loop(t: np.ndarray) -> dict[str, np.ndarray]:
    # setpoint: step(height=1, offset=0, startTime=0.5)
    # e = r - y_plant; controller PI(k=2, T=0.8): xc' = e/Ti, u = kc*(xc + e)
    # plant FirstOrder(k=1, T=1.5): Tp*xp' + xp = kp*u
    # meter Integrator(k=1): xm' = xp
    height, start = 1.0, 0.5
    kc, ti = 2.0, 0.8
    kp, tp = 1.0, 1.5
    km = 1.0
    # State order: controller.x, plant.x, meter.x
    a = np.array(
        [
            [0.0, -1.0 / ti, 0.0],
            [kp * kc / tp, -(kp * kc + 1.0) / tp, 0.0],
            [0.0, km, 0.0],
        ]
    )
    r_column = np.array([1.0 / ti, kp * kc / tp, 0.0])

    def b_of_piece(t0: float) -> np.ndarray:
        return r_column * (height if t0 >= start else 0.0)

    x0 = np.zeros(3)
    x = piecewise_affine(a, b_of_piece, [start], x0, t)
    radau_cross_check("PIControlLoop", a, b_of_piece, [start], x0, t, x)
    return {"controller.x": x[:, 0], "plant.x": x[:, 1], "meter.x": x[:, 2]}


# ---------------------------------------------------------------------------
# Thermal.Examples
# ---------------------------------------------------------------------------


def two_capacitors(t: np.ndarray) -> dict[str, np.ndarray]:
    # hot(C=20, T0=400) -- conductor(G=0.5) -- cold(C=40, T0=300)
    c1, t1, g, c2, t2 = 20.0, 400.0, 0.5, 40.0, 300.0
    mean = (c1 * t1 + c2 * t2) / (c1 + c2)
    # The difference T1 - T2 decays with rate G*(1/C1 + 1/C2).
    diff = (t1 - t2) * np.exp(-g * (1.0 / c1 + 1.0 / c2) * t)
    return {
        "hot.T": mean + c2 / (c1 + c2) * diff,
        "cold.T": mean - c1 / (c1 + c2) * diff,
    }


def capacitor_cooling(t: np.ndarray) -> dict[str, np.ndarray]:
    # ambient(T=293.15) -- conductor(G=2) -- body(C=100, T0=373.15)
    ambient, g, c, t0 = 293.15, 2.0, 100.0, 373.15
    return {"body.T": ambient + (t0 - ambient) * np.exp(-g / c * t)}


def heated_capacitor(t: np.ndarray) -> dict[str, np.ndarray]:
    # heater(Q_flow=50) -> body(C=200, T0=293.15) -- conductor(G=4) -- ambient(T=293.15)
    # C*T' = Q - G*(T - Ta)
    q, c, t0, g, ambient = 50.0, 200.0, 293.15, 4.0, 293.15
    final = ambient + q / g
    return {"body.T": final + (t0 - final) * np.exp(-g / c * t)}


def acc1_mixing_tank(t: np.ndarray) -> dict[str, np.ndarray]:
    # issue 21, Acc1: m*h' = m_flow*(h_in - h) + Q with h = cp*(T - T_ref)
    # (a linear liquid); h relaxes to h_in + Q/m_flow with time constant
    # m/m_flow, and T = T_ref + h/cp.
    m, m_flow, t_in, q = 10.0, 0.1, 288.15, 2000.0
    cp, t_ref = 4184.0, 273.15
    h0 = cp * (293.15 - t_ref)
    h_in = cp * (t_in - t_ref)
    final = h_in + q / m_flow
    h = final + (h0 - final) * np.exp(-m_flow / m * t)
    return {"h": h, "T": t_ref + h / cp}


def rod_heating(n: int) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """RodHeating with n volumes.

    source(T=400) -- conductor(G=1) -- rod(n, T0=300) with its far end
    insulated (zero heat flow). Rod: L=0.1, A=1e-4, rho=2700, c=900,
    lambda=200; volume capacity C = rho*c*A*L/n and conductance between
    neighbouring volume centres G = lambda*A/(L/n). The lumped heat equation:

        C*T1' = Gc*(Ts - T1) + G*(T2 - T1)
        C*Ti' = G*(T(i-1) - 2*Ti + T(i+1))        for 1 < i < n
        C*Tn' = G*(T(n-1) - Tn)
    """

    def solve(t: np.ndarray) -> dict[str, np.ndarray]:
        source, g_cond, t0 = 400.0, 1.0, 300.0
        length, area, rho, c, lam = 0.1, 1e-4, 2700.0, 900.0, 200.0
        cap = rho * c * area * length / n
        g = lam * area / (length / n)
        a = np.zeros((n, n))
        for i in range(n):
            if i > 0:
                a[i, i - 1] += g / cap
                a[i, i] -= g / cap
            if i < n - 1:
                a[i, i + 1] += g / cap
                a[i, i] -= g / cap
        a[0, 0] -= g_cond / cap
        b = np.zeros(n)
        b[0] = g_cond * source / cap

        def b_of_piece(_t0: float) -> np.ndarray:
            return b

        x0 = np.full(n, t0)
        if n < 50:
            x = piecewise_affine(a, b_of_piece, [], x0, t)
        else:
            # Every volume has the same capacity, so A is symmetric:
            # x(t) = x_inf + V exp(Lambda t) V^T (x0 - x_inf) from one
            # symmetric eigendecomposition, instead of a matrix exponential
            # per output time (slow for a stiff A of this size).
            lam, v = np.linalg.eigh(a)
            x_inf = np.linalg.solve(a, -b)
            x = x_inf + (np.exp(np.outer(t, lam)) * (v.T @ (x0 - x_inf))) @ v.T
        radau_cross_check(f"RodHeating(n={n})", a, b_of_piece, [], x0, t, x)
        return {f"rod.T[{i + 1}]": x[:, i] for i in range(n)}

    return solve


def acc2_two_vessels(t: np.ndarray) -> dict[str, np.ndarray]:
    # test_data/language/Acc2.mo: rho*V*cp*T' = Q - G*(T - T_amb), T(0) = T0,
    # for water (cp = 4184, rho = 995) and, redeclared, oil (cp = 1900,
    # rho = 870): T(t) = T_inf + (T0 - T_inf) exp(-G t/(rho V cp)),
    # T_inf = T_amb + Q/G.
    v, q, g, t_amb, t0 = 0.01, 500.0, 20.0, 293.15, 293.15
    t_inf = t_amb + q / g

    def vessel(cp: float, rho: float) -> np.ndarray:
        return t_inf + (t0 - t_inf) * np.exp(-g * t / (rho * v * cp))

    return {"w.T": vessel(4184.0, 995.0), "a.T": vessel(1900.0, 870.0)}
def acc_medium_functions(t: np.ndarray) -> dict[str, np.ndarray]:
    # test_data/language/AccMediumFunctions.mo: h' = (Q - G*(T - T_amb))/m
    # with T = T_ref + h/cp (each liquid's temperature(h)), h(0) =
    # cp*(T0 - T_ref), so m*cp*T' = Q - G*(T - T_amb):
    # T(t) = T_inf + (T0 - T_inf) exp(-G t/(m cp)), T_inf = T_amb + Q/G;
    # water cp = 4184, oil cp = 1900; C = m*cp (the inherited function).
    m, q, g, t_amb, t0, t_ref = 10.0, 500.0, 20.0, 293.15, 293.15, 273.15
    t_inf = t_amb + q / g
    out: dict[str, np.ndarray] = {}
    for name, cp in (("w", 4184.0), ("o", 1900.0)):
        temp = t_inf + (t0 - t_inf) * np.exp(-g * t / (m * cp))
        out[f"{name}.T"] = temp
        out[f"{name}.h"] = cp * (temp - t_ref)
        out[f"{name}.C"] = np.full_like(t, m * cp)
    return out


def acc3_clip(clip: bool) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """Acc3.Clip: u = exp(-t); with clipping y = max(u, 0.5) (the clip
    starts at the state event t = ln 2), removed = y - u; x integrates y."""
    lower = 0.5

    def solve(t: np.ndarray) -> dict[str, np.ndarray]:
        u = np.exp(-t)
        if not clip:
            return {"x": 1.0 - u, "y": u, "removed": np.zeros_like(t)}
        t_event = math.log(1.0 / lower)
        clipped = t >= t_event
        y = np.where(clipped, lower, u)
        x = np.where(clipped, (1.0 - lower) + lower * (t - t_event), 1.0 - u)
        return {"x": x, "y": y, "removed": y - u}

    return solve


def acc_discrete_cooled_body(t: np.ndarray) -> dict[str, np.ndarray]:
    """AccDiscrete.CooledBody: C dT/dt = Q_h - G (T - T_amb) - Q_fan with
    C = 1000, G = 10, T_amb = 280, Q_h = 1000, T(0) = 290, and the fan's
    stage 0 below 300 K, 1 above, 2 above 310 K, Q_fan = 200*stage. Each
    stage relaxes T exponentially (time constant C/G = 100 s) towards
    T_amb + (Q_h - Q_fan)/G: 380, 360, 340 K. T rises through 300 K at
    t1 = 100 ln(90/80) and through 310 K at t2 = t1 + 100 ln(60/50), so the
    stage only rises and the events are these two instants."""
    c, g, t_amb, q_h, p, t0 = 1000.0, 10.0, 280.0, 1000.0, 200.0, 290.0
    tau = c / g

    def t_eq(stage: int) -> float:
        return t_amb + (q_h - p * stage) / g

    t1 = tau * math.log((t_eq(0) - t0) / (t_eq(0) - 300.0))
    t2 = t1 + tau * math.log((t_eq(1) - 300.0) / (t_eq(1) - 310.0))
    stage = np.where(t >= t2, 2, np.where(t >= t1, 1, 0))
    temperature = np.where(
        stage == 0,
        t_eq(0) + (t0 - t_eq(0)) * np.exp(-t / tau),
        np.where(
            stage == 1,
            t_eq(1) + (300.0 - t_eq(1)) * np.exp(-(t - t1) / tau),
            t_eq(2) + (310.0 - t_eq(2)) * np.exp(-(t - t2) / tau),
        ),
    )
    hot = (stage >= 1).astype(float)
    return {
        "body.T": temperature,
        "fan.Q": p * stage * hot,
        "fan.hot": hot,
        "fan.stage": stage.astype(float),
        "fan.full": (stage == 2).astype(float),
        "fan.idle": 1.0 - hot,
    }


def acc6_room(power_factor: float) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """Acc6.Room: C dT/dt = heat - sum(G) (T - 290), T(0) = T_set = 300, with
    C = 1000, sum(G) = 2 + 3 + 5 and heat = power_factor * 150 (Off 0,
    Heat 1, Boost 2)."""
    c, g, t_amb, t_set = 1000.0, 10.0, 290.0, 300.0
    heat = power_factor * 150.0

    def solve(t: np.ndarray) -> dict[str, np.ndarray]:
        t_inf = t_amb + heat / g
        temperature = t_inf + (t_set - t_inf) * np.exp(-g * t / c)
        return {"T": temperature, "heat": np.full_like(t, heat)}

    return solve


def acc4_chain_with(c: list[float], g: list[float]) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """Acc4.Chain with n = 3: source(T = 400) -- link[1] -- cap[1] -- link[2]
    -- cap[2] -- link[3] -- cap[3], link i of conductance g[i], capacitor i
    of capacity c[i], each starting at 300 K, the last one insulated:

        c1 T1' = g1 (400 - T1) - g2 (T1 - T2)
        c2 T2' = g2 (T1 - T2) - g3 (T2 - T3)
        c3 T3' = g3 (T2 - T3)

    solved exactly by the matrix exponential of the affine system."""

    def chain(t: np.ndarray) -> dict[str, np.ndarray]:
        source, t0 = 400.0, 300.0
        g1, g2, g3 = g
        a = np.array(
            [
                [-(g1 + g2) / c[0], g2 / c[0], 0.0],
                [g2 / c[1], -(g2 + g3) / c[1], g3 / c[1]],
                [0.0, g3 / c[2], -g3 / c[2]],
            ]
        )
        b = np.array([g1 * source / c[0], 0.0, 0.0])
        x = np.array([affine_expm(a, b, np.full(3, t0), ti) for ti in t])
        return {f"cap[{i + 1}].T": x[:, i] for i in range(3)}

    return chain


def accgrid_plate(n: int, m: int, c_set: dict[tuple[int, int], float]) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """AccGrid.Plate: n x m capacitors (C = 50, except the ones in c_set,
    keyed by 1-based (row, column)), all starting at 300 K; a conductor of
    G = 2 joins each cell to its right neighbour and one of G = 3 to the one
    below; heater(Q_flow = 100) feeds cell [1,1]; loss(G = 1.5) joins cell
    [n,m] to ambient(T = 300). Energy balance of cell k:

        C_k T_k' = sum over neighbours l of G_kl (T_l - T_k) + q_k

    with q_[1,1] = 100 and q_[n,m] = 1.5 (300 - T_[n,m]): an affine system
    solved exactly by its matrix exponential, checked against Radau."""

    def plate(t: np.ndarray) -> dict[str, np.ndarray]:
        size = n * m

        def at(i: int, j: int) -> int:
            return (i - 1) * m + (j - 1)

        c = np.full(size, 50.0)
        for (i, j), value in c_set.items():
            c[at(i, j)] = value
        g = np.zeros((size, size))
        edges = [(at(i, j), at(i, j + 1), 2.0) for i in range(1, n + 1) for j in range(1, m)]
        edges += [(at(i, j), at(i + 1, j), 3.0) for i in range(1, n) for j in range(1, m + 1)]
        for k, l, conductance in edges:
            g[k, l] += conductance
            g[l, k] += conductance
        g[np.diag_indices(size)] = -g.sum(axis=1)
        g[at(n, m), at(n, m)] -= 1.5
        q = np.zeros(size)
        q[at(1, 1)] += 100.0
        q[at(n, m)] += 1.5 * 300.0
        a = g / c[:, None]
        b = q / c
        x0 = np.full(size, 300.0)
        x = np.array([affine_expm(a, b, x0, ti) for ti in t])
        radau_cross_check(f"AccGrid.Plate {n}x{m}", a, lambda _t: b, [], x0, t, x)
        return {f"cap[{i},{j}].T": x[:, at(i, j)] for i in range(1, n + 1) for j in range(1, m + 1)}

    return plate


def accconnarrays_star(t: np.ndarray) -> dict[str, np.ndarray]:
    """AccConnArrays.Star: a hub (C_h = 100, from 400 K) whose three ports
    each feed one cell of a plate (C = 20 each, from 300 K) through a link
    of conductance G_i = i:

        C_h T_h' = sum_i G_i (T_i - T_h)
        C   T_i' = G_i (T_h - T_i)

    solved exactly by the matrix exponential of the linear system."""
    c_hub, c_cell = 100.0, 20.0
    g = np.array([1.0, 2.0, 3.0])
    a = np.zeros((4, 4))
    a[0, 0] = -g.sum() / c_hub
    a[0, 1:] = g / c_hub
    for i in range(3):
        a[1 + i, 0] = g[i] / c_cell
        a[1 + i, 1 + i] = -g[i] / c_cell
    x0 = np.array([400.0, 300.0, 300.0, 300.0])
    x = np.array([affine_expm(a, np.zeros(4), x0, ti) for ti in t])
    out = {"hub.T": x[:, 0]}
    out.update({f"plate.T[{i + 1}]": x[:, 1 + i] for i in range(3)})
    return out


def accconnarrays_pair(t: np.ndarray) -> dict[str, np.ndarray]:
    """AccConnArrays.Pair: a hub (C_h = 100, from 350 K) whose port 1 feeds a
    body (C_b = 40, from 300 K) through G_a = 2, whose port 2 loses heat to
    surroundings at 280 K through G_b = 0.5, and whose port 3 takes no heat:

        C_h T_h' = G_a (T_b - T_h) + G_b (280 - T_h) + 0
        C_b T_b' = G_a (T_h - T_b)"""
    c_h, c_b, g_a, g_b, t_env = 100.0, 40.0, 2.0, 0.5, 280.0
    a = np.array([[-(g_a + g_b) / c_h, g_a / c_h], [g_a / c_b, -g_a / c_b]])
    b = np.array([g_b * t_env / c_h, 0.0])
    x = np.array([affine_expm(a, b, np.array([350.0, 300.0]), ti) for ti in t])
    return {"hub.T": x[:, 0], "body.T": x[:, 1]}


ACC_MATRIX_A = np.array([[-1.0, 2.0, 0.0], [-2.0, -1.0, 1.0], [0.5, -1.0, -3.0]])


def accmatrix_linear_with(a13: float, b2: float) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """AccMatrix.Linear: x' = A x + b u with the non-symmetric A above (its
    element A[1,3] replaced by a13), b = (1, b2, 0.5), u = 2,
    x(0) = (1, 0, -1); y = C x + D u with C = [[1, 0, 0], [0, 1, 0],
    [1, 1, 1]], D = (0, 0, 0.1); s = x.x. Solved exactly by the matrix
    exponential of the affine system."""

    def linear(t: np.ndarray) -> dict[str, np.ndarray]:
        a = ACC_MATRIX_A.copy()
        a[0, 2] = a13
        b = np.array([1.0, b2, 0.5])
        u = 2.0
        c = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1.0]])
        d = np.array([0.0, 0.0, 0.1])
        x = np.array([affine_expm(a, b * u, np.array([1.0, 0.0, -1.0]), ti) for ti in t])
        y = x @ c.T + d * u
        out = {f"x[{i + 1}]": x[:, i] for i in range(3)}
        out.update({f"y[{i + 1}]": y[:, i] for i in range(3)})
        out["s"] = np.sum(x * x, axis=1)
        return out

    return linear


def accmatrix_shifted(t: np.ndarray) -> dict[str, np.ndarray]:
    """AccMatrix.Shifted: z' = (At^T - k I) z with At the transpose of a
    non-symmetric matrix, k = 0.25, z(0) = (1, 1, 1): z(t) = expm(M t) z(0)."""
    at = np.array([[-1.0, -2.0, 0.5], [2.0, -1.0, -1.0], [0.0, 1.0, -3.0]])
    m = at.T - 0.25 * np.eye(3)
    z = np.array([expm(m * ti) @ np.ones(3) for ti in t])
    return {f"z[{i + 1}]": z[:, i] for i in range(3)}


def acc5_moon(t: np.ndarray) -> dict[str, np.ndarray]:
    """Acc5.Moon: a ball falls from rest at h0 = 10 m under the inner
    world's g = 1.62 m/s^2: h = h0 - g t^2/2, v = -g t."""
    g, h0 = 1.62, 10.0
    return {"ball.h": h0 - 0.5 * g * t**2, "ball.v": -g * t}


def acc5_maybe_heated(with_heater: bool) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """Acc5.MaybeHeated: C T' = Q - G (T - T_amb) with C = 200, G = 4,
    T_amb = T(0) = 293.15 and Q = 50 with the heater, 0 without it."""
    c, g, t_amb = 200.0, 4.0, 293.15
    q = 50.0 if with_heater else 0.0

    def solve(t: np.ndarray) -> dict[str, np.ndarray]:
        return {"body.T": t_amb + q / g * (1.0 - np.exp(-g * t / c))}

    return solve


def acc_outputs_spiral(t: np.ndarray) -> dict[str, np.ndarray]:
    """AccOutputs.Spiral: x' = -d x - w y, y' = w x - d y from (1, 0), so
    x + i y = exp((i w - d) t); vx, vy are the right-hand sides and r the
    radius exp(-d t). w = 2, d = 0.3."""
    w, d = 2.0, 0.3
    decay = np.exp(-d * t)
    x, y = decay * np.cos(w * t), decay * np.sin(w * t)
    return {"x": x, "y": y, "vx": -d * x - w * y, "vy": w * x - d * y, "r": decay}


def acc_state_record(t: np.ndarray) -> dict[str, np.ndarray]:
    """AccStateRecord.TwoVessels: h' = Q/m from h(0) = 2e4 J/kg (Q = 100 W,
    m = 1 kg) in both vessels; T = T_ref + h/cp per medium (water 4184, oil
    1900 J/(kg K), T_ref = 273.15 K); the state record at 1 bar and 300 K
    holds h = cp*(300 - T_ref)."""
    t_ref = 273.15
    h = 2e4 + 100.0 * t
    out: dict[str, np.ndarray] = {}
    for name, cp in (("w", 4184.0), ("o", 1900.0)):
        out[f"{name}.h"] = h
        out[f"{name}.T"] = t_ref + h / cp
        out[f"{name}.state.h"] = np.full_like(t, cp * (300.0 - t_ref))
        out[f"{name}.state.p"] = np.full_like(t, 1e5)
    return out


def acc_medium_heated_gas(t: np.ndarray) -> dict[str, np.ndarray]:
    """AccMedium.HeatedGas: an isobaric ideal-gas volume (rho = p/(R T),
    h = cp (T - T_ref)) with a through-flow, a heater and a loss:

        m cp T' = m_flow cp (T_in - T) + Q - G (T - T_amb),  m = p V/(R T)

    solved with Radau (rtol 1e-12), the state's density and enthalpy from
    the ideal-gas law."""
    p, v, m_flow, t_in, q, g, t_amb = 1e5, 0.5, 0.002, 283.15, 400.0, 2.0, 293.15
    r, cp, t_ref = 287.05, 1005.0, 273.15

    def rhs(_t: float, y: np.ndarray) -> np.ndarray:
        temperature = y[0]
        m = p * v / (r * temperature)
        return np.array([(m_flow * cp * (t_in - temperature) + q - g * (temperature - t_amb)) / (m * cp)])

    sol = solve_ivp(rhs, (0.0, float(t[-1])), [293.15], method="Radau", rtol=1e-12, atol=1e-12, t_eval=t)
    if not sol.success:
        raise RuntimeError(f"AccMedium_HeatedGas: Radau failed: {sol.message}")
    temperature = sol.y[0]
    rho = p / (r * temperature)
    return {
        "T": temperature,
        "rho": rho,
        "h": cp * (temperature - t_ref),
        "m": rho * v,
        "T_state": temperature,
        "rho_in": np.full_like(t, p / (r * t_in)),
        "rho_amb": np.full_like(t, p / (r * t_amb)),
    }


# The reference file name (without .csv) -> the function that computes it.
def accfill_decay(n: int, k: float, x0: list[float]) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """AccFill.Decay: n uncoupled decays x_i' = -2 x_i from x0_i (G = fill(2, n),
    M = zeros(n, n)) and z_i' = -k z_i + 1 from 3 (H = fill(k, n)):

        x_i(t) = x0_i exp(-2 t),   z_i(t) = 1/k + (3 - 1/k) exp(-k t)."""

    def decay(t: np.ndarray) -> dict[str, np.ndarray]:
        out = {f"x[{i + 1}]": x0[i] * np.exp(-2.0 * t) for i in range(n)}
        out.update({f"z[{i + 1}]": 1.0 / k + (3.0 - 1.0 / k) * np.exp(-k * t) for i in range(n)})
        return out

    return decay


def acc_discrete_arrays_gates(n: int, r: float, q: float, h: float) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """AccDiscreteArrays.Gates: n tanks from x_i(0) = 0, x_i' = i r while
    x_i <= h (gate shut), q once x_i > h (gate open). Tank i reaches h at
    t_i = h/(i r), a state event of its own; after it x_i = h + q (t - t_i),
    open[i] = true and stage[i] = 2 (1 before)."""

    def gates(t: np.ndarray) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i in range(1, n + 1):
            t_i = h / (i * r)
            after = t > t_i
            out[f"x[{i}]"] = np.where(after, h + q * (t - t_i), i * r * t)
            out[f"open[{i}]"] = after.astype(float)
            out[f"stage[{i}]"] = np.where(after, 2.0, 1.0)
        return out

    return gates


def acc_end_cascade(n: int, a: float) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """AccEnd.Cascade: n first-order lags in a row from zero, x_1' = a(1 - x_1),
    x_i' = a(x_(i-1) - x_i). The step response of i lags in series is the
    regularised incomplete gamma function

        x_i(t) = P(i, a t) = 1 - exp(-a t) sum_(k < i) (a t)^k / k!,

    and last = x_n, gap[i] = x_i - x_n, ends = {x_1, x_(n-1) - x_n}."""

    def cascade(t: np.ndarray) -> dict[str, np.ndarray]:
        z = a * t
        x = {}
        for i in range(1, n + 1):
            partial = sum(z**k / math.factorial(k) for k in range(i))
            x[i] = 1.0 - np.exp(-z) * partial
        out = {f"x[{i}]": x[i] for i in range(1, n + 1)}
        out.update({f"gap[{i}]": x[i] - x[n] for i in range(1, n)})
        out["last"] = x[n]
        out["ends[1]"] = x[1]
        out["ends[2]"] = x[n - 1] - x[n]
        return out

    return cascade


GENERATORS: dict[str, Callable[[np.ndarray], dict[str, np.ndarray]]] = {
    "StepIntegrator": step_integrator,
    "FirstOrderStep": first_order_step,
    "PulseIntegrator": pulse_integrator,
    "SineRampAdd": sine_ramp_add,
    "PIControlLoop": pi_control_loop,
    "TwoCapacitors": two_capacitors,
    "CapacitorCooling": capacitor_cooling,
    "HeatedCapacitor": heated_capacitor,
    "RodHeating": rod_heating(5),
    "Acc1_MixingTank": acc1_mixing_tank,
    "RodHeating_n10": rod_heating(10),
    "RodHeating_n100": rod_heating(100),
    "Acc2_TwoVessels": acc2_two_vessels,
    "AccMediumFunctions_TwoVessels": acc_medium_functions,
    "Acc3_Clip": acc3_clip(True),
    "Acc3_Clip_noclip": acc3_clip(False),
    "Acc6_Room": acc6_room(1.0),
    "Acc6_Room_Boost": acc6_room(2.0),
    "Acc6_Room_Off": acc6_room(0.0),
    "Acc4_Chain": acc4_chain_with([50.0, 50.0, 50.0], [2.0, 2.0, 2.0]),
    "Acc4_Chain_SetElements": acc4_chain_with([50.0, 80.0, 50.0], [2.0, 2.0, 1.5]),
    "AccGrid_Plate": accgrid_plate(3, 4, {}),
    "AccGrid_Plate_Set": accgrid_plate(4, 5, {(2, 3): 80.0}),
    "Acc5_Moon": acc5_moon,
    "Acc5_MaybeHeated": acc5_maybe_heated(True),
    "Acc5_MaybeHeated_off": acc5_maybe_heated(False),
    "AccMedium_HeatedGas": acc_medium_heated_gas,
    "AccConnArrays_Star": accconnarrays_star,
    "AccConnArrays_Pair": accconnarrays_pair,
    "AccMatrix_Linear": accmatrix_linear_with(0.0, 0.0),
    "AccMatrix_Linear_SetElements": accmatrix_linear_with(0.7, -1.0),
    "AccMatrix_Shifted": accmatrix_shifted,
    "AccFill_Decay": accfill_decay(3, 0.5, [1.0, 1.0, 1.0]),
    "AccFill_Decay_n5": accfill_decay(5, 0.25, [1.0, 1.0, 1.0, 2.0, 1.0]),
    "AccDiscrete_CooledBody": acc_discrete_cooled_body,
    "AccDiscreteArrays_Gates": acc_discrete_arrays_gates(3, 1.0, 0.1, 0.5),
    "AccDiscreteArrays_Gates_n5": acc_discrete_arrays_gates(5, 0.8, 0.1, 0.5),
    "AccEnd_Cascade": acc_end_cascade(4, 2.0),
    "AccEnd_Cascade_n6": acc_end_cascade(6, 1.5),
    "AccOutputs_Spiral": acc_outputs_spiral,
    "AccStateRecord_TwoVessels": acc_state_record,
}
GENERATORS.update(planar_references.GENERATORS)
GENERATORS.update(vehicle_references.GENERATORS)
GENERATORS.update(energy_flows_references.GENERATORS)
GENERATORS.update(thermofluid_references.GENERATORS)
GENERATORS.update(clocked_references.GENERATORS)
GENERATORS.update(electrical_references.GENERATORS)
GENERATORS.update(event_references.GENERATORS)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def write_csv(path: Path, t: np.ndarray, columns: dict[str, np.ndarray], names: list[str]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        writer.writerow(["time", *names])
        for i in range(len(t)):
            # repr() of a float round-trips exactly, so a re-run can be
            # compared digit for digit.
            writer.writerow([float(t[i]), *(float(columns[name][i]) for name in names)])


def generate(out: Path) -> list[Path]:
    """Write every reference named in the manifest into `out`."""
    with MANIFEST.open("rb") as f:
        cases = tomllib.load(f)["case"]
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for case in cases:
        stem = Path(case["reference"]).stem
        if stem in written:
            continue
        generator = GENERATORS.get(stem)
        if generator is None:
            raise ValueError(f"case {case['name']}: no generator for reference {stem}")
        t = time_grid(float(case["stop_time"]), float(case["output_interval"]))
        columns = generator(t)
        # A sampled-data reference has its own rows: the grid, with a tick
        # that falls on it written twice (before and after the tick).
        rows = columns.pop("time", t)
        names = list(case["variables"])
        missing = [name for name in names if name not in columns]
        if missing:
            raise ValueError(f"case {case['name']}: reference {stem} lacks {missing}")
        path = out / f"{stem}.csv"
        write_csv(path, rows, columns, names)
        written[stem] = path
        print(f"wrote {path} ({len(rows)} rows, {len(names)} variables)")
    return list(written.values())


def read_table(path: Path) -> tuple[list[str], np.ndarray]:
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in row] for row in rows[1:]])


def check_reproduced(fresh: list[Path]) -> int:
    """Compare freshly computed references with the committed ones."""
    passed = failed = 0
    for path in fresh:
        committed = HERE / path.name
        problem = None
        if not committed.is_file():
            problem = "not committed"
        else:
            header_a, a = read_table(path)
            header_b, b = read_table(committed)
            if header_a != header_b or a.shape != b.shape:
                problem = f"header or shape differs: {header_b} {b.shape} committed, {header_a} {a.shape} now"
            else:
                deviation = np.abs(a - b) - REPRODUCE_TOL * (1.0 + np.abs(b))
                worst = float(np.max(np.abs(a - b))) if a.size else 0.0
                if np.any(deviation > 0):
                    problem = f"differs by up to {worst:.3e}"
        if problem is None:
            passed += 1
            print(f"PASS reference {path.stem} reproduced")
        else:
            failed += 1
            print(f"FAIL reference {path.stem} {problem}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the CSV files")
    parser.add_argument("--check", action="store_true",
                        help="recompute into a temporary folder and compare with the committed files")
    args = parser.parse_args(argv)
    try:
        if args.check:
            with tempfile.TemporaryDirectory() as tmp:
                return check_reproduced(generate(Path(tmp)))
        generate(args.out)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
