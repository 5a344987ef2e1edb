/* A hand-written C twin of ThermoFluidStream.Examples.CoolingLoop
 * (examples/ThermoFluidStream): the textbook equations of the loop, written
 * as a programmer would from docs/thermofluid.md and the reference of
 * fmu-tests/references/thermofluid_references.py (cooling_loop), not from
 * mofmu's kernels: the path's total pressures are eliminated by hand, so it
 * solves a 2 x 2 system where the FMU runs the declared tearing. Its
 * derivatives therefore agree with the FMU's to rounding, not bit for bit.
 * The benchmark compiles it with mofmu's own compiler flags.
 *
 * States, in the FMU's order: volume.p, volume.U_med, volume.m_flow_in (the
 * loop's flow m), heaterWall.T, heater.h, junction.mA, pipe[1..n].h. */
#include <math.h>
#include <stddef.h>

#define TWIN_API __attribute__((visibility("default")))

static const double PI = 3.14159265358979323846;
/* SimpleLiquidWater. */
static const double rho = 995.586, cp = 4184.0, T_ref = 273.15, mu = 1e-3;
/* Every port's inertance, the junction's regularisation. */
static const double L_port = 0.01, eps = 0.01;
/* Volume, heater and its wall, radiator. */
static const double V_vol = 0.01, K_bulk = 2.2e9, p_ref = 1e5;
static const double V_h = 1e-3, k_h = 500.0, C_wall = 500.0, Q_heater = 2000.0;
static const double T_amb = 293.15;
/* Pump: speed and design point. */
static const double omega = 100.0, omega_D = 100.0, dp_D = 1e5, V_D = 1e-3, slip_D = 0.5,
                    eta_D = 0.75;

/* The pump's specific work added to the stream at flow m. */
static double pump_dh(double m, double k_p, double k_fric, double V_nom)
{
    double V_flow = m / rho;
    double dp = k_p * (V_nom - V_flow);
    double torque = V_flow * dp * omega / (omega * omega + 1.0) + k_fric * (V_nom - V_flow);
    return m * torque * omega / (m * m + 0.01 * 0.01);
}

/* dx = the derivatives at x (n radiator cells, n >= 1). */
TWIN_API void cooling_twin_derivatives(size_t n, const double *x, double *dx)
{
    const double V_r = V_D * 2 * PI / omega_D / (1 - slip_D);
    const double k_p = dp_D / (slip_D / (1 - slip_D) * V_D);
    const double k_fric = dp_D * (1 - slip_D) / (slip_D * omega_D) * (1 / eta_D - 1);
    const double V_nom = omega * V_r / (2 * PI);
    /* Laminar resistances A (r = 4 mm, l = 10 m) and B (l = 20 m). */
    const double r = 0.004, r4 = r * r * r * r, k_A = 8 * mu * 10.0 / (PI * rho * r4),
                 k_B = 8 * mu * 20.0 / (PI * rho * r4);
    const double L_A = 10.0 / (PI * r * r) + L_port, L_B = 20.0 / (PI * r * r) + L_port;
    /* Volume outlet, pump, heater, splitter; junction outlet, cells, volume inlet. */
    const double L_c = 4 * L_port, L_r = (double)(n + 2) * L_port, S = L_c + L_r;
    const double V_cell = 2e-3 / (double)n, k_cell = 500.0 / (double)n;
    const double p = x[0], U = x[1], m = x[2], T_w = x[3], h_h = x[4], m_A = x[5];
    const double *h = x + 6;
    const double m_B = m - m_A;
    const double m_vol = rho * V_vol * (1 + (p - p_ref) / K_bulk);
    const double h_vol = U / m_vol + p / rho;
    /* The path equations with the splitter's and the junction's total
     * pressures eliminated: (a, a_A) = (der(m), der(m_A)) from
     *   dp - k_A m_A = S a + L_A a_A
     *   dp - k_B m_B = (S + L_B) a - L_B a_A. */
    const double dp = k_p * (V_nom - m / rho);
    const double b_A = dp - k_A * m_A, b_B = dp - k_B * m_B;
    const double det = -S * L_B - L_A * (S + L_B);
    const double a = (-b_A * L_B - L_A * b_B) / det;
    const double a_A = (S * b_B - (S + L_B) * b_A) / det;
    const double h_pump = h_vol + pump_dh(m, k_p, k_fric, V_nom);
    const double T_h = T_ref + h_h / cp;
    const double Q_h = k_h * (T_w - T_h);
    /* Both branches carry the heater's enthalpy into the junction. */
    const double w_A = (fabs(m_A) + eps) / (fabs(m_A) + fabs(m_B) + 2 * eps);
    const double h_mix = w_A * h_h + (1 - w_A) * h_h;
    size_t i;
    dx[0] = K_bulk / (rho * V_vol) * (m - m);
    dx[1] = m * (m >= 0 ? h[n - 1] : h_vol) - m * h_vol;
    dx[2] = a;
    dx[3] = (Q_heater - Q_h) / C_wall;
    dx[4] = (Q_h + m * ((m >= 0 ? h_pump : h_h) - h_h)) / (rho * V_h);
    dx[5] = a_A;
    for (i = 0; i < n; i++) {
        double up = i == 0 ? h_mix : h[i - 1];
        double in = m >= 0 ? up : h[i];
        double T = T_ref + h[i] / cp;
        dx[6 + i] = (k_cell * (T_amb - T) + m * (in - h[i])) / (rho * V_cell);
    }
}
