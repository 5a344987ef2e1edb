//! Input signals bound to an FMU instance: the columns of an input file checked
//! against the model's inputs. Real inputs are set at every evaluation (Model
//! Exchange) or communication point (Co-Simulation); Boolean and Integer inputs,
//! which change only at events, at initialization and at the events where their
//! column changes (DESIGN §2.2c).

use super::error::HarnessError;
use super::input::InputSignals;
use super::instance::FmiInstance;
use super::model_description::{Causality, ModelDescription, VariableKind};

/// Input signals bound to the FMU's input variables (by name); empty without a file.
#[derive(Debug, Default)]
pub struct InputBinding {
    signals: Option<InputSignals>,
    /// The Real inputs: their columns and references.
    real_columns: Vec<usize>,
    references: Vec<u32>,
    /// The Boolean and Integer inputs: column, reference, and whether Boolean.
    discrete: Vec<(usize, u32, bool)>,
    /// Where the current integrator step began (see [`InputBinding::begin_step`]).
    step_start: std::cell::Cell<Option<f64>>,
}

impl InputBinding {
    /// Checks that every column names an input of the model.
    pub fn new(
        model: &ModelDescription,
        signals: Option<&InputSignals>,
    ) -> Result<InputBinding, HarnessError> {
        let Some(signals) = signals else {
            return Ok(InputBinding::default());
        };
        let mut binding = InputBinding::default();
        for (column, name) in signals.names.iter().enumerate() {
            let variable = model
                .variable(name)
                .ok_or_else(|| HarnessError::UnknownVariable(name.clone()))?;
            if variable.causality != Causality::Input {
                return Err(HarnessError::BadOptions(format!(
                    "input file: `{name}` is not an input of the model (its causality is {})",
                    format!("{:?}", variable.causality).to_lowercase()
                )));
            }
            let reference = variable.value_reference;
            match variable.kind {
                VariableKind::Real => {
                    binding.real_columns.push(column);
                    binding.references.push(reference);
                }
                VariableKind::Boolean => binding.discrete.push((column, reference, true)),
                VariableKind::Integer => binding.discrete.push((column, reference, false)),
                _ => {
                    return Err(HarnessError::BadOptions(format!(
                        "input file: `{name}` is an input of a type an input file cannot give"
                    )))
                }
            }
        }
        for &(column, _, boolean) in &binding.discrete {
            let name = &signals.names[column];
            for (row, values) in signals.rows.iter().enumerate() {
                let v = values[column];
                let fits = if boolean {
                    v == 0.0 || v == 1.0
                } else {
                    v.fract() == 0.0 && v >= i32::MIN as f64 && v <= i32::MAX as f64
                };
                if !fits {
                    return Err(HarnessError::BadOptions(format!(
                        "input file: row {}: `{v}` is not {} value for `{name}`",
                        row + 1,
                        if boolean {
                            "a Boolean (true, false, 1 or 0)"
                        } else {
                            "an Integer"
                        }
                    )));
                }
            }
        }
        binding.signals = Some(signals.clone());
        Ok(binding)
    }

    /// From now on the inputs follow the linear piece that holds `t`: an integrator
    /// step from `t` sees one smooth signal, up to the left limit of a step at its end.
    pub fn begin_step(&self, t: f64) {
        self.step_start.set(Some(t));
    }

    /// Sets the Real inputs to their values at `t`.
    pub fn apply(&self, instance: &mut dyn FmiInstance, t: f64) -> Result<(), HarnessError> {
        let Some(signals) = &self.signals else {
            return Ok(());
        };
        if self.references.is_empty() {
            return Ok(());
        }
        let row = match self.step_start.get() {
            Some(from) => signals.values_on_piece_of(from, t),
            None => signals.values_at(t),
        };
        let values: Vec<f64> = self.real_columns.iter().map(|&c| row[c]).collect();
        instance.set_real(&self.references, &values)
    }

    /// Sets the Boolean and Integer inputs to their values at `t` (after an event
    /// at `t`): in initialization, at events and between Co-Simulation steps.
    pub fn apply_discrete(
        &self,
        instance: &mut dyn FmiInstance,
        t: f64,
    ) -> Result<(), HarnessError> {
        let Some(signals) = &self.signals else {
            return Ok(());
        };
        let row = signals.held_at(t);
        let (mut booleans, mut integers) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
        for &(column, reference, boolean) in &self.discrete {
            if boolean {
                booleans.0.push(reference);
                booleans.1.push(row[column] != 0.0);
            } else {
                integers.0.push(reference);
                integers.1.push(row[column] as i32);
            }
        }
        if !booleans.0.is_empty() {
            instance.set_boolean(&booleans.0, &booleans.1)?;
        }
        if !integers.0.is_empty() {
            instance.set_integer(&integers.0, &integers.1)?;
        }
        Ok(())
    }

    /// The next time after `t` at which a Boolean or Integer input changes: an
    /// event the simulation must stop at.
    pub fn next_discrete_change(&self, t: f64) -> Option<f64> {
        let columns: Vec<usize> = self.discrete.iter().map(|d| d.0).collect();
        self.signals
            .as_ref()
            .filter(|_| !columns.is_empty())
            .and_then(|s| s.next_change(t, &columns))
    }

    /// Sets the slopes of the Real inputs from `t` on (Co-Simulation with
    /// interpolation).
    pub(crate) fn apply_slopes(
        &self,
        instance: &mut dyn FmiInstance,
        t: f64,
    ) -> Result<(), HarnessError> {
        match &self.signals {
            Some(signals) if !self.references.is_empty() => {
                let slopes = signals.slopes_at(t);
                let slopes: Vec<f64> = self.real_columns.iter().map(|&c| slopes[c]).collect();
                instance.set_real_input_derivatives(&self.references, &slopes)
            }
            _ => Ok(()),
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
