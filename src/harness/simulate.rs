//! The simulation entry points, which pick the interface (the Co-Simulation loop is
//! in `cosim`), and the Model Exchange simulation loop (FMI 2.0 and 3.0, through
//! [`FmiInstance`]): initialisation,
//! event iteration, integration with time, state and step events, and output
//! sampling.
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

use super::binding::InputBinding;
use super::cosim::simulate_co_simulation;
use super::error::HarnessError;
use super::fmi2::EventInfo;
use super::fmu::Fmu;
use super::instance::{DynInstance, FmiInstance};
use super::integrator::{self, FmuOde, Integrator, OdeStructure};
use super::options::{Interface, SimOptions};
use super::progress::Progress;
use super::recorder::Recorder;
use super::result::{SimResult, SimStats};
use super::setup::{initialize, Settings};

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

/// [`simulate_fmu`] with a progress bar on stderr when `progress` is set.
pub fn simulate_fmu_with_progress(
    fmu: &Fmu,
    opts: &SimOptions,
    progress: bool,
) -> Result<SimResult, HarnessError> {
    run(fmu, opts, progress)
}

/// Simulates an already loaded FMU with a fresh instance.
pub fn simulate_fmu(fmu: &Fmu, opts: &SimOptions) -> Result<SimResult, HarnessError> {
    run(fmu, opts, false)
}

/// Simulates through the interface the options ask for; without a choice, through
/// Model Exchange when the FMU declares it and Co-Simulation otherwise.
fn run(fmu: &Fmu, opts: &SimOptions, show_progress: bool) -> Result<SimResult, HarnessError> {
    let model = fmu.model_description();
    let co_simulation = match opts.interface {
        Some(interface) => interface == Interface::CoSimulation,
        None => !model.model_exchange,
    };
    if co_simulation {
        return simulate_co_simulation(fmu, opts, show_progress);
    }
    model_exchange(fmu, opts, show_progress)
}

/// The Model Exchange loop: initialisation and event iteration, then steps of the
/// solver with outputs from its dense output, state events located inside a step,
/// time events as stop times, and step events after every step.
fn model_exchange(
    fmu: &Fmu,
    opts: &SimOptions,
    show_progress: bool,
) -> Result<SimResult, HarnessError> {
    // The instance first: structural parameters among the start values
    // size the model it describes.
    let (instance, model) = fmu.instance(
        Interface::ModelExchange,
        "mofmu_harness",
        false,
        &opts.start_values,
    )?;
    let model = model.as_ref();
    let inputs = InputBinding::new(model, opts.input.as_ref())?;
    let settings = Settings::resolve(model, opts)?;
    let states = model.states()?;
    let n = states.len();
    let nz = model.number_of_event_indicators;
    let mut recorder = Recorder::new(model, &states, &opts.output, settings.output_count)?;

    let instance = RefCell::new(instance);
    let info = {
        let mut instance = instance.borrow_mut();
        initialize(instance.as_mut(), model, opts, &settings, &inputs)?;
        event_iteration(instance.as_mut(), settings.start)?
    };
    let stats = SimStats::default();
    let t = settings.start;
    if info.terminate_simulation != 0 {
        let mut instance = instance.borrow_mut();
        recorder.record(instance.as_mut(), t)?;
        instance.terminate()?;
        return Ok(recorder.finish(stats));
    }
    let next_time_event = next_event(&info, &inputs, t);
    let mut y = vec![0.0; n];
    let mut nominals = vec![1.0; n];
    let mut z = vec![0.0; nz];
    let z_new = vec![0.0; nz];
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
        recorder.record(instance.as_mut(), t)?;
    }
    let set_inputs = |instance: &mut dyn FmiInstance, t: f64| inputs.apply(instance, t);
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

    let mut steps = Steps {
        instance: &instance,
        inputs: &inputs,
        settings: &settings,
        n,
        nz,
        recorder,
        stats,
        t,
        k: 1,
        terminated: false,
        stop_time: None,
        next_time_event,
        y,
        z,
        z_new,
        y_out: vec![0.0; n],
    };
    while steps.k <= settings.output_count && !steps.terminated {
        steps.step(&mut integrator)?;
        progress.advance(steps.t);
    }
    progress.finish();
    let Steps {
        mut recorder,
        mut stats,
        t,
        terminated,
        ..
    } = steps;
    let mut instance = instance.borrow_mut();
    // A simulation ended early by the FMU still reports where it stopped.
    if terminated && recorder.last_time() != Some(t) {
        recorder.record(instance.as_mut(), t)?;
    }
    instance.terminate()?;
    stats.integrator = integrator.stats();
    Ok(recorder.finish(stats))
}

