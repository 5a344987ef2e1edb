//! What a simulation gives: the sampled columns and the counters of the run.

use super::integrator::IntegratorStats;

/// A simulation result: one row per output point (event instants appear twice, before
/// and after the event), columns `time` and then every state and output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimResult {
    /// Column names, `"time"` first.
    pub names: Vec<String>,
    pub rows: Vec<Vec<f64>>,
    pub stats: SimStats,
}

impl SimResult {
    /// All values of one column, by name.
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        let index = self.names.iter().position(|n| n == name)?;
        Some(
            self.rows
                .iter()
                .map(|row| row.get(index).copied().unwrap_or(f64::NAN))
                .collect(),
        )
    }
}

/// Counters describing one simulation run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimStats {
    pub integrator: IntegratorStats,
    pub time_events: usize,
    pub state_events: usize,
    pub step_events: usize,
}
