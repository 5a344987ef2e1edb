//! A test-only FMI 2.0 Model Exchange importer built on the third-party `fmi`
//! crate (rust-fmi): the crate unzips the FMU, parses `modelDescription.xml`
//! with its own schema and calls the shared library through its own bindings.
//! This program only drives the FMU: it initialises it with event iteration,
//! integrates it with a fixed-step explicit method (forward Euler or classical
//! Runge-Kutta 4), handles time events at `nextEventTime`, state events by a
//! sign change of an event indicator (located by bisection on the step size)
//! and step events from `fmi2CompletedIntegratorStep`, and writes a CSV like
//! FMPy's: a header `"time","name",...` and one row per output instant, an
//! event instant twice (before and after the event).
//!
//!
//! With `--interface cs` it drives the FMU's Co-Simulation side instead: one
//! `fmi2DoStep` per output interval, the FMU integrating on its own to the
//! relative tolerance `--tolerance` (passed to `fmi2SetupExperiment`).
//!
//! With `--fmi-version 3 --set NAME=VALUE` (repeatable) it sets a variable
//! after instantiation: a `structuralParameter` (the rod's `rod.n`) in
//! configuration mode (fmi3EnterConfigurationMode, the setter,
//! fmi3ExitConfigurationMode), any other parameter in the instantiated
//! state, before initialization. Arrays sized by a structural parameter are
//! read at the size set.
//!
//! ```text
//! fmi-importer FMU [--stop-time T] [--output-interval H] [--step H]
//!                  [--method euler|rk4] [--interface me|cs] [--tolerance RTOL]
//!                  [--fmi-version 2|3] [--set NAME=VALUE ...]
//!                  [--variables a,b,...] [-o OUT.csv]
//! ```

mod fmi3;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use fmi::fmi2::import::Fmi2Import;
use fmi::fmi2::instance::{CoSimulation, Common, InstanceME};
use fmi::fmi2::schema::{Causality, Fmi2ModelDescription, ScalarVariableElement};
use fmi::traits::{FmiImport, FmiInstance, FmiModelExchange};
use fmi::EventFlags;

const USAGE: &str = "usage: fmi-importer FMU [--stop-time T] [--output-interval H] [--step H] \
                     [--method euler|rk4] [--interface me|cs] [--fmi-version 2|3] [--tolerance RTOL] \
                     [--set NAME=VALUE ...] [--variables a,b,...] [-o OUT.csv]";

/// Event iterations at one instant before the FMU is declared not to converge.
const MAX_EVENT_ITERATIONS: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Method {
    Euler,
    Rk4,
}

#[derive(Debug)]
struct Options {
    fmu: PathBuf,
    stop_time: Option<f64>,
    output_interval: Option<f64>,
    step: Option<f64>,
    method: Method,
    co_simulation: bool,
    fmi3: bool,
    tolerance: Option<f64>,
    variables: Option<Vec<String>>,
    /// `--set NAME=VALUE` in the order given (FMI 3 only).
    sets: Vec<(String, String)>,
    output: Option<PathBuf>,
}

