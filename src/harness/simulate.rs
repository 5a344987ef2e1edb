//! The FMI 2.0 Model Exchange simulation loop: initialisation, event iteration,
//! integration with time, state and step events, and output sampling.
//!
//! The solver (`integrator`) steps freely; outputs are read from its dense output,
//! time events and the stop time are stop times it lands on exactly, and after every
//! step the event indicators are compared with the previous step's. A crossing is
//! located on the dense output by regula falsi, with FMI's rule for what crosses: an
//! indicator must leave a strict side of zero, so one that an event has just reset to
//! exactly zero does not fire again (diffsol's own root finder would report an
//! indicator resting at zero as a root on every step).

use std::cell::RefCell;
use std::path::Path;

use super::cosim::InputBinding;
use super::error::HarnessError;
use super::fmi2::{EventInfo, Instance};
use super::fmu::Fmu;
use super::integrator::{self, FmuOde, Integrator, IntegratorStats, OdeStructure};
use super::model_description::{Causality, ModelDescription, ScalarVariable, VariableKind};
use super::progress::Progress;
use super::{SimOptions, SimResult};

/// Counters describing one simulation run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimStats {
    pub integrator: IntegratorStats,
    pub time_events: usize,
    pub state_events: usize,
    pub step_events: usize,
}

/// More than this many output rows is almost certainly a wrong interval.
const MAX_OUTPUT_POINTS: f64 = 1e7;

/// The most values a result may hold (recorded variables times output
/// points; 8 bytes each in memory, about 20 in the CSV): 2^27, 1 GiB. The
/// default records every state, which for a model with a million states at
/// 500 output points would be 4 GB in memory and 7 GB of CSV.
const MAX_RECORDED_VALUES: usize = 1 << 27;
/// Event iterations (calls of fmi2NewDiscreteStates at one instant) before giving up.
const MAX_EVENT_ITERATIONS: usize = 10_000;

/// Unpacks, loads and simulates the FMU at `fmu`.
pub fn simulate(fmu: &Path, opts: &SimOptions) -> Result<SimResult, HarnessError> {
    simulate_with_progress(fmu, opts, false)
}

/// [`simulate`], drawing a progress bar on standard error when `progress` is set.
pub fn simulate_with_progress(
    fmu: &Path,
    opts: &SimOptions,
    progress: bool,
) -> Result<SimResult, HarnessError> {
    let fmu = Fmu::load(fmu)?;
    run(&fmu, opts, progress)
}

/// Simulates an already loaded FMU with a fresh instance.
pub fn simulate_fmu(fmu: &Fmu, opts: &SimOptions) -> Result<SimResult, HarnessError> {
    run(fmu, opts, false)
}

