//! The stiff ODE solver behind `mofmu simulate`: the FMU's continuous part as a
//! `diffsol` problem, integrated by diffsol's variable-order BDF method with faer's
//! sparse LU.
//!
//! The Jacobian `∂ẋ/∂x` is sparse in large models (a rod of n volumes is tridiagonal),
//! and the FMU says where: `ModelStructure/Derivatives` lists, per derivative, the
//! states it depends on. The matrix is built on that pattern, and its columns are
//! grouped by a greedy colouring into sets that share no row, so one evaluation per
//! colour fills every column of the set (compressed Jacobian evaluation): three
//! evaluations for the rod whatever its length. Each evaluation is one
//! `fmi2GetDirectionalDerivative` call with the colour's columns seeded when the FMU
//! provides directional derivatives (exact), else one forward difference of
//! `fmi2GetDerivatives`. A derivative listed without dependencies is read as "depends
//! on every state", so any FMI 2.0 FMU works, densely.
//!
//! BDF reuses the Jacobian and its factorisation over many steps (diffsol refreshes
//! them when Newton converges slowly or the step size changes much), interpolates its
//! solution anywhere inside the last step (outputs, event location) and stops exactly
//! on a stop time (time events, the end of the simulation).
//!
//! An FMU without continuous states is integrated as one constant dummy state, so that
//! time still advances through the same loop (time and state events of `time`).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use diffsol::{
    Bdf, ConstantOp, FaerContext, FaerSparseLU, FaerSparseMat, FaerVec, FaerVecIndex, Matrix,
    NonLinearOp, NonLinearOpJacobian, OdeBuilder, OdeEquations, OdeEquationsRef, OdeSolverMethod,
    OdeSolverProblem, OdeSolverStopReason, Op, ParameterisedOp, UnitCallable, Vector, VectorIndex,
};

use diffsol_la::MatrixSparsity;

use super::error::HarnessError;
use super::instance::DynInstance;
use super::instance::FmiInstance;
use super::model_description::ModelDescription;

type M = FaerSparseMat<f64>;
type V = FaerVec<f64>;

/// Counters for reports and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IntegratorStats {
    pub accepted_steps: usize,
    pub rejected_steps: usize,
    /// `fmi2GetDerivatives` calls made by the solver.
    pub rhs_evaluations: usize,
    /// Jacobians evaluated, and the directional-derivative (or difference) passes
    /// they took in all.
    pub jacobians: usize,
    pub jacobian_passes: usize,
    pub lu_factorizations: usize,
    /// Colours of the Jacobian's columns: passes per Jacobian.
    pub colours: usize,
}

/// What the solver needs to know about the FMU's states besides their values.
#[derive(Debug, Clone)]
pub struct OdeStructure {
    /// Value references of the states and of their derivatives, in state order.
    pub state_refs: Vec<u32>,
    pub derivative_refs: Vec<u32>,
    /// Per derivative, the states (0-based positions in the state vector) it depends
    /// on; `None` for "every state".
    pub pattern: Vec<Option<Vec<usize>>>,
    /// Whether `fmi2GetDirectionalDerivative` may be used.
    pub directional: bool,
}

impl OdeStructure {
    /// The structure an FMU declares: per derivative, the states among its
    /// `ModelStructure/Derivatives` dependencies (inputs are held fixed by this harness
    /// and left out), and whether it provides directional derivatives. `states` are
    /// the states' indices into the model description's variables, in state order.
    pub fn declared(model: &ModelDescription, states: &[usize]) -> OdeStructure {
        let position: HashMap<usize, usize> = states
            .iter()
            .enumerate()
            .map(|(position, &variable)| (variable, position))
            .collect();
        let pattern = model
            .derivative_dependencies
            .iter()
            .map(|dependencies| {
                dependencies.as_ref().map(|knowns| {
                    knowns
                        .iter()
                        .filter_map(|known| position.get(known).copied())
                        .collect()
                })
            })
            .collect();
        let reference = |&index: &usize| model.variables[index].value_reference;
        OdeStructure {
            state_refs: states.iter().map(reference).collect(),
            derivative_refs: model.derivatives.iter().map(reference).collect(),
            pattern,
            directional: model.provides_directional_derivative,
        }
    }
}