fn parse_positive(flag: &str, value: Option<String>) -> Result<f64, String> {
    let text = value.ok_or_else(|| format!("{flag} needs a value"))?;
    let number: f64 = text
        .parse()
        .map_err(|_| format!("{flag}: `{text}` is not a number"))?;
    if number.is_finite() && number > 0.0 {
        Ok(number)
    } else {
        Err(format!("{flag}: `{text}` must be a positive finite number"))
    }
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut fmu = None;
    let mut options = Options {
        fmu: PathBuf::new(),
        stop_time: None,
        output_interval: None,
        step: None,
        method: Method::Rk4,
        co_simulation: false,
        fmi3: false,
        tolerance: None,
        variables: None,
        sets: Vec::new(),
        output: None,
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--stop-time" => options.stop_time = Some(parse_positive(&arg, args.next())?),
            "--output-interval" => {
                options.output_interval = Some(parse_positive(&arg, args.next())?)
            }
            "--step" => options.step = Some(parse_positive(&arg, args.next())?),
            "--tolerance" => options.tolerance = Some(parse_positive(&arg, args.next())?),
            "--interface" => {
                options.co_simulation = match args.next().as_deref() {
                    Some("me") => false,
                    Some("cs") => true,
                    other => return Err(format!("--interface: `{other:?}` is not me or cs")),
                }
            }
            "--fmi-version" => {
                options.fmi3 = match args.next().as_deref() {
                    Some("2") => false,
                    Some("3") => true,
                    other => return Err(format!("--fmi-version: `{other:?}` is not 2 or 3")),
                }
            }
            "--method" => {
                options.method = match args.next().as_deref() {
                    Some("euler") => Method::Euler,
                    Some("rk4") => Method::Rk4,
                    Some(other) => return Err(format!("--method: unknown method `{other}`")),
                    None => return Err("--method needs a value".to_owned()),
                }
            }
            "--variables" => {
                let list = args.next().ok_or("--variables needs a value")?;
                let names: Vec<String> = split_names(&list)
                    .into_iter()
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned)
                    .collect();
                if names.is_empty() {
                    return Err("--variables: no variable named".to_owned());
                }
                options.variables = Some(names);
            }
            "--set" => {
                let text = args.next().ok_or("--set needs NAME=VALUE")?;
                let (name, value) = text
                    .split_once('=')
                    .filter(|(n, v)| !n.trim().is_empty() && !v.trim().is_empty())
                    .ok_or_else(|| format!("--set: `{text}` is not NAME=VALUE"))?;
                options
                    .sets
                    .push((name.trim().to_owned(), value.trim().to_owned()));
            }
            "-o" | "--output" => {
                options.output = Some(PathBuf::from(args.next().ok_or("-o needs a path")?))
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
            _ => {
                if fmu.replace(PathBuf::from(&arg)).is_some() {
                    return Err(format!("more than one FMU given (`{arg}`)"));
                }
            }
        }
    }
    options.fmu = fmu.ok_or_else(|| format!("no FMU given\n{USAGE}"))?;
    if !options.fmi3 && !options.sets.is_empty() {
        return Err("--set is implemented for --fmi-version 3 only".to_owned());
    }
    Ok(options)
}

/// The variables written to the CSV: the named ones, or every state and output.
fn select_variables(
    description: &Fmi2ModelDescription,
    requested: Option<&[String]>,
) -> Result<(Vec<String>, Vec<u32>), String> {
    let all = &description.model_variables.variables;
    let names: Vec<String> = match requested {
        Some(names) => names.to_vec(),
        None => {
            let mut names = Vec::new();
            for variable in all {
                if let ScalarVariableElement::Real(real) = &variable.elem {
                    if let Some(index) = real.derivative {
                        // `derivative` is the 1-based index of the state.
                        let state = usize::try_from(index)
                            .ok()
                            .and_then(|i| i.checked_sub(1))
                            .and_then(|i| all.get(i))
                            .ok_or_else(|| {
                                format!("{}: derivative index {index} out of range", variable.name)
                            })?;
                        names.push(state.name.clone());
                    }
                }
            }
            names.extend(
                all.iter()
                    .filter(|v| v.causality == Causality::Output)
                    .map(|v| v.name.clone()),
            );
            names
        }
    };
    let mut references = Vec::with_capacity(names.len());
    for name in &names {
        let variable = description
            .model_variable_by_name(name)
            .map_err(|e| format!("variable `{name}`: {e}"))?;
        if !matches!(variable.elem, ScalarVariableElement::Real(_)) {
            return Err(format!("variable `{name}` is not a Real"));
        }
        references.push(variable.value_reference);
    }
    Ok((names, references))
}

/// Counters printed at the end.
#[derive(Default)]
struct Statistics {
    steps: usize,
    derivative_evaluations: usize,
    time_events: usize,
    state_events: usize,
    step_events: usize,
}

/// One Model Exchange instance in continuous-time mode and the integrator's
/// view of it.
struct Simulation<I: ReadOutputs> {
    instance: I,
    time: f64,
    states: Vec<f64>,
    indicators: Vec<f64>,
    next_event_time: Option<f64>,
    terminated: bool,
    request: Request,
    rows: Vec<Vec<f64>>,
    statistics: Statistics,
}

fn fmi<T, E: std::fmt::Debug>(what: &str, result: Result<T, E>) -> Result<T, String> {
    result.map_err(|e| format!("{what} failed: {e:?}"))
}

