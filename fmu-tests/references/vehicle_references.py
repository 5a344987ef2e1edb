"""Reference trajectories of the Planar wheel and vehicle examples and of the
two-stage rocket, computed without mofmu.

The wheel examples extend the joint-coordinate formulation of
planar_references.py. Their coordinates are the library's states: joint
coordinates q with kinetic velocities u, where a wheel's spin (a
Rotational.Inertia, possibly massless) is one more coordinate with inertia J
on the diagonal of the mass matrix. The textbook equations are then:

- rolling joints (a wheel on the ground's x axis) are holonomic and enter
  the chain like any joint, with the hub at height R and, for ideal rolling,
  its travel x = x0 - R*(phi - phi0);
- friction (Planar.Friction's triple-S characteristic of the published
  library, written out again here) gives generalized forces J^T f of the road
  force f at the wheel's frame plus -radius*f_long on the wheel's spin;
- ideal wheels are non-holonomic: v.n0 = 0 (no sliding sideways) and
  v.e0 = radius*w (rolling). They enter as Lagrange multipliers (the road
  forces): M u' - A^T lambda = Q - M*bias, A u' = -b, solved as one saddle
  point system with numpy, where A holds the constraint rows and b their
  velocity-product terms. The library holds the same constraints on
  acceleration level with first-order stabilisation of the velocity error,
  c' = -c/T (Wheels.IdealWheel, T = 1e-3 s), and so does b here: on the exact
  solution c stays 0 except for what the dialectic position law feeds into
  it, which the stabilisation damps in both.

These references are the published PlanarMechanics library's physics:
rigid joints (the dialectic position law q' = u + TD*u' of
planar_references.py with TD = 0, i.e. q' = u) and the published wheel
joints' own regularisation of the slip speed, |slip| + 1e-4 m/s. The wheel
examples state TD = 0 (docs/planar.md), so the references are the exact
solution of the models as exported. Each example is also solved with the
library's default TD = 1e-4 s to print the size of the dialectic effect.

The two-stage rocket has a closed form: piecewise polynomial accelerations
(linear thrust ramps, constant gravity), integrated by hand, with the stages'
positions leading the integrated velocity by TD times the change of
velocity.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from planar_references import TD_DEFAULT, Dynamics, Frame, Model, evaluate, integrate, perp, rot

G = np.array([0.0, -9.81])
NO_GRAVITY = np.array([0.0, 0.0])


# ---------------------------------------------------------------------------
# Kinematics of the rolling joints (a wheel on the x axis of a ground frame)
# ---------------------------------------------------------------------------


def rolling(ground: Frame, radius: float, travel: float, i_travel: int | None, i_angle: int,
            q: np.ndarray, u: np.ndarray) -> Frame:
    """The hub frame of a wheel rolling on ground's x axis. `travel` is the
    hub's position along the road; its rate is u[i_travel] for a slipping
    wheel and -radius*u[i_angle] for ideal rolling (i_travel None)."""
    f = ground.copy()
    ea = rot(ground.theta) @ np.array([1.0, 0.0])
    en = perp(ea)
    omega = float(ground.jt @ u)
    rr = travel * ea + radius * en
    f.p = ground.p + rr
    f.theta = ground.theta + q[i_angle]
    f.jt[i_angle] += 1.0
    f.jp = ground.jp + np.outer(travel * en - radius * ea, ground.jt)
    if i_travel is None:
        f.jp[:, i_angle] += -radius * ea
        travel_rate = -radius * u[i_angle]
    else:
        f.jp[:, i_travel] += ea
        travel_rate = u[i_travel]
    f.bias = ground.bias + 2.0 * travel_rate * omega * en - omega**2 * rr
    return f


# ---------------------------------------------------------------------------
# Friction: the published library's triple-S characteristic
# ---------------------------------------------------------------------------


def triple_s(x: float, x_adhesion: float, x_slide: float, mu_a: float, mu_s: float) -> float:
    a = abs(x)
    if a < x_adhesion:
        u = a / x_adhesion
        m = mu_a * (1.5 * u - 0.5 * u**3)
    elif a < x_slide:
        u = (2.0 * a - x_adhesion - x_slide) / (x_slide - x_adhesion)
        m = 0.5 * (mu_a + mu_s) + 0.5 * (mu_s - mu_a) * (1.5 * u - 0.5 * u**3)
    else:
        m = mu_s
    return -m if x < 0 else m


def wheel_directions(frame: Frame, e) -> tuple[np.ndarray, np.ndarray]:
    e0 = rot(frame.theta) @ np.asarray(e, dtype=float)
    return e0, perp(e0)


def friction_wheel(d: Dynamics, frame: Frame, spin: int, u: np.ndarray, radius: float, e,
                   normal: float, v_adhesion: float, v_slide: float, mu_a: float, mu_s: float,
                   v_small: float = 1e-4) -> None:
    """Road force of a friction wheel (constant normal load) on the vehicle
    and on the wheel's spin. The slip speed is regularised as the published
    DryFrictionWheelJoint and SlipBasedWheelJoint do: |slip| + v_small."""
    e0, n0 = wheel_directions(frame, e)
    v = frame.jp @ u
    slip_long = float(v @ e0) - radius * u[spin]
    slip_lat = float(v @ n0)
    slip = math.hypot(slip_long, slip_lat) + v_small
    f = normal * triple_s(slip, v_adhesion, v_slide, mu_a, mu_s)
    f_long, f_lat = -f * slip_long / slip, -f * slip_lat / slip
    d.point_force(frame, f_long * e0 + f_lat * n0)
    d.force(spin, -radius * f_long)


class Constraints:
    """Rows A and velocity-product terms b of velocity constraints A u = 0,
    imposed as A u' = -b on acceleration level."""

    def __init__(self, n: int):
        self.rows: list[np.ndarray] = []
        self.b: list[float] = []
        self.n = n

    def ideal_wheel(self, frame: Frame, spin: int, u: np.ndarray, radius: float, e,
                    stabilisation: float) -> None:
        e0, n0 = wheel_directions(frame, e)
        v = frame.jp @ u
        omega = float(frame.jt @ u)
        v_long, v_lat = float(v @ e0), float(v @ n0)
        # Rolling: d/dt(v.e0 - radius*w) = a.e0 + omega*v_lat - radius*w'.
        row = e0 @ frame.jp
        row[spin] -= radius
        self.rows.append(row)
        self.b.append(float(e0 @ frame.bias) + omega * v_lat
                      + (v_long - radius * u[spin]) / stabilisation)
        # No sliding sideways: d/dt(v.n0) = a.n0 - omega*v_long.
        self.rows.append(n0 @ frame.jp)
        self.b.append(float(n0 @ frame.bias) - omega * v_long + v_lat / stabilisation)

    def accelerations(self, d: Dynamics) -> np.ndarray:
        a = np.array(self.rows)
        k = len(self.rows)
        kkt = np.zeros((self.n + k, self.n + k))
        kkt[: self.n, : self.n] = d.m
        kkt[: self.n, self.n:] = -a.T
        kkt[self.n:, : self.n] = a
        rhs = np.concatenate([d.rhs, -np.array(self.b)])
        return np.linalg.solve(kkt, rhs)[: self.n]