/// The FMU's continuous part, `ẋ = f(t, x)`, as diffsol equations. The instance is
/// shared with the simulation loop, which uses it between solver calls.
pub struct FmuOde<'i, 'lib> {
    instance: &'i RefCell<DynInstance<'lib>>,
    /// States of the FMU, and of the solver (at least one).
    n_fmu: usize,
    n: usize,
    y0: Vec<f64>,
    structure: OdeStructure,
    /// Scale of each state for difference quotients (its nominal).
    typical: Vec<f64>,
    sparsity: <M as Matrix>::Sparsity,
    colours: Vec<Colour>,
    /// The first error an FMU call returned inside the solver; the solver only sees
    /// NaN, the simulation loop reports this.
    error: RefCell<Option<HarnessError>>,
    scratch: RefCell<Scratch>,
    counters: Cell<(usize, usize, usize)>,
    ctx: FaerContext,
    /// Sets whatever else depends on time (input signals) before each evaluation.
    time_inputs: Option<TimeInputs<'i>>,
}

/// A function that sets the FMU's time-dependent inputs for time `t`.
pub type TimeInputs<'i> = &'i dyn Fn(&mut dyn FmiInstance, f64) -> Result<(), HarnessError>;

/// Columns that share no row, evaluated together.
struct Colour {
    columns: Vec<usize>,
    /// Where the entries go in the matrix's data, and which row of the compressed
    /// column each one comes from.
    destination: FaerVecIndex,
    source: FaerVecIndex,
}

struct Scratch {
    seed: Vec<f64>,
    base: Vec<f64>,
    column: V,
}

impl<'i, 'lib> FmuOde<'i, 'lib> {
    /// The equations for an FMU in continuous-time mode at `(t0, y0)`, with the
    /// states' nominal values (for difference quotients).
    pub fn new(
        instance: &'i RefCell<DynInstance<'lib>>,
        structure: OdeStructure,
        y0: &[f64],
        nominals: &[f64],
    ) -> Result<FmuOde<'i, 'lib>, HarnessError> {
        let n_fmu = y0.len();
        let n = n_fmu.max(1);
        let ctx = FaerContext::default();
        let mut pattern: Vec<Vec<usize>> = Vec::with_capacity(n);
        for row in 0..n {
            let mut columns = match structure.pattern.get(row) {
                Some(Some(columns)) if n_fmu > 0 => columns.clone(),
                _ => (0..n).collect(),
            };
            // The diagonal is always present: the Newton matrix is I - c·J.
            columns.push(row);
            columns.sort_unstable();
            columns.dedup();
            if let Some(&bad) = columns.iter().find(|&&c| c >= n) {
                return Err(HarnessError::ModelDescription(format!(
                    "a derivative depends on state {bad}, but there are {n} states"
                )));
            }
            pattern.push(columns);
        }
        let entries: Vec<(usize, usize)> = pattern
            .iter()
            .enumerate()
            .flat_map(|(row, columns)| columns.iter().map(move |&c| (row, c)))
            .collect();
        let sparsity =
            <<M as Matrix>::Sparsity as MatrixSparsity<M>>::try_from_indices(n, n, entries)
                .map_err(|e| HarnessError::Integrator {
                    time: 0.0,
                    reason: format!("cannot build the Jacobian's sparsity pattern: {e}"),
                })?;
        let colours = colour_columns(&pattern, n)
            .into_iter()
            .map(|columns| {
                let mut pairs = Vec::new();
                let mut in_colour = vec![false; n];
                for &c in &columns {
                    in_colour[c] = true;
                }
                for (row, row_columns) in pattern.iter().enumerate() {
                    for &c in row_columns {
                        if in_colour[c] {
                            pairs.push((row, c));
                        }
                    }
                }
                let rows = pairs.iter().map(|&(row, _)| row).collect();
                Colour {
                    columns,
                    destination: MatrixSparsity::<M>::get_index(&sparsity, &pairs, ctx),
                    source: FaerVecIndex::from_vec(rows, ctx),
                }
            })
            .collect();
        let typical = (0..n)
            .map(|i| {
                let nominal = nominals.get(i).copied().unwrap_or(1.0).abs();
                if nominal.is_finite() && nominal > 0.0 {
                    nominal
                } else {
                    1.0
                }
            })
            .collect();
        Ok(FmuOde {
            instance,
            n_fmu,
            n,
            y0: if n_fmu > 0 { y0.to_vec() } else { vec![0.0] },
            structure,
            typical,
            sparsity,
            colours,
            error: RefCell::new(None),
            scratch: RefCell::new(Scratch {
                seed: vec![0.0; n],
                base: vec![0.0; n],
                column: V::zeros(n, ctx),
            }),
            counters: Cell::new((0, 0, 0)),
            ctx,
            time_inputs: None,
        })
    }

