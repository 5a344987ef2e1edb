"""Reference trajectories of the Electrical examples, computed without mofmu.

Each circuit is written down again from the textbook (Kirchhoff's laws and
the elements' laws), never from the library's classes: the parameters are
copied from the example models' modifiers (or the case's `--set` values).
Every example is a linear system x' = A x + b with b constant from t = 0 on,
at rest at t = 0, so its exact solution is the exponential of the augmented
matrix [[A, b], [0, 0]] (scipy's expm, after balancing), over one step of
the uniform output grid and applied step after step, checked against the
exponential at the full time. Each is also checked against scipy's Radau
(rtol 1e-10), so a slip in writing A down cannot go unnoticed.

- SeriesRLC: L i' = V - R i - vC, C vC' = i (a 2x2 exponential).
- DCMotor: L i' = V - R i - k w, J w' = k i - d w (a 2x2 exponential).
- TransmissionLine: the ScalableTestSuite's lumped line. A unit step through
  the filter y'' + 2 D w y' + w^2 y = w^2 u (D = 1, at rest) is the voltage
  at node 0; segment k has the series current i_k and the shunt voltage v_k:
      Ls i_k' = v_(k-1) - Rs i_k - v_k,  Cs v_k' = i_k - i_(k+1),
  with v_0 the filter's output, i_(N+1) = v_N / RL, Rs = r length/N,
  Ls = l length/N, Cs = c length/N, RL = sqrt(l/c): 2N + 2 states. The load
  voltage v_N crosses half the step TD = length sqrt(l c) after the source
  does (the line is matched, so nothing is reflected); this is checked to 2%.
- MotorSpeedControl: the DC motor under the clocked DiscretePI, the same
  loop as Signals.Examples.MotorSpeedControl (clocked_references.py).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy.integrate import solve_ivp
from scipy.sparse import csc_matrix
from scipy.linalg import expm, matrix_balance
from scipy.optimize import brentq

import clocked_references

# Largest disagreement tolerated between the matrix exponential and Radau,
# relative to each state's range (Radau runs at rtol 1e-10).
CROSS_CHECK_REL = 1e-7
RADAU_RTOL = 1e-10

# How far the lumped line's measured delay may be from length*sqrt(l*c).
DELAY_REL = 0.02


def augmented(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = a.shape[0]
    m = np.zeros((n + 1, n + 1))
    m[:n, :n] = a
    m[:n, n] = b
    return m


def exponential(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """x(t) of x' = A x + b from x(0) = 0: the exponential of the augmented
    matrix, balanced first (a similarity by powers of 2, exact in floating
    point). The line's currents and voltages differ by its impedance (50
    Ohm) and its entries span 1e6..3e9 per second; unbalanced, the scaling
    and squaring loses 3e-8 over 4e-6 s, balanced it agrees with Radau at
    rtol 1e-12 to 6e-9."""
    n = a.shape[0]
    balanced, scaling = matrix_balance(augmented(a, b), permute=False)
    z0 = np.linalg.solve(scaling, np.append(np.zeros(n), 1.0))
    return (scaling @ (expm(balanced * t) @ z0))[:n]


def exact_at_rest(name: str, a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """x(t) of x' = A x + b, x(0) = 0, at every time of the uniform grid t
    (rows): the exponential of the balanced augmented matrix over one grid
    step, applied step after step (the exact solution propagated exactly;
    the line's 2001 points take one exponential instead of 2001). Checked
    against the exponential at the full time every 400 points (to 1e-12 of
    each state's range) and against Radau."""
    n = a.shape[0]
    h = float(t[1] - t[0])
    if np.max(np.abs(np.diff(t) - h)) > 1e-9 * h or t[0] != 0.0:
        raise ValueError(f"{name}: the grid is not uniform from 0")
    balanced, scaling = matrix_balance(augmented(a, b), permute=False)
    step = expm(balanced * h)
    z = np.linalg.solve(scaling, np.append(np.zeros(n), 1.0))
    exact = np.empty((len(t), n))
    for k in range(len(t)):
        exact[k] = (scaling @ z)[:n]
        z = step @ z
    # Each state on its own scale: the line's currents are 50 times smaller
    # than its voltages, the filter's slope 1e6 times larger.
    scale = np.maximum(np.max(np.abs(exact), axis=0), 1e-300)
    direct = max(float(np.max(np.abs(exponential(a, b, float(t[k])) - exact[k]) / scale))
                 for k in range(0, len(t), 400))
    if direct > 1e-12:
        raise RuntimeError(f"{name}: propagation and the direct exponential disagree by {direct:.3e}")
    jacobian = csc_matrix(a) if n >= 50 else a
    sol = solve_ivp(lambda _t, y: a @ y + b, (float(t[0]), float(t[-1])), np.zeros(n),
                    method="Radau", rtol=RADAU_RTOL, atol=1e-2 * RADAU_RTOL * scale, t_eval=t,
                    jac=jacobian)
    if not sol.success:
        raise RuntimeError(f"{name}: Radau failed: {sol.message}")
    worst = float(np.max(np.abs(sol.y.T - exact) / scale))
    if worst > CROSS_CHECK_REL:
        raise RuntimeError(f"{name}: matrix exponential and Radau disagree by {worst:.3e} of a state's range")
    print(f"{name}: Radau agrees with the matrix exponential to {worst:.1e} of each state's range")
    return exact


# ---------------------------------------------------------------------------
# SeriesRLC and DCMotor
# ---------------------------------------------------------------------------


def series_rlc(v: float, r: float, ell: float, c: float) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """A step of v at t = 0 on r, ell and c in series, at rest; states (i, vC)."""

    def solve(t: np.ndarray) -> dict[str, np.ndarray]:
        a = np.array([[-r / ell, -1.0 / ell], [1.0 / c, 0.0]])
        b = np.array([v / ell, 0.0])
        x = exact_at_rest("Electrical.Examples.SeriesRLC", a, b, t)
        return {"i": x[:, 0], "vC": x[:, 1], "inductor.i": x[:, 0], "capacitor.v": x[:, 1]}

    return solve


def dc_motor(v: float, r: float, ell: float, k: float, j: float, d: float) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """A constant armature voltage v from t = 0 on a motor at rest; states (i, w)."""

    def solve(t: np.ndarray) -> dict[str, np.ndarray]:
        a = np.array([[-r / ell, -k / ell], [k / j, -d / j]])
        b = np.array([v / ell, 0.0])
        x = exact_at_rest("Electrical.Examples.DCMotor", a, b, t)
        return {"i": x[:, 0], "w": x[:, 1], "inductor.i": x[:, 0], "rotor.w": x[:, 1]}

    return solve


# ---------------------------------------------------------------------------
# TransmissionLine
# ---------------------------------------------------------------------------


def line_system(n: int, length: float, r: float, ell: float, c: float, w: float) -> tuple[np.ndarray, np.ndarray]:
    """A and b of the lumped line; states (y, y', i_1..i_n, v_1..v_n)."""
    rs, ls, cs = r * length / n, ell * length / n, c * length / n
    rl = math.sqrt(ell / c)
    size = 2 * n + 2
    a = np.zeros((size, size))
    b = np.zeros(size)
    y, yd = 0, 1

    def i(k: int) -> int:
        return 2 + (k - 1)

    def v(k: int) -> int:
        return 2 + n + (k - 1)

    a[y, yd] = 1.0
    a[yd, y] = -w * w
    a[yd, yd] = -2.0 * w
    b[yd] = w * w
    for k in range(1, n + 1):
        before = y if k == 1 else v(k - 1)
        a[i(k), before] += 1.0 / ls
        a[i(k), i(k)] -= rs / ls
        a[i(k), v(k)] -= 1.0 / ls
        a[v(k), i(k)] += 1.0 / cs
        if k < n:
            a[v(k), i(k + 1)] -= 1.0 / cs
        else:
            a[v(k), v(k)] -= 1.0 / (rl * cs)
    return a, b


def transmission_line(n: int, length: float = 100.0, r: float = 48e-6, ell: float = 253e-9,
                      c: float = 101e-12, w: float = 5e6) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    def solve(t: np.ndarray) -> dict[str, np.ndarray]:
        a, b = line_system(n, length, r, ell, c, w)
        name = f"Electrical.Examples.TransmissionLine (N = {n})"
        x = exact_at_rest(name, a, b, t)
        # The filter's output reaches one half at the root of the closed
        # form 1 - (1 + w t) exp(-w t) = 1/2; the load one line delay later
        # (between two grid points, linearly: the grid is 2e-9 s, the
        # delay 5e-7 s).
        t_source = brentq(lambda s: 1.0 - (1.0 + w * s) * math.exp(-w * s) - 0.5, 0.0, 10.0 / w)
        crossing = np.nonzero(x[:, -1] >= 0.5)[0]
        if crossing.size == 0:
            raise RuntimeError(f"{name}: the load never reaches half the step")
        k = int(crossing[0])
        v0, v1 = float(x[k - 1, -1]), float(x[k, -1])
        t_load = float(t[k - 1]) + (0.5 - v0) / (v1 - v0) * float(t[k] - t[k - 1])
        delay = t_load - t_source
        theory = length * math.sqrt(ell * c)
        if abs(delay - theory) > DELAY_REL * theory:
            raise RuntimeError(f"{name}: delay {delay:.4e} s, length*sqrt(l*c) = {theory:.4e} s")
        print(f"{name}: the load crosses 1/2 {delay:.4e} s after the source; "
              f"length*sqrt(l*c) = {theory:.4e} s ({(delay / theory - 1) * 100:+.2f}%)")
        return {"vLoad": x[:, -1], "filter.y": x[:, 0]}

    return solve


# ---------------------------------------------------------------------------
# MotorSpeedControl
# ---------------------------------------------------------------------------


def motor_speed_control(t: np.ndarray) -> dict[str, np.ndarray]:
    """The loop of Signals.Examples.MotorSpeedControl with the motor built of
    components: its states are the inductor's current and the rotor's speed."""
    columns = clocked_references.motor_speed_control(0.02)(t)
    return {
        "time": columns["time"],
        "i": columns["motor.i"],
        "w": columns["motor.w"],
        "controller.y": columns["controller.y"],
    }


GENERATORS: dict[str, Callable[[np.ndarray], dict[str, np.ndarray]]] = {
    "Electrical_SeriesRLC": series_rlc(1.0, 10.0, 0.1, 1e-3),
    "Electrical_SeriesRLC_R40": series_rlc(1.0, 40.0, 0.1, 1e-3),
    "Electrical_DCMotor": dc_motor(12.0, 1.0, 0.02, 0.1, 0.002, 0.001),
    "Electrical_DCMotor_Set": dc_motor(24.0, 1.0, 0.02, 0.1, 0.004, 0.001),
    "Electrical_TransmissionLine": transmission_line(30),
    "Electrical_TransmissionLine_N60": transmission_line(60),
    "Electrical_MotorSpeedControl": motor_speed_control,
}