def spin_inertia(d: Dynamics, i: int, inertia: float) -> None:
    d.m[i, i] += inertia


# ---------------------------------------------------------------------------
# The examples. Parameters are copied by hand from examples/Planar/Examples.mo
# (the published planar library's examples).
# ---------------------------------------------------------------------------


def counter_spin() -> Model:
    # Fixed -> DryFrictionRolling(R=0.1, vAdhesion=0.01, vSlide=0.03, mu_A=0.5,
    # mu_S=0.15; s 0, v 2, phi 0, w 15) -> Body(m=0.01, I=0.0005).
    # Coordinates: 0 the hub's travel s, 1 the wheel angle phi.
    radius, mass, inertia = 0.1, 0.01, 0.0005

    def hub(q, u):
        return rolling(Frame(2), radius, q[0], 0, 1, q, u)

    def accel(t, q, u, x):
        d = Dynamics(2)
        d.body(hub(q, u), mass, inertia)
        # The level, fixed road carries the weight: N = m*g.
        normal = mass * 9.81
        f = -normal * triple_s(u[0] + radius * u[1], 0.01, 0.03, 0.5, 0.15)
        d.force(0, f)
        d.force(1, radius * f)
        return d.accelerations()

    def outputs(t, q, u, x):
        return {"rolling.s": q[0], "rolling.v": u[0], "rolling.phi": q[1], "rolling.w": u[1]}

    return Model(2, [0.0, 0.0], [2.0, 15.0], accel, outputs=outputs)