    /// Has every evaluation at time `t` first set the inputs `inputs(instance, t)`,
    /// for an FMU driven by input signals. Steps must then not cross a kink of the
    /// signals: give the solver each breakpoint as a stop time.
    pub fn with_time_inputs(mut self, inputs: TimeInputs<'i>) -> FmuOde<'i, 'lib> {
        self.time_inputs = Some(inputs);
        self
    }

    /// Sets time, inputs and states for an evaluation.
    fn set_point(
        &self,
        instance: &mut dyn FmiInstance,
        t: f64,
        y: &[f64],
    ) -> Result<(), HarnessError> {
        instance.set_time(t)?;
        if let Some(inputs) = self.time_inputs {
            inputs(instance, t)?;
        }
        instance.set_continuous_states(y)
    }

    /// Takes the first error an FMU call returned inside the solver.
    pub fn take_error(&self) -> Option<HarnessError> {
        self.error.borrow_mut().take()
    }

    fn fail(&self, error: HarnessError, out: &mut [f64]) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(error);
        }
        out.fill(f64::NAN);
    }

    fn count(&self, rhs: usize, jacobians: usize, passes: usize) {
        let (a, b, c) = self.counters.get();
        self.counters.set((a + rhs, b + jacobians, c + passes));
    }

    /// `f(t, y)` into `out`; NaN (and a remembered error) when the FMU refuses.
    fn derivatives(&self, t: f64, y: &[f64], out: &mut [f64]) {
        if self.n_fmu == 0 {
            out.fill(0.0);
            return;
        }
        if self.error.borrow().is_some() {
            out.fill(f64::NAN);
            return;
        }
        self.count(1, 0, 0);
        let mut instance = self.instance.borrow_mut();
        let result = self
            .set_point(instance.as_mut(), t, y)
            .and_then(|()| instance.get_derivatives(out));
        let result = result.map_err(|e| self.with_reason(instance.as_mut(), e, t, y, out));
        drop(instance);
        if let Err(e) = result {
            self.fail(e, out);
        }
    }

    /// A Discard that logged nothing (an FMU logs a warning only in the
    /// categories switched on) asked again with logging on, so the error
    /// says why: which value is not finite and, for a mofmu FMU, the
    /// equation it starts at. Any other error as it is.
    fn with_reason(
        &self,
        instance: &mut dyn FmiInstance,
        error: HarnessError,
        t: f64,
        y: &[f64],
        out: &mut [f64],
    ) -> HarnessError {
        let HarnessError::FmiStatus {
            status: "Discard",
            log,
            ..
        } = &error
        else {
            return error;
        };
        if !log.is_empty() || instance.set_debug_logging(true).is_err() {
            return error;
        }
        let again = self
            .set_point(instance, t, y)
            .and_then(|()| instance.get_derivatives(out));
        let _ = instance.set_debug_logging(false);
        match again {
            Err(logged @ HarnessError::FmiStatus { .. }) => logged,
            _ => error,
        }
    }

    /// `J(t, y)·seed` into `out`, with `base = f(t, y)` for difference quotients.
    fn jacobian_times(&self, t: f64, y: &[f64], seed: &[f64], base: &[f64], out: &mut [f64]) {
        if self.n_fmu == 0 {
            out.fill(0.0);
            return;
        }
        if self.error.borrow().is_some() {
            out.fill(f64::NAN);
            return;
        }
        if self.structure.directional {
            let mut instance = self.instance.borrow_mut();
            let result = self.set_point(instance.as_mut(), t, y).and_then(|()| {
                instance.get_directional_derivative_into(
                    &self.structure.derivative_refs,
                    &self.structure.state_refs,
                    seed,
                    out,
                )
            });
            drop(instance);
            if let Err(e) = result {
                self.fail(e, out);
            }
            return;
        }
        // A forward difference along the seed, scaled so that the largest state
        // moves by about √ε of its size.
        let mut scale: f64 = 0.0;
        for (j, &s) in seed.iter().enumerate() {
            if s != 0.0 {
                scale = scale.max(y[j].abs().max(self.typical[j]) / s.abs());
            }
        }
        if scale == 0.0 {
            out.fill(0.0);
            return;
        }
        let delta = f64::EPSILON.sqrt() * scale;
        let perturbed: Vec<f64> = y.iter().zip(seed).map(|(y, s)| y + delta * s).collect();
        self.derivatives(t, &perturbed, out);
        for (o, b) in out.iter_mut().zip(base) {
            *o = (*o - b) / delta;
        }
    }
}