/// Which Float64 values a row holds: the value references read in one call
/// (an FMI 3 array by its own reference, standing for all its elements),
/// the number of values they stand for, and where each column's value is
/// among them (an array element `a[k]` is the k-th value of `a`).
struct Request {
    references: Vec<u32>,
    values: usize,
    picks: Vec<usize>,
}

/// Reading a row's values: fmi2GetReal for FMI 2.0, fmi3GetFloat64 for FMI 3.0.
trait ReadOutputs: FmiModelExchange {
    fn read_values(&mut self, references: &[u32], values: &mut [f64]) -> Result<(), String>;

    fn read(&mut self, request: &Request, out: &mut [f64]) -> Result<(), String> {
        let mut values = vec![0.0; request.values];
        if !values.is_empty() {
            self.read_values(&request.references, &mut values)?;
        }
        for (o, &at) in out.iter_mut().zip(&request.picks) {
            *o = values[at];
        }
        Ok(())
    }
}

impl ReadOutputs for InstanceME {
    fn read_values(&mut self, references: &[u32], values: &mut [f64]) -> Result<(), String> {
        fmi("fmi2GetReal", self.get_real(references, values)).map(|_| ())
    }
}

impl ReadOutputs for fmi::fmi3::instance::InstanceME {
    fn read_values(&mut self, references: &[u32], values: &mut [f64]) -> Result<(), String> {
        fmi(
            "fmi3GetFloat64",
            fmi::fmi3::GetSet::get_float64(self, references, values),
        )
        .map(|_| ())
    }
}

/// `true` when an event indicator changed sign: FMPy's convention, zero
/// counts as not positive.
fn crossed(before: &[f64], after: &[f64]) -> bool {
    before
        .iter()
        .zip(after)
        .any(|(b, a)| (*b > 0.0) != (*a > 0.0))
}

impl<I: ReadOutputs> Simulation<I> {
    /// Sets time and states and evaluates the derivatives there.
    fn evaluate(&mut self, time: f64, states: &[f64], out: &mut [f64]) -> Result<(), String> {
        fmi("fmi2SetTime", self.instance.set_time(time))?;
        if !states.is_empty() {
            fmi(
                "fmi2SetContinuousStates",
                self.instance.set_continuous_states(states),
            )?;
        }
        if !out.is_empty() {
            fmi(
                "fmi2GetDerivatives",
                self.instance.get_continuous_state_derivatives(out),
            )?;
        }
        self.statistics.derivative_evaluations += 1;
        Ok(())
    }