def wheel_based_crane_crab() -> Model:
    # Fixed -> IdealRolling(R=0.3) -> body(m=1, I=0.1)
    #                              \-> revolute(phi0 80 deg) -> fixedTranslation(r={1,0}) -> body1(m=2, I=0.2)
    radius = 0.3

    def frames(q, u):
        hub = rolling(Frame(2), radius, -radius * q[0], None, 0, q, u)
        return hub, hub.revolute(1, q).translate([1.0, 0.0], u)

    def accel(t, q, u, x):
        hub, tip = frames(q, u)
        d = Dynamics(2)
        d.body(hub, 1.0, 0.1)
        d.body(tip, 2.0, 0.2)
        return d.accelerations()

    def outputs(t, q, u, x):
        hub, tip = frames(q, u)
        return {"rolling.phi": q[0], "rolling.w": u[0], "revolute.phi": q[1], "revolute.w": u[1],
                "rolling.x": hub.p[0], "body1.flange.r0[1]": tip.p[0], "body1.flange.r0[2]": tip.p[1]}

    return Model(2, [0.0, 1.3962634015955], [0.0, 0.0], accel, outputs=outputs)


def circle_frame(q, u) -> Frame:
    # Fixed -> revolute (coordinate 0) -> prismatic e={0,1} (coordinate 1)
    return Frame(3).revolute(0, q).prismatic([0.0, 1.0], 1, q, u)


def circle_outputs(t, q, u, x):
    return {"revolute.phi": q[0], "revolute.w": u[0], "prismatic.s": q[1], "prismatic.v": u[1],
            "inertia.phi": q[2], "inertia.w": u[2]}


def test_ideal_wheel() -> Model:
    # The arm of TestDryFrictionWheel with Wheels.IdealWheel(radius=0.3, e={1,0})
    # on body(m=10, I=1) and inertia(J=1) driven by 2 N.m; coordinate 2 the spin.
    def accel(t, q, u, x):
        frame = circle_frame(q, u)
        d = Dynamics(3)
        d.body(frame, 10.0, 1.0, NO_GRAVITY)
        spin_inertia(d, 2, 1.0)
        d.force(2, 2.0)
        c = Constraints(3)
        c.ideal_wheel(frame, 2, u, 0.3, [1.0, 0.0], 1e-3)
        return c.accelerations(d)

    return Model(3, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], accel, outputs=circle_outputs)


def test_dry_friction_wheel() -> Model:
    # Wheels.DryFrictionWheel(radius=0.3, e={1,0}, N=100, vAdhesion=0.1,
    # vSlide=0.3, mu_A=0.8, mu_S=0.4) on the arm; inertia J=1, 2 N.m.
    def accel(t, q, u, x):
        frame = circle_frame(q, u)
        d = Dynamics(3)
        d.body(frame, 10.0, 1.0, NO_GRAVITY)
        spin_inertia(d, 2, 1.0)
        d.force(2, 2.0)
        friction_wheel(d, frame, 2, u, 0.3, [1.0, 0.0], 100.0, 0.1, 0.3, 0.8, 0.4)
        return d.accelerations()

    return Model(3, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], accel, outputs=circle_outputs)


def test_slip_based_wheel() -> Model:
    # Wheels.SlipBasedWheel(radius=0.3, e={1,0}, N=100, sAdhesion=0.04,
    # sSlide=0.12, vAdhesion_min=0.05, vSlide_min=0.15, mu_A=0.8, mu_S=0.4),
    # dynamic load 0; the characteristic's slip speeds grow with the rolling
    # speed radius*|w|.
    radius = 0.3

    def accel(t, q, u, x):
        frame = circle_frame(q, u)
        d = Dynamics(3)
        d.body(frame, 10.0, 1.0, NO_GRAVITY)
        spin_inertia(d, 2, 1.0)
        d.force(2, 2.0)
        rolling_speed = abs(radius * u[2])
        v_adhesion = max(0.04 * rolling_speed, 0.05)
        v_slide = max(0.12 * rolling_speed, 0.15)
        friction_wheel(d, frame, 2, u, radius, [1.0, 0.0], 100.0, v_adhesion, v_slide, 0.8, 0.4)
        return d.accelerations()

    return Model(3, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], accel, outputs=circle_outputs)