/// Greedy colouring of the columns: a column takes the smallest colour that no
/// column sharing a row with it has. Linear in the sum over rows of the squared row
/// lengths, so a sparse pattern colours in linear time.
fn colour_columns(pattern: &[Vec<usize>], n: usize) -> Vec<Vec<usize>> {
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (row, columns) in pattern.iter().enumerate() {
        for &c in columns {
            rows_of[c].push(row);
        }
    }
    let mut colour_of = vec![usize::MAX; n];
    let mut taken_by = Vec::<usize>::new();
    let mut colours: Vec<Vec<usize>> = Vec::new();
    for column in 0..n {
        // Mark the colours of every column that shares a row with this one.
        for &row in &rows_of[column] {
            for &other in &pattern[row] {
                let c = colour_of[other];
                if c != usize::MAX {
                    taken_by[c] = column;
                }
            }
        }
        let colour = (0..colours.len())
            .find(|&c| taken_by[c] != column)
            .unwrap_or(colours.len());
        if colour == colours.len() {
            colours.push(Vec::new());
            taken_by.push(usize::MAX);
        }
        colours[colour].push(column);
        colour_of[column] = colour;
    }
    colours
}

impl Op for FmuOde<'_, '_> {
    type T = f64;
    type V = V;
    type M = M;
    type C = FaerContext;
    fn context(&self) -> &FaerContext {
        &self.ctx
    }
    fn nstates(&self) -> usize {
        self.n
    }
    fn nout(&self) -> usize {
        self.n
    }
    fn nparams(&self) -> usize {
        0
    }
}

/// `f(t, y)`: the right-hand side.
pub struct FmuRhs<'a, 'i, 'lib>(&'a FmuOde<'i, 'lib>);
/// The states the integration starts from.
pub struct FmuInit<'a, 'i, 'lib>(&'a FmuOde<'i, 'lib>);

macro_rules! op_of_ode {
    ($name:ident) => {
        impl Op for $name<'_, '_, '_> {
            type T = f64;
            type V = V;
            type M = M;
            type C = FaerContext;
            fn context(&self) -> &FaerContext {
                &self.0.ctx
            }
            fn nstates(&self) -> usize {
                self.0.n
            }
            fn nout(&self) -> usize {
                self.0.n
            }
            fn nparams(&self) -> usize {
                0
            }
        }
    };
}
op_of_ode!(FmuRhs);
op_of_ode!(FmuInit);

