"""Reference trajectories of the clocked (sampled-data) examples, computed
without mofmu.

A linear plant under sampled controllers is exact as matrix exponentials
between ticks: each controller reads the plant at its ticks t = k*Ts (the
first at t = 0), computes its clocked equations from those readings and its
previous values, and holds its outputs until its next tick (zero-order hold).
Between two ticks the plant is x' = A x + b with b constant, solved by the
exponential of the augmented matrix [[A, b], [0, 0]]. The whole loop is run a
second time with scipy's Radau (rtol 1e-10, atol 1e-12) on every interval
between ticks, the controllers fed from Radau's own states, and the two must
agree to 1e-7 (relative to the size of the solution), so a slip in the
exponential or in the order of the tick updates cannot go unnoticed.

At a tick that falls on the output grid the reference has two rows, the
values just before and just after the tick (the held outputs jump there); a
round trip skips both (`roundtrip.drop_event_duplicates`), so a simulator is
never judged on which side of a tick it reports. The controllers' equations
are written down again from the blocks of examples/Signals.mo (Discrete) and
test_data/clocked/Clk1.mo and Clk2.mo, the parameters copied from the
examples' modifiers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.integrate import solve_ivp
from scipy.linalg import expm

# Largest disagreement tolerated between the matrix exponential and Radau,
# relative to the magnitude of the solution (Radau runs at rtol 1e-10).
CROSS_CHECK_REL = 1e-7

Clocked = dict[str, float]


@dataclass
class Partition:
    """A controller with its own periodic clock: `tick(t, x, previous)`
    returns its clocked values at the tick t from the plant state x and its
    values at its tick before (`start` at the first tick); `previous` also
    holds the other partitions' latest values, for partitions of one base
    clock that read each other (`subSample`, `superSample`)."""

    ts: float
    start: Clocked
    tick: Callable[[float, np.ndarray, Clocked], Clocked]


@dataclass
class SampledLoop:
    """A linear plant x' = A x + forcing(clocked) under sampled partitions;
    `outputs(t, x, clocked)` names the compared variables."""

    name: str
    a: np.ndarray
    forcing: Callable[[Clocked], np.ndarray]
    x0: np.ndarray
    partitions: list[Partition]
    outputs: Callable[[float, np.ndarray, Clocked], dict[str, float]]


Segment = Callable[[np.ndarray, np.ndarray, np.ndarray, float, list[float], float],
                   tuple[list[np.ndarray], np.ndarray]]


def affine_expm(a: np.ndarray, b: np.ndarray, x0: np.ndarray, dt: float) -> np.ndarray:
    """Exact solution after dt of x' = A x + b (b constant) from x0."""
    n = a.shape[0]
    m = np.zeros((n + 1, n + 1))
    m[:n, :n] = a
    m[:n, n] = b
    return (expm(m * dt) @ np.append(x0, 1.0))[:n]


def expm_segment(a: np.ndarray, b: np.ndarray, x: np.ndarray, t0: float,
                 inside: list[float], t1: float) -> tuple[list[np.ndarray], np.ndarray]:
    """The states at the times `inside` [t0, t1) and at t1, exactly."""
    return [affine_expm(a, b, x, max(0.0, t - t0)) for t in inside], affine_expm(a, b, x, t1 - t0)


def radau_segment(a: np.ndarray, b: np.ndarray, x: np.ndarray, t0: float,
                  inside: list[float], t1: float) -> tuple[list[np.ndarray], np.ndarray]:
    """The same with Radau, from t0 over the interval."""
    at = [t for t in inside if t > t0]
    sol = solve_ivp(lambda _t, y: a @ y + b, (t0, t1), x, method="Radau", rtol=1e-10, atol=1e-12,
                    t_eval=at + [t1], jac=a)
    if not sol.success:
        raise RuntimeError(f"Radau failed: {sol.message}")
    states = iter(sol.y.T)
    inner = [x.copy() if t <= t0 else next(states) for t in inside]
    return inner, sol.y[:, -1]


def tick_instants(partitions: list[Partition], stop: float) -> list[tuple[float, list[int]]]:
    """Every tick up to the stop time with the partitions that tick there, in
    the order the partitions are listed."""
    instants: list[tuple[float, list[int]]] = []
    for j, p in enumerate(partitions):
        for k in range(int(math.floor(stop / p.ts + 1e-9)) + 1):
            t = k * p.ts
            for instant in instants:
                if abs(instant[0] - t) <= 1e-9 * p.ts:
                    instant[1].append(j)
                    break
            else:
                instants.append((t, [j]))
    return sorted(instants)