    /// One step of `method` of size `h` from (`t0`, `x0`) whose derivative is
    /// `k1`; leaves the FMU at the step's end with its states set.
    fn step(
        &mut self,
        method: Method,
        t0: f64,
        x0: &[f64],
        k1: &[f64],
        h: f64,
        t1: f64,
    ) -> Result<Vec<f64>, String> {
        let n = x0.len();
        let x1: Vec<f64> = match method {
            Method::Euler => x0.iter().zip(k1).map(|(x, k)| x + h * k).collect(),
            Method::Rk4 => {
                let mut k2 = vec![0.0; n];
                let mut k3 = vec![0.0; n];
                let mut k4 = vec![0.0; n];
                let stage = |k: &[f64], c: f64| -> Vec<f64> {
                    x0.iter().zip(k).map(|(x, k)| x + c * k).collect()
                };
                self.evaluate(t0 + 0.5 * h, &stage(k1, 0.5 * h), &mut k2)?;
                self.evaluate(t0 + 0.5 * h, &stage(&k2, 0.5 * h), &mut k3)?;
                self.evaluate(t1, &stage(&k3, h), &mut k4)?;
                (0..n)
                    .map(|i| x0[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
                    .collect()
            }
        };
        fmi("fmi2SetTime", self.instance.set_time(t1))?;
        if n > 0 {
            fmi(
                "fmi2SetContinuousStates",
                self.instance.set_continuous_states(&x1),
            )?;
        }
        Ok(x1)
    }

    fn event_indicators(&mut self) -> Result<Vec<f64>, String> {
        let mut z = vec![0.0; self.indicators.len()];
        if !z.is_empty() {
            let computed = fmi(
                "fmi2GetEventIndicators",
                self.instance.get_event_indicators(&mut z),
            )?;
            if !computed {
                return Err(format!(
                    "fmi2GetEventIndicators returned fmi2Discard at t = {}",
                    self.time
                ));
            }
        }
        Ok(z)
    }

    fn record(&mut self) -> Result<(), String> {
        let mut values = vec![0.0; self.request.picks.len()];
        self.instance.read(&self.request, &mut values)?;
        let mut row = Vec::with_capacity(values.len() + 1);
        row.push(self.time);
        row.extend(values);
        self.rows.push(row);
        Ok(())
    }

    /// Event iteration in event mode (entered already), then back to
    /// continuous-time mode with fresh states, indicators and next event time.
    fn iterate_events(&mut self) -> Result<(), String> {
        let mut flags = EventFlags::default();
        let mut iterations = 0;
        loop {
            flags.reset();
            fmi(
                "fmi2NewDiscreteStates",
                self.instance.update_discrete_states(&mut flags),
            )?;
            if flags.terminate_simulation {
                self.terminated = true;
                return Ok(());
            }
            if !flags.discrete_states_need_update {
                break;
            }
            iterations += 1;
            if iterations >= MAX_EVENT_ITERATIONS {
                return Err(format!(
                    "event iteration at t = {} did not converge in {MAX_EVENT_ITERATIONS} rounds",
                    self.time
                ));
            }
        }
        fmi(
            "fmi2EnterContinuousTimeMode",
            FmiModelExchange::enter_continuous_time_mode(&mut self.instance),
        )?;
        self.next_event_time = flags.next_event_time;
        if !self.states.is_empty() {
            fmi(
                "fmi2GetContinuousStates",
                self.instance.get_continuous_states(&mut self.states),
            )?;
        }
        self.indicators = self.event_indicators()?;
        Ok(())
    }

    fn event(&mut self) -> Result<(), String> {
        self.record()?;
        fmi(
            "fmi2EnterEventMode",
            FmiModelExchange::enter_event_mode(&mut self.instance),
        )?;
        self.iterate_events()?;
        if !self.terminated {
            self.record()?;
        }
        Ok(())
    }

    /// Integrates from the current time to `target` (an output instant, the
    /// next time event or the stop time) in equal steps of at most `h`,
    /// stopping early at a state or step event. Returns after every step.
    fn advance(&mut self, method: Method, h_max: f64, target: f64) -> Result<(), String> {
        let t0 = self.time;
        let remaining = target - t0;
        // Equal steps of at most h_max; a quotient a rounding error above an
        // integer does not add a step.
        let steps = (remaining / h_max - 1e-9).ceil().max(1.0);
        let h = remaining / steps;
        let t1 = if steps <= 1.0 { target } else { t0 + h };
        let x0 = self.states.clone();
        let mut k1 = vec![0.0; x0.len()];
        // The FMU is at (t0, x0) already; the evaluation also makes sure of it
        // after an event iteration that re-initialised states.
        self.evaluate(t0, &x0, &mut k1)?;
        let mut x1 = self.step(method, t0, &x0, &k1, h, t1)?;
        let mut t_end = t1;
        let z1 = self.event_indicators()?;
        let mut state_event = false;
        if crossed(&self.indicators, &z1) {
            // Bisection on the step size: the smallest step whose end has
            // crossed, to a few ulps of the time.
            state_event = true;
            let (mut lo, mut hi) = (0.0_f64, h);
            let resolution = 4.0 * f64::EPSILON * t1.abs().max(1.0);
            while hi - lo > resolution {
                let mid = 0.5 * (lo + hi);
                self.step(method, t0, &x0, &k1, mid, t0 + mid)?;
                let z = self.event_indicators()?;
                if crossed(&self.indicators, &z) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            t_end = if hi == h { t1 } else { t0 + hi };
            x1 = self.step(method, t0, &x0, &k1, hi, t_end)?;
        }
        self.time = t_end;
        self.states = x1;
        self.statistics.steps += 1;
        let mut enter_event_mode = false;
        let mut terminate = false;
        fmi(
            "fmi2CompletedIntegratorStep",
            self.instance
                .completed_integrator_step(true, &mut enter_event_mode, &mut terminate),
        )?;
        if terminate {
            self.terminated = true;
            return Ok(());
        }
        let time_event = self.next_event_time.is_some_and(|te| self.time >= te);
        if time_event || state_event || enter_event_mode {
            if time_event {
                self.statistics.time_events += 1;
            }
            if state_event {
                self.statistics.state_events += 1;
            }
            if enter_event_mode {
                self.statistics.step_events += 1;
            }
            self.event()?;
        } else {
            self.indicators = z1;
        }
        Ok(())
    }
}

fn write_csv(path: Option<&PathBuf>, names: &[String], rows: &[Vec<f64>]) -> Result<(), String> {
    let mut text = String::from("\"time\"");
    for name in names {
        let _ = write!(text, ",\"{}\"", name.replace('"', "\"\""));
    }
    text.push('\n');
    for row in rows {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:e}")).collect();
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    match path {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// The Co-Simulation run: one fmi2DoStep per output interval.
fn run_co_simulation(options: &Options, import: &Fmi2Import) -> Result<(), String> {
    let description = import.model_description();
    if description.co_simulation.is_none() {
        return Err(format!(
            "{} does not provide Co-Simulation",
            options.fmu.display()
        ));
    }
    let experiment = description.default_experiment.as_ref();
    let start = experiment.and_then(|e| e.start_time).unwrap_or(0.0);
    let stop = options
        .stop_time
        .or_else(|| experiment.and_then(|e| e.stop_time))
        .unwrap_or(1.0);
    if stop <= start {
        return Err(format!("stop time {stop} is not after start time {start}"));
    }
    let interval = options.output_interval.unwrap_or((stop - start) / 500.0);
    let (names, references) = select_variables(description, options.variables.as_deref())?;
    let mut instance = import
        .instantiate_cs("fmi-importer", false, false)
        .map_err(|e| format!("fmi2Instantiate failed: {e}"))?;
    fmi(
        "fmi2SetupExperiment/fmi2EnterInitializationMode",
        FmiInstance::enter_initialization_mode(&mut instance, options.tolerance, start, Some(stop)),
    )?;
    fmi(
        "fmi2ExitInitializationMode",
        FmiInstance::exit_initialization_mode(&mut instance),
    )?;
    let mut rows = Vec::new();
    let mut time = start;
    let mut steps = 0u64;
    loop {
        let mut values = vec![0.0; references.len()];
        if !values.is_empty() {
            fmi("fmi2GetReal", instance.get_real(&references, &mut values))?;
        }
        let mut row = vec![time];
        row.extend(values);
        rows.push(row);
        if time >= stop - 1e-9 * interval {
            break;
        }
        let next = (start + (steps + 1) as f64 * interval).min(stop);
        fmi("fmi2DoStep", instance.do_step(time, next - time, true))?;
        steps += 1;
        time = next;
    }
    fmi("fmi2Terminate", FmiInstance::terminate(&mut instance))?;
    write_csv(options.output.as_ref(), &names, &rows)?;
    eprintln!(
        "fmi-importer: {} to t = {time}: {steps} communication steps (Co-Simulation)",
        options.fmu.display()
    );
    Ok(())
}

fn run(options: &Options) -> Result<(), String> {
    if options.fmi3 {
        return fmi3::run(options);
    }
    let import: Fmi2Import = fmi::import::from_path(&options.fmu)
        .map_err(|e| format!("cannot import {}: {e}", options.fmu.display()))?;
    if options.co_simulation {
        return run_co_simulation(options, &import);
    }
    let description = import.model_description();
    if description.model_exchange.is_none() {
        return Err(format!(
            "{} does not provide Model Exchange",
            options.fmu.display()
        ));
    }
    let experiment = description.default_experiment.as_ref();
    let start = experiment.and_then(|e| e.start_time).unwrap_or(0.0);
    let stop = options
        .stop_time
        .or_else(|| experiment.and_then(|e| e.stop_time))
        .unwrap_or(1.0);
    if stop <= start {
        return Err(format!("stop time {stop} is not after start time {start}"));
    }
    let interval = options.output_interval.unwrap_or((stop - start) / 500.0);
    let h_max = options.step.unwrap_or(interval).min(interval);
    let (names, references) = select_variables(description, options.variables.as_deref())?;
    let n_states = description.num_states();
    let n_indicators = description.num_event_indicators();

    let instance = import
        .instantiate_me("fmi-importer", false, false)
        .map_err(|e| format!("fmi2Instantiate failed: {e}"))?;
    let request = Request {
        values: references.len(),
        picks: (0..references.len()).collect(),
        references,
    };
    let sim = Simulation::new(instance, start, n_states, n_indicators, request);
    simulate(options, sim, &names, start, stop, interval, h_max)
}

impl<I: ReadOutputs> Simulation<I> {
    fn new(
        instance: I,
        start: f64,
        n_states: usize,
        n_indicators: usize,
        request: Request,
    ) -> Self {
        Simulation {
            instance,
            time: start,
            states: vec![0.0; n_states],
            indicators: vec![0.0; n_indicators],
            next_event_time: None,
            terminated: false,
            request,
            rows: Vec::new(),
            statistics: Statistics::default(),
        }
    }
}

/// The Model Exchange run of either standard, from instantiation to the CSV.
fn simulate<I: ReadOutputs>(
    options: &Options,
    mut sim: Simulation<I>,
    names: &[String],
    start: f64,
    stop: f64,
    interval: f64,
    h_max: f64,
) -> Result<(), String> {
    fmi(
        "EnterInitializationMode",
        FmiInstance::enter_initialization_mode(&mut sim.instance, None, start, Some(stop)),
    )?;
    fmi(
        "ExitInitializationMode",
        FmiInstance::exit_initialization_mode(&mut sim.instance),
    )?;
    // Exiting initialisation mode enters event mode: iterate to a fixed point.
    sim.iterate_events()?;
    sim.record()?;

    let mut output_index: u64 = 1;
    while !sim.terminated && sim.time < stop {
        let next_output = (start + output_index as f64 * interval).min(stop);
        let mut target = next_output;
        if let Some(te) = sim.next_event_time {
            if te > sim.time && te < target {
                target = te;
            }
        }
        let rows_before = sim.rows.len();
        sim.advance(options.method, h_max, target)?;
        let relative = 1e-9 * interval;
        if sim.time >= next_output - relative {
            // An event at the output instant recorded the instant already.
            if sim.rows.len() == rows_before {
                sim.record()?;
            }
            output_index += 1;
        }
    }
    if !sim.terminated {
        fmi("Terminate", FmiInstance::terminate(&mut sim.instance))?;
    }
    write_csv(options.output.as_ref(), names, &sim.rows)?;
    let s = &sim.statistics;
    eprintln!(
        "fmi-importer: {} to t = {}: {} steps, {} derivative evaluations, \
         {} time events, {} state events, {} step events",
        options.fmu.display(),
        sim.time,
        s.steps,
        s.derivative_evaluations,
        s.time_events,
        s.state_events,
        s.step_events
    );
    Ok(())
}

/// Prints the FMU's warnings and errors (passed on by the crate's logger
/// callback through the `log` facade) and the crate's own to stderr.
struct StderrLogger;

impl log::Log for StderrLogger {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            eprintln!("fmi-importer: {}: {}", record.level(), record.args());
        }
    }

    fn flush(&self) {}
}

static LOGGER: StderrLogger = StderrLogger;

fn main() -> ExitCode {
    if log::set_logger(&LOGGER).is_ok() {
        log::set_max_level(log::LevelFilter::Warn);
    }
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("fmi-importer: {message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fmi-importer: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A comma-separated list of variable names, split only at commas outside
/// brackets: `cap[1,2].T` is one name.
fn split_names(list: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                names.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    names.push(&list[start..]);
    names
}

#[cfg(test)]
mod tests {
    use super::parse_args;

    fn args(list: &[&str]) -> impl Iterator<Item = String> {
        list.iter()
            .map(|s| (*s).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn set_is_name_equals_value_and_fmi3_only() {
        let options = parse_args(args(&[
            "rod.fmu",
            "--fmi-version",
            "3",
            "--set",
            "rod.n=1000",
            "--set",
            " rod.T0 = 290 ",
        ]))
        .expect("valid options");
        assert_eq!(
            options.sets,
            vec![
                ("rod.n".to_owned(), "1000".to_owned()),
                ("rod.T0".to_owned(), "290".to_owned())
            ]
        );
        for bad in ["rod.n", "=5", "rod.n="] {
            let e =
                parse_args(args(&["rod.fmu", "--fmi-version", "3", "--set", bad])).expect_err(bad);
            assert!(e.contains("is not NAME=VALUE"), "{e}");
        }
        let e = parse_args(args(&["rod.fmu", "--set", "rod.n=7"])).expect_err("FMI 2");
        assert!(e.contains("--fmi-version 3 only"), "{e}");
    }
}