impl NonLinearOp for FmuRhs<'_, '_, '_> {
    fn call_inplace(&self, x: &V, t: f64, y: &mut V) {
        y.for_each_batch_host([x], |y, [x], _| self.0.derivatives(t, x, y));
    }
}

impl NonLinearOpJacobian for FmuRhs<'_, '_, '_> {
    fn jac_mul_inplace(&self, x: &V, t: f64, v: &V, y: &mut V) {
        let ode = self.0;
        y.for_each_batch_host([x, v], |y, [x, v], _| {
            let mut base = vec![0.0; ode.n];
            if !ode.structure.directional {
                ode.derivatives(t, x, &mut base);
            }
            ode.jacobian_times(t, x, v, &base, y);
        });
    }

    fn jacobian_sparsity(&self) -> Option<<M as Matrix>::Sparsity> {
        Some(self.0.sparsity.clone())
    }

    /// One pass per colour: every column of the colour seeded at once, each row's
    /// entry read back into its place in the matrix.
    fn jacobian_inplace(&self, x: &V, t: f64, y: &mut M) {
        let ode = self.0;
        ode.count(0, 1, ode.colours.len());
        let states = x.clone_as_vec();
        let mut scratch = ode.scratch.borrow_mut();
        let Scratch {
            seed, base, column, ..
        } = &mut *scratch;
        let mut base = std::mem::take(base);
        if !ode.structure.directional {
            ode.derivatives(t, &states, &mut base);
        }
        let mut seed = std::mem::take(seed);
        let mut column = std::mem::replace(column, V::zeros(0, ode.ctx));
        drop(scratch);
        for colour in &ode.colours {
            for &c in &colour.columns {
                seed[c] = 1.0;
            }
            column.for_each_batch_host([], |out, [], _| {
                ode.jacobian_times(t, &states, &seed, &base, out);
            });
            y.set_data_with_indices(&colour.destination, &colour.source, &column);
            for &c in &colour.columns {
                seed[c] = 0.0;
            }
        }
        let mut scratch = ode.scratch.borrow_mut();
        scratch.seed = seed;
        scratch.base = base;
        scratch.column = column;
    }
}

impl ConstantOp for FmuInit<'_, '_, '_> {
    fn call_inplace(&self, _t: f64, y: &mut V) {
        y.for_each_batch_host([], |y, [], _| y.copy_from_slice(&self.0.y0));
    }
}

impl<'a, 'i, 'lib> OdeEquationsRef<'a> for FmuOde<'i, 'lib> {
    type Mass = ParameterisedOp<'a, UnitCallable<M>>;
    type Rhs = FmuRhs<'a, 'i, 'lib>;
    type Root = ParameterisedOp<'a, UnitCallable<M>>;
    type Init = FmuInit<'a, 'i, 'lib>;
    type Out = ParameterisedOp<'a, UnitCallable<M>>;
    type Reset = ParameterisedOp<'a, UnitCallable<M>>;
}

impl<'i, 'lib> OdeEquations for FmuOde<'i, 'lib> {
    fn rhs(&self) -> FmuRhs<'_, 'i, 'lib> {
        FmuRhs(self)
    }
    fn mass(&self) -> Option<<Self as OdeEquationsRef<'_>>::Mass> {
        None
    }
    fn init(&self) -> FmuInit<'_, 'i, 'lib> {
        FmuInit(self)
    }
    fn set_params(&mut self, _p: &V) {}
    fn get_params(&self, _p: &mut V) {}
}

/// How much tighter than the requested relative tolerance the solver runs. BDF
/// controls the local error of each step; over a long run (ten periods of an
/// oscillator, a ball's bounces, each restarting the method at order one) the global
/// error grows well past it. At a twentieth, results stay within the requested
/// tolerance of closed-form solutions (tests/it/harness.rs).
pub const TOLERANCE_FACTOR: f64 = 0.05;

