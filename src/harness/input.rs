//! Input signals for `mofmu simulate --input FILE.csv`: a table with a `time` column
//! and one column per FMU input, interpolated linearly between rows as FMPy does.
//!
//! Before the first row the first values hold, after the last row the last ones. Two
//! rows with the same time make a step: at that instant and after it the second row
//! counts (the value "just after"), before it the first. A Boolean or Integer input
//! is not interpolated: it holds the value of the last row at or before the time, and
//! changes at events (`true` and `false` are read as 1 and 0).

use std::path::Path;

use super::error::HarnessError;

/// A table of input signals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputSignals {
    /// Input names, in column order (without `time`).
    pub names: Vec<String>,
    /// Strictly non-decreasing times.
    pub times: Vec<f64>,
    /// One row of values per time, one value per name.
    pub rows: Vec<Vec<f64>>,
}

impl InputSignals {
    /// Reads a CSV file (header of names, the first named `time`).
    pub fn read(path: &Path) -> Result<InputSignals, HarnessError> {
        let bad = |reason: String| {
            HarnessError::BadOptions(format!("input file `{}`: {reason}", path.display()))
        };
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_path(path)
            .map_err(|e| bad(e.to_string()))?;
        let header = reader.headers().map_err(|e| bad(e.to_string()))?.clone();
        if header.get(0) != Some("time") {
            return Err(bad("the first column must be `time`".into()));
        }
        let names: Vec<String> = header.iter().skip(1).map(str::to_string).collect();
        if names.is_empty() {
            return Err(bad("there is no input column after `time`".into()));
        }
        let mut signals = InputSignals {
            names,
            ..InputSignals::default()
        };
        for (index, record) in reader.records().enumerate() {
            let line = index + 2;
            let record = record.map_err(|e| bad(e.to_string()))?;
            let mut values = Vec::with_capacity(record.len());
            for field in record.iter() {
                let value: f64 = match field {
                    "true" => 1.0,
                    "false" => 0.0,
                    _ => field
                        .parse()
                        .map_err(|_| bad(format!("line {line}: `{field}` is not a number")))?,
                };
                if !value.is_finite() {
                    return Err(bad(format!("line {line}: `{field}` is not finite")));
                }
                values.push(value);
            }
            let time = values[0];
            if signals.times.last().is_some_and(|&last| time < last) {
                return Err(bad(format!("line {line}: time {time} goes backwards")));
            }
            signals.times.push(time);
            signals.rows.push(values[1..].to_vec());
        }
        if signals.times.is_empty() {
            return Err(bad("there are no rows".into()));
        }
        Ok(signals)
    }

    /// The values at `t`.
    pub fn values_at(&self, t: f64) -> Vec<f64> {
        self.values_on_piece_of(t, t)
    }

    /// The values at `t` on the linear piece that holds `from` (extrapolated when `t`
    /// lies outside it): an integrator step that starts at `from` sees one smooth
    /// signal, the left limit at a step at its end included.
    pub fn values_on_piece_of(&self, from: f64, t: f64) -> Vec<f64> {
        let (a, b) = self.segment(from);
        if a == b {
            return self.rows[a].clone();
        }
        let (ta, tb) = (self.times[a], self.times[b]);
        let weight = (t - ta) / (tb - ta);
        self.rows[a]
            .iter()
            .zip(&self.rows[b])
            .map(|(&va, &vb)| va + weight * (vb - va))
            .collect()
    }

    /// The slopes of the segment that starts at or contains `t` (zero outside the
    /// table): the first derivatives a Co-Simulation FMU can extrapolate with.
    pub fn slopes_at(&self, t: f64) -> Vec<f64> {
        let (a, b) = self.segment(t);
        if a == b {
            return vec![0.0; self.names.len()];
        }
        let span = self.times[b] - self.times[a];
        self.rows[a]
            .iter()
            .zip(&self.rows[b])
            .map(|(&va, &vb)| (vb - va) / span)
            .collect()
    }

