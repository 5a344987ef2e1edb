//! The result columns of a simulation, sampled from an instance at each output
//! point.

use super::error::HarnessError;
use super::instance::FmiInstance;
use super::model_description::{Causality, ModelDescription, ScalarVariable, VariableKind};
use super::result::{SimResult, SimStats};

/// The most values a result may hold (recorded variables times output
/// points; 8 bytes each in memory, about 20 in the CSV): 2^27, 1 GiB. The
/// default records every state, which for a model with a million states at
/// 500 output points would be 4 GB in memory and 7 GB of CSV.
const MAX_RECORDED_VALUES: usize = 1 << 27;
/// Samples the result columns: time, then every state and output that has a numeric
/// type, in model-description order.
pub(crate) struct Recorder {
    names: Vec<String>,
    rows: Vec<Vec<f64>>,
    /// (column, value reference) per type.
    reals: (Vec<usize>, Vec<u32>),
    integers: (Vec<usize>, Vec<u32>),
    booleans: (Vec<usize>, Vec<u32>),
}

impl Recorder {
    pub(crate) fn new(
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

    pub(crate) fn record(
        &mut self,
        instance: &mut dyn FmiInstance,
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

    pub(crate) fn last_time(&self) -> Option<f64> {
        self.rows.last().map(|row| row[0])
    }

    pub(crate) fn finish(self, stats: SimStats) -> SimResult {
        SimResult {
            names: self.names,
            rows: self.rows,
            stats,
        }
    }
}
