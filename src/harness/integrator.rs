//! A variable-step, linearly implicit integrator for stiff and non-stiff ODEs.
//!
//! The method is RODAS3, the four-stage Rosenbrock method of order 3 with an embedded
//! order-2 error estimate (Sandu et al., 1997, in the form used by the KPP chemistry
//! solvers): L-stable and stiffly accurate, so very stiff modes are damped rather than
//! followed. Each step needs one LU factorisation of `W = I - h·γ·J` and two new
//! right-hand-side evaluations (the first two stages share `f(t, y)`). The Jacobian `J`
//! and the time derivative `∂f/∂t` come from forward differences of the right-hand
//! side, so any FMU works without directional derivatives. The step advances with the
//! order-3 solution (local extrapolation); a rejected step keeps the Jacobian and only
//! refactors `W`.
//!
//! Cost per accepted step: `n + 4` evaluations (`n + 1` of them for the Jacobian) and an
//! `O(n³)` dense LU. That is cheap up to a few hundred states and acceptable up to a
//! few thousand; beyond that the dense Jacobian dominates and a sparse or Jacobian-free
//! method would be needed.

use super::error::HarnessError;

/// The right-hand side `dy/dt = f(t, y)`.
pub trait OdeSystem {
    /// Writes `f(t, y)` into `dy`. An `Err` for which [`is_recoverable`] holds (an FMU
    /// answering `fmi2Discard`) makes the integrator retry with a smaller step; any
    /// other error stops the integration.
    fn derivatives(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), HarnessError>;
}

/// Whether an evaluation error means "try a smaller step" rather than "give up".
pub fn is_recoverable(error: &HarnessError) -> bool {
    matches!(error, HarnessError::FmiStatus { status, .. } if *status == "Discard")
}

/// Counters for reports and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IntegratorStats {
    pub accepted_steps: usize,
    pub rejected_steps: usize,
    pub rhs_evaluations: usize,
    pub jacobians: usize,
    pub lu_factorizations: usize,
}

/// The Rosenbrock 2(3) integrator's state between steps.
pub struct Rodas3 {
    n: usize,
    rtol: f64,
    /// Absolute tolerance per state.
    atol: Vec<f64>,
    /// The step size to try next; `None` until estimated after a (re)start.
    next_h: Option<f64>,
    /// The start of the last accepted step, with the data it was computed from, so that
    /// [`Rodas3::solution_in_last_step`] can re-integrate part of it.
    last_t: f64,
    last_y: Vec<f64>,
    /// `f(last_t, last_y)`.
    last_f0: Vec<f64>,
    /// `f` at the current point, valid when `f0_valid`.
    f0: Vec<f64>,
    f0_valid: bool,
    /// The Jacobian and `∂f/∂t` at the start of the step being taken (after an accepted
    /// step: at the start of that step, until the next step recomputes them).
    jacobian: Vec<f64>,
    dfdt: Vec<f64>,
    /// Whether `jacobian` and `dfdt` belong to the current point.
    jacobian_valid: bool,
    lu: Lu,
    f3: Vec<f64>,
    f4: Vec<f64>,
    k1: Vec<f64>,
    k2: Vec<f64>,
    k3: Vec<f64>,
    k4: Vec<f64>,
    work: Vec<f64>,
    y_stage: Vec<f64>,
    stats: IntegratorStats,
}

/// The diagonal coefficient γ of RODAS3.
const GAMMA: f64 = 0.5;
/// Steps below this fraction of `|t|` make no progress in floating point.
const MIN_RELATIVE_STEP: f64 = 1e-14;

impl Rodas3 {
    /// An integrator for `n` states with relative tolerance `rtol` and per-state absolute
    /// tolerances `atol` (length `n`).
    pub fn new(rtol: f64, atol: Vec<f64>) -> Rodas3 {
        let n = atol.len();
        Rodas3 {
            n,
            rtol,
            atol,
            next_h: None,
            last_t: 0.0,
            last_y: vec![0.0; n],
            last_f0: vec![0.0; n],
            f0: vec![0.0; n],
            f0_valid: false,
            jacobian: vec![0.0; n * n],
            dfdt: vec![0.0; n],
            jacobian_valid: false,
            lu: Lu::new(n),
            f3: vec![0.0; n],
            f4: vec![0.0; n],
            k1: vec![0.0; n],
            k2: vec![0.0; n],
            k3: vec![0.0; n],
            k4: vec![0.0; n],
            work: vec![0.0; n],
            y_stage: vec![0.0; n],
            stats: IntegratorStats::default(),
        }
    }

    pub fn stats(&self) -> IntegratorStats {
        self.stats
    }

    /// Forgets the step-size history and the Jacobian: call after an event changed the
    /// states or the equations.
    pub fn restart(&mut self) {
        self.next_h = None;
        self.f0_valid = false;
        self.jacobian_valid = false;
    }

