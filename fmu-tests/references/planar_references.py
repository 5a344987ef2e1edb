"""Reference trajectories of the Planar examples, computed without mofmu.

Every open chain is written in joint coordinates q with kinetic velocities w
and solved as the textbook rigid-body equations M(q) w' = Q(q, w) - h(q, w):
the mass matrix and the velocity-product terms come from a forward recursion
over the chain (Kane's form of Newton-Euler: each body contributes
m J^T J + I j j^T to M and m J^T (g - J' w) to the right-hand side, with the
Jacobians J of its centre of mass and j of its angle). The recursion is a
Python transcription of the kinematics of rotations and translations, and the
global mass matrix is solved with numpy, so none of it shares code or
structure with mofmu's component-wise, torn evaluation.

The dialectic time constant TD enters only the position law
q' = w + TD*w' of every joint (docs/planar.md). The open-chain references
include it, so they are the exact solution of the model the library states;
each of them is also solved with TD = 0 and the difference is printed as the
size of the dialectic effect. The loop references (PistonEngine,
KinematicLoop) are solved in minimal coordinates with the closure exact
(TD = 0); their tolerances cover the O(TD) drift of the library's
stabilised closure.

Integration: scipy's Radau at rtol 1e-11, atol 1e-12, split at the time
events of the inputs, cross-checked against DOP853 at the same tolerances.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy.integrate import solve_ivp

G = np.array([0.0, -9.81])
TD_DEFAULT = 1e-4

# Largest disagreement tolerated between Radau and DOP853.
CROSS_CHECK_ABS = 1e-7


def rot(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s], [s, c]])


def perp(v: np.ndarray) -> np.ndarray:
    return np.array([-v[1], v[0]])


class Frame:
    """Position, angle, their Jacobians in w, and the velocity-product
    acceleration J'(q, w) w of a frame of the chain."""

    def __init__(self, n: int, p=(0.0, 0.0), theta: float = 0.0):
        self.p = np.array(p, dtype=float)
        self.theta = float(theta)
        self.jp = np.zeros((2, n))
        self.jt = np.zeros(n)
        self.bias = np.zeros(2)

    def copy(self) -> "Frame":
        f = Frame(len(self.jt))
        f.p, f.theta = self.p.copy(), self.theta
        f.jp, f.jt, f.bias = self.jp.copy(), self.jt.copy(), self.bias.copy()
        return f

    def revolute(self, i: int, q: np.ndarray) -> "Frame":
        f = self.copy()
        f.theta += q[i]
        f.jt[i] += 1.0
        return f

    def translate(self, r, w: np.ndarray) -> "Frame":
        f = self.copy()
        rw = rot(self.theta) @ np.asarray(r, dtype=float)
        omega = float(self.jt @ w)
        f.p = self.p + rw
        f.jp = self.jp + np.outer(perp(rw), self.jt)
        f.bias = self.bias - omega**2 * rw
        return f

    def prismatic(self, e, i: int, q: np.ndarray, w: np.ndarray) -> "Frame":
        f = self.copy()
        ea = rot(self.theta) @ np.asarray(e, dtype=float)
        en = perp(ea)
        omega = float(self.jt @ w)
        f.p = self.p + q[i] * ea
        f.jp = self.jp + q[i] * np.outer(en, self.jt)
        f.jp[:, i] += ea
        f.bias = self.bias + 2.0 * w[i] * omega * en - q[i] * omega**2 * ea
        return f

    def free(self, ix: int, iy: int, it: int, q: np.ndarray) -> "Frame":
        # Relative position resolved in the world frame, as Joints.FreeMotion.
        f = self.copy()
        f.p = self.p + np.array([q[ix], q[iy]])
        f.jp[0, ix] += 1.0
        f.jp[1, iy] += 1.0
        f.theta += q[it]
        f.jt[it] += 1.0
        return f


class Dynamics:
    """Accumulates M and the right-hand side of M w' = rhs."""

    def __init__(self, n: int):
        self.m = np.zeros((n, n))
        self.rhs = np.zeros(n)

    def body(self, frame: Frame, mass: float, inertia: float, g=G) -> None:
        self.m += mass * frame.jp.T @ frame.jp + inertia * np.outer(frame.jt, frame.jt)
        self.rhs += frame.jp.T @ (mass * np.asarray(g) - mass * frame.bias)

    def point_force(self, frame: Frame, force: np.ndarray) -> None:
        self.rhs += frame.jp.T @ force

    def force(self, i: int, value: float) -> None:
        self.rhs[i] += value

    def accelerations(self) -> np.ndarray:
        return np.linalg.solve(self.m, self.rhs)


