"""Reference trajectories of the hybrid examples (`when`, `pre`, `reinit`:
DESIGN §2.2c), computed without mofmu.

Each model is written down again from its textbook description: between
events the motion has a closed form (a fall under constant gravity, a
first-order lag towards a constant, a counter that does not move), and each
event time is the root of that closed form, found in closed form too (a
quadratic, a logarithm) or given by the model's own schedule (time events).
So the references hold the exact event times, and the examples' published
values (the bouncing ball's first impact at 0.451523641 s, its stop at
2.499113314 s) are asserted when the references are made.

An event that falls on the output grid (within 1e-9 s) gets two reference
rows, before and after it; a round trip skips both
(`roundtrip.drop_event_duplicates`), so a simulator is never judged on which
side of an event it reports.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

# An event this close to a grid time is taken as on it.
ON_GRID = 1e-9

Values = dict[str, float]


def rows(t: np.ndarray, events: list[float], value: Callable[[float, bool], Values]) -> dict[str, np.ndarray]:
    """The grid `t` with each event on it written twice: `value(t, after)`
    gives the variables at t, after the event at t when `after` is true."""
    times: list[float] = []
    samples: list[Values] = []
    for ti in t:
        on = any(abs(ti - e) <= ON_GRID for e in events)
        if on:
            times.append(float(ti))
            samples.append(value(float(ti), False))
        times.append(float(ti))
        samples.append(value(float(ti), on))
    names = samples[0].keys()
    out = {name: np.array([s[name] for s in samples]) for name in names}
    out["time"] = np.array(times)
    return out


def check_close(what: str, got: float, want: float, tol: float) -> None:
    if abs(got - want) > tol:
        raise RuntimeError(f"{what}: {got!r} differs from the published {want!r}")


# ---------------------------------------------------------------------------
# Events.BouncingBall
# ---------------------------------------------------------------------------

def bouncing_ball_impacts(g: float = 9.81, e: float = 0.7, v_min: float = 0.1,
                          h0: float = 1.0) -> tuple[list[float], list[float]]:
    """The impact times of a ball dropped from h0 and the speeds it leaves
    the ground with: the first impact after sqrt(2 h0/g); each rebound at
    e times the impact speed flies 2 v/g; a rebound below v_min is none."""
    t = math.sqrt(2.0 * h0 / g)
    speed = g * t
    impacts, rebounds = [t], []
    while True:
        speed *= e
        if speed < v_min:
            rebounds.append(0.0)
            return impacts, rebounds
        rebounds.append(speed)
        t += 2.0 * speed / g
        impacts.append(t)


def bouncing_ball_state(t: float, impacts: list[float], rebounds: list[float], g: float,
                        h0: float, after: bool) -> Values:
    """Height, velocity, whether it flies and the impacts so far at t."""
    done = sum(1 for ti in impacts if ti < t - ON_GRID or (after and abs(ti - t) <= ON_GRID))
    if done == 0:
        return {"h": h0 - 0.5 * g * t * t, "v": -g * t, "flying": 1.0, "impacts": 0.0}
    t0, w = impacts[done - 1], rebounds[done - 1]
    if w == 0.0:
        return {"h": 0.0, "v": 0.0, "flying": 0.0, "impacts": float(done)}
    s = t - t0
    return {"h": w * s - 0.5 * g * s * s, "v": w - g * s, "flying": 1.0, "impacts": float(done)}


def events_bouncing_ball(t: np.ndarray) -> dict[str, np.ndarray]:
    g, h0 = 9.81, 1.0
    impacts, rebounds = bouncing_ball_impacts(g=g, h0=h0)
    check_close("first impact", impacts[0], 0.451523641, 5e-10)
    check_close("the ball stops", impacts[-1], 2.499113314, 5e-10)
    if len(impacts) != 11:
        raise RuntimeError(f"the ball bounces {len(impacts)} times, not 11")
    return rows(t, impacts, lambda ti, after: bouncing_ball_state(ti, impacts, rebounds, g, h0, after))


# ---------------------------------------------------------------------------
# Events.Stair and Events.PulseCounter: time events only
# ---------------------------------------------------------------------------

def events_stair(t: np.ndarray) -> dict[str, np.ndarray]:
    """The counter is 1 from 0 and rises by one at every whole second; the
    run ends at 9 s, where it reaches 10."""
    steps = [float(k) for k in range(1, 10)]

    def value(ti: float, after: bool) -> Values:
        done = sum(1 for s in steps if s < ti - ON_GRID or (after and abs(s - ti) <= ON_GRID))
        return {"counter": 1.0 + done}

    return rows(t, steps, value)


def events_pulse_counter(t: np.ndarray) -> dict[str, np.ndarray]:
    """BooleanPulse(width = 0.3, period = 1, startTime = 0.25): true on
    [0.25 + k, 0.55 + k); the counters count its rising and falling edges
    (a falling edge is a rising edge of `not y`, which is true from the start
    and so does not count at t = 0)."""
    rises = [0.25 + k for k in range(int(t[-1]) + 1)]
    falls = [r + 0.3 for r in rises]

    def value(ti: float, after: bool) -> Values:
        def count(edges: list[float]) -> int:
            return sum(1 for s in edges if s < ti - ON_GRID or (after and abs(s - ti) <= ON_GRID))

        up, down = count(rises), count(falls)
        return {"pulses": float(up), "pulse.y": float(up > down), "falls.y": float(down)}

    return rows(t, rises + falls, value)


GENERATORS: dict[str, Callable[[np.ndarray], dict[str, np.ndarray]]] = {
    "Events_BouncingBall": events_bouncing_ball,
    "Events_Stair": events_stair,
    "Events_PulseCounter": events_pulse_counter,
}