    /// Replaces the absolute tolerances (after the FMU changed its state nominals).
    pub fn set_absolute_tolerances(&mut self, atol: Vec<f64>) {
        if atol.len() == self.n {
            self.atol = atol;
        }
    }

    /// Advances `(t, y)` by one accepted step that ends at or before `t_limit`, and
    /// returns the new time. A step that would end within rounding of `t_limit` ends
    /// exactly on it.
    pub fn step(
        &mut self,
        system: &mut dyn OdeSystem,
        t: f64,
        y: &mut [f64],
        t_limit: f64,
    ) -> Result<f64, HarnessError> {
        if t_limit <= t {
            return Ok(t);
        }
        self.last_t = t;
        self.last_y.copy_from_slice(y);
        if self.n == 0 {
            // Nothing to integrate: time alone moves.
            self.stats.accepted_steps += 1;
            return Ok(t_limit);
        }
        if !self.f0_valid {
            self.evaluate(system, t, y, Slot::F0)?;
            self.f0_valid = true;
        }
        if !self.jacobian_valid {
            self.update_jacobian(system, t, y)?;
        }
        self.last_f0.copy_from_slice(&self.f0);
        let mut h_wanted = match self.next_h {
            Some(h) => h,
            None => self.initial_step(t_limit - t),
        };
        loop {
            let min_step = MIN_RELATIVE_STEP * t.abs().max(t_limit.abs()).max(1e-300);
            if h_wanted.is_nan() || h_wanted < min_step {
                return Err(HarnessError::Integrator {
                    time: t,
                    reason: format!(
                        "the step size fell to {h_wanted:e} without meeting the tolerance \
                         (stiffness beyond reach, a discontinuity without event indicator, \
                         or derivatives that are not finite)"
                    ),
                });
            }
            // Land exactly on the limit when the step would end close to it (stretching
            // the step by at most 5 %), so that output points and time events are hit
            // without a sliver step after them.
            let clamped = t + 1.05 * h_wanted >= t_limit;
            let h = if clamped { t_limit - t } else { h_wanted };
            match self.attempt(system, t, y, h) {
                Ok(Some(error_norm)) if error_norm <= 1.0 => {
                    let t_new = if clamped { t_limit } else { t + h };
                    for (i, value) in y.iter_mut().enumerate() {
                        *value += self.increment(i);
                    }
                    self.f0_valid = false;
                    self.jacobian_valid = false;
                    self.stats.accepted_steps += 1;
                    let grown = h * step_factor(error_norm).min(5.0);
                    // A step shortened to reach `t_limit` says little about the natural
                    // step size; do not let it shrink the next one.
                    self.next_h = Some(if clamped { grown.max(h_wanted) } else { grown });
                    return Ok(t_new);
                }
                Ok(Some(error_norm)) => {
                    self.stats.rejected_steps += 1;
                    h_wanted = h * step_factor(error_norm).max(0.2);
                }
                Ok(None) => {
                    // Singular W, non-finite values or a discarded evaluation.
                    self.stats.rejected_steps += 1;
                    h_wanted = h * 0.25;
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// The solution at `t` inside the last accepted step, by re-integrating from the
    /// step's start with one step of the same method (as accurate as the step itself).
    pub fn solution_in_last_step(
        &mut self,
        system: &mut dyn OdeSystem,
        t: f64,
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        out.copy_from_slice(&self.last_y);
        if self.n == 0 || t <= self.last_t {
            return Ok(());
        }
        let h = t - self.last_t;
        // The Jacobian and ∂f/∂t still belong to the step's start; f0 may have moved
        // on, so swap the start's value in for the trial.
        std::mem::swap(&mut self.f0, &mut self.last_f0);
        let start_y = std::mem::take(&mut self.last_y);
        let result = self.attempt(system, self.last_t, &start_y, h);
        std::mem::swap(&mut self.f0, &mut self.last_f0);
        self.last_y = start_y;
        match result? {
            Some(_) => {
                for (i, value) in out.iter_mut().enumerate() {
                    *value = self.last_y[i] + self.increment(i);
                }
                Ok(())
            }
            None => Err(HarnessError::Integrator {
                time: t,
                reason: "cannot re-integrate the last step to locate a state event".into(),
            }),
        }
    }

    /// A first step size from the sizes of `y` and `f` (Hairer–Wanner's heuristic,
    /// simplified), never beyond `span`.
    fn initial_step(&self, span: f64) -> f64 {
        let y = &self.last_y;
        let scale = |i: usize| self.atol[i] + self.rtol * y[i].abs();
        let d0 = rms((0..self.n).map(|i| y[i] / scale(i)));
        let d1 = rms((0..self.n).map(|i| self.f0[i] / scale(i)));
        let h = if d0 < 1e-5 || d1 < 1e-5 {
            1e-6 * span.max(1e-6)
        } else {
            0.01 * d0 / d1
        };
        h.min(span)
    }

    /// Computes `f0`, the finite-difference Jacobian and `∂f/∂t` at `(t, y)`; `f0` must
    /// already hold `f(t, y)`.
    fn update_jacobian(
        &mut self,
        system: &mut dyn OdeSystem,
        t: f64,
        y: &[f64],
    ) -> Result<(), HarnessError> {
        let n = self.n;
        let sqrt_eps = f64::EPSILON.sqrt();
        let mut perturbed = y.to_vec();
        for j in 0..n {
            let typical = (self.atol[j] / self.rtol).max(1e-300);
            let saved = perturbed[j];
            let mut delta = sqrt_eps * saved.abs().max(typical);
            if saved < 0.0 {
                delta = -delta;
            }
            perturbed[j] = saved + delta;
            // Use the increment that floating point actually applied.
            delta = perturbed[j] - saved;
            self.evaluate(system, t, &perturbed, Slot::Work)?;
            for i in 0..n {
                self.jacobian[i * n + j] = (self.work[i] - self.f0[i]) / delta;
            }
            perturbed[j] = saved;
        }
        let dt = sqrt_eps * t.abs().max(1.0);
        self.evaluate(system, t + dt, y, Slot::Work)?;
        for i in 0..n {
            self.dfdt[i] = (self.work[i] - self.f0[i]) / dt;
        }
        self.stats.jacobians += 1;
        self.jacobian_valid = true;
        Ok(())
    }

    /// One trial step of size `h` from `(t, y)`: fills the stages `k1..k4` and
    /// returns the weighted RMS error estimate, or `None` when the step cannot be taken
    /// at this size. `f0`, the Jacobian and `∂f/∂t` must belong to `(t, y)`.
    ///
    /// With `W = I - hγJ`, stage `i` solves `W k_i = hγ (f(t + α_i h, Y_i)
    /// + Σ c_ij k_j / h + γ_i h ∂f/∂t)`, where `Y_1 = Y_2 = y`, `Y_3 = y + 2 k1`,
    /// `Y_4 = y + 2 k1 + k3`; then `y_new = y + 2 k1 + k3 + k4` and the error is `k4`.
    fn attempt(
        &mut self,
        system: &mut dyn OdeSystem,
        t: f64,
        y: &[f64],
        h: f64,
    ) -> Result<Option<f64>, HarnessError> {
        let n = self.n;
        let hg = h * GAMMA;
        for i in 0..n {
            for j in 0..n {
                let identity = if i == j { 1.0 } else { 0.0 };
                self.lu.matrix[i * n + j] = identity - hg * self.jacobian[i * n + j];
            }
        }
        self.stats.lu_factorizations += 1;
        if !self.lu.factor() {
            return Ok(None);
        }
        // Stage 1: rhs = f0 + γ1 h ∂f/∂t, γ1 = 1/2.
        for i in 0..n {
            self.k1[i] = hg * (self.f0[i] + 0.5 * h * self.dfdt[i]);
        }
        self.lu.solve(&mut self.k1);
        // Stage 2: rhs = f0 + 4 k1 / h + γ2 h ∂f/∂t, γ2 = 3/2.
        for i in 0..n {
            self.k2[i] = hg * (self.f0[i] + 4.0 * self.k1[i] / h + 1.5 * h * self.dfdt[i]);
        }
        self.lu.solve(&mut self.k2);
        // Stage 3: rhs = f(t + h, y + 2 k1) + (k1 - k2) / h.
        let mut y_stage = std::mem::take(&mut self.y_stage);
        for i in 0..n {
            y_stage[i] = y[i] + 2.0 * self.k1[i];
        }
        let evaluated = self.try_evaluate(system, t + h, &y_stage, Slot::F3);
        if !evaluated? {
            self.y_stage = y_stage;
            return Ok(None);
        }
        for i in 0..n {
            self.k3[i] = hg * (self.f3[i] + (self.k1[i] - self.k2[i]) / h);
        }
        self.lu.solve(&mut self.k3);
        // Stage 4: rhs = f(t + h, y + 2 k1 + k3) + (k1 - k2 - 8/3 k3) / h.
        for i in 0..n {
            y_stage[i] = y[i] + 2.0 * self.k1[i] + self.k3[i];
        }
        let evaluated = self.try_evaluate(system, t + h, &y_stage, Slot::F4);
        self.y_stage = y_stage;
        if !evaluated? {
            return Ok(None);
        }
        for i in 0..n {
            self.k4[i] = hg * (self.f4[i] + (self.k1[i] - self.k2[i] - 8.0 / 3.0 * self.k3[i]) / h);
        }
        self.lu.solve(&mut self.k4);
        let error_norm = rms((0..n).map(|i| {
            let y_new = y[i] + self.increment(i);
            let scale = self.atol[i] + self.rtol * y[i].abs().max(y_new.abs());
            self.k4[i] / scale
        }));
        if !error_norm.is_finite() {
            return Ok(None);
        }
        Ok(Some(error_norm))
    }

    /// `y_new[i] - y[i]` of the last attempted step.
    fn increment(&self, i: usize) -> f64 {
        2.0 * self.k1[i] + self.k3[i] + self.k4[i]
    }

    fn slot(&mut self, slot: Slot) -> &mut Vec<f64> {
        match slot {
            Slot::F0 => &mut self.f0,
            Slot::F3 => &mut self.f3,
            Slot::F4 => &mut self.f4,
            Slot::Work => &mut self.work,
        }
    }

    /// Evaluates `f` into a slot; a recoverable failure or a non-finite value is an
    /// error here because there is no smaller step to fall back on.
    fn evaluate(
        &mut self,
        system: &mut dyn OdeSystem,
        t: f64,
        y: &[f64],
        slot: Slot,
    ) -> Result<(), HarnessError> {
        if self.try_evaluate(system, t, y, slot)? {
            Ok(())
        } else {
            Err(HarnessError::Integrator {
                time: t,
                reason: "the derivatives are not finite (or the FMU discarded them) at an \
                         accepted point"
                    .into(),
            })
        }
    }

    /// Evaluates `f` into a slot; `Ok(false)` for a discarded evaluation or a
    /// non-finite result.
    fn try_evaluate(
        &mut self,
        system: &mut dyn OdeSystem,
        t: f64,
        y: &[f64],
        slot: Slot,
    ) -> Result<bool, HarnessError> {
        self.stats.rhs_evaluations += 1;
        let mut out = std::mem::take(self.slot(slot));
        let result = system.derivatives(t, y, &mut out);
        let finite = out.iter().all(|v| v.is_finite());
        *self.slot(slot) = out;
        match result {
            Ok(()) => Ok(finite),
            Err(error) if is_recoverable(&error) => Ok(false),
            Err(error) => Err(error),
        }
    }
}

#[derive(Clone, Copy)]
enum Slot {
    F0,
    F3,
    F4,
    Work,
}

/// The step-size factor for an error estimate of local order 3, with safety 0.9.
fn step_factor(error_norm: f64) -> f64 {
    if error_norm <= 0.0 {
        5.0
    } else {
        0.9 * error_norm.powf(-1.0 / 3.0)
    }
}

fn rms(values: impl Iterator<Item = f64>) -> f64 {
    let mut sum = 0.0;
    let mut count = 0usize;
    for v in values {
        sum += v * v;
        count += 1;
    }
    if count == 0 {
        0.0
    } else {
        (sum / count as f64).sqrt()
    }
}

/// Dense LU factorisation with partial pivoting, in place, row-major.
struct Lu {
    n: usize,
    matrix: Vec<f64>,
    pivots: Vec<usize>,
}

impl Lu {
    fn new(n: usize) -> Lu {
        Lu {
            n,
            matrix: vec![0.0; n * n],
            pivots: vec![0; n],
        }
    }

    /// Factors `matrix`; `false` when it is singular or not finite.
    fn factor(&mut self) -> bool {
        let n = self.n;
        let a = &mut self.matrix;
        for k in 0..n {
            let mut pivot_row = k;
            let mut pivot_size = a[k * n + k].abs();
            for i in k + 1..n {
                let size = a[i * n + k].abs();
                if size > pivot_size {
                    pivot_row = i;
                    pivot_size = size;
                }
            }
            if pivot_size.is_nan() || pivot_size == 0.0 || pivot_size.is_infinite() {
                return false;
            }
            self.pivots[k] = pivot_row;
            if pivot_row != k {
                for j in 0..n {
                    a.swap(k * n + j, pivot_row * n + j);
                }
            }
            let pivot = a[k * n + k];
            for i in k + 1..n {
                let factor = a[i * n + k] / pivot;
                a[i * n + k] = factor;
                if factor != 0.0 {
                    for j in k + 1..n {
                        a[i * n + j] -= factor * a[k * n + j];
                    }
                }
            }
        }
        true
    }

    /// Solves `A x = b` in place using the last factorisation.
    fn solve(&self, b: &mut [f64]) {
        let n = self.n;
        let a = &self.matrix;
        for k in 0..n {
            b.swap(k, self.pivots[k]);
        }
        for i in 0..n {
            let mut sum = b[i];
            for j in 0..i {
                sum -= a[i * n + j] * b[j];
            }
            b[i] = sum;
        }
        for i in (0..n).rev() {
            let mut sum = b[i];
            for j in i + 1..n {
                sum -= a[i * n + j] * b[j];
            }
            b[i] = sum / a[i * n + i];
        }
    }
}