# A model: n joint coordinates, extra (controller) states, the function that
# returns (w', extra') and the compared outputs.
class Model:
    def __init__(self, n, q0, w0, accel, extra0=(), extra_rhs=None, outputs=None, events=()):
        self.n = n
        self.y0 = np.concatenate([q0, w0, extra0]).astype(float)
        self.accel = accel  # (t, q, w, x) -> w'
        self.extra_rhs = extra_rhs  # (t, q, w, x) -> x'
        self.outputs = outputs  # (t, q, w, x) -> dict
        self.events = list(events)
        self.mode_time = 0.0

    def rhs(self, td: float) -> Callable:
        n = self.n

        def f(t, y):
            q, w, x = y[:n], y[n:2 * n], y[2 * n:]
            wd = self.accel(t, q, w, x)
            xd = self.extra_rhs(t, q, w, x) if self.extra_rhs else np.zeros(0)
            return np.concatenate([w + td * wd, wd, xd])

        return f


def integrate(model: Model, t: np.ndarray, td: float, method: str) -> np.ndarray:
    bounds = [0.0] + [e for e in model.events if 0.0 < e < t[-1]] + [float(t[-1])]
    y = model.y0.copy()
    out = np.empty((len(t), len(y)))
    for k in range(len(bounds) - 1):
        t0, t1 = bounds[k], bounds[k + 1]
        last = k == len(bounds) - 2
        mask = (t >= t0) & ((t <= t1) if last else (t < t1))
        # The grid points of this piece and its end, which starts the next piece.
        t_eval = np.unique(np.append(t[mask], t1))
        # An instant inside the piece: inputs that switch at the events read
        # their value there, so that the ends of a piece (where an input
        # switches) see the value of the piece, not the next one's.
        model.mode_time = 0.5 * (t0 + t1)
        sol = solve_ivp(model.rhs(td), (t0, t1), y, method=method, rtol=1e-11, atol=1e-12,
                        t_eval=t_eval)
        if not sol.success:
            raise RuntimeError(f"{method} failed: {sol.message}")
        out[mask] = sol.y[:, : int(np.count_nonzero(mask))].T
        y = sol.y[:, -1]
    return out


def evaluate(model: Model, t: np.ndarray, states: np.ndarray) -> dict[str, np.ndarray]:
    n = model.n
    rows = [model.outputs(ti, s[:n], s[n:2 * n], s[2 * n:]) for ti, s in zip(t, states)]
    return {k: np.array([r[k] for r in rows]) for k in rows[0]}


def solve(name: str, model: Model, t: np.ndarray, td: float, report: dict | None = None):
    radau = integrate(model, t, td, "Radau")
    dop = integrate(model, t, td, "DOP853")
    a, b = evaluate(model, t, radau), evaluate(model, t, dop)
    worst = max(float(np.max(np.abs(a[k] - b[k]))) for k in a)
    if worst > CROSS_CHECK_ABS:
        raise RuntimeError(f"{name}: Radau and DOP853 disagree by {worst:.3e}")
    if report is not None:
        report["cross_check"] = worst
    return a


# ---------------------------------------------------------------------------
# The examples. Parameters are copied by hand from examples/Planar/Examples.mo
# (which takes them from the published planar library's examples).
# ---------------------------------------------------------------------------


def free_body() -> Model:
    # FreeMotion(all starts 0) -> Body(m=1, I=0.1)
    m, inertia = 1.0, 0.1

    def accel(t, q, w, x):
        d = Dynamics(3)
        d.body(Frame(3).free(0, 1, 2, q), m, inertia)
        return d.accelerations()

    def outputs(t, q, w, x):
        return {"freeMotion.r[1]": q[0], "freeMotion.r[2]": q[1], "freeMotion.v[2]": w[1],
                "freeMotion.phi": q[2]}

    return Model(3, [0, 0, 0], [0, 0, 0], accel, outputs=outputs)