/// The problem: equations, start time, and the requested relative tolerance; the
/// absolute tolerance of each state is the relative one times its nominal value.
pub fn problem<'i, 'lib>(
    ode: FmuOde<'i, 'lib>,
    t0: f64,
    rtol: f64,
) -> Result<OdeSolverProblem<FmuOde<'i, 'lib>>, HarnessError> {
    let rtol = rtol * TOLERANCE_FACTOR;
    let atol: Vec<f64> = ode.typical.iter().map(|nominal| rtol * nominal).collect();
    OdeBuilder::<M>::new()
        .t0(t0)
        .rtol(rtol)
        .atol(atol)
        .build_from_eqn(ode)
        .map_err(|e| HarnessError::Integrator {
            time: t0,
            reason: format!("cannot set up the solver: {e}"),
        })
}

/// The smallest step the solver may take between `now` and `stop`: a few
/// units in the last place of the larger time, as CVODE stops when a step
/// no longer moves the time (`t + h == t`). A bound relative to the
/// problem, not absolute: diffsol's default of 1e-13 s refused every model
/// whose time constants are 1e-12 s or less (an LC oscillator at 1e9 rad/s,
/// whose steps are 1e-11 s, stopped at its first step).
fn minimum_step(now: f64, stop: f64) -> f64 {
    (16.0 * f64::EPSILON * now.abs().max(stop.abs())).max(f64::MIN_POSITIVE)
}

/// Newton convergence failures allowed within one step before giving up (CVODE's
/// default `maxncf`).
const NEWTON_FAILURES_PER_STEP: usize = 10;

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// The time the solver reached.
    pub time: f64,
    /// Whether that is the stop time last set.
    pub at_stop_time: bool,
}

/// The BDF solver over an FMU problem, behind the few operations the Model Exchange
/// loop needs.
pub struct Integrator<'p, 'i, 'lib> {
    problem: &'p OdeSolverProblem<FmuOde<'i, 'lib>>,
    solver: Bdf<'p, FmuOde<'i, 'lib>, FaerSparseLU<f64>>,
    buffer: RefCell<V>,
}