def run(loop: SampledLoop, times: np.ndarray, segment: Segment) -> tuple[np.ndarray, dict[str, np.ndarray], list[Clocked]]:
    """The loop's rows at `times` (a tick on the grid gives two rows, before
    and after it) and the clocked values after every tick instant."""
    instants = tick_instants(loop.partitions, float(times[-1]))
    eps = 1e-9 * min(p.ts for p in loop.partitions)
    x = np.array(loop.x0, dtype=float)
    previous = [dict(p.start) for p in loop.partitions]
    clocked: Clocked = {}
    history: list[Clocked] = []
    out_t: list[float] = []
    out_rows: list[dict[str, float]] = []
    for n, (t0, ticking) in enumerate(instants):
        before = dict(clocked)
        for j in ticking:
            # A partition sees its own values at its tick before and every
            # other partition's latest (`superSample`, `subSample`): those
            # listed before it that tick at this instant have ticked.
            previous[j] = loop.partitions[j].tick(t0, x, {**clocked, **previous[j]})
            clocked.update(previous[j])
        history.append(dict(clocked))
        t1 = instants[n + 1][0] if n + 1 < len(instants) else float(times[-1]) + 1.0
        inside = [float(t) for t in times if t0 - eps <= t < t1 - eps]
        states, x_end = segment(loop.a, loop.forcing(clocked), x, t0, inside, t1)
        for t, state in zip(inside, states):
            if n > 0 and abs(t - t0) <= eps:
                out_t.append(t)
                out_rows.append(loop.outputs(t, x, before))
            out_t.append(t)
            out_rows.append(loop.outputs(t, state, clocked))
        x = x_end
    names = list(out_rows[0])
    return np.array(out_t), {name: np.array([row[name] for row in out_rows]) for name in names}, history


def solve(loop: SampledLoop, times: np.ndarray) -> tuple[dict[str, np.ndarray], list[Clocked]]:
    """The exact rows (with a "time" column), cross-checked against Radau."""
    t, exact, history = run(loop, times, expm_segment)
    t_radau, radau, _ = run(loop, times, radau_segment)
    if not np.array_equal(t, t_radau):
        raise RuntimeError(f"{loop.name}: Radau's rows are at other times")
    scale = max(1.0, max(float(np.max(np.abs(v))) for v in exact.values()))
    worst = max(float(np.max(np.abs(radau[n] - exact[n]))) for n in exact)
    if worst > CROSS_CHECK_REL * scale:
        raise RuntimeError(f"{loop.name}: matrix exponential and Radau disagree by {worst:.3e}")
    print(f"{loop.name}: Radau agrees with the matrix exponential to {worst:.1e}")
    exact["time"] = t
    return exact, history


def value_at(columns: dict[str, np.ndarray], name: str, t: float) -> float:
    """The value of `name` at the grid time t (after a tick there)."""
    rows = np.nonzero(np.abs(columns["time"] - t) <= 1e-12)[0]
    if rows.size == 0:
        raise RuntimeError(f"{t} is not on the output grid")
    return float(columns[name][rows[-1]])


def assert_values(name: str, columns: dict[str, np.ndarray], expected: dict[float, dict[str, float]]) -> None:
    """Published values (9 significant digits) must be reproduced."""
    for t, values in expected.items():
        for var, want in values.items():
            got = value_at(columns, var, t)
            if abs(got - want) > 1e-9 * max(1.0, abs(want)):
                raise RuntimeError(f"{name}: {var}({t}) = {got:.10g}, the published value is {want}")
    print(f"{name}: the published values are reproduced to 1e-9")


# ---------------------------------------------------------------------------
# Clk1 (test_data/clocked/Clk1.mo, the two public snippets)
# ---------------------------------------------------------------------------


def clk1_sampled_p(t: np.ndarray) -> dict[str, np.ndarray]:
    """Clk1.SampledP: x' = -a x + b u with u held from uk = K (r - x(t_k)),
    a = 2, b = 1, K = 4, r = 1, Ts = 0.1, x(0) = 0."""
    a, b, gain, r, ts = 2.0, 1.0, 4.0, 1.0, 0.1

    def tick(_t: float, x: np.ndarray, _prev: Clocked) -> Clocked:
        return {"uk": gain * (r - x[0])}

    loop = SampledLoop(
        "Clk1.SampledP", np.array([[-a]]), lambda c: np.array([b * c["uk"]]), np.zeros(1),
        [Partition(ts, {}, tick)],
        lambda _t, x, c: {"x": x[0], "u": c["uk"], "uk": c["uk"]},
    )
    columns, _ = solve(loop, t)
    assert_values(loop.name, columns, {
        0.33: {"x": 0.614431744, "u": 1.586503465},
        1.05: {"x": 0.666480716, "u": 1.334374326},
    })
    return columns


