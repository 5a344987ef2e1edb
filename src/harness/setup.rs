//! What both simulation loops do first: the experiment settings after defaults,
//! and a fresh instance initialised with the start values and the inputs.

use super::binding::InputBinding;
use super::error::HarnessError;
use super::instance::FmiInstance;
use super::model_description::{ModelDescription, VariableKind};
use super::options::SimOptions;

/// More than this many output rows is almost certainly a wrong interval.
const MAX_OUTPUT_POINTS: f64 = 1e7;

/// Start, stop, output grid and tolerance after applying defaults.
pub(crate) struct Settings {
    pub(crate) start: f64,
    pub(crate) stop: f64,
    pub(crate) interval: f64,
    pub(crate) rtol: f64,
    /// Output points after the start; the last one is exactly `stop`.
    pub(crate) output_count: usize,
}

impl Settings {
    pub(crate) fn resolve(
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

    pub(crate) fn output_time(&self, k: usize) -> f64 {
        if k >= self.output_count {
            self.stop
        } else {
            self.start + k as f64 * self.interval
        }
    }
}

/// Initializes a fresh instance of either interface: the start values of the
/// options, the experiment, and the inputs at the start time.
pub(crate) fn initialize(
    instance: &mut dyn FmiInstance,
    model: &ModelDescription,
    opts: &SimOptions,
    settings: &Settings,
    inputs: &InputBinding,
) -> Result<(), HarnessError> {
    for (name, value) in &opts.start_values {
        apply_start_value(instance, model, name, *value)?;
    }
    instance.enter_initialization(Some(settings.rtol), settings.start, Some(settings.stop))?;
    inputs.apply(instance, settings.start)?;
    inputs.apply_discrete(instance, settings.start)?;
    instance.exit_initialization_mode()
}

/// Sets one start value by name, converting to the variable's type.
fn apply_start_value(
    instance: &mut dyn FmiInstance,
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
    // An FMI 3.0 structural parameter was set in configuration mode, when
    // the instance was made (`Fmu::instance`).
    if variable.structural {
        return Ok(());
    }
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
