//! The tube of csv-compare (the Modelica Association's regression-test
//! tool) around one reference signal, and the check of a result against it.
//!
//! **Size.** The tube's half-width in time is `X = tolerance * (t_max -
//! t_min + |t_min|)` and its half-height is `Y = X * max(0.0004, (y_max -
//! y_min + |y_min|) / (t_max - t_min))`, both taken over the reference.
//! These are csv-compare's sizing rules: the tolerance is relative to the
//! time span, and the height follows from the width by the "slope" of the
//! signal, so a steep signal gets a tall tube and a flat one at least
//! `0.0004 * X`.
//!
//! **Envelope.** Around every point of the reference (the piecewise linear
//! curve through its samples, jumps included) stands a rectangle `2X` wide
//! and `2Y` tall; the tube is their union. Its upper bound at time `t` is
//! therefore `Y` plus the largest value the reference takes on `[t - X, t +
//! X]`, and its lower bound `Y` below the smallest: csv-compare's rectangle
//! algorithm constructs the same boundary from rectangle corners. An event
//! (two samples at one time) is a vertical segment of the reference, so
//! both the value before and the value after it lie inside the tube at that
//! time.
//!
//! The window extrema are answered by sparse tables over the samples
//! (`O(n log n)` once, `O(1)` per query), so a check costs `O(n log n + m)`
//! for `n` reference and `m` result samples at any tolerance.

/// Half-width (time) and half-height (value) of the rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TubeSize {
    pub half_width: f64,
    pub half_height: f64,
}

impl TubeSize {
    /// csv-compare's sizing from the reference samples; `None` when the
    /// reference spans no time or holds a non-finite number.
    pub fn for_reference(time: &[f64], values: &[f64], tolerance: f64) -> Option<TubeSize> {
        let (t_min, t_max) = min_max(time)?;
        let (y_min, y_max) = min_max(values)?;
        let span = t_max - t_min;
        if !span.is_finite() || span <= 0.0 {
            return None;
        }
        let half_width = tolerance * (span + t_min.abs());
        let slope = ((y_max - y_min + y_min.abs()) / span).max(0.0004);
        let size = TubeSize {
            half_width,
            half_height: slope * half_width,
        };
        (size.half_width.is_finite() && size.half_height.is_finite()).then_some(size)
    }
}

/// The tube around one reference signal.
#[derive(Debug, Clone)]
pub struct Tube<'a> {
    time: &'a [f64],
    values: &'a [f64],
    pub size: TubeSize,
    max_table: SparseTable,
    min_table: SparseTable,
}

impl<'a> Tube<'a> {
    /// `time` must be non-decreasing and as long as `values`, every number
    /// finite, and the time span positive; otherwise `None`.
    pub fn new(time: &'a [f64], values: &'a [f64], tolerance: f64) -> Option<Tube<'a>> {
        if time.len() != values.len()
            || time
                .windows(2)
                .any(|w| w[0].is_nan() || w[1].is_nan() || w[0] > w[1])
        {
            return None;
        }
        let size = TubeSize::for_reference(time, values, tolerance)?;
        Some(Tube {
            time,
            values,
            size,
            max_table: SparseTable::new(values, f64::max),
            min_table: SparseTable::new(values, f64::min),
        })
    }

    /// Lower and upper bound of the tube at `t`, or `None` where the tube
    /// does not reach (more than `X` before the first or after the last
    /// reference time).
    pub fn bounds(&self, t: f64) -> Option<(f64, f64)> {
        let first = self.time[0];
        let last = *self.time.last()?;
        let from = (t - self.size.half_width).max(first);
        let to = (t + self.size.half_width).min(last);
        if from.is_nan() || to.is_nan() || from > to {
            return None;
        }
        // The window's ends, interpolated, and every sample inside it.
        let a = self.value_at(from);
        let b = self.value_at(to);
        let mut low = a.min(b);
        let mut high = a.max(b);
        let inside_from = self.time.partition_point(|&x| x < from);
        let inside_to = self.time.partition_point(|&x| x <= to);
        if inside_from < inside_to {
            low = low.min(self.min_table.query(inside_from, inside_to - 1, f64::min));
            high = high.max(self.max_table.query(inside_from, inside_to - 1, f64::max));
        }
        Some((low - self.size.half_height, high + self.size.half_height))
    }

    /// The reference at `t` by linear interpolation (at an event time, the
    /// value after the event); `t` must lie within the reference's span.
    pub fn value_at(&self, t: f64) -> f64 {
        interpolate(self.time, self.values, t)
    }

    /// Samples of the lower and upper boundary for plotting: at every
    /// breakpoint a window end makes when it passes a reference time.
    pub fn outline(&self) -> Vec<(f64, f64, f64)> {
        let x = self.size.half_width;
        let mut times: Vec<f64> = Vec::with_capacity(2 * self.time.len() + 2);
        for &t in self.time {
            times.push(t - x);
            times.push(t + x);
        }
        times.sort_by(f64::total_cmp);
        times.dedup();
        times
            .into_iter()
            .filter_map(|t| self.bounds(t).map(|(lo, hi)| (t, lo, hi)))
            .collect()
    }
}