/// The Model Exchange loop: initialisation and event iteration, then steps of the
/// solver with outputs from its dense output, state events located inside a step,
/// time events as stop times, and step events after every step.
fn run(fmu: &Fmu, opts: &SimOptions, show_progress: bool) -> Result<SimResult, HarnessError> {
    let model = fmu.model_description();
    let co_simulation = match opts.interface {
        Some(interface) => interface == super::Interface::CoSimulation,
        None => !model.model_exchange,
    };
    if co_simulation {
        return super::cosim::simulate_co_simulation(fmu, opts, show_progress);
    }
    let inputs = InputBinding::new(model, opts.input.as_ref())?;
    let settings = Settings::resolve(model, opts)?;
    let states = model.states()?;
    let n = states.len();
    let nz = model.number_of_event_indicators;
    let mut recorder = Recorder::new(model, &states, &opts.output, settings.output_count)?;

    let instance = RefCell::new(fmu.instantiate("mofmu_harness", false)?);
    let info = {
        let mut instance = instance.borrow_mut();
        initialize(&mut instance, model, opts, &settings, &inputs)?;
        event_iteration(&mut instance, settings.start)?
    };
    let mut stats = SimStats::default();
    let mut t = settings.start;
    if info.terminate_simulation != 0 {
        let mut instance = instance.borrow_mut();
        recorder.record(&mut instance, t)?;
        instance.terminate()?;
        return Ok(recorder.finish(stats));
    }
    let mut next_time_event = next_event_time(&info, t);
    let mut y = vec![0.0; n];
    let mut nominals = vec![1.0; n];
    let mut z = vec![0.0; nz];
    let mut z_new = vec![0.0; nz];
    {
        let mut instance = instance.borrow_mut();
        instance.enter_continuous_time_mode()?;
        if n > 0 {
            instance.get_continuous_states(&mut y)?;
            instance.get_nominals_of_continuous_states(&mut nominals)?;
        }
        if nz > 0 {
            instance.get_event_indicators(&mut z)?;
        }
        recorder.record(&mut instance, t)?;
    }
    let set_inputs = |instance: &mut Instance<'_>, t: f64| inputs.apply(instance, t);
    let mut ode = FmuOde::new(
        &instance,
        OdeStructure::declared(model, &states),
        &y,
        &nominals,
    )?;
    if inputs.is_driven() {
        ode = ode.with_time_inputs(&set_inputs);
    }
    let problem = integrator::problem(ode, t, settings.rtol)?;
    let mut integrator = Integrator::new(&problem)?;
    let progress = Progress::new(show_progress, settings.start, settings.stop);

    let mut k = 1usize;
    let mut terminated = false;
    // The stop time the solver has been given and not reached yet.
    let mut stop_time = None;
    let mut y_out = vec![0.0; n];
    while k <= settings.output_count && !terminated {
        // Steps end exactly on the next time event, on the end of the simulation and
        // on every kink of the input signals (each step sees one linear piece).
        let limit = next_time_event.map_or(settings.stop, |te| te.min(settings.stop));
        let breakpoint = inputs.next_breakpoint(t).filter(|&b| b < limit);
        let limit = breakpoint.unwrap_or(limit);
        inputs.begin_step(t);
        if stop_time != Some(limit) {
            integrator.set_stop_time(limit)?;
            stop_time = Some(limit);
        }
        let step = integrator.step()?;
        if step.at_stop_time {
            stop_time = None;
        }
        let mut t_new = step.time;
        integrator.states(&mut y);

        // The first state event inside the step ends it there.
        let mut state_event = false;
        if nz > 0 {
            set_point(&mut instance.borrow_mut(), &inputs, t_new, &y)?;
            instance.borrow_mut().get_event_indicators(&mut z_new)?;
            if crossing(&z, &z_new) {
                let (t_event, z_event) = locate_state_event(
                    &integrator,
                    &instance,
                    &inputs,
                    n,
                    (t, &z),
                    (t_new, &z_new),
                )?;
                t_new = t_event;
                z_new = z_event;
                integrator.interpolate(t_new, &mut y)?;
                state_event = true;
            }
        }
        // Output points passed inside the step, from the solver's dense output.
        let tolerance = 1e-9 * settings.interval;
        while k <= settings.output_count && settings.output_time(k) < t_new - tolerance {
            let t_out = settings.output_time(k);
            integrator.interpolate(t_out, &mut y_out)?;
            let mut instance = instance.borrow_mut();
            set_point(&mut instance, &inputs, t_out, &y_out)?;
            recorder.record(&mut instance, t_out)?;
            k += 1;
        }
        if state_event {
            integrator.move_back(t_new)?;
            stop_time = None;
        }
        let mut instance_ref = instance.borrow_mut();
        set_point(&mut instance_ref, &inputs, t_new, &y)?;
        let (step_event, terminate) = instance_ref.completed_integrator_step()?;
        t = t_new;
        terminated = terminate;
        let time_event = next_time_event.is_some_and(|te| t >= te);
        let at_output = k <= settings.output_count && settings.output_time(k) - t <= tolerance;

        if state_event || time_event || step_event {
            stats.state_events += usize::from(state_event);
            stats.time_events += usize::from(time_event);
            stats.step_events += usize::from(step_event);
            // The left limit, then the right limit: the event instant appears twice.
            recorder.record(&mut instance_ref, t)?;
            if at_output {
                k += 1;
            }
            instance_ref.enter_event_mode()?;
            let info = event_iteration(&mut instance_ref, t)?;
            if info.terminate_simulation != 0 {
                terminated = true;
            } else {
                instance_ref.enter_continuous_time_mode()?;
            }
            next_time_event = next_event_time(&info, t);
            // New states from the event. New nominals (`nominalsOfContinuousStatesChanged`)
            // are not taken over: the solver's absolute tolerances are fixed when it is
            // set up, from the nominals after initialisation.
            if n > 0 {
                instance_ref.get_continuous_states(&mut y)?;
            }
            recorder.record(&mut instance_ref, t)?;
            if nz > 0 {
                instance_ref.get_event_indicators(&mut z)?;
            }
            drop(instance_ref);
            if !terminated {
                integrator.restart(&y)?;
                stop_time = None;
            }
        } else {
            if at_output {
                recorder.record(&mut instance_ref, t)?;
                k += 1;
            }
            std::mem::swap(&mut z, &mut z_new);
            drop(instance_ref);
            // At a kink of the inputs the right-hand side changes its slope (or
            // jumps): the multistep history from before it does not carry over.
            if breakpoint.is_some_and(|b| t >= b) && !terminated {
                integrator.restart(&y)?;
                stop_time = None;
            }
        }
        progress.advance(t);
    }
    progress.finish();
    let mut instance = instance.borrow_mut();
    // A simulation ended early by the FMU still reports where it stopped.
    if terminated && recorder.last_time() != Some(t) {
        recorder.record(&mut instance, t)?;
    }
    instance.terminate()?;
    stats.integrator = integrator.stats();
    Ok(recorder.finish(stats))
}

