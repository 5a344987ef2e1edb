//! The FMI 2.0 Co-Simulation loop of `mofmu simulate --interface cs`: one `fmi2DoStep`
//! per output interval (and extra communication points where the input signals bend),
//! with the inputs set at each communication point and, when the FMU can interpolate
//! inputs, their slopes through `fmi2SetRealInputDerivatives`.

use super::error::HarnessError;
use super::fmi2::Instance;
use super::fmu::Fmu;
use super::input::InputSignals;
use super::model_description::{Causality, ModelDescription, VariableKind};
use super::progress::Progress;
use super::simulate::{initialize, Recorder, Settings, SimStats};
use super::{SimOptions, SimResult};

/// Input signals bound to the FMU's input variables (by name); empty without a file.
#[derive(Debug, Default)]
pub struct InputBinding {
    signals: Option<InputSignals>,
    references: Vec<u32>,
    /// Where the current integrator step began (see [`InputBinding::begin_step`]).
    step_start: std::cell::Cell<Option<f64>>,
}

impl InputBinding {
    /// Checks that every column names a Real input of the model.
    pub fn new(
        model: &ModelDescription,
        signals: Option<&InputSignals>,
    ) -> Result<InputBinding, HarnessError> {
        let Some(signals) = signals else {
            return Ok(InputBinding::default());
        };
        let mut references = Vec::with_capacity(signals.names.len());
        for name in &signals.names {
            let variable = model
                .variable(name)
                .ok_or_else(|| HarnessError::UnknownVariable(name.clone()))?;
            if variable.causality != Causality::Input || variable.kind != VariableKind::Real {
                return Err(HarnessError::BadOptions(format!(
                    "input file: `{name}` is not a Real input of the model"
                )));
            }
            references.push(variable.value_reference);
        }
        Ok(InputBinding {
            signals: Some(signals.clone()),
            references,
            step_start: Default::default(),
        })
    }

    /// From now on the inputs follow the linear piece that holds `t`: an integrator
    /// step from `t` sees one smooth signal, up to the left limit of a step at its end.
    pub fn begin_step(&self, t: f64) {
        self.step_start.set(Some(t));
    }

    /// Sets the inputs to their values at `t`.
    pub fn apply(&self, instance: &mut Instance<'_>, t: f64) -> Result<(), HarnessError> {
        match (&self.signals, self.step_start.get()) {
            (Some(signals), Some(from)) => {
                instance.set_real(&self.references, &signals.values_on_piece_of(from, t))
            }
            (Some(signals), None) => instance.set_real(&self.references, &signals.values_at(t)),
            (None, _) => Ok(()),
        }
    }

    /// Sets the slopes of the inputs from `t` on (Co-Simulation with interpolation).
    fn apply_slopes(&self, instance: &mut Instance<'_>, t: f64) -> Result<(), HarnessError> {
        match &self.signals {
            Some(signals) => {
                instance.set_real_input_derivatives(&self.references, &signals.slopes_at(t))
            }
            None => Ok(()),
        }
    }

    /// True when input signals drive the FMU (an input file was given).
    pub fn is_driven(&self) -> bool {
        self.signals.is_some()
    }

    /// The next time after `t` where an input's slope changes.
    pub fn next_breakpoint(&self, t: f64) -> Option<f64> {
        self.signals.as_ref().and_then(|s| s.next_breakpoint(t))
    }
}

/// Simulates the FMU through its Co-Simulation interface, drawing the same progress bar
/// as the Model Exchange loop when `show_progress` is set.
pub fn simulate_co_simulation(
    fmu: &Fmu,
    opts: &SimOptions,
    show_progress: bool,
) -> Result<SimResult, HarnessError> {
    let model = fmu.model_description();
    let Some(capabilities) = &model.co_simulation else {
        return Err(HarnessError::BadOptions(
            "the FMU does not declare <CoSimulation>".into(),
        ));
    };
    let settings = Settings::resolve(model, opts)?;
    let states = model.states()?;
    let inputs = InputBinding::new(model, opts.input.as_ref())?;
    let interpolate = capabilities.can_interpolate_inputs;
    let variable_steps = capabilities.can_handle_variable_communication_step_size;
    let mut recorder = Recorder::new(model, &states, &opts.output, settings.output_count)?;

    let mut instance = fmu.instantiate_co_simulation("mofmu_harness", false)?;
    initialize(&mut instance, model, opts, &settings, &inputs)?;
    recorder.record(&mut instance, settings.start)?;

    let progress = Progress::new(show_progress, settings.start, settings.stop);
    let mut t = settings.start;
    let mut k = 1usize;
    while k <= settings.output_count {
        let t_out = settings.output_time(k);
        // Communicate where the inputs bend too, when the FMU allows varying steps.
        let t_next = match inputs.next_breakpoint(t) {
            Some(b) if variable_steps && b < t_out && !near(b, t_out, settings.interval) => b,
            _ => t_out,
        };
        inputs.apply(&mut instance, t)?;
        if interpolate {
            inputs.apply_slopes(&mut instance, t)?;
        }
        if !instance.do_step(t, t_next - t)? {
            let reached = instance.last_successful_time().unwrap_or(f64::NAN);
            let log: Vec<String> = instance.take_log().iter().map(|m| m.to_string()).collect();
            return Err(HarnessError::Integrator {
                time: reached,
                reason: format!(
                    "fmi2DoStep returned fmi2Discard on the step to {t_next}: {}",
                    log.join("; ")
                ),
            });
        }
        t = t_next;
        progress.advance(t);
        if t_next == t_out {
            recorder.record(&mut instance, t)?;
            k += 1;
        }
    }
    progress.finish();
    instance.terminate()?;
    Ok(recorder.finish(SimStats::default()))
}

/// Whether two communication points are so close that a step between them is noise.
fn near(a: f64, b: f64, interval: f64) -> bool {
    (a - b).abs() <= 1e-9 * interval
}