def single_track() -> Model:
    # Coordinates: 0-2 the chassis (FreeMotion x, y, angle) at the rear axle,
    # 3 the rear wheel's spin, 4 the steering revolute, 5 the front wheel's
    # spin. bodyRear(m=10, I=0.1) at the rear axle; the rear IdealWheel
    # (radius 0.3, e={0,1}) driven by 2 N.m on a massless shaft; chassis
    # r={0,1} to the steering axis with the air resistance (c_W=0.4, area 2,
    # rho 1.18); revolute (phi0 40 deg) -> trail r={0,-0.1} ->
    # bodyFront(m=2, I=0.1) and the front IdealWheel on a massless shaft.
    n = 6

    def frames(q, u):
        rear = Frame(n).free(0, 1, 2, q)
        axis = rear.translate([0.0, 1.0], u)
        front = axis.revolute(4, q).translate([0.0, -0.1], u)
        return rear, axis, front

    def accel(t, q, u, x):
        rear, axis, front = frames(q, u)
        d = Dynamics(n)
        d.body(rear, 10.0, 0.1, NO_GRAVITY)
        d.body(front, 2.0, 0.1, NO_GRAVITY)
        d.force(3, 2.0)
        e0, _ = wheel_directions(axis, [0.0, 1.0])
        forward = max(float((axis.jp @ u) @ e0), 0.0)
        d.point_force(axis, -0.5 * 1.18 * 2.0 * 0.4 * forward**2 * e0)
        c = Constraints(n)
        c.ideal_wheel(rear, 3, u, 0.3, [0.0, 1.0], 1e-3)
        c.ideal_wheel(front, 5, u, 0.3, [0.0, 1.0], 1e-3)
        return c.accelerations(d)

    def outputs(t, q, u, x):
        _, _, front = frames(q, u)
        return {"freeMotion.r[1]": q[0], "freeMotion.r[2]": q[1], "freeMotion.phi": q[2],
                "freeMotion.v[1]": u[0], "freeMotion.v[2]": u[1], "freeMotion.w": u[2],
                "rearShaft.w": u[3], "revolute.phi": q[4], "revolute.w": u[4], "frontShaft.w": u[5],
                "bodyFront.flange.r0[1]": front.p[0], "bodyFront.flange.r0[2]": front.p[1]}

    return Model(n, [0.0, 0.0, 0.0, 0.0, 0.69813170079773, 0.0], [0.0] * n, accel, outputs=outputs)


# TwoTrack's steering torque: the published Pulse (period 2 s, width 30 %,
# start 1 s), +2 N.m in the example's orientation: on from 1 + 2k s to
# 1.6 + 2k s. Its edges are the time events the integration is split at.
PULSE_START, PULSE_PERIOD, PULSE_WIDTH, PULSE_TORQUE = 1.0, 2.0, 0.3, 2.0
PULSE_EDGES = [PULSE_START + k * PULSE_PERIOD + d
               for k in range(50) for d in (0.0, PULSE_WIDTH * PULSE_PERIOD)]


def steering_pulse(t: float) -> float:
    if t < PULSE_START:
        return 0.0
    phase = (t - PULSE_START) % PULSE_PERIOD
    return PULSE_TORQUE if phase < PULSE_WIDTH * PULSE_PERIOD else 0.0