/// Start, stop, output grid and tolerance after applying defaults.
pub(super) struct Settings {
    pub(super) start: f64,
    pub(super) stop: f64,
    pub(super) interval: f64,
    pub(super) rtol: f64,
    /// Output points after the start; the last one is exactly `stop`.
    pub(super) output_count: usize,
}

impl Settings {
    pub(super) fn resolve(
        model: &ModelDescription,
        opts: &SimOptions,
    ) -> Result<Settings, HarnessError> {
        let experiment = &model.default_experiment;
        let start = opts.start_time.or(experiment.start_time).unwrap_or(0.0);
        let stop = opts
            .stop_time
            .or(experiment.stop_time)
            .unwrap_or(if start < 1.0 { 1.0 } else { start + 1.0 });
        if !start.is_finite() || !stop.is_finite() || stop <= start {
            return Err(HarnessError::BadOptions(format!(
                "the stop time ({stop}) must be finite and after the start time ({start})"
            )));
        }
        let interval = opts
            .output_interval
            .or(experiment.step_size)
            .unwrap_or((stop - start) / 500.0);
        if !(interval.is_finite() && interval > 0.0) {
            return Err(HarnessError::BadOptions(format!(
                "the output interval ({interval}) must be positive"
            )));
        }
        let points = ((stop - start) / interval - 1e-9).ceil().max(1.0);
        if points > MAX_OUTPUT_POINTS {
            return Err(HarnessError::BadOptions(format!(
                "an output interval of {interval} gives {points} output points from {start} to \
                 {stop}; use a larger interval"
            )));
        }
        let rtol = opts
            .relative_tolerance
            .or(experiment.tolerance)
            .unwrap_or(1e-6);
        if !(rtol.is_finite() && rtol > 0.0 && rtol < 1.0) {
            return Err(HarnessError::BadOptions(format!(
                "the relative tolerance ({rtol}) must be between 0 and 1"
            )));
        }
        Ok(Settings {
            start,
            stop,
            interval,
            rtol,
            output_count: points as usize,
        })
    }

    pub(super) fn output_time(&self, k: usize) -> f64 {
        if k >= self.output_count {
            self.stop
        } else {
            self.start + k as f64 * self.interval
        }
    }
}

fn set_point(
    instance: &mut Instance<'_>,
    inputs: &InputBinding,
    t: f64,
    y: &[f64],
) -> Result<(), HarnessError> {
    instance.set_time(t)?;
    inputs.apply(instance, t)?;
    if !y.is_empty() {
        instance.set_continuous_states(y)?;
    }
    Ok(())
}

/// Calls fmi2NewDiscreteStates until no new discrete states are needed.
fn event_iteration(instance: &mut Instance<'_>, time: f64) -> Result<EventInfo, HarnessError> {
    for _ in 0..MAX_EVENT_ITERATIONS {
        let info = instance.new_discrete_states()?;
        if info.new_discrete_states_needed == 0 || info.terminate_simulation != 0 {
            return Ok(info);
        }
    }
    Err(HarnessError::Integrator {
        time,
        reason: format!(
            "the event iteration did not settle after {MAX_EVENT_ITERATIONS} calls of \
             fmi2NewDiscreteStates"
        ),
    })
}

/// The next time event, ignoring one that is not in the future.
fn next_event_time(info: &EventInfo, t: f64) -> Option<f64> {
    (info.next_event_time_defined != 0 && info.next_event_time > t).then_some(info.next_event_time)
}