def pendulum() -> Model:
    # Fixed -> Revolute(phi 0, w 0) -> FixedTranslation(r={1,0}) -> Body(m=1, I=0.1)
    def accel(t, q, w, x):
        d = Dynamics(1)
        d.body(Frame(1).revolute(0, q).translate([1.0, 0.0], w), 1.0, 0.1)
        return d.accelerations()

    def outputs(t, q, w, x):
        tip = Frame(1).revolute(0, q).translate([1.0, 0.0], w)
        return {"revolute.phi": q[0], "revolute.w": w[0], "body.flange.r0[1]": tip.p[0],
                "body.flange.r0[2]": tip.p[1]}

    return Model(1, [0.0], [0.0], accel, outputs=outputs)


def double_pendulum() -> Model:
    # Fixed -> revolute -> fixedTranslation(r={1,0}) -> body(m=1, I=0.1)
    #                                               \-> revolute1 -> fixedTranslation1(r={0.4,0}) -> body1(m=0.2, I=0.01)
    def chain(q, w):
        f1 = Frame(2).revolute(0, q).translate([1.0, 0.0], w)
        f2 = f1.revolute(1, q).translate([0.4, 0.0], w)
        return f1, f2

    def accel(t, q, w, x):
        f1, f2 = chain(q, w)
        d = Dynamics(2)
        d.body(f1, 1.0, 0.1)
        d.body(f2, 0.2, 0.01)
        return d.accelerations()

    def outputs(t, q, w, x):
        _, f2 = chain(q, w)
        return {"revolute.phi": q[0], "revolute1.phi": q[1], "revolute.w": w[0],
                "revolute1.w": w[1], "body1.flange.r0[1]": f2.p[0], "body1.flange.r0[2]": f2.p[1]}

    return Model(2, [0.0, 0.0], [0.0, 0.0], accel, outputs=outputs)


def crane_chain(q, w, r_rod):
    crab = Frame(2).prismatic([1.0, 0.0], 0, q, w)
    tip = crab.revolute(1, q).translate(r_rod, w)
    return crab, tip


def crane_crab() -> Model:
    # Fixed -> prismatic(e={1,0}, d=10) -> body1(m=1, I=0.1)
    #                                  \-> revolute(phi 150 deg) -> fixedTranslation(r={0,-1}) -> body(m=0.5, I=0.1)
    damping = 10.0

    def accel(t, q, w, x):
        crab, tip = crane_chain(q, w, [0.0, -1.0])
        d = Dynamics(2)
        d.body(crab, 1.0, 0.1)
        d.body(tip, 0.5, 0.1)
        d.force(0, -damping * w[0])
        return d.accelerations()

    def outputs(t, q, w, x):
        return {"prismatic.s": q[0], "prismatic.v": w[0], "revolute.phi": q[1], "revolute.w": w[1]}

    return Model(2, [0.0, 2.6179938779915], [0.0, 0.0], accel, outputs=outputs)


# The PD law of CraneCrabControlled: y = k*(u + Nd*(u - x)), x' = (u - x)/(Td/Nd),
# the published PID(k=-320*9.81*5, Td=0.2, Ti=1e9) with the default Nd=10 and
# its derivative state starting at 0; the integral part (gain k/Ti ~ 1.6e-5)
# is left out.
PD_K, PD_TD, PD_ND = -320 * 9.81 * 5, 0.2, 10.0


def crane_crab_controlled() -> Model:
    # crab body1(m=250, I=0), pendulum body(m=70, I=0) on r={0,2.5}, revolute phi0 -20 deg
    def accel(t, q, w, x):
        crab, tip = crane_chain(q, w, [0.0, 2.5])
        d = Dynamics(2)
        d.body(crab, 250.0, 0.0)
        d.body(tip, 70.0, 0.0)
        u = q[1]
        d.force(0, PD_K * (u + PD_ND * (u - x[0])))
        return d.accelerations()

    def extra(t, q, w, x):
        return np.array([(q[1] - x[0]) / (PD_TD / PD_ND)])

    def outputs(t, q, w, x):
        return {"prismatic.s": q[0], "prismatic.v": w[0], "revolute.phi": q[1], "revolute.w": w[1]}

    return Model(2, [0.0, -0.34906585039887], [0.0, 0.0], accel, [0.0], extra, outputs)


# InvertedCraneCrab: the published model inverts the plant to follow
# phi_ref = FirstOrder(T=0.1, steady start) of Ramp(offset=-0.5, height=0.5,
# duration=0.5). A causal library cannot invert, so the example follows the
# same reference with a tracking PD law on the crab force,
# F = KP*(phi - phi_ref) + KD*w.
INV_KP, INV_KD = -200.0, -30.0