def clk1_motor_pi(t: np.ndarray) -> dict[str, np.ndarray]:
    """Clk1.MotorPI: Lm i' = v - R i - kt w, J w' = kt i - d w, with v held
    from e = w_ref - w(t_k), I = previous(I) + Ts e (I starts at 0),
    vk = Kp e + Ki I."""
    r, lm, kt, j, d = 1.0, 0.5, 0.01, 0.01, 0.1
    kp, ki, w_ref, ts = 100.0, 200.0, 1.0, 0.01

    def tick(_t: float, x: np.ndarray, prev: Clocked) -> Clocked:
        e = w_ref - x[1]
        integral = prev["I"] + ts * e
        return {"e": e, "I": integral, "vk": kp * e + ki * integral}

    loop = SampledLoop(
        "Clk1.MotorPI",
        np.array([[-r / lm, -kt / lm], [kt / j, -d / j]]),
        lambda c: np.array([c["vk"] / lm, 0.0]),
        np.zeros(2),
        [Partition(ts, {"I": 0.0}, tick)],
        lambda _t, x, c: {"i": x[0], "w": x[1], "v": c["vk"], "I": c["I"], "e": c["e"]},
    )
    columns, _ = solve(loop, t)
    assert_values(loop.name, columns, {
        0.505: {"i": 9.692075888, "w": 0.892777515, "v": 20.863706283},
        2.005: {"i": 10.001558763, "w": 0.999977144, "v": 10.012958824},
    })
    return columns


# ---------------------------------------------------------------------------
# Clk2 (test_data/clocked/Clk2.mo: partitions of one base clock read through
# subSample/superSample, and counters that name no clock)
# ---------------------------------------------------------------------------


def clk2_conversions(t: np.ndarray) -> dict[str, np.ndarray]:
    """Clk2.Conversions, in closed form: with Ts = 0.1 and f = 3, a = t_k at
    the fast ticks t_k = k Ts and b = 2 t_j at the slow ones t_j = 3 j Ts;
    c1 = b - subSample(a, 3) = t_j at the slow ticks, c2 = a - superSample(b,
    3) = t_k - 2 t_j (t_j the last slow tick) at the fast ones. (No plant: a
    state that stays 0 carries the loop.)"""
    ts, f = 0.1, 3
    latest: Clocked = {}

    def fast(tk: float, _x: np.ndarray, _prev: Clocked) -> Clocked:
        return {"a": tk}

    def slow(tj: float, _x: np.ndarray, prev: Clocked) -> Clocked:
        b = 2.0 * tj
        latest["b"] = b
        return {"b": b, "c1": b - prev["a"]}

    def fast_after(_tk: float, _x: np.ndarray, prev: Clocked) -> Clocked:
        return {"c2": prev["a"] - prev["b"]}

    loop = SampledLoop(
        "Clk2.Conversions", np.zeros((1, 1)), lambda _c: np.zeros(1), np.zeros(1),
        [Partition(ts, {}, fast), Partition(f * ts, {}, slow), Partition(ts, {}, fast_after)],
        lambda _t, _x, c: {"c1H": c["c1"], "c2H": c["c2"]},
    )
    columns, _ = solve(loop, t)
    # The closed form, directly: every row after its tick.
    for row, tr in enumerate(columns["time"]):
        k = math.floor(tr / ts + 1e-9)
        if row + 1 < len(columns["time"]) and columns["time"][row + 1] == tr:
            k -= 1  # the row before the tick at tr
        j = k // f
        want = {"c1H": f * j * ts, "c2H": k * ts - 2.0 * f * j * ts}
        for name, value in want.items():
            if abs(columns[name][row] - value) > 1e-12:
                raise RuntimeError(f"Clk2.Conversions: {name}({tr}) = {columns[name][row]}, the closed form {value}")
    print("Clk2.Conversions: every row is the closed form")
    return columns