/// An indicator crosses when it moves from one strict side of zero to zero or the other
/// side. Leaving zero is not a crossing, so an indicator that an event just reset to
/// exactly zero does not fire again at once.
fn crossed(before: f64, after: f64) -> bool {
    (before > 0.0 && after <= 0.0) || (before < 0.0 && after >= 0.0)
}

fn crossing(before: &[f64], after: &[f64]) -> bool {
    before.iter().zip(after).any(|(&b, &a)| crossed(b, a))
}

/// Finds the first instant in `(t0, t1]` where an event indicator crosses zero, to
/// about 1e-12 relative in time, by the Illinois variant of regula falsi on the
/// solver's dense output (bisection when it stalls). Returns the time just after the
/// crossing and the indicators there.
fn locate_state_event(
    integrator: &Integrator<'_, '_, '_>,
    instance: &RefCell<Instance<'_>>,
    inputs: &InputBinding,
    n: usize,
    (t0, z0): (f64, &[f64]),
    (t1, z1): (f64, &[f64]),
) -> Result<(f64, Vec<f64>), HarnessError> {
    let tolerance = 1e-12 * t1.abs().max(t1 - t0);
    let (mut lo, mut z_lo) = (t0, z0.to_vec());
    let (mut hi, mut z_hi) = (t1, z1.to_vec());
    let (mut weight_lo, mut weight_hi) = (1.0, 1.0);
    // +1 when the last iteration kept `lo` (moved `hi`), -1 when it kept `hi`.
    let mut last_kept = 0i8;
    let mut widths = [t1 - t0; 2];
    let mut y = vec![0.0; n];
    let mut z = vec![0.0; z1.len()];
    for iteration in 0..200 {
        let width = hi - lo;
        if width <= tolerance {
            break;
        }
        // The earliest secant root among the crossing indicators.
        let mut candidate = f64::INFINITY;
        for i in 0..z_lo.len() {
            if crossed(z_lo[i], z_hi[i]) {
                let a = weight_lo * z_lo[i];
                let b = weight_hi * z_hi[i];
                let fraction = if a != b { a / (a - b) } else { 0.5 };
                candidate = candidate.min(lo + fraction * width);
            }
        }
        // Bisect when regula falsi has not halved the bracket in two iterations.
        if iteration >= 2 && width > 0.5 * widths[0] {
            candidate = lo + 0.5 * width;
        }
        let margin = 0.25 * tolerance;
        if !candidate.is_finite() {
            candidate = lo + 0.5 * width;
        }
        candidate = candidate.clamp(lo + margin, hi - margin);
        if candidate <= lo || candidate >= hi {
            break;
        }
        widths = [widths[1], width];
        integrator.interpolate(candidate, &mut y)?;
        {
            let mut instance = instance.borrow_mut();
            set_point(&mut instance, inputs, candidate, &y)?;
            instance.get_event_indicators(&mut z)?;
        }
        if crossing(&z_lo, &z) {
            hi = candidate;
            z_hi.copy_from_slice(&z);
            weight_hi = 1.0;
            if last_kept == 1 {
                weight_lo *= 0.5;
            }
            last_kept = 1;
        } else {
            lo = candidate;
            z_lo.copy_from_slice(&z);
            weight_lo = 1.0;
            if last_kept == -1 {
                weight_hi *= 0.5;
            }
            last_kept = -1;
        }
    }
    Ok((hi, z_hi))
}

/// Initializes a fresh instance of either interface: the start values of the
/// options, the experiment, and the inputs at the start time.
pub(super) fn initialize(
    instance: &mut Instance<'_>,
    model: &ModelDescription,
    opts: &SimOptions,
    settings: &Settings,
    inputs: &InputBinding,
) -> Result<(), HarnessError> {
    for (name, value) in &opts.start_values {
        apply_start_value(instance, model, name, *value)?;
    }
    instance.setup_experiment(Some(settings.rtol), settings.start, Some(settings.stop))?;
    instance.enter_initialization_mode()?;
    inputs.apply(instance, settings.start)?;
    instance.exit_initialization_mode()
}