    /// The values of the last row at or before `t` (the first row before the table):
    /// what a Boolean or Integer input holds at `t`, after an event there.
    pub fn held_at(&self, t: f64) -> &[f64] {
        let after = self.times.partition_point(|&time| time <= t);
        &self.rows[after.saturating_sub(1)]
    }

    /// The first row time after `t` at which one of the columns `columns` takes
    /// another value: an event of the discrete inputs.
    pub fn next_change(&self, t: f64, columns: &[usize]) -> Option<f64> {
        let from = self.times.partition_point(|&time| time <= t).max(1);
        (from..self.times.len())
            .find(|&i| {
                columns
                    .iter()
                    .any(|&c| self.rows[i][c] != self.rows[i - 1][c])
            })
            .map(|i| self.times[i])
    }

    /// The first row time after `t`: where the inputs' slopes change.
    pub fn next_breakpoint(&self, t: f64) -> Option<f64> {
        let index = self.times.partition_point(|&time| time <= t);
        self.times.get(index).copied()
    }

    /// Rows `(a, b)` with `times[a] <= t < times[b]` (after any repeated time), or
    /// `(i, i)` when `t` lies outside the table.
    fn segment(&self, t: f64) -> (usize, usize) {
        let after = self.times.partition_point(|&time| time <= t);
        if after == 0 {
            return (0, 0);
        }
        if after == self.times.len() {
            let last = self.times.len() - 1;
            return (last, last);
        }
        (after - 1, after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> InputSignals {
        InputSignals {
            names: vec!["u".into()],
            times: vec![0.0, 1.0, 1.0, 3.0],
            rows: vec![vec![0.0], vec![2.0], vec![10.0], vec![6.0]],
        }
    }

    #[test]
    fn interpolates_linearly_and_steps_at_repeated_times() {
        let s = table();
        assert_eq!(s.values_at(-1.0), [0.0]);
        assert_eq!(s.values_at(0.5), [1.0]);
        assert_eq!(s.values_at(1.0), [10.0]);
        assert_eq!(s.values_at(2.0), [8.0]);
        assert_eq!(s.values_at(5.0), [6.0]);
        assert_eq!(s.slopes_at(0.25), [2.0]);
        assert_eq!(s.slopes_at(1.0), [-2.0]);
        assert_eq!(s.slopes_at(4.0), [0.0]);
        assert_eq!(s.next_breakpoint(0.0), Some(1.0));
        assert_eq!(s.next_breakpoint(1.0), Some(3.0));
        assert_eq!(s.next_breakpoint(3.0), None);
        assert_eq!(s.values_on_piece_of(0.5, 1.0), [2.0]);
        assert_eq!(s.values_on_piece_of(1.0, 1.0), [10.0]);
    }

    #[test]
    fn discrete_columns_hold_their_row_and_change_at_events() {
        let s = InputSignals {
            names: vec!["on".into(), "k".into()],
            times: vec![0.0, 0.5, 1.0, 1.0, 2.0],
            rows: vec![
                vec![0.0, 1.0],
                vec![0.0, 1.0],
                vec![0.0, 2.0],
                vec![1.0, 2.0],
                vec![1.0, 2.0],
            ],
        };
        assert_eq!(s.held_at(-1.0), [0.0, 1.0]);
        assert_eq!(s.held_at(0.75), [0.0, 1.0]);
        assert_eq!(s.held_at(1.0), [1.0, 2.0]);
        assert_eq!(s.held_at(3.0), [1.0, 2.0]);
        assert_eq!(s.next_change(0.0, &[0]), Some(1.0));
        assert_eq!(s.next_change(0.0, &[1]), Some(1.0));
        assert_eq!(s.next_change(1.0, &[0, 1]), None);
        assert_eq!(s.next_change(-1.0, &[0]), Some(1.0));
    }
}