def clk2_cascade(t: np.ndarray) -> dict[str, np.ndarray]:
    """Clk2.Cascade: a mass m v' = F - d v, x' = v (m = 1, d = 0.5) under a
    position loop every f Ts = 0.05 s, vsp = Kx (xref - x(t_j)) (Kx = 2,
    xref = 1), whose setpoint a PI speed loop every Ts = 0.01 s follows:
    ev = vsp - v(t_k) with vsp of the last position tick (superSample),
    I = previous(I) + Ts ev (I from 0), F = Kv ev + Ki I (Kv = 20, Ki = 50),
    held. evSlow is ev at the position loop's ticks (subSample), after the
    speed loop's tick at the same instant."""
    m, d, ts, f = 1.0, 0.5, 0.01, 5
    kx, kv, ki, xref = 2.0, 20.0, 50.0, 1.0

    def position(_t: float, x: np.ndarray, _prev: Clocked) -> Clocked:
        return {"vsp": kx * (xref - x[0])}

    def speed(_t: float, x: np.ndarray, prev: Clocked) -> Clocked:
        ev = prev["vsp"] - x[1]
        integral = prev["I"] + ts * ev
        return {"ev": ev, "I": integral, "Fk": kv * ev + ki * integral}

    def monitor(_t: float, _x: np.ndarray, prev: Clocked) -> Clocked:
        return {"evSlow": prev["ev"]}

    loop = SampledLoop(
        "Clk2.Cascade",
        np.array([[0.0, 1.0], [0.0, -d / m]]),
        lambda c: np.array([0.0, c["Fk"] / m]),
        np.zeros(2),
        [Partition(f * ts, {}, position), Partition(ts, {"I": 0.0}, speed),
         Partition(f * ts, {}, monitor)],
        lambda _t, x, c: {"x": x[0], "v": x[1], "F": c["Fk"], "vspH": c["vsp"], "evSlowH": c["evSlow"]},
    )
    columns, _ = solve(loop, t)
    return columns


def clk2_delayed_lag(t: np.ndarray) -> dict[str, np.ndarray]:
    """Clk2.DelayedLag: T x' = 1 - x + y (T = 0.5, x(0) = 1) with y held from
    the ticks at k Ts (Ts = 0.1): n = previous(n) + 1 from -1 (so n = k),
    m = 0 at the first tick and previous(m) + 1 after, dt = Ts, and
    y = a previous(y) + (1 - a) x(t_k) once n dt >= t0 (a = 0.8, t0 = 0.25:
    from the tick at 0.3 s on), else previous(y) (y from 0)."""
    ts, t0, a, tau = 0.1, 0.25, 0.8, 0.5

    def tick(_t: float, x: np.ndarray, prev: Clocked) -> Clocked:
        n = prev["n"] + 1.0
        m = 0.0 if prev["ticked"] == 0.0 else prev["m"] + 1.0
        y = a * prev["y"] + (1.0 - a) * x[0] if n * ts >= t0 else prev["y"]
        return {"n": n, "m": m, "dt": ts, "y": y, "ticked": 1.0}

    loop = SampledLoop(
        "Clk2.DelayedLag", np.array([[-1.0 / tau]]), lambda c: np.array([(1.0 + c["y"]) / tau]),
        np.array([1.0]),
        [Partition(ts, {"n": -1.0, "m": 0.0, "y": 0.0, "ticked": 0.0}, tick)],
        lambda _t, x, c: {"x": x[0], "yHeld": c["y"], "nHeld": c["n"], "mHeld": c["m"], "dtHeld": c["dt"]},
    )
    columns, _ = solve(loop, t)
    return columns


# ---------------------------------------------------------------------------
# Signals.Examples (the Discrete blocks)
# ---------------------------------------------------------------------------


def step_value(t: float, height: float, offset: float, start: float) -> float:
    """Signals.Sources.Step: offset, plus height from startTime on."""
    return offset + (height if t >= start else 0.0)


def motor_speed_control(ts: float) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    """Signals.Examples.MotorSpeedControl: setpoint Step(height = 5,
    offset = 10, startTime = 0.51) minus the motor's speed is the error of a
    DiscretePI(k = 0.2, Ti = 0.05, Ts = 0.02, or `--set controller.Ts=ts`),
    whose held output is the voltage of DCMotor(R = 1, L = 0.02, k = 0.1,
    J = 0.002, d = 0.001):

        L i' = v - R i - k w,   J w' = k i - d w.

    DiscretePI: x = previous(x) + Ts e/Ti (x starts at 0), y = k (e + x)."""
    return lambda t: motor_speed_control_at(t, ts)