/// The Model Exchange loop once the solver is set up: the instance and what sets
/// its inputs, the result so far, and where the loop is.
struct Steps<'r, 'lib> {
    instance: &'r RefCell<DynInstance<'lib>>,
    inputs: &'r InputBinding,
    settings: &'r Settings,
    /// Continuous states.
    n: usize,
    /// Event indicators.
    nz: usize,
    recorder: Recorder,
    stats: SimStats,
    /// The time reached.
    t: f64,
    /// The next output point.
    k: usize,
    terminated: bool,
    /// The stop time the solver has been given and not reached yet.
    stop_time: Option<f64>,
    next_time_event: Option<f64>,
    y: Vec<f64>,
    /// The event indicators at `t`, and at the end of the step being taken.
    z: Vec<f64>,
    z_new: Vec<f64>,
    y_out: Vec<f64>,
}

impl Steps<'_, '_> {
    /// One step of the solver, ended at the first state event inside it, with the
    /// output points it passed and the events at its end.
    fn step(&mut self, integrator: &mut Integrator<'_, '_, '_>) -> Result<(), HarnessError> {
        let (t_new, breakpoint) = self.solver_step(integrator)?;
        let (t_new, state_event) = self.first_state_event(integrator, t_new)?;
        self.record_passed_outputs(integrator, t_new)?;
        if state_event {
            integrator.move_back(t_new)?;
            self.stop_time = None;
        }
        self.end_step(integrator, t_new, state_event, breakpoint)
    }

    /// Lets the solver step freely towards the next time event, the stop time or
    /// the next kink of the inputs; returns where the step ended, and the kink when
    /// it comes before the others.
    fn solver_step(
        &mut self,
        integrator: &mut Integrator<'_, '_, '_>,
    ) -> Result<(f64, Option<f64>), HarnessError> {
        let settings = self.settings;
        // Steps end exactly on the next time event, on the end of the simulation and
        // on every kink of the input signals (each step sees one linear piece).
        let limit = self
            .next_time_event
            .map_or(settings.stop, |te| te.min(settings.stop));
        let breakpoint = self.inputs.next_breakpoint(self.t).filter(|&b| b < limit);
        let limit = breakpoint.unwrap_or(limit);
        self.inputs.begin_step(self.t);
        if self.stop_time != Some(limit) {
            integrator.set_stop_time(limit)?;
            self.stop_time = Some(limit);
        }
        let step = integrator.step()?;
        // A step that reached its stop time ends there: the solver's own sum
        // of step sizes can fall an ulp short of it (0.5599999999999998 for a
        // time event at 0.56), and a time event is at its time exactly.
        let mut reached = step.time;
        if step.at_stop_time {
            self.stop_time = None;
            reached = limit;
        }
        let t_new = reached;
        integrator.states(&mut self.y);
        Ok((t_new, breakpoint))
    }

    /// The first state event inside the step ends it there: returns where the step
    /// ends now, and whether a state event ends it.
    fn first_state_event(
        &mut self,
        integrator: &Integrator<'_, '_, '_>,
        t_new: f64,
    ) -> Result<(f64, bool), HarnessError> {
        let mut t_new = t_new;
        let mut state_event = false;
        if self.nz > 0 {
            set_point(
                self.instance.borrow_mut().as_mut(),
                self.inputs,
                t_new,
                &self.y,
            )?;
            self.instance
                .borrow_mut()
                .get_event_indicators(&mut self.z_new)?;
            if crossing(&self.z, &self.z_new) {
                let (t_event, z_event) = locate_state_event(
                    integrator,
                    self.instance,
                    self.inputs,
                    self.n,
                    (self.t, &self.z),
                    (t_new, &self.z_new),
                )?;
                t_new = t_event;
                self.z_new = z_event;
                integrator.interpolate(t_new, &mut self.y)?;
                state_event = true;
            }
        }
        Ok((t_new, state_event))
    }