impl<'p, 'i, 'lib> Integrator<'p, 'i, 'lib> {
    pub fn new(
        problem: &'p OdeSolverProblem<FmuOde<'i, 'lib>>,
    ) -> Result<Integrator<'p, 'i, 'lib>, HarnessError> {
        let t0 = problem.t0;
        let solver = guard(t0, || problem.bdf::<FaerSparseLU<f64>>())?;
        let solver = solver.map_err(|e| solver_error(t0, e))?;
        let n = problem.eqn.n;
        let integrator = Integrator {
            problem,
            solver,
            buffer: RefCell::new(V::zeros(n, problem.eqn.ctx)),
        };
        integrator.check_fmu(t0)?;
        Ok(integrator)
    }

    /// The time of the solver's current state.
    pub fn time(&self) -> f64 {
        self.solver.state().t
    }

    /// Makes the next steps end exactly on `t` (a time event or the end).
    pub fn set_stop_time(&mut self, t: f64) -> Result<(), HarnessError> {
        let now = self.time();
        self.solver.config_mut().minimum_timestep = minimum_step(now, t);
        self.solver
            .set_stop_time(t)
            .map_err(|e| solver_error(now, e))
    }

    /// One step of the solver.
    pub fn step(&mut self) -> Result<Step, HarnessError> {
        let now = self.time();
        // diffsol counts Newton failures over the whole run against its limit; a long
        // simulation may meet many harmless ones, so the limit is made one per step
        // (as CVODE's), by moving it along with the count.
        let failures = self
            .solver
            .get_statistics()
            .number_of_nonlinear_solver_fails;
        self.solver.config_mut().maximum_newton_fails = failures + NEWTON_FAILURES_PER_STEP;
        let solver = &mut self.solver;
        let reason = guard(now, || solver.step())?;
        // An FMU error is the cause of whatever the solver made of the NaN it got.
        self.check_fmu(now)?;
        let reason = reason.map_err(|e| solver_error(now, e))?;
        Ok(Step {
            time: self.time(),
            at_stop_time: matches!(reason, OdeSolverStopReason::TstopReached),
        })
    }

    /// The FMU's states at `t` inside the last step (the dense output of BDF).
    pub fn interpolate(&self, t: f64, out: &mut [f64]) -> Result<(), HarnessError> {
        let mut buffer = self.buffer.borrow_mut();
        self.solver
            .interpolate_inplace(t, &mut buffer)
            .map_err(|e| solver_error(t, e))?;
        copy_states(&buffer, out);
        Ok(())
    }

    /// The FMU's states at the solver's current time.
    pub fn states(&self, out: &mut [f64]) {
        copy_states(self.solver.state().y, out);
    }

    /// Moves the solver back to `t` inside the last step (a located state event).
    pub fn move_back(&mut self, t: f64) -> Result<(), HarnessError> {
        self.solver
            .state_mut_back(t)
            .map_err(|e| solver_error(t, e))
    }

    /// Continues from new states at the current time, after an event changed them
    /// or the equations: the method restarts at order one.
    pub fn restart(&mut self, t: f64, y: &[f64]) -> Result<(), HarnessError> {
        let ode = &self.problem.eqn;
        let n = ode.n;
        let mut values = vec![0.0; n];
        if ode.n_fmu > 0 {
            values.copy_from_slice(y);
        }
        let mut slope = vec![0.0; n];
        ode.derivatives(t, &values, &mut slope);
        self.check_fmu(t)?;
        let state = self.solver.state_mut();
        // The restart is at the event's time, which the solver's own time
        // may miss by an ulp when the step ended at its stop time.
        *state.t = t;
        state.y.copy_from(&V::from_vec(values, ode.ctx));
        state.dy.copy_from(&V::from_vec(slope, ode.ctx));
        Ok(())
    }

    pub fn stats(&self) -> IntegratorStats {
        let s = self.solver.get_statistics();
        let (rhs, jacobians, passes) = self.problem.eqn.counters.get();
        IntegratorStats {
            accepted_steps: s.number_of_steps,
            rejected_steps: s.number_of_error_test_failures + s.number_of_nonlinear_solver_fails,
            rhs_evaluations: rhs,
            jacobians,
            jacobian_passes: passes,
            lu_factorizations: s.number_of_linear_solver_setups,
            colours: self.problem.eqn.colours.len(),
        }
    }

    fn check_fmu(&self, time: f64) -> Result<(), HarnessError> {
        match self.problem.eqn.take_error() {
            Some(e) => Err(match e {
                HarnessError::FmiStatus { .. } => e,
                other => HarnessError::Integrator {
                    time,
                    reason: other.to_string(),
                },
            }),
            None => Ok(()),
        }
    }
}

fn copy_states(y: &V, out: &mut [f64]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = y[i];
    }
}

fn solver_error(time: f64, e: diffsol::error::DiffsolError) -> HarnessError {
    HarnessError::Integrator {
        time,
        reason: e.to_string(),
    }
}

/// Runs a solver call, turning a panic inside the linear algebra (a matrix the sparse
/// LU cannot factorise) into an error instead of a crash.
fn guard<T>(time: f64, f: impl FnOnce() -> T) -> Result<T, HarnessError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the solver stopped".into());
        HarnessError::Integrator {
            time,
            reason: message,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::colour_columns;

    #[test]
    fn tridiagonal_columns_take_three_colours() {
        let n = 10;
        let pattern: Vec<Vec<usize>> = (0..n)
            .map(|i: usize| (i.saturating_sub(1)..=(i + 1).min(n - 1)).collect())
            .collect();
        let colours = colour_columns(&pattern, n);
        assert_eq!(colours.len(), 3);
        for colour in &colours {
            for row in &pattern {
                let shared = row.iter().filter(|c| colour.contains(c)).count();
                assert!(shared <= 1, "{colour:?} shares a row {row:?}");
            }
        }
    }

    #[test]
    fn dense_columns_take_one_colour_each() {
        let n = 4;
        let pattern = vec![(0..n).collect::<Vec<_>>(); n];
        assert_eq!(colour_columns(&pattern, n).len(), n);
    }
}