def motor_speed_control_at(t: np.ndarray, ts: float) -> dict[str, np.ndarray]:
    height, offset, start = 5.0, 10.0, 0.51
    kc, ti = 0.2, 0.05
    r, ell, k, j, d = 1.0, 0.02, 0.1, 0.002, 0.001

    def tick(tk: float, x: np.ndarray, prev: Clocked) -> Clocked:
        e = step_value(tk, height, offset, start) - x[1]
        xi = prev["controller.x"] + ts * e / ti
        return {"controller.x": xi, "controller.y": kc * (e + xi)}

    loop = SampledLoop(
        "Signals.Examples.MotorSpeedControl",
        np.array([[-r / ell, -k / ell], [k / j, -d / j]]),
        lambda c: np.array([c["controller.y"] / ell, 0.0]),
        np.zeros(2),
        [Partition(ts, {"controller.x": 0.0}, tick)],
        lambda _t, x, c: {"motor.i": x[0], "motor.w": x[1], "controller.y": c["controller.y"]},
    )
    columns, _ = solve(loop, t)
    return columns


def transfer_function_loop(t: np.ndarray) -> dict[str, np.ndarray]:
    """Signals.Examples.TransferFunctionLoop: setpoint Step(height = 1,
    offset = 0, startTime = 0.125) minus the plant's output is the input of a
    TransferFunction(n = 3, b = {0.6, -0.48, 0}, a = {1, -1.3, 0.3},
    Ts = 0.05), whose held output drives FirstOrder(k = 2, T = 0.4) plant:
    T x' = k u - x. The controller: y[j] = b1 u[j] + b2 u[j-1] + b3 u[j-2]
    - a2 y[j-1] - a3 y[j-2] (a1 = 1), at rest before the first tick."""
    height, offset, start = 1.0, 0.0, 0.125
    b = [0.6, -0.48, 0.0]
    a = [1.0, -1.3, 0.3]
    ts = 0.05
    kp, tp = 2.0, 0.4

    def tick(tk: float, x: np.ndarray, prev: Clocked) -> Clocked:
        u = [step_value(tk, height, offset, start) - x[0], prev["u1"], prev["u2"]]
        y = (sum(bi * ui for bi, ui in zip(b, u)) - a[1] * prev["y1"] - a[2] * prev["y2"]) / a[0]
        return {"u1": u[0], "u2": u[1], "y1": y, "y2": prev["y1"]}

    loop = SampledLoop(
        "Signals.Examples.TransferFunctionLoop",
        np.array([[-1.0 / tp]]),
        lambda c: np.array([kp * c["y1"] / tp]),
        np.zeros(1),
        [Partition(ts, {"u1": 0.0, "u2": 0.0, "y1": 0.0, "y2": 0.0}, tick)],
        lambda _t, x, c: {"plant.x": x[0], "controller.y": c["y1"]},
    )
    columns, _ = solve(loop, t)
    return columns


def sampled_signals(t: np.ndarray) -> dict[str, np.ndarray]:
    """Signals.Examples.SampledSignals: one Sine(amplitude = 1, freqHz = 0.5,
    phase = 0.3, offset = 0.2) read by three blocks, each on its own clock,
    whose held outputs are integrated (Integrator k = 1 from 0):

    - ZeroOrderHold(Ts = 0.1): y = u(t_j);
    - UnitDelay(Ts = 0.15, y_start = 0.5): y = u(t_(j-1)), y_start at j = 0;
    - FirstOrderFilter(k = 2, T = 0.3, Ts = 0.05, y_start = -1):
      y[j] = previous(yNext), yNext = a y[j] + (1 - a) k u(t_j), a = exp(-Ts/T),
      yNext starting at y_start.

    Between ticks the integrators' right-hand sides are constant."""
    omega, phase, offset = 2.0 * math.pi * 0.5, 0.3, 0.2
    k_f, t_f, ts_f = 2.0, 0.3, 0.05
    a_f = math.exp(-ts_f / t_f)

    def sine(tk: float) -> float:
        return offset + math.sin(omega * tk + phase)

    def zoh(tk: float, _x: np.ndarray, _prev: Clocked) -> Clocked:
        return {"zoh.y": sine(tk)}

    def delay(tk: float, _x: np.ndarray, prev: Clocked) -> Clocked:
        return {"delay.y": prev["delay.u"], "delay.u": sine(tk)}

    def lag(tk: float, _x: np.ndarray, prev: Clocked) -> Clocked:
        y = prev["filter.yNext"]
        return {"filter.y": y, "filter.yNext": a_f * y + (1.0 - a_f) * k_f * sine(tk)}

    loop = SampledLoop(
        "Signals.Examples.SampledSignals",
        np.zeros((3, 3)),
        lambda c: np.array([c["zoh.y"], c["delay.y"], c["filter.y"]]),
        np.zeros(3),
        [Partition(0.1, {}, zoh), Partition(0.15, {"delay.u": 0.5}, delay),
         Partition(ts_f, {"filter.yNext": -1.0}, lag)],
        lambda _t, x, c: {
            "zohIntegral.x": x[0], "delayIntegral.x": x[1], "filterIntegral.x": x[2],
            "zoh.y": c["zoh.y"], "delay.y": c["delay.y"], "filter.y": c["filter.y"],
        },
    )
    columns, _ = solve(loop, t)
    return columns