/// Sets one start value by name, converting to the variable's type.
fn apply_start_value(
    instance: &mut Instance<'_>,
    model: &ModelDescription,
    name: &str,
    value: f64,
) -> Result<(), HarnessError> {
    let variable = model
        .variable(name)
        .ok_or_else(|| HarnessError::UnknownVariable(name.to_string()))?;
    let bad = |reason: String| HarnessError::BadStartValue {
        name: name.to_string(),
        reason,
    };
    let reference = [variable.value_reference];
    match variable.kind {
        VariableKind::Real => instance.set_real(&reference, &[value]),
        VariableKind::Integer | VariableKind::Enumeration => {
            if value.fract() != 0.0 || value < i32::MIN as f64 || value > i32::MAX as f64 {
                return Err(bad(format!("{value} is not a 32-bit integer")));
            }
            instance.set_integer(&reference, &[value as i32])
        }
        VariableKind::Boolean => {
            if value != 0.0 && value != 1.0 {
                return Err(bad(format!("{value} is not a Boolean (use 0 or 1)")));
            }
            instance.set_boolean(&reference, &[value == 1.0])
        }
        VariableKind::String => Err(bad("String variables cannot be set from a number".into())),
    }
}

/// Samples the result columns: time, then every state and output that has a numeric
/// type, in model-description order.
pub(super) struct Recorder {
    names: Vec<String>,
    rows: Vec<Vec<f64>>,
    /// (column, value reference) per type.
    reals: (Vec<usize>, Vec<u32>),
    integers: (Vec<usize>, Vec<u32>),
    booleans: (Vec<usize>, Vec<u32>),
}

impl Recorder {
    pub(super) fn new(
        model: &ModelDescription,
        states: &[usize],
        output: &[String],
        output_count: usize,
    ) -> Result<Recorder, HarnessError> {
        for name in output {
            if model.variable(name).is_none() {
                return Err(HarnessError::UnknownVariable(name.clone()));
            }
        }
        let mut recorder = Recorder {
            names: vec!["time".to_string()],
            rows: Vec::new(),
            reals: Default::default(),
            integers: Default::default(),
            booleans: Default::default(),
        };
        let mut is_state = vec![false; model.variables.len()];
        for &state in states {
            is_state[state] = true;
        }
        // The columns asked for come in the order asked (a name asked twice
        // once); without a list, every state and output in model-description
        // order.
        let wanted: Vec<&ScalarVariable> = if output.is_empty() {
            model
                .variables
                .iter()
                .enumerate()
                .filter(|(index, v)| is_state[*index] || v.causality == Causality::Output)
                .map(|(_, v)| v)
                .collect()
        } else {
            let mut seen = std::collections::HashSet::new();
            output
                .iter()
                .filter(|name| seen.insert(name.as_str()))
                .filter_map(|name| model.variable(name))
                .collect()
        };
        for variable in wanted {
            let column = recorder.names.len();
            let target = match variable.kind {
                VariableKind::Real => &mut recorder.reals,
                VariableKind::Integer | VariableKind::Enumeration => &mut recorder.integers,
                VariableKind::Boolean => &mut recorder.booleans,
                VariableKind::String => continue,
            };
            target.0.push(column);
            target.1.push(variable.value_reference);
            recorder.names.push(variable.name.clone());
        }
        let rows = output_count.saturating_add(1);
        let values = recorder.names.len().saturating_mul(rows);
        if values > MAX_RECORDED_VALUES {
            return Err(HarnessError::BadOptions(format!(
                "recording {} variables at {rows} output points would hold {:.1} GB in memory; \
                 name the variables to record (--output-variable, repeatable) or use a larger \
                 output interval",
                recorder.names.len() - 1,
                values as f64 * 8.0 / 1e9
            )));
        }
        Ok(recorder)
    }

    pub(super) fn record(
        &mut self,
        instance: &mut Instance<'_>,
        t: f64,
    ) -> Result<(), HarnessError> {
        let mut row = vec![0.0; self.names.len()];
        row[0] = t;
        if !self.reals.1.is_empty() {
            for (&column, value) in self.reals.0.iter().zip(instance.get_real(&self.reals.1)?) {
                row[column] = value;
            }
        }
        if !self.integers.1.is_empty() {
            let values = instance.get_integer(&self.integers.1)?;
            for (&column, value) in self.integers.0.iter().zip(values) {
                row[column] = f64::from(value);
            }
        }
        if !self.booleans.1.is_empty() {
            let values = instance.get_boolean(&self.booleans.1)?;
            for (&column, value) in self.booleans.0.iter().zip(values) {
                row[column] = if value { 1.0 } else { 0.0 };
            }
        }
        self.rows.push(row);
        Ok(())
    }

    pub(super) fn last_time(&self) -> Option<f64> {
        self.rows.last().map(|row| row[0])
    }

    pub(super) fn finish(self, stats: SimStats) -> SimResult {
        SimResult {
            names: self.names,
            rows: self.rows,
            stats,
        }
    }
}