def ramp_ref(t: float) -> float:
    return -0.5 + 0.5 * min(max(t, 0.0) / 0.5, 1.0)


def inverted_crane_crab() -> Model:
    # crab body1(m=1, I=0.1), pendulum body(m=0.5, I=0.1) on r={0,1}, revolute phi0 -0.5
    def accel(t, q, w, x):
        crab, tip = crane_chain(q, w, [0.0, 1.0])
        d = Dynamics(2)
        d.body(crab, 1.0, 0.1)
        d.body(tip, 0.5, 0.1)
        d.force(0, INV_KP * (q[1] - x[0]) + INV_KD * w[1])
        return d.accelerations()

    def extra(t, q, w, x):
        return np.array([(ramp_ref(t) - x[0]) / 0.1])

    def outputs(t, q, w, x):
        return {"prismatic.s": q[0], "prismatic.v": w[0], "revolute.phi": q[1], "revolute.w": w[1],
                "reference.x": x[0]}

    return Model(2, [0.0, -0.5], [0.0, 0.0], accel, [-0.5], extra, outputs, events=[0.5])


def spring_damper_body() -> Model:
    # FreeMotion(r_start={0.5,-1}, phi_start=0.3) -> Body(m=1, I=0.1); an arm
    # r={0.2,0} carries a SpringDamper(c=50, d=1, s_unstretched=1) to the origin.
    c_spring, d_damper, length0 = 50.0, 1.0, 1.0

    def accel(t, q, w, x):
        body = Frame(3).free(0, 1, 2, q)
        tip = body.translate([0.2, 0.0], w)
        length = float(np.linalg.norm(tip.p))
        e = tip.p / length
        tension = c_spring * (length - length0) + d_damper * float(e @ (tip.jp @ w))
        d = Dynamics(3)
        d.body(body, 1.0, 0.1)
        d.point_force(tip, -tension * e)
        return d.accelerations()

    def outputs(t, q, w, x):
        return {"freeMotion.r[1]": q[0], "freeMotion.r[2]": q[1], "freeMotion.phi": q[2],
                "freeMotion.w": w[2]}

    return Model(3, [0.5, -1.0, 0.3], [0.0, 0.0, 0.0], accel, outputs=outputs)


FIVE_LINK = {"r": 0.4, "m": 0.4, "I": 0.01, "phi0": [-0.8, 0.3, 0.3, 0.3, 0.3]}


def five_link_pendulum() -> Model:
    # Fixed -> 5 x (Revolute -> FixedTranslation(r={0.4,0}) -> Body(m=0.4, I=0.01))
    n = 5

    def frames(q, w):
        f, out = Frame(n), []
        for i in range(n):
            f = f.revolute(i, q).translate([FIVE_LINK["r"], 0.0], w)
            out.append(f)
        return out

    def accel(t, q, w, x):
        d = Dynamics(n)
        for f in frames(q, w):
            d.body(f, FIVE_LINK["m"], FIVE_LINK["I"])
        return d.accelerations()

    def outputs(t, q, w, x):
        tip = frames(q, w)[-1]
        res = {f"rev{i + 1}.phi": q[i] for i in range(n)}
        res["body5.flange.r0[1]"] = tip.p[0]
        res["body5.flange.r0[2]"] = tip.p[1]
        return res

    return Model(n, FIVE_LINK["phi0"], [0.0] * n, accel, outputs=outputs)


# --- The methodology's Listing 1 (examples/Mechanical.mo) ------------------


def listing_pendulum() -> Model:
    # Root -> RevoluteJoint(TD, phi 0, w 0) -> FixedTranslation(r={0.5,0})
    # -> Body(m=2, J=0.05, g={0,-9.81}): the same equations as the Planar
    # pendulum, other parameters and the listing's variable names.
    def frame(q, w):
        return Frame(1).revolute(0, q).translate([0.5, 0.0], w)

    def accel(t, q, w, x):
        d = Dynamics(1)
        d.body(frame(q, w), 2.0, 0.05)
        return d.accelerations()

    def outputs(t, q, w, x):
        tip = frame(q, w)
        return {"revolute.phi": q[0], "revolute.w": w[0], "body.flangeToP.r0[1]": tip.p[0],
                "body.flangeToP.r0[2]": tip.p[1]}

    return Model(1, [0.0], [0.0], accel, outputs=outputs)


