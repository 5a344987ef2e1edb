"""References of the ThermoFluid Stream Lite examples, without mofmu.

Each function writes down the equations of the published ThermofluidStream
library for its example by hand (Source: r = 0 and its inertance L on the
path; FlowResistance: p_out = p_in - dp(m), h_out = h_in, inertance l/(pi r^2);
Sink: L der(m) = r_in - (p0 - p_in); Volume: mass and internal-energy
balances of an ideal gas, a path closed at its inlet, the volume's own
enthalpy leaving through its outlet) with the example's parameters, and
solves them in closed form or with scipy's Radau at rtol 1e-12. Summed along
a path, the published equations are one ODE per path:
(sum of L) der(m) = p_source - p_sink + sum(dp).

The published Volume adds an optional damping pressure
(k_volume_damping); Lite has none (docs/thermofluid.md), so it is zero here.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp

PI = math.pi

# SimpleAir and SimpleLiquidWater as issue 22 defines them.
AIR_CP = 1005.45
AIR_R = 287.05
AIR_MU = 1.82e-5
AIR_T_REF = 298.15
WATER_CP = 4184.0
WATER_RHO = 995.586
WATER_T_REF = 273.15

# Inertance of a boundary (source, sink, volume port): the published
# library's dropOfCommons.L.
L_BOUNDARY = 0.01


def cheng_pressure_loss(m_flow: float, rho: float, mu: float, r: float, l: float, ks: float) -> float:
    """Cheng (2008) pressure loss, as the published laminarTurbulentPressureLoss."""
    u = m_flow / (r * r * PI * rho)
    re = abs(u) * rho * 2 * r / mu + 0.001
    a = 1 / (1 + (re / 2720) ** 9)
    b = 1 / (1 + (re / (160 * 2 * r / ks)) ** 2)
    # With a == 1 exactly (small Re) the first power is 1 whatever its base.
    e1 = 2 * (a - 1) * b
    p1 = 1.0 if e1 == 0 else (1.8 * math.log10(re / 6.8)) ** e1
    lambda_re = 64**a * re ** (1 - a) * (p1 * (2 * math.log10(3.7 * 2 * r / ks)) ** (2 * (a - 1) * (1 - b)))
    return lambda_re * l * mu * u / (8 * r * r)


def flow_resistance(t: np.ndarray) -> dict[str, np.ndarray]:
    """Examples.FlowResistance: two independent paths from a 3 bar source to
    1 bar sinks. linQuad (k = 1000, k2 = 100) starts at its steady state
    k m + k2 m^2 = 2e5, m = 40. laminar (r = 0.02, l = 100, L = 1000) is
    linear: sum(L) m' = 2e5 - k m with k = 8 mu l/(pi rho r^4), rho the
    source density p0/(R T0), so m = (2e5/k)(1 - exp(-k t/sum(L)))."""
    rho = 3e5 / (AIR_R * 300.0)
    k = 8 * AIR_MU * 100.0 / (PI * rho * 0.02**4)
    l_sum = L_BOUNDARY + 1000.0 + L_BOUNDARY
    m_lam = 2e5 / k * (1 - np.exp(-k * t / l_sum))
    return {
        "sinkLinQuad.m_flow": np.full_like(t, 40.0),
        "sinkLaminar.m_flow": m_lam,
        "laminar.dp": -k * m_lam,
    }


def pump(t: np.ndarray) -> dict[str, np.ndarray]:
    """Examples.Pump: the nominal-flow characteristic dp = k_p (V_nom - V)
    with V_nom = omega V_r/(2 pi), V_r = 2 pi V_D/(omega_D (1 - slip_D)),
    k_p = dp_D/(slip_D/(1 - slip_D) V_D); the path ODE
    sum(L) m' = 1e5 - 6e5 + k_p (V_nom - m/rho) is linear, so
    m = m_ss (1 - exp(-t/tau)), tau = sum(L) rho/k_p, and the volume flow
    settles at V_nom - 5e5/k_p = V_D."""
    omega, omega_d, dp_d, v_d, slip_d = 100.0, 100.0, 5e5, 1.6667e-3, 0.5
    v_r = v_d * 2 * PI / omega_d / (1 - slip_d)
    k_p = dp_d / (slip_d / (1 - slip_d) * v_d)
    v_nom = omega * v_r / (2 * PI)
    l_sum = L_BOUNDARY + 1e4 + L_BOUNDARY
    m_ss = WATER_RHO * (v_nom - 5e5 / k_p)
    tau = l_sum * WATER_RHO / k_p
    m = m_ss * (1 - np.exp(-t / tau))
    # The enthalpy rise: W = tau_st*omega with the published steady torque
    # (eta_D = 0.75, omega_reg = 1 rad/s) and dh = m W/(m^2 + m_reg^2).
    k_fric = dp_d * (1 - slip_d) / (slip_d * omega_d) * (1 / 0.75 - 1)
    v_flow = m / WATER_RHO
    dp = k_p * (v_nom - v_flow)
    torque = v_flow * dp * omega / (omega**2 + 1.0**2) + k_fric * (v_nom - v_flow)
    dh = m * torque * omega / (m**2 + 0.01**2)
    return {"sink.m_flow": m, "pump.V_flow": v_flow, "pump.dh": dh}


def heated_volume(t: np.ndarray, ua: float = 400.0) -> dict[str, np.ndarray]:
    """Examples.HeatedVolume: source (2e5 Pa, 293.15 K) -- Cheng pipe --
    volume (1 m3, ideal gas, U A = 400 W/K to 500 K) -- Cheng pipe -- sink
    (1e5 Pa), SimpleAir. States: inlet-path flow m1, mass M, internal energy
    U, outlet-path flow m2; both flows start at 0.1 kg/s. With ua = 0 the
    volume has no heat port (`heated = false`): no heat enters the gas."""
    r, l, ks = 0.01, 1.0, 1e-5
    l_pipe = l / (PI * r * r)
    v, t_wall = 1.0, 500.0
    p_src, t_src, p_sink = 2e5, 293.15, 1e5
    h_src = AIR_CP * (t_src - AIR_T_REF)
    rho_src = p_src / (AIR_R * t_src)

    def gas(m_gas: float, u_gas: float) -> tuple[float, float, float]:
        u = u_gas / m_gas
        temp = (u + AIR_CP * AIR_T_REF) / (AIR_CP - AIR_R)
        return m_gas / v * AIR_R * temp, AIR_CP * (temp - AIR_T_REF), temp

    def rhs(_t: float, x: np.ndarray) -> list[float]:
        m1, m_gas, u_gas, m2 = x
        p, h, temp = gas(m_gas, u_gas)
        dp1 = -cheng_pressure_loss(m1, rho_src, AIR_MU, r, l, ks)
        dp2 = -cheng_pressure_loss(m2, p / (AIR_R * temp), AIR_MU, r, l, ks)
        h_in = h_src if m1 >= 0 else h
        return [
            (p_src + dp1 - p) / (L_BOUNDARY + l_pipe + L_BOUNDARY),
            m1 - m2,
            m1 * h_in - m2 * h + ua * (t_wall - temp),
            (p + dp2 - p_sink) / (L_BOUNDARY + l_pipe + L_BOUNDARY),
        ]

    t0 = 313.15
    p0 = 1.5e5
    m_gas0 = p0 / (AIR_R * t0) * v
    u_gas0 = m_gas0 * (AIR_CP * (t0 - AIR_T_REF) - AIR_R * t0)
    sol = solve_ivp(rhs, (t[0], t[-1]), [0.1, m_gas0, u_gas0, 0.1], method="Radau",
                    t_eval=t, rtol=1e-12, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"HeatedVolume: Radau failed: {sol.message}")
    m1, m_gas, u_gas, m2 = sol.y
    p, _, temp = zip(*(gas(a, b) for a, b in zip(m_gas, u_gas)))
    return {
        "volume.m_flow_in": m1,
        "volume.M": m_gas,
        "volume.p": np.array(p),
        "volume.T": np.array(temp),
        "sink.m_flow": m2,
    }


def heated_pipe(t: np.ndarray) -> dict[str, np.ndarray]:
    """Examples.HeatedPipe, SimpleLiquidWater: source (2e5 Pa, 293.15 K) --
    laminar pipe -- tank (V = 0.01 m3, p = p_ref + K (M/(rho V) - 1)) --
    heater (conduction element: stationary mass rho V_h, enthalpy state,
    Q = k (T_wall - T)) -- laminar pipe -- sink (1e5 Pa). States: inlet-path
    flow m1, tank pressure p (dp/dt = K/(rho V) dM/dt) and internal energy
    U (u = h - p/rho), heater
    enthalpy h_h, outlet-path flow m2."""
    rho, cp, t_ref = WATER_RHO, WATER_CP, WATER_T_REF
    r, l = 0.005, 100.0
    k_lam = 8 * 1e-3 * l / (PI * rho * r**4)
    l_pipe = l / (PI * r * r)
    v, k_bulk, p_ref = 0.01, 2.2e9, 1e5
    v_h, k_h, t_wall = 1e-3, 500.0, 353.15
    h_src = cp * (293.15 - t_ref)
    l1 = L_BOUNDARY + l_pipe + L_BOUNDARY
    l2 = L_BOUNDARY + L_BOUNDARY + l_pipe + L_BOUNDARY

    def rhs(_t: float, x: np.ndarray) -> list[float]:
        m1, p, u_tank, h_h, m2 = x
        m_tank = rho * v * (1 + (p - p_ref) / k_bulk)
        h = u_tank / m_tank + p / rho
        temp_h = t_ref + h_h / cp
        h_in1 = h_src if m1 >= 0 else h
        h_in2 = h if m2 >= 0 else h_h
        return [
            (2e5 - k_lam * m1 - p) / l1,
            k_bulk / (rho * v) * (m1 - m2),
            m1 * h_in1 - m2 * h,
            (k_h * (t_wall - temp_h) + m2 * (h_in2 - h_h)) / (rho * v_h),
            (p - k_lam * m2 - 1e5) / l2,
        ]

    p0 = 1.5e5
    m0 = rho * v * (1 + (p0 - p_ref) / k_bulk)
    u0 = m0 * (h_src - p0 / rho)
    sol = solve_ivp(rhs, (t[0], t[-1]), [0.0, p0, u0, h_src, 0.0], method="Radau",
                    t_eval=t, rtol=1e-12, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"HeatedPipe: Radau failed: {sol.message}")
    m1, p_tank, _, h_h, m2 = sol.y
    temp_h = t_ref + h_h / cp
    return {
        "tank.m_flow_in": m1,
        "tank.p": p_tank,
        "heater.T": temp_h,
        "temperature.T": temp_h,
        "sink.m_flow": m2,
    }


def splitter(t: np.ndarray) -> dict[str, np.ndarray]:
    """Examples.Splitter, SimpleLiquidWater: source (2e5 Pa) -- laminar pipe
    -- splitter -- laminar pipes A (l = 10) and B (l = 20) -- sinks (1e5 Pa).
    The published equations of the two paths through the shared inlet path
    (inertance L_up = source + pipe + splitter) are linear in the
    accelerations:
    (L_i + L_k) m_i' = -L_up (mA' + mB') + 2e5 - k0 (mA + mB) - k_i m_i - 1e5,
    solved for (mA', mB') at every step (Radau, rtol 1e-12)."""
    rho = WATER_RHO

    def laminar(r: float, l: float) -> tuple[float, float]:
        return 8 * 1e-3 * l / (PI * rho * r**4), l / (PI * r * r)

    k0, l0 = laminar(0.01, 1.0)
    ka, la = laminar(0.005, 10.0)
    kb, lb = laminar(0.005, 20.0)
    l_up = L_BOUNDARY + l0 + 0.01
    mass = np.array([[la + L_BOUNDARY + l_up, l_up], [l_up, lb + L_BOUNDARY + l_up]])

    def rhs(_t: float, x: np.ndarray) -> np.ndarray:
        ma, mb = x
        drive = 2e5 - k0 * (ma + mb) - 1e5
        return np.linalg.solve(mass, [drive - ka * ma, drive - kb * mb])

    sol = solve_ivp(rhs, (t[0], t[-1]), [0.0, 0.0], method="Radau", t_eval=t, rtol=1e-12, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"Splitter: Radau failed: {sol.message}")
    ma, mb = sol.y
    return {"sinkA.m_flow": ma, "sinkB.m_flow": mb, "pipe.m_flow": ma + mb}


def junction(t: np.ndarray) -> dict[str, np.ndarray]:
    """Examples.Junction, SimpleLiquidWater: cold (2e5 Pa, 293.15 K) -- pipe A
    (laminar, l = 10) and hot (3e5 Pa, 353.15 K) -- pipe B (l = 20) meet in
    a junction, then a pipe (l = 1) to the sink (1e5 Pa). The published
    JunctionN equations, with the junction inertance L_j at every port:
    (L_up,i + L_j) m_i' = p_i - p_mix - r_mix for each inlet (p_i the
    inlet's steady pressure after its pipe), (L_j + L_pipe + L_k) m_out'
    = r_mix + p_mix - k m_out - p_sink, m_out = mA + mB, and the mixing
    weights w_i = (|m_i| + eps)/(sum |m_j| + 2 eps) on p and h. Three linear
    equations in (mA', mB', r_mix) per step (Radau, rtol 1e-12)."""
    rho, eps, l_j = WATER_RHO, 0.01, 0.01

    def laminar(r: float, l: float) -> tuple[float, float]:
        return 8 * 1e-3 * l / (PI * rho * r**4), l / (PI * r * r)

    ka, la = laminar(0.005, 10.0)
    kb, lb = laminar(0.005, 20.0)
    k0, l0 = laminar(0.01, 1.0)
    h_cold = WATER_CP * (293.15 - WATER_T_REF)
    h_hot = WATER_CP * (353.15 - WATER_T_REF)

    def mix(ma: float, mb: float) -> tuple[float, float, float]:
        wa = (abs(ma) + eps) / (abs(ma) + abs(mb) + 2 * eps)
        pa, pb = 2e5 - ka * ma, 3e5 - kb * mb
        return wa * pa + (1 - wa) * pb, wa * h_cold + (1 - wa) * h_hot, wa

    def rhs(_t: float, x: np.ndarray) -> np.ndarray:
        ma, m_out = x
        mb = m_out - ma
        p_mix, _, _ = mix(ma, mb)
        pa, pb = 2e5 - ka * ma, 3e5 - kb * mb
        # Unknowns (ma', mb', r_mix).
        a = np.array([
            [L_BOUNDARY + la + l_j, 0.0, 1.0],
            [0.0, L_BOUNDARY + lb + l_j, 1.0],
            [l_j + l0 + L_BOUNDARY, l_j + l0 + L_BOUNDARY, -1.0],
        ])
        b = [pa - p_mix, pb - p_mix, p_mix - k0 * m_out - 1e5]
        dma, dmb, _ = np.linalg.solve(a, b)
        return np.array([dma, dma + dmb])

    sol = solve_ivp(rhs, (t[0], t[-1]), [0.0, 0.0], method="Radau", t_eval=t, rtol=1e-12, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"Junction: Radau failed: {sol.message}")
    ma, m_out = sol.y
    mixed = [mix(a, o - a) for a, o in zip(ma, m_out)]
    return {
        "junction.mA": ma,
        "sink.m_flow": m_out,
        "junction.p_mix": np.array([m[0] for m in mixed]),
        "junction.h_mix": np.array([m[1] for m in mixed]),
        "massFlow.m_flow": m_out,
        "pressure.p": np.array([m[0] for m in mixed]),
        "enthalpy.h": np.array([m[1] for m in mixed]),
    }


def cooling_loop(t: np.ndarray, n: int = 10) -> dict[str, np.ndarray]:
    """Examples.CoolingLoop, SimpleLiquidWater, a closed loop: volume (V =
    0.01 m3, bulk modulus K = 2.2e9 Pa, 2 bar) -> pump (omega = 100 rad/s;
    design point omega_D = 100, dp_D = 1e5, V_D = 1e-3, slip_D = 0.5, eta_D
    = 0.75) -> heater (a conduction element of 1 l, k = 500 W/K to a wall of
    C = 500 J/K that receives 2 kW) -> splitter -> laminar resistances A (r =
    4 mm, l = 10 m) and B (l = 20 m) -> junction -> n radiator cells (2 l and
    500 W/K to 293.15 K in all, shared equally) -> volume.

    The published equations, written with the total pressures P_node at the
    splitter and P_mix at the junction as unknowns beside the accelerations
    a = der(m) of the loop flow m = mA + mB and aA = der(mA) of branch A:
      p_vol + dp_pump(m) - L_c a = P_node               (volume outlet .. splitter)
      P_node - kA mA - L_A aA = P_mix                   (branch A, into the junction)
      P_node - kB mB - L_B (a - aA) = P_mix             (branch B)
      P_mix - L_r a = p_vol                             (junction outlet .. volume inlet)
    four linear equations per step, with L_c the inertances of the volume
    port, pump, heater and splitter, L_A (L_B) the resistance's l/(pi r^2)
    plus the junction port's, L_r the junction's outlet port, the cells' and
    the volume's inlet port. Steady pressures along the branches follow the
    junction's mixing rule w_i = (|m_i| + eps)/(sum |m_j| + 2 eps); here
    both branches bring the heater's enthalpy, so the mix is that enthalpy.
    Energy: the volume's dp/dt = K/(rho V)(m_in - m_out) (zero: one flow
    around the loop) and dU/dt = m h_in - m h; the pump adds dh = m W/(m^2 +
    m_reg^2) with the published steady torque; each cell (mass rho V_cell,
    stationary) rho V dh_i/dt = k_i (T_port - T_i) + m (h_{i-1} - h_i); the
    wall C dT_w/dt = 2000 - k_h (T_w - T_h)."""
    rho, cp, t_ref = WATER_RHO, WATER_CP, WATER_T_REF
    mu, eps = 1e-3, 0.01
    l_port = L_BOUNDARY
    # Pump, as pump() above.
    omega, omega_d, dp_d, v_d, slip_d, eta_d = 100.0, 100.0, 1e5, 1e-3, 0.5, 0.75
    v_r = v_d * 2 * PI / omega_d / (1 - slip_d)
    k_p = dp_d / (slip_d / (1 - slip_d) * v_d)
    k_fric = dp_d * (1 - slip_d) / (slip_d * omega_d) * (1 / eta_d - 1)
    v_nom = omega * v_r / (2 * PI)
    # Resistances (Hagen-Poiseuille) and their inertances.
    def laminar(r: float, l: float) -> tuple[float, float]:
        return 8 * mu * l / (PI * rho * r**4), l / (PI * r * r)

    k_a, l_a = laminar(0.004, 10.0)
    k_b, l_b = laminar(0.004, 20.0)
    l_c = l_port + l_port + l_port + l_port  # volume outlet, pump, heater, splitter
    l_ba = l_a + l_port                      # resistance A, junction port
    l_bb = l_b + l_port
    l_r = l_port + n * l_port + l_port       # junction outlet, cells, volume inlet
    v_vol, k_bulk, p_ref = 0.01, 2.2e9, 1e5
    v_h, k_h, c_wall, q_heater = 1e-3, 500.0, 500.0, 2000.0
    v_cell, k_cell, t_amb = 2e-3 / n, 500.0 / n, 293.15

    def pump_dh(m: float) -> float:
        v_flow = m / rho
        dp = k_p * (v_nom - v_flow)
        torque = v_flow * dp * omega / (omega**2 + 1.0**2) + k_fric * (v_nom - v_flow)
        return m * torque * omega / (m**2 + 0.01**2)

    def accelerations(m: float, m_a: float, p_vol: float) -> tuple[float, float]:
        m_b = m - m_a
        dp_pump = k_p * (v_nom - m / rho)
        # Unknowns (a, aA, P_node, P_mix).
        a = np.array([
            [l_c, 0.0, 1.0, 0.0],
            [0.0, l_ba, -1.0, 1.0],
            [l_bb, -l_bb, -1.0, 1.0],
            [l_r, 0.0, 0.0, -1.0],
        ])
        b = [p_vol + dp_pump, -k_a * m_a, -k_b * m_b, -p_vol]
        acc, acc_a, _, _ = np.linalg.solve(a, b)
        return acc, acc_a

    def rhs(_t: float, x: np.ndarray) -> np.ndarray:
        m, m_a, p_vol, u_vol, t_wall, h_h = x[:6]
        h_cells = x[6:]
        m_vol = rho * v_vol * (1 + (p_vol - p_ref) / k_bulk)
        h_vol = u_vol / m_vol + p_vol / rho
        acc, acc_a = accelerations(m, m_a, p_vol)
        # Pump outlet; the heater takes it in while the flow is forward.
        h_pump = h_vol + pump_dh(m)
        t_h = t_ref + h_h / cp
        q_h = k_h * (t_wall - t_h)
        dh_h = (q_h + m * ((h_pump if m >= 0 else h_h) - h_h)) / (rho * v_h)
        # Junction: both branches carry the heater's enthalpy.
        m_b = m - m_a
        w_a = (abs(m_a) + eps) / (abs(m_a) + abs(m_b) + 2 * eps)
        h_mix = w_a * h_h + (1 - w_a) * h_h
        upstream = np.concatenate(([h_mix], h_cells[:-1]))
        inflow = np.where(m >= 0, upstream, h_cells)
        t_cells = t_ref + h_cells / cp
        dh_cells = (k_cell * (t_amb - t_cells) + m * (inflow - h_cells)) / (rho * v_cell)
        h_in_vol = h_cells[-1] if m >= 0 else h_vol
        return np.concatenate(([
            acc,
            acc_a,
            k_bulk / (rho * v_vol) * (m - m),
            m * h_in_vol - m * h_vol,
            (q_heater - q_h) / c_wall,
            dh_h,
        ], dh_cells))

    t0, p0 = 293.15, 2e5
    h0 = cp * (t0 - t_ref)
    m_vol0 = rho * v_vol * (1 + (p0 - p_ref) / k_bulk)
    x0 = np.concatenate(([1.2, 0.8, p0, m_vol0 * (h0 - p0 / rho), t0, h0], np.full(n, h0)))
    sol = solve_ivp(rhs, (t[0], t[-1]), x0, method="Radau", t_eval=t, rtol=1e-12, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"CoolingLoop: Radau failed: {sol.message}")
    m, m_a, p_vol, u_vol, t_wall, h_h = sol.y[:6]
    h_cells = sol.y[6:]
    m_vol = rho * v_vol * (1 + (p_vol - p_ref) / k_bulk)
    t_vol = t_ref + (u_vol / m_vol + p_vol / rho) / cp
    out = {
        "volume.m_flow_in": m,
        "junction.mA": m_a,
        "volume.p": p_vol,
        "volume.T": t_vol,
        "heaterWall.T": t_wall,
        "heater.T": t_ref + h_h / cp,
        "pump.dh": np.array([pump_dh(v) for v in m]),
    }
    for i in range(n):
        out[f"pipe[{i + 1}].T"] = t_ref + h_cells[i] / cp
    return out


def junction_n(t: np.ndarray) -> dict[str, np.ndarray]:
    """Examples.JunctionN, SimpleLiquidWater: cold (2e5 Pa, 293.15 K), warm
    (2.5e5 Pa, 323.15 K) and hot (3e5 Pa, 353.15 K) through laminar pipes
    1..3 (r = 5 mm, l = 10, 20, 30 m) into a three-way junction, a pipe
    (r = 1 cm, l = 1 m) into a two-way splitter, laminar pipes A (l = 10) and
    B (l = 20) into sinks at 1e5 Pa. The published JunctionN and SplitterN
    equations, with the junction inertance L_j at every port and the
    splitter's L_s at its inlet:
      (L_b + l_i + L_j) m_i' = p_i - p_mix - r_mix          (inlet i)
      r_node = r_mix - (L_j + l_0 + L_s) m_out'             (junction .. splitter)
      (l_k + L_b) m_k' = r_node + p_mix - k_0 m_out - k_k m_k - 1e5   (k = A, B)
      m_out = m_1 + m_2 + m_3 = m_A + m_B,
    p_i = p0_i - k_i m_i, and the mixing weights w_i = (|m_i| + eps)/
    (sum |m_j| + 3 eps) on p and h. Six linear equations in (m_1', m_2',
    m_3', m_A', m_B', r_mix) per step; states (m_1, m_2, m_A, m_B), with
    m_3 = m_A + m_B - m_1 - m_2 (Radau, rtol 1e-12)."""
    rho, eps, l_j, l_s = WATER_RHO, 0.01, 0.01, 0.01

    def laminar(r: float, l: float) -> tuple[float, float]:
        return 8 * 1e-3 * l / (PI * rho * r**4), l / (PI * r * r)

    pipes = [laminar(0.005, l) for l in (10.0, 20.0, 30.0)]
    k0, l0 = laminar(0.01, 1.0)
    ka, la = laminar(0.005, 10.0)
    kb, lb = laminar(0.005, 20.0)
    p0 = [2e5, 2.5e5, 3e5]
    h0 = [WATER_CP * (temp - WATER_T_REF) for temp in (293.15, 323.15, 353.15)]
    l_mid = l_j + l0 + l_s

    def mix(m_in: list[float]) -> tuple[float, float]:
        a = [abs(m) + eps for m in m_in]
        w = [x / sum(a) for x in a]
        p = [p0[i] - pipes[i][0] * m_in[i] for i in range(3)]
        return sum(w[i] * p[i] for i in range(3)), sum(w[i] * h0[i] for i in range(3))

    def inflows(x: np.ndarray) -> list[float]:
        m1, m2, ma, mb = x
        return [m1, m2, ma + mb - m1 - m2]

    def rhs(_t: float, x: np.ndarray) -> np.ndarray:
        m_in = inflows(x)
        ma, mb = x[2], x[3]
        m_out = ma + mb
        p_mix, _ = mix(m_in)
        # Unknowns (m1', m2', m3', mA', mB', r_mix).
        a = np.zeros((6, 6))
        b = np.zeros(6)
        for i in range(3):
            a[i, i] = L_BOUNDARY + pipes[i][1] + l_j
            a[i, 5] = 1.0
            b[i] = p0[i] - pipes[i][0] * m_in[i] - p_mix
        for row, (k, l, m) in ((3, (ka, la, ma)), (4, (kb, lb, mb))):
            a[row, row] = l + L_BOUNDARY
            a[row, 3] += l_mid
            a[row, 4] += l_mid
            a[row, 5] = -1.0
            b[row] = p_mix - k0 * m_out - k * m - 1e5
        a[5, :5] = [1.0, 1.0, 1.0, -1.0, -1.0]
        d = np.linalg.solve(a, b)
        return np.array([d[0], d[1], d[3], d[4]])

    sol = solve_ivp(rhs, (t[0], t[-1]), [0.0, 0.0, 0.0, 0.0], method="Radau", t_eval=t, rtol=1e-12, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"JunctionN: Radau failed: {sol.message}")
    m_in = [inflows(sol.y[:, j]) for j in range(len(t))]
    mixed = [mix(m) for m in m_in]
    return {
        "junction.m[1]": sol.y[0],
        "junction.m[2]": sol.y[1],
        "junction.m_in[3]": np.array([m[2] for m in m_in]),
        "sinkA.m_flow": sol.y[2],
        "sinkB.m_flow": sol.y[3],
        "junction.p_mix": np.array([m[0] for m in mixed]),
        "junction.h_mix": np.array([m[1] for m in mixed]),
    }


def fittings(t: np.ndarray) -> dict[str, np.ndarray]:
    """Examples.Fittings, SimpleLiquidWater: three networks of laminar pipes
    (r = 5 mm unless said) that share nothing.
      1. cold (2e5 Pa, 293.15 K), warm (2.5e5 Pa, 323.15 K), hot (3e5 Pa,
         353.15 K) through pipe1..pipe3 (l = 10, 20, 30 m) into a three-way
         junction (JunctionX3), pipe4 (r = 1 cm, l = 1 m) into a three-way
         splitter (SplitterX): pipeA (10 m) to sinkA, pipeB (20 m) to sinkB,
         pipeC (10 m) to a two-way junction (JunctionT1) that boost (2e5 Pa,
         293.15 K) joins through pipeD (10 m); pipeE (10 m) to sinkE. Sinks
         at 1e5 Pa.
      2. sourceP (3e5 Pa, 353.15 K, pipeP 10 m) and sourceQ (2e5 Pa, 293.15
         K, pipeQ 20 m) into a junction whose mixed stream a splitter divides
         (JunctionX1 = JunctionN + SplitterN): pipeF (10 m) to sinkF (1e5 Pa),
         pipeG (20 m) to sinkG (1.2e5 Pa).
      3. the same with sourceR (2.5e5 Pa, 333.15 K, pipeR 20 m), sourceS
         (2.2e5 Pa, 283.15 K, pipeS 10 m), pipeH to sinkH (1e5 Pa) and pipeI
         to sinkI (1.5e5 Pa), all 10 m (JunctionX2).
    The published equations as a network of branches between nodes: every
    branch b from node u to node v carries its own flow m_b and obeys
    L_b m_b' = P_u - P_v - k_b m_b, with P the total pressure (steady p plus
    inertial r) at a node, fixed at a source or sink (p0), unknown at a
    junction's mixing point or a splitter's branch point; at every unknown
    node the accelerations in and out balance. L_b sums the inertances on
    the branch: a boundary's 0.01, the pipe's l/(pi r^2), each junction
    port's 0.01 (every inlet and the outlet), a splitter's 0.01 at its
    inlet; the X junctions' junction-to-splitter branch has no pipe (k = 0,
    L = 0.01 + 0.01). One linear system per step in the branch
    accelerations and the unknown P (Radau, rtol 1e-12). The mixed
    enthalpy and steady pressure of a junction weigh its inlets by
    w_i = (|m_i| + eps)/(sum |m_j| + N eps), eps = 0.01 kg/s; a splitter
    passes both on; a pipe lowers the steady pressure by k m."""
    rho, eps, l_j, l_s = WATER_RHO, 0.01, 0.01, 0.01

    def laminar(r: float, l: float) -> tuple[float, float]:
        return 8 * 1e-3 * l / (PI * rho * r**4), l / (PI * r * r)

    def h_of(temp: float) -> float:
        return WATER_CP * (temp - WATER_T_REF)

    pipe = {name: laminar(0.005, l) for name, l in (
        ("1", 10.0), ("2", 20.0), ("3", 30.0), ("A", 10.0), ("B", 20.0), ("C", 10.0),
        ("D", 10.0), ("E", 10.0), ("P", 10.0), ("Q", 20.0), ("F", 10.0), ("G", 20.0),
        ("R", 20.0), ("S", 10.0), ("H", 10.0), ("I", 10.0))}
    pipe["4"] = laminar(0.01, 1.0)
    fixed = {"cold": 2e5, "warm": 2.5e5, "hot": 3e5, "boost": 2e5, "P": 3e5, "Q": 2e5,
             "R": 2.5e5, "S": 2.2e5, "sinkA": 1e5, "sinkB": 1e5, "sinkE": 1e5,
             "sinkF": 1e5, "sinkG": 1.2e5, "sinkH": 1e5, "sinkI": 1.5e5}
    nodes = ["J3", "SX", "T1", "J1", "S1", "J2", "S2"]
    lb = L_BOUNDARY
    # (name, from, to, pipe or None, inertance besides the pipe's)
    branches = [
        ("1", "cold", "J3", "1", lb + l_j), ("2", "warm", "J3", "2", lb + l_j),
        ("3", "hot", "J3", "3", lb + l_j), ("4", "J3", "SX", "4", l_j + l_s),
        ("A", "SX", "sinkA", "A", lb), ("B", "SX", "sinkB", "B", lb),
        ("C", "SX", "T1", "C", l_j), ("D", "boost", "T1", "D", lb + l_j),
        ("E", "T1", "sinkE", "E", l_j + lb),
        ("P", "P", "J1", "P", lb + l_j), ("Q", "Q", "J1", "Q", lb + l_j),
        ("X1", "J1", "S1", None, l_j + l_s),
        ("F", "S1", "sinkF", "F", lb), ("G", "S1", "sinkG", "G", lb),
        ("R", "R", "J2", "R", lb + l_j), ("S", "S", "J2", "S", lb + l_j),
        ("X2", "J2", "S2", None, l_j + l_s),
        ("H", "S2", "sinkH", "H", lb), ("I", "S2", "sinkI", "I", lb),
    ]
    nb, nn = len(branches), len(nodes)
    index = {b[0]: i for i, b in enumerate(branches)}
    k = np.array([pipe[b[3]][0] if b[3] else 0.0 for b in branches])
    inert = np.array([(pipe[b[3]][1] if b[3] else 0.0) + b[4] for b in branches])
    a = np.zeros((nb + nn, nb + nn))
    for i, (_, u, v, _, _) in enumerate(branches):
        a[i, i] = inert[i]
        for node, sign in ((u, -1.0), (v, 1.0)):
            if node in nodes:
                a[i, nb + nodes.index(node)] = sign
                # Node balance: what arrives equals what leaves.
                a[nb + nodes.index(node), i] = sign
    # Row i: L_b a_b + P_v - P_u = -k_b m_b + (fixed P_u - fixed P_v).
    drive = np.array([fixed.get(u, 0.0) - fixed.get(v, 0.0) for _, u, v, _, _ in branches])
    lu = np.linalg.inv(a)

    def rhs(_t: float, m: np.ndarray) -> np.ndarray:
        b = np.concatenate((drive - k * m, np.zeros(nn)))
        return (lu @ b)[:nb]

    sol = solve_ivp(rhs, (t[0], t[-1]), np.zeros(nb), method="Radau", t_eval=t,
                    rtol=1e-12, atol=1e-12, jac=lambda _t, _m: -lu[:nb, :nb] * k)
    if not sol.success:
        raise RuntimeError(f"Fittings: Radau failed: {sol.message}")
    m = {name: sol.y[i] for name, i in index.items()}

    def mix(flows: list[np.ndarray], values: list) -> np.ndarray:
        weights = [np.abs(f) + eps for f in flows]
        total = sum(weights)
        return sum(w * v for w, v in zip(weights, values)) / total

    def drop(name: str) -> np.ndarray:
        return pipe[name][0] * m[name]

    # Steady pressures and enthalpies, downstream.
    p_x3 = mix([m["1"], m["2"], m["3"]], [2e5 - drop("1"), 2.5e5 - drop("2"), 3e5 - drop("3")])
    h_x3 = mix([m["1"], m["2"], m["3"]], [h_of(293.15), h_of(323.15), h_of(353.15)])
    p_t1 = mix([m["C"], m["D"]], [p_x3 - drop("4") - drop("C"), 2e5 - drop("D")])
    h_t1 = mix([m["C"], m["D"]], [h_x3, h_of(293.15)])
    h_x1 = mix([m["P"], m["Q"]], [h_of(353.15), h_of(293.15)])
    p_x1 = mix([m["P"], m["Q"]], [3e5 - drop("P"), 2e5 - drop("Q")])
    h_x2 = mix([m["R"], m["S"]], [h_of(333.15), h_of(283.15)])
    p_x2 = mix([m["R"], m["S"]], [2.5e5 - drop("R"), 2.2e5 - drop("S")])
    return {
        "junctionX3.junction.m[1]": m["1"],
        "junctionX3.junction.m[2]": m["2"],
        "junctionX3.junction.m_in[3]": m["3"],
        "junctionX3.junction.p_mix": p_x3,
        "junctionX3.junction.h_mix": h_x3,
        "sinkA.m_flow": m["A"],
        "sinkB.m_flow": m["B"],
        "junctionT1.junction.m[1]": m["C"],
        "junctionT1.junction.p_mix": p_t1,
        "junctionT1.junction.h_mix": h_t1,
        "sinkE.m_flow": m["E"],
        "junctionX1.junction.junction.m[1]": m["P"],
        "junctionX1.junction.junction.p_mix": p_x1,
        "junctionX1.junction.junction.h_mix": h_x1,
        "sinkF.m_flow": m["F"],
        "sinkG.m_flow": m["G"],
        "junctionX2.junction.junction.m[1]": m["R"],
        "junctionX2.junction.junction.p_mix": p_x2,
        "junctionX2.junction.junction.h_mix": h_x2,
        "sinkH.m_flow": m["H"],
        "sinkI.m_flow": m["I"],
    }


GENERATORS = {
    "TFS_FlowResistance": flow_resistance,
    "TFS_Pump": pump,
    "TFS_HeatedVolume": heated_volume,
    "TFS_HeatedVolume_NoPort": lambda t: heated_volume(t, ua=0.0),
    "TFS_HeatedPipe": heated_pipe,
    "TFS_Splitter": splitter,
    "TFS_Junction": junction,
    "TFS_JunctionN": junction_n,
    "TFS_CoolingLoop": cooling_loop,
    "TFS_Fittings": fittings,
}