    /// Output points passed inside the step, from the solver's dense output.
    fn record_passed_outputs(
        &mut self,
        integrator: &Integrator<'_, '_, '_>,
        t_new: f64,
    ) -> Result<(), HarnessError> {
        let settings = self.settings;
        let tolerance = 1e-9 * settings.interval;
        while self.k <= settings.output_count && settings.output_time(self.k) < t_new - tolerance {
            let t_out = settings.output_time(self.k);
            integrator.interpolate(t_out, &mut self.y_out)?;
            let mut instance = self.instance.borrow_mut();
            set_point(instance.as_mut(), self.inputs, t_out, &self.y_out)?;
            self.recorder.record(instance.as_mut(), t_out)?;
            self.k += 1;
        }
        Ok(())
    }

    /// Completes the step at `t_new`: the FMU's step event and termination, then
    /// the events at the end of the step (each recorded as its left and right
    /// limit) or the output point there, and a restart of the solver where its
    /// history does not carry over.
    fn end_step(
        &mut self,
        integrator: &mut Integrator<'_, '_, '_>,
        t_new: f64,
        state_event: bool,
        breakpoint: Option<f64>,
    ) -> Result<(), HarnessError> {
        let settings = self.settings;
        let tolerance = 1e-9 * settings.interval;
        let mut instance_ref = self.instance.borrow_mut();
        set_point(instance_ref.as_mut(), self.inputs, t_new, &self.y)?;
        let (step_event, terminate) = instance_ref.completed_integrator_step()?;
        let t = t_new;
        self.t = t;
        self.terminated = terminate;
        let time_event = self.next_time_event.is_some_and(|te| t >= te);
        let at_output =
            self.k <= settings.output_count && settings.output_time(self.k) - t <= tolerance;

        if state_event || time_event || step_event {
            self.stats.state_events += usize::from(state_event);
            self.stats.time_events += usize::from(time_event);
            self.stats.step_events += usize::from(step_event);
            // The left limit, then the right limit: the event instant appears twice.
            self.recorder.record(instance_ref.as_mut(), t)?;
            if at_output {
                self.k += 1;
            }
            instance_ref.enter_event_mode()?;
            // A Boolean or Integer input that changes here changes at the event.
            self.inputs.apply_discrete(instance_ref.as_mut(), t)?;
            let info = event_iteration(instance_ref.as_mut(), t)?;
            if info.terminate_simulation != 0 {
                self.terminated = true;
            } else {
                instance_ref.enter_continuous_time_mode()?;
            }
            self.next_time_event = next_event(&info, self.inputs, t);
            // New states from the event. New nominals (`nominalsOfContinuousStatesChanged`)
            // are not taken over: the solver's absolute tolerances are fixed when it is
            // set up, from the nominals after initialisation.
            if self.n > 0 {
                instance_ref.get_continuous_states(&mut self.y)?;
            }
            self.recorder.record(instance_ref.as_mut(), t)?;
            if self.nz > 0 {
                instance_ref.get_event_indicators(&mut self.z)?;
            }
            drop(instance_ref);
            if !self.terminated {
                integrator.restart(t, &self.y)?;
                self.stop_time = None;
            }
        } else {
            if at_output {
                self.recorder.record(instance_ref.as_mut(), t)?;
                self.k += 1;
            }
            std::mem::swap(&mut self.z, &mut self.z_new);
            drop(instance_ref);
            // At a kink of the inputs the right-hand side changes its slope (or
            // jumps): the multistep history from before it does not carry over.
            if breakpoint.is_some_and(|b| t >= b) && !self.terminated {
                integrator.restart(t, &self.y)?;
                self.stop_time = None;
            }
        }
        Ok(())
    }
}

fn set_point(
    instance: &mut dyn FmiInstance,
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

/// Calls fmi2NewDiscreteStates (fmi3UpdateDiscreteStates) until no new discrete
/// states are needed.
fn event_iteration(instance: &mut dyn FmiInstance, time: f64) -> Result<EventInfo, HarnessError> {
    for _ in 0..MAX_EVENT_ITERATIONS {
        let info = instance.update_discrete_states()?;
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

/// The next time event of the FMU or of its Boolean and Integer inputs.
fn next_event(info: &EventInfo, inputs: &InputBinding, t: f64) -> Option<f64> {
    match (next_event_time(info, t), inputs.next_discrete_change(t)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
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
    instance: &RefCell<DynInstance<'_>>,
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
            set_point(instance.as_mut(), inputs, candidate, &y)?;
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