# --- Kinematic loops, in minimal coordinates with the closure exact ---------

CRANK, ROD = 0.3, 0.8


def piston_engine() -> Model:
    # Crank (revoluteDrive, bodyDrive I=0.1 at the pivot) of length 0.3, rod 0.8,
    # piston (m=3) on the x axis; no gravity work, no losses.
    inertia, mass = 0.1, 3.0

    def x_derivs(th):
        s, c = math.sin(th), math.cos(th)
        dd = math.sqrt(ROD**2 - CRANK**2 * s * s)
        x = CRANK * c + dd
        x1 = -CRANK * s - CRANK**2 * s * c / dd
        x2 = -CRANK * c - CRANK**2 * (c * c - s * s) / dd - CRANK**4 * s * s * c * c / dd**3
        return x, x1, x2

    def accel(t, q, w, x):
        _, x1, x2 = x_derivs(q[0])
        return np.array([-mass * x1 * x2 * w[0] ** 2 / (inertia + mass * x1 * x1)])

    def outputs(t, q, w, x):
        xp, x1, _ = x_derivs(q[0])
        return {"revoluteDrive.phi": q[0], "revoluteDrive.w": w[0], "prismatic.s": xp,
                "prismatic.v": x1 * w[0], "revolutePiston.closureError": 0.0}

    return Model(1, [0.0], [-2.5], accel, outputs=outputs)


def kinematic_loop() -> Model:
    # Link 1 (0.5) from the origin, the slider link (0.5) from a slider on the x axis
    # meet at P; with the initial branch the slider sits at s = sin(phi1). A body
    # (m=1, I=0.1) hangs from P on a 0.6 link through revolute4. Slider spring
    # c=20 relaxed at 0.4, damper d=4.
    c_spring, d_damper, s0 = 20.0, 4.0, 0.4

    def body_frame(q, w):
        return Frame(2).revolute(0, q).translate([0.0, -0.5], w).revolute(1, q).translate([0.0, -0.6], w)

    def accel(t, q, w, x):
        d = Dynamics(2)
        d.body(body_frame(q, w), 1.0, 0.1)
        s, sdot = math.sin(q[0]), math.cos(q[0]) * w[0]
        d.force(0, (-c_spring * (s - s0) - d_damper * sdot) * math.cos(q[0]))
        return d.accelerations()

    def outputs(t, q, w, x):
        return {"revolute1.phi": q[0], "revolute1.w": w[0], "revolute4.phi": q[1],
                "revolute4.w": w[1], "prismatic.s": math.sin(q[0]), "revolute2.closureError": 0.0}

    return Model(2, [math.asin(0.4), -0.69813170079773], [0.0, 0.0], accel, outputs=outputs)


# reference stem -> (model factory, True for an open chain). Open chains are
# referenced with the library's TD; loops with TD = 0 (see the module notes).
CASES = {
    "Mechanical_Pendulum": (listing_pendulum, True),
    "Planar_FreeBody": (free_body, True),
    "Planar_Pendulum": (pendulum, True),
    "Planar_DoublePendulum": (double_pendulum, True),
    "Planar_CraneCrab": (crane_crab, True),
    "Planar_CraneCrabControlled": (crane_crab_controlled, True),
    "Planar_InvertedCraneCrab": (inverted_crane_crab, True),
    "Planar_SpringDamperBody": (spring_damper_body, True),
    "Planar_FiveLinkPendulum": (five_link_pendulum, True),
    "Planar_PistonEngine": (piston_engine, False),
    "Planar_KinematicLoop": (kinematic_loop, False),
}


def generator(stem: str) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    factory, open_chain = CASES[stem]

    def run(t: np.ndarray) -> dict[str, np.ndarray]:
        report: dict = {}
        with_td = solve(stem, factory(), t, TD_DEFAULT, report)
        rigid = solve(stem, factory(), t, 0.0)
        effect = {k: float(np.max(np.abs(with_td[k] - rigid[k]))) for k in with_td}
        worst = max(effect, key=effect.get)
        print(f"{stem}: Radau and DOP853 agree to {report['cross_check']:.1e}; "
              f"TD={TD_DEFAULT:g} s in the position laws changes {worst} by up to {effect[worst]:.2e}")
        return with_td if open_chain else rigid

    return run


GENERATORS = {stem: generator(stem) for stem in CASES}
