//! Input signals bound to an FMU instance: the columns of an input file checked
//! against the model's Real inputs, set at every evaluation (Model Exchange) or
//! communication point (Co-Simulation).

use super::error::HarnessError;
use super::input::InputSignals;
use super::instance::FmiInstance;
use super::model_description::{Causality, ModelDescription, VariableKind};

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
    pub fn apply(&self, instance: &mut dyn FmiInstance, t: f64) -> Result<(), HarnessError> {
        match (&self.signals, self.step_start.get()) {
            (Some(signals), Some(from)) => {
                instance.set_real(&self.references, &signals.values_on_piece_of(from, t))
            }
            (Some(signals), None) => instance.set_real(&self.references, &signals.values_at(t)),
            (None, _) => Ok(()),
        }
    }

    /// Sets the slopes of the inputs from `t` on (Co-Simulation with interpolation).
    pub(crate) fn apply_slopes(
        &self,
        instance: &mut dyn FmiInstance,
        t: f64,
    ) -> Result<(), HarnessError> {
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