def two_track() -> Model:
    # Coordinates: 0-2 the chassis (FreeMotion) at the middle of the rear
    # axle, 3 and 4 the rear wheels' spins (left, right), 5 the steering
    # angle shared by both DrivenRevolutes, 6 and 7 the front wheels' spins
    # (left, right). body1(m=300, I=0.1) on the chassis; rear wheels at
    # x = -/+0.75 (N=1500), front axle 2 m ahead, steering joints at
    # x = -/+0.75, trail r={0,-0.05} to body/body2(m=100, I=1) and the front
    # wheels (N=1000); all wheels DryFrictionWheel(radius 0.25, e={0,1},
    # vAdhesion 0.1, vSlide 0.3, mu_A 1, mu_S 0.7) with spin inertia J=1. The
    # differential splits the 25 N.m drive equally.
    n = 8
    radius = 0.25

    def frames(q, u):
        chassis = Frame(n).free(0, 1, 2, q)
        rear_left = chassis.translate([-0.75, 0.0], u)
        rear_right = chassis.translate([0.75, 0.0], u)
        front = chassis.translate([0.0, 2.0], u)
        front_left = front.translate([-0.75, 0.0], u).revolute(5, q).translate([0.0, -0.05], u)
        front_right = front.translate([0.75, 0.0], u).revolute(5, q).translate([0.0, -0.05], u)
        return chassis, rear_left, rear_right, front_left, front_right

    def accel(t, q, u, x):
        chassis, rear_left, rear_right, front_left, front_right = frames(q, u)
        d = Dynamics(n)
        d.body(chassis, 300.0, 0.1, NO_GRAVITY)
        d.body(front_left, 100.0, 1.0, NO_GRAVITY)
        d.body(front_right, 100.0, 1.0, NO_GRAVITY)
        for spin in (3, 4, 6, 7):
            spin_inertia(d, spin, 1.0)
        d.force(3, 12.5)
        d.force(4, 12.5)
        d.force(5, steering_pulse(model.mode_time))
        for frame, spin, normal in ((rear_left, 3, 1500.0), (rear_right, 4, 1500.0),
                                    (front_left, 6, 1000.0), (front_right, 7, 1000.0)):
            friction_wheel(d, frame, spin, u, radius, [0.0, 1.0], normal, 0.1, 0.3, 1.0, 0.7)
        return d.accelerations()

    def outputs(t, q, u, x):
        return {"freeMotion.r[1]": q[0], "freeMotion.r[2]": q[1], "freeMotion.phi": q[2],
                "freeMotion.v[1]": u[0], "freeMotion.v[2]": u[1], "freeMotion.w": u[2],
                "inertia1.w": u[3], "inertia2.w": u[4], "steering.phi": q[5], "steering.w": u[5],
                "inertia.w": u[6], "inertia3.w": u[7]}

    model = Model(n, [0.0, 0.0, 0.0, 0.0, 0.0, 0.43633231299858, 0.0, 0.0], [0.0] * n, accel,
                  outputs=outputs, events=PULSE_EDGES)
    return model


# reference stem -> model factory; every one is referenced rigid (TD = 0, the
# value the wheel examples state).
CASES = {
    "Planar_CounterSpin": counter_spin,
    "Planar_WheelBasedCraneCrab": wheel_based_crane_crab,
    "Planar_TestIdealWheel": test_ideal_wheel,
    "Planar_TestDryFrictionWheel": test_dry_friction_wheel,
    "Planar_TestSlipBasedWheel": test_slip_based_wheel,
    "Planar_SingleTrack": single_track,
    "Planar_TwoTrack": two_track,
}


# Largest disagreement tolerated between Radau and DOP853 (both at rtol
# 1e-11), relative to 1 + the variable's largest magnitude: the dry-friction
# wheel's breakaway near 13 s amplifies the integrators' local errors about a
# thousandfold, so an absolute bound would have to depend on the example.
# With the published slip speed |slip| + 1e-4 (not smooth at zero slip, where
# the sliding wheel passes) they agree to 1.3e-8 in TestDryFrictionWheel,
# three orders of magnitude below the tightest wheel case tolerance.
CROSS_CHECK_REL = 3e-8


def solve(name: str, model: Model, t: np.ndarray, td: float, report: dict | None = None):
    radau = evaluate(model, t, integrate(model, t, td, "Radau"))
    dop = evaluate(model, t, integrate(model, t, td, "DOP853"))
    worst = max(float(np.max(np.abs(radau[k] - dop[k])) / (1.0 + np.max(np.abs(radau[k]))))
                for k in radau)
    if worst > CROSS_CHECK_REL:
        raise RuntimeError(f"{name}: Radau and DOP853 disagree by {worst:.3e} (relative)")
    if report is not None:
        report["cross_check"] = worst
    return radau


def generator(stem: str) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
    factory = CASES[stem]

    def run(t: np.ndarray) -> dict[str, np.ndarray]:
        report: dict = {}
        rigid = solve(stem, factory(), t, 0.0, report)
        with_td = solve(stem, factory(), t, TD_DEFAULT)
        effect = {k: float(np.max(np.abs(with_td[k] - rigid[k]))) for k in with_td}
        worst = max(effect, key=effect.get)
        print(f"{stem}: Radau and DOP853 agree to {report['cross_check']:.1e} (relative); "
              f"TD={TD_DEFAULT:g} s in the position laws would change {worst} by up to "
              f"{effect[worst]:.2e}")
        return rigid

    return run