/// Linear interpolation in non-decreasing `time`; clamped at the ends, and
/// at a repeated time the last sample there.
pub fn interpolate(time: &[f64], values: &[f64], t: f64) -> f64 {
    let n = time.len().min(values.len());
    if n == 0 {
        return f64::NAN;
    }
    let after = time[..n].partition_point(|&x| x <= t);
    if after == 0 {
        return values[0];
    }
    if after == n {
        return values[n - 1];
    }
    let (t0, t1) = (time[after - 1], time[after]);
    let (y0, y1) = (values[after - 1], values[after]);
    if t1 > t0 {
        y0 + (y1 - y0) * (t - t0) / (t1 - t0)
    } else {
        y0
    }
}

fn min_max(values: &[f64]) -> Option<(f64, f64)> {
    let mut it = values.iter().copied();
    let first = it.next()?;
    if !first.is_finite() {
        return None;
    }
    let mut range = (first, first);
    for v in it {
        if !v.is_finite() {
            return None;
        }
        range = (range.0.min(v), range.1.max(v));
    }
    Some(range)
}

/// Range minimum or maximum queries over a fixed slice.
#[derive(Debug, Clone)]
struct SparseTable {
    /// `levels[k][i]` combines `values[i .. i + 2^k]`.
    levels: Vec<Vec<f64>>,
}

impl SparseTable {
    fn new(values: &[f64], combine: fn(f64, f64) -> f64) -> SparseTable {
        let mut levels = vec![values.to_vec()];
        let mut width = 1;
        while 2 * width <= values.len() {
            let previous = levels.last().expect("level 0 exists");
            let next: Vec<f64> = (0..=values.len() - 2 * width)
                .map(|i| combine(previous[i], previous[i + width]))
                .collect();
            levels.push(next);
            width *= 2;
        }
        SparseTable { levels }
    }

    /// Combines `values[from ..= to]`; `from <= to < len`.
    fn query(&self, from: usize, to: usize, combine: fn(f64, f64) -> f64) -> f64 {
        let length = to - from + 1;
        let level = (usize::BITS - 1 - length.leading_zeros()) as usize;
        let row = &self.levels[level];
        combine(row[from], row[to + 1 - (1 << level)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window extremum from the sparse table equals a plain scan.
    #[test]
    fn bounds_match_a_plain_scan() {
        let time: Vec<f64> = (0..200).map(|i| (i / 3) as f64 * 0.05).collect();
        let values: Vec<f64> = (0..200)
            .map(|i| ((i * 7919) % 101) as f64 / 10.0 - 5.0)
            .collect();
        let tube = Tube::new(&time, &values, 0.01).unwrap();
        for k in 0..400 {
            let t = -0.2 + k as f64 * 0.0091;
            let Some((lo, hi)) = tube.bounds(t) else {
                assert!(t < -tube.size.half_width || t > time[199] + tube.size.half_width);
                continue;
            };
            let from = (t - tube.size.half_width).max(0.0);
            let to = (t + tube.size.half_width).min(time[199]);
            let mut scan_lo =
                interpolate(&time, &values, from).min(interpolate(&time, &values, to));
            let mut scan_hi =
                interpolate(&time, &values, from).max(interpolate(&time, &values, to));
            for (x, y) in time.iter().zip(&values) {
                if *x >= from && *x <= to {
                    scan_lo = scan_lo.min(*y);
                    scan_hi = scan_hi.max(*y);
                }
            }
            assert_eq!(lo, scan_lo - tube.size.half_height);
            assert_eq!(hi, scan_hi + tube.size.half_height);
        }
    }
}