# ---------------------------------------------------------------------------
# Thermostat (examples/Thermostat.mo)
# ---------------------------------------------------------------------------


def thermostat_room(t: np.ndarray) -> dict[str, np.ndarray]:
    """Thermostat.Examples.Room: a body C T' = Q_heater - G (T - T_amb) with
    C = 500 J/K, G = 5 W/K, T_amb = 280 K, T(0) = 290 K; the heater gives
    P = 150 W times the thermostat's held output. The thermostat is
    Hysteresis(uLow = -0.5, uHigh = 0.5, Ts = 1) of the error
    293.15 K - T: on when the error is above 0.5 K at a tick, off when it is
    below -0.5 K, otherwise as at the tick before (off before the first).
    Between ticks the temperature is exponential. Every tick's error is at
    least MARGIN away from both thresholds, so a simulator's error of a few
    micro-kelvin cannot flip a decision."""
    c, g, t_amb, t0, p = 500.0, 5.0, 280.0, 290.0, 150.0
    t_set, low, high, ts = 293.15, -0.5, 0.5, 1.0
    # The distance of each tick's error from the threshold that decides it
    # (uLow while on, uHigh while off).
    margins: list[float] = []

    def tick(_t: float, x: np.ndarray, prev: Clocked) -> Clocked:
        e = t_set - x[0]
        was_on = prev["on"] > 0.5
        margins.append(abs(e - (low if was_on else high)))
        on = e > high or (was_on and e >= low)
        return {"on": 1.0 if on else 0.0}

    loop = SampledLoop(
        "Thermostat.Examples.Room",
        np.array([[-g / c]]),
        lambda cl: np.array([(p * cl["on"] + g * t_amb) / c]),
        np.array([t0]),
        [Partition(ts, {"on": 0.0}, tick)],
        lambda _t, x, cl: {"body.T": x[0], "thermostat.y": cl["on"], "heater.port.Q_flow": -p * cl["on"]},
    )
    columns, history = solve(loop, t)
    margin = min(margins[: len(margins) // 2])  # the first run is the exact one
    switches = sum(1 for before, after in zip(history, history[1:]) if before["on"] != after["on"])
    if margin < THERMOSTAT_MARGIN:
        raise RuntimeError(f"Thermostat.Examples.Room: a tick's error is {margin:.2e} K from a threshold")
    print(f"Thermostat.Examples.Room: {switches} switches, every tick at least {margin:.3f} K from a threshold")
    return columns


# A thermostat tick must decide with at least this much room (K): CVode at
# rtol 1e-8 is off by about 3e-6 K at 300 K.
THERMOSTAT_MARGIN = 1e-3


GENERATORS: dict[str, Callable[[np.ndarray], dict[str, np.ndarray]]] = {
    "Clk1_SampledP": clk1_sampled_p,
    "Clk1_MotorPI": clk1_motor_pi,
    "Clk2_Conversions": clk2_conversions,
    "Clk2_Cascade": clk2_cascade,
    "Clk2_DelayedLag": clk2_delayed_lag,
    "Signals_MotorSpeedControl": motor_speed_control(0.02),
    "Signals_MotorSpeedControl_Ts025": motor_speed_control(0.025),
    "Signals_TransferFunctionLoop": transfer_function_loop,
    "Signals_SampledSignals": sampled_signals,
    "Thermostat_Room": thermostat_room,
}