# ---------------------------------------------------------------------------
# The two-stage rocket, in closed form
# ---------------------------------------------------------------------------

# Modia3D's TwoStageRocket3D: both stages 100 kg, gravity 9.81 m/s^2, stage 1
# thrust 1e4 N falling linearly to 0 at t1 = 5 s, separation at t1, stage 2
# thrust 2e3 N at t1 falling linearly to 0 at 15 s. The stages' centres start
# at 1 m and 2.5 m.
ROCKET = {"m1": 100.0, "m2": 100.0, "g": 9.81, "f1": 1e4, "f2": 2e3, "t1": 5.0, "t3": 15.0,
          "h1": 1.0, "h2": 2.5}


def rocket_columns(t: np.ndarray, td: float) -> dict[str, np.ndarray]:
    r = ROCKET
    g, t1, t3 = r["g"], r["t1"], r["t3"]
    # Together until t1: a = F1(t)/(m1 + m2) - g with F1 = f1*(1 - t/t1).
    c = r["f1"] / (r["m1"] + r["m2"])

    def joint_v(tt):
        return (c - g) * tt - 0.5 * c * tt**2 / t1

    def joint_x(tt):
        return 0.5 * (c - g) * tt**2 - c * tt**3 / (6.0 * t1)

    v_sep, x_sep = joint_v(t1), joint_x(t1)
    before = t < t1
    # After t1 stage 1 coasts, stage 2 has a = F2/m2 - g with
    # F2 = f2*(1 - (t - t1)/(t3 - t1)) until t3 and coasts after it.
    k = r["f2"] / r["m2"]
    burn = t3 - t1

    def stage2_v(tau):
        return v_sep + (k - g) * tau - 0.5 * k * tau**2 / burn

    def stage2_x(tau):
        return x_sep + v_sep * tau + 0.5 * (k - g) * tau**2 - k * tau**3 / (6.0 * burn)

    tau = np.clip(t - t1, 0.0, burn)
    coast = np.maximum(t - t3, 0.0)
    v_end, x_end = stage2_v(burn), stage2_x(burn)
    tau1 = np.maximum(t - t1, 0.0)
    v1 = np.where(before, joint_v(t), v_sep - g * tau1)
    x1 = np.where(before, joint_x(t), x_sep + v_sep * tau1 - 0.5 * g * tau1**2)
    v2 = np.where(before, joint_v(t),
                  np.where(t < t3, stage2_v(tau), v_end - g * coast))
    x2 = np.where(before, joint_x(t),
                  np.where(t < t3, stage2_x(tau), x_end + v_end * coast - 0.5 * g * coast**2))
    # The rod holds until t1 and is released from then on.
    locked = np.where(before, 1.0, 0.0)
    # Dialectic law: the position leads the integrated velocity by TD times
    # the change of velocity (both start at rest).
    return {"stage1Axis.s": r["h1"] + x1 + td * v1, "stage1Axis.v": v1,
            "stage2Axis.s": r["h2"] + x2 + td * v2, "stage2Axis.v": v2, "coupling.locked": locked}


def rocket(t: np.ndarray) -> dict[str, np.ndarray]:
    with_td = rocket_columns(t, TD_DEFAULT)
    rigid = rocket_columns(t, 0.0)
    effect = {k: float(np.max(np.abs(with_td[k] - rigid[k]))) for k in with_td}
    worst = max(effect, key=effect.get)
    end = rocket_columns(np.array([ROCKET["t3"] - 1e-12]), 0.0)
    print(f"Planar_TwoStageRocket: closed form; TD={TD_DEFAULT:g} s changes {worst} by up to "
          f"{effect[worst]:.2e}; with TD = 0 stage 2 ends at {end['stage2Axis.s'][0]:.10g} m, "
          f"{end['stage2Axis.v'][0]:.10g} m/s (Modia3D: 1232.2203937, 77.8510839)")
    return with_td


GENERATORS = {stem: generator(stem) for stem in CASES}
GENERATORS["Planar_TwoStageRocket"] = rocket
