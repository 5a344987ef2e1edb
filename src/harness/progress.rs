//! The progress bar of a simulation: simulated time against the stop time, on
//! standard error, only when asked for (the command line asks when standard error is
//! a terminal, so nothing is drawn into a pipe or a log).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Ticks of the bar from start to stop.
const TICKS: u64 = 1000;

pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    start: f64,
    span: f64,
}

impl Progress {
    pub(crate) fn new(show: bool, start: f64, stop: f64) -> Progress {
        let bar = show.then(|| {
            let bar = ProgressBar::with_draw_target(Some(TICKS), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "simulating {bar:40} {percent:>3}% t = {msg} ({elapsed} elapsed, {eta} left)",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            start,
            span: stop - start,
        }
    }

    /// Shows that the simulation has reached `t`.
    pub(crate) fn advance(&self, t: f64) {
        if let Some(bar) = &self.bar {
            let ticks = ((t - self.start) / self.span * TICKS as f64).clamp(0.0, TICKS as f64);
            let ticks = ticks as u64;
            if ticks != bar.position() {
                bar.set_position(ticks);
                bar.set_message(format!("{t:.6}"));
            }
        }
    }

    /// Removes the bar.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    /// A run that ends in an error returns through `?` without reaching `finish`: the
    /// bar goes away then too, so the error message stands on a clean line.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            if !bar.is_finished() {
                bar.finish_and_clear();
            }
        }
    }
}
