//! `mofmu sweep --plot FILE`: the recorded outputs of every case of a sweep's dataset,
//! drawn into one SVG or PNG file, one panel per output over time.
//!
//! The plot is made from the dataset alone (each case's trajectory file and the record
//! it carries), so it shows what is on disk, resumed cases included. [`figure`] works out
//! what to draw; the drawing is `plotters`' (as `mofmu simulate --plot`, with the same
//! compiled-in font and the same thinning of long lines). Up to [`MAX_LINES`] cases are
//! drawn as one line each, coloured by the first parameter that varies across the cases,
//! with a colour bar. More cases than that would be an unreadable tangle, so they are
//! drawn as bands over the cases at each time: the median, the 10–90 % range and the
//! whole range. Cases whose status is not `ok` are counted in the title and not drawn.
//! The same dataset gives the same bytes.

use std::fs;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::dataset::{self, CaseRecord};
use super::error::SweepError;
use super::outcome::Status;
use crate::compare::plot::{
    check_plot_format, padded_range, thin, thin_band, write_plot, DrawResult, Drawing, FONT,
};

/// The most cases drawn as lines; more are drawn as bands.
pub const MAX_LINES: usize = 100;

/// The picture: its width, the width of the legend at its right, the height of a panel
/// and of the title above them.
const WIDTH: u32 = 1024;
const LEGEND: u32 = 190;
const PANEL: u32 = 250;
const TITLE: u32 = 44;
/// The panels' plotting width in pixels, roughly (for the band grid).
const PLOT_WIDTH: u32 = WIDTH - LEGEND - 100;

/// Stops of the colour scale from the least to the greatest value of the parameter
/// (a perceptually ordered scale from dark violet through teal to yellow).
const SCALE: [(u8, u8, u8); 5] = [
    (68, 1, 84),
    (59, 82, 139),
    (33, 145, 140),
    (94, 201, 98),
    (253, 231, 37),
];
const BAND: RGBColor = RGBColor(33, 145, 140);
const MEDIAN: RGBColor = RGBColor(59, 82, 139);

/// How the cases were drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlotStyle {
    /// One line per case.
    Lines,
    /// Median, 10–90 % and min–max bands over the cases.
    Bands,
}

/// What [`plot`] drew.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotReport {
    /// Cases in the dataset.
    pub cases: usize,
    /// Cases drawn (status `ok`, with a trajectory).
    pub drawn: usize,
    pub style: PlotStyle,
    /// The outputs, one panel each.
    pub outputs: Vec<String>,
    /// The parameter that colours the lines, when one varies.
    pub colour_by: Option<String>,
}

impl PlotReport {
    /// One line saying what was drawn where.
    pub fn describe(&self, file: &Path) -> String {
        let how = match (self.style, &self.colour_by) {
            (PlotStyle::Bands, _) => "as median and percentile bands".to_string(),
            (PlotStyle::Lines, Some(p)) => format!("as lines coloured by {p}"),
            (PlotStyle::Lines, None) => "as lines".to_string(),
        };
        format!(
            "plotted {} of {} cases ({} output{}) {how} -> {}",
            self.drawn,
            self.cases,
            self.outputs.len(),
            if self.outputs.len() == 1 { "" } else { "s" },
            file.display()
        )
    }
}

/// Refuses a plot file that is neither `.svg` nor `.png`, before a sweep spends its time.
pub fn check_plot_path(file: &Path) -> Result<(), SweepError> {
    check_plot_format(file).map_err(|e| SweepError::Plot(e.to_string()))
}

/// One case as the plot needs it.
struct Case {
    id: usize,
    record: CaseRecord,
    time: Vec<f64>,
    /// One vector per output.
    outputs: Vec<Vec<f64>>,
}

/// What a plot of a dataset shows: a panel per output, each with a line per case or
/// the bands over the cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub title: String,
    pub style: PlotStyle,
    pub panels: Vec<Panel>,
    /// The colouring parameter (or `case`) and its least and greatest value; for
    /// bands, `None`.
    pub scale: Option<(String, f64, f64)>,
    /// Cases in the dataset, and cases drawn.
    pub cases: usize,
    pub drawn: usize,
}

/// One output's panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub output: String,
    /// A line per case (lines style).
    pub lines: Vec<Line>,
    /// The bands (bands style): times, and per time the least, 10 %, median, 90 % and
    /// greatest value over the cases.
    pub bands: Option<(Vec<f64>, [Vec<f64>; 5])>,
}

/// One case's line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub case: usize,
    /// Where the case lies on the colour scale, 0 to 1.
    pub at: f64,
    pub time: Vec<f64>,
    pub values: Vec<f64>,
}

/// Draws the outputs of every case of the dataset `dir` into `file` (SVG or PNG by its
/// extension, written whole or not at all).
pub fn plot(dir: &Path, file: &Path) -> Result<PlotReport, SweepError> {
    check_plot_path(file)?;
    let figure = figure(dir)?;
    if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|source| SweepError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    let height = TITLE + PANEL * figure.panels.len() as u32 + 16;
    write_plot(file, (WIDTH, height), &figure).map_err(|e| SweepError::Plot(e.to_string()))?;
    Ok(PlotReport {
        cases: figure.cases,
        drawn: figure.drawn,
        style: figure.style,
        outputs: figure.panels.iter().map(|p| p.output.clone()).collect(),
        colour_by: match (figure.style, &figure.scale) {
            (PlotStyle::Lines, Some((name, _, _))) if name != "case" => Some(name.clone()),
            _ => None,
        },
    })
}

/// What a plot of the dataset `dir` shows.
pub fn figure(dir: &Path) -> Result<Figure, SweepError> {
    let (outputs, cases) = read_cases(dir)?;
    let drawn: Vec<&Case> = cases
        .iter()
        .filter(|c| c.record.status == Status::Ok.name() && !c.time.is_empty())
        .collect();
    if drawn.is_empty() {
        return Err(SweepError::Plot(format!(
            "no case of `{}` finished ok: nothing to draw",
            dir.display()
        )));
    }
    let style = if drawn.len() > MAX_LINES {
        PlotStyle::Bands
    } else {
        PlotStyle::Lines
    };
    let not_ok = cases.len() - drawn.len();
    let mut title = format!(
        "{} case{}",
        cases.len(),
        if cases.len() == 1 { "" } else { "s" }
    );
    if not_ok > 0 {
        title.push_str(&format!(" ({not_ok} not ok, not drawn)"));
    }
    let colour_by = varied_parameter(&drawn);
    let scale = (style == PlotStyle::Lines).then(|| match colour_by {
        Some(p) => {
            let (lo, hi) = colour_range(&drawn, p);
            (drawn[0].record.names[p].clone(), lo, hi)
        }
        None => (
            "case".to_string(),
            drawn[0].id as f64,
            drawn[drawn.len() - 1].id as f64,
        ),
    });
    // Each case's place on the colour scale, worked out once for every panel: by the
    // colouring parameter, else by its case id, as the colour bar reads.
    let at: Vec<f64> = match &scale {
        Some((_, lo, hi)) => drawn
            .iter()
            .map(|case| {
                let v = colour_by.map_or(case.id as f64, |p| parameter_value(case, p));
                if hi > lo {
                    (v - lo) / (hi - lo)
                } else {
                    0.5
                }
            })
            .collect(),
        None => Vec::new(),
    };
    let grid = (style == PlotStyle::Bands).then(|| band_grid(&drawn));
    let panels = outputs
        .iter()
        .enumerate()
        .map(|(o, output)| Panel {
            output: output.clone(),
            lines: match style {
                PlotStyle::Bands => Vec::new(),
                PlotStyle::Lines => drawn
                    .iter()
                    .enumerate()
                    .map(|(index, case)| Line {
                        case: case.id,
                        at: at[index],
                        time: case.time.clone(),
                        values: case.outputs[o].clone(),
                    })
                    .collect(),
            },
            bands: grid.as_ref().map(|g| (g.clone(), bands(&drawn, o, g))),
        })
        .collect();
    Ok(Figure {
        title,
        style,
        panels,
        scale,
        cases: cases.len(),
        drawn: drawn.len(),
    })
}

/// The outputs and every case of the dataset, in case order.
fn read_cases(dir: &Path) -> Result<(Vec<String>, Vec<Case>), SweepError> {
    let folder = dataset::trajectories_dir(dir);
    let entries = fs::read_dir(&folder).map_err(|e| {
        SweepError::Plot(format!(
            "`{}` holds no sweep dataset ({e})",
            folder.display()
        ))
    })?;
    let mut ids: Vec<usize> = entries
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_prefix("case=")?
                .parse::<usize>()
                .ok()
        })
        .collect();
    ids.sort_unstable();
    let mut outputs: Option<Vec<String>> = None;
    let mut cases = Vec::new();
    for id in ids {
        let unreadable = || {
            SweepError::Plot(format!(
                "`{}` is not a case file of a sweep",
                dataset::case_file(dir, id).display()
            ))
        };
        let record = dataset::read_case(dir, id).ok_or_else(unreadable)?;
        let (names, mut columns) = dataset::read_trajectory(dir, id).ok_or_else(unreadable)?;
        if names.first().map(String::as_str) != Some("time") {
            return Err(unreadable());
        }
        let these = names[1..].to_vec();
        match &outputs {
            None => outputs = Some(these),
            Some(first) if *first != these => {
                return Err(SweepError::Plot(format!(
                    "case {id} records other outputs than the cases before it: the folder \
                     mixes two sweeps"
                )))
            }
            Some(_) => {}
        }
        let time = columns.remove(0);
        cases.push(Case {
            id,
            record,
            time,
            outputs: columns,
        });
    }
    match outputs {
        Some(outputs) => Ok((outputs, cases)),
        None => Err(SweepError::Plot(format!(
            "`{}` holds no case",
            folder.display()
        ))),
    }
}

/// The first parameter whose value is not the same in every drawn case.
fn varied_parameter(drawn: &[&Case]) -> Option<usize> {
    let first = &drawn[0].record;
    (0..first.names.len()).find(|&p| {
        drawn
            .iter()
            .any(|c| c.record.names == first.names && c.record.values[p] != first.values[p])
    })
}

/// The value of parameter `p` of a case.
fn parameter_value(case: &Case, p: usize) -> f64 {
    f64::from_bits(case.record.values[p])
}

/// The least and greatest value of the colouring parameter.
fn colour_range(drawn: &[&Case], p: usize) -> (f64, f64) {
    drawn
        .iter()
        .map(|c| parameter_value(c, p))
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// The colour at `x` in [0, 1] on the scale.
fn colour(x: f64) -> RGBColor {
    let x = if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let pos = x * (SCALE.len() - 1) as f64;
    let k = (pos.floor() as usize).min(SCALE.len() - 2);
    let f = pos - k as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (SCALE[k], SCALE[k + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// `values` (over `time`, ascending, an event instant possibly twice) at `t`, linearly
/// interpolated; after an event instant the value after it. NaN outside the range.
fn value_at(time: &[f64], values: &[f64], t: f64) -> f64 {
    let after = time.partition_point(|&s| s <= t);
    if after == 0 {
        return f64::NAN;
    }
    let k = after - 1;
    if time[k] == t || k + 1 == time.len() {
        return if time[k] == t { values[k] } else { f64::NAN };
    }
    let f = (t - time[k]) / (time[k + 1] - time[k]);
    values[k] + f * (values[k + 1] - values[k])
}

/// The `q`-quantile of sorted values (linear between order statistics).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let k = pos.floor() as usize;
    if k + 1 >= sorted.len() {
        return sorted[sorted.len() - 1];
    }
    sorted[k] + (pos - k as f64) * (sorted[k + 1] - sorted[k])
}

/// Per time of `grid`: the least, 10 %, median, 90 % and greatest value over the cases.
fn bands(drawn: &[&Case], output: usize, grid: &[f64]) -> [Vec<f64>; 5] {
    let mut out: [Vec<f64>; 5] = Default::default();
    let mut values = Vec::with_capacity(drawn.len());
    for &t in grid {
        values.clear();
        values.extend(
            drawn
                .iter()
                .map(|c| value_at(&c.time, &c.outputs[output], t))
                .filter(|v| v.is_finite()),
        );
        values.sort_unstable_by(f64::total_cmp);
        for (band, q) in out.iter_mut().zip([0.0, 0.1, 0.5, 0.9, 1.0]) {
            band.push(if values.is_empty() {
                f64::NAN
            } else {
                quantile(&values, q)
            });
        }
    }
    out
}

/// The times at which bands are evaluated: the first case's output times, or an even
/// grid of two points per pixel column when it has more.
fn band_grid(drawn: &[&Case]) -> Vec<f64> {
    let mut grid: Vec<f64> = drawn[0].time.clone();
    grid.dedup();
    let most = 2 * PLOT_WIDTH as usize;
    if grid.len() > most {
        let (t0, t1) = range(drawn.iter().map(|c| c.time.as_slice())).unwrap_or((0.0, 1.0));
        grid = (0..most)
            .map(|k| t0 + (t1 - t0) * k as f64 / (most - 1) as f64)
            .collect();
    }
    grid
}

/// The range of the finite values of `rows`.
fn range<'a>(rows: impl Iterator<Item = &'a [f64]>) -> Option<(f64, f64)> {
    let mut found: Option<(f64, f64)> = None;
    for v in rows.flatten().copied().filter(|v| v.is_finite()) {
        found = Some(match found {
            None => (v, v),
            Some((lo, hi)) => (lo.min(v), hi.max(v)),
        });
    }
    found
}

impl Drawing for Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB::ErrorType> {
        root.fill(&WHITE)?;
        let (title, body) = root.split_vertically(TITLE);
        title.draw(&Text::new(
            self.title.clone(),
            (16, 12),
            (FONT, 20).into_font().color(&BLACK),
        ))?;
        let (charts, legend) = body.split_horizontally(WIDTH - LEGEND);
        let times = self.panels.iter().flat_map(|p| {
            p.lines
                .iter()
                .flat_map(|l| l.time.iter().copied())
                .chain(p.bands.iter().flat_map(|b| b.0.iter().copied()))
        });
        let x_range = padded_range(times);
        let count = self.panels.len();
        for (k, (panel, area)) in self
            .panels
            .iter()
            .zip(charts.split_evenly((count, 1)))
            .enumerate()
        {
            draw_panel(&area, panel, x_range.clone(), k + 1 == count)?;
        }
        match &self.scale {
            Some((name, lo, hi)) => draw_scale(&legend, name, *lo, *hi),
            None => draw_band_key(&legend, self.drawn),
        }
    }
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &Panel,
    x_range: std::ops::Range<f64>,
    last: bool,
) -> DrawResult<DB::ErrorType> {
    let values = panel
        .lines
        .iter()
        .flat_map(|l| l.values.iter().copied())
        .chain(
            panel
                .bands
                .iter()
                .flat_map(|b| b.1.iter().flatten().copied()),
        );
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(if last { 40 } else { 24 })
        .y_label_area_size(84)
        .build_cartesian_2d(x_range, padded_range(values))?;
    let mut mesh = chart.configure_mesh();
    mesh.light_line_style(WHITE)
        .y_desc(panel.output.as_str())
        .label_style((FONT, 13));
    if last {
        mesh.x_desc("time");
    }
    mesh.draw()?;
    for line in &panel.lines {
        chart.draw_series(LineSeries::new(
            thin(&line.time, &line.values),
            colour(line.at).stroke_width(1),
        ))?;
    }
    if let Some((time, q)) = &panel.bands {
        for (lower, upper, opacity) in [(&q[0], &q[4], 0.18), (&q[1], &q[3], 0.38)] {
            let outline: Vec<(f64, f64, f64)> = time
                .iter()
                .zip(lower.iter().zip(upper))
                .filter(|(_, (l, u))| l.is_finite() && u.is_finite())
                .map(|(&t, (&l, &u))| (t, l, u))
                .collect();
            let shown = thin_band(&outline);
            let polygon: Vec<(f64, f64)> = shown
                .iter()
                .map(|p| (p.0, p.2))
                .chain(shown.iter().rev().map(|p| (p.0, p.1)))
                .collect();
            chart.draw_series(std::iter::once(Polygon::new(polygon, BAND.mix(opacity))))?;
        }
        chart.draw_series(LineSeries::new(thin(time, &q[2]), MEDIAN.stroke_width(2)))?;
    }
    Ok(())
}

/// The colour bar: the parameter's name, the scale from its least (bottom) to its
/// greatest value (top).
fn draw_scale<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    name: &str,
    lo: f64,
    hi: f64,
) -> DrawResult<DB::ErrorType> {
    let text =
        |s: String, x: i32, y: i32| Text::new(s, (x, y), (FONT, 13).into_font().color(&BLACK));
    area.draw(&text(name.to_string(), 10, 14))?;
    let (top, height, steps) = (40, 180, 90);
    for k in 0..steps {
        let y0 = top + height * k / steps;
        let y1 = top + height * (k + 1) / steps;
        let at = 1.0 - (f64::from(k) + 0.5) / f64::from(steps);
        area.draw(&Rectangle::new([(10, y0), (28, y1)], colour(at).filled()))?;
    }
    area.draw(&Rectangle::new(
        [(10, top), (28, top + height)],
        BLACK.mix(0.5),
    ))?;
    area.draw(&text(short(hi), 34, top - 6))?;
    area.draw(&text(short(lo), 34, top + height - 6))?;
    Ok(())
}

/// The key of the bands.
fn draw_band_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    cases: usize,
) -> DrawResult<DB::ErrorType> {
    let text =
        |s: String, x: i32, y: i32| Text::new(s, (x, y), (FONT, 13).into_font().color(&BLACK));
    area.draw(&text(format!("{cases} cases"), 10, 14))?;
    let rows: [(ShapeStyle, &str); 3] = [
        (BAND.mix(0.18).filled(), "least to greatest"),
        (BAND.mix(0.38).filled(), "10 % to 90 %"),
        (MEDIAN.filled(), "median"),
    ];
    for (k, (style, label)) in rows.into_iter().enumerate() {
        let y = 44 + 24 * k as i32;
        let height = if k == 2 { 3 } else { 12 };
        area.draw(&Rectangle::new([(10, y), (32, y + height)], style))?;
        area.draw(&text(label.to_string(), 40, y - 2))?;
    }
    Ok(())
}

/// A parameter value in a few characters.
fn short(v: f64) -> String {
    let text = format!("{v}");
    if text.len() <= 10 {
        text
    } else {
        format!("{v:.4e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_between_and_at_events() {
        let time = [0.0, 1.0, 1.0, 2.0];
        let values = [0.0, 1.0, 5.0, 7.0];
        assert_eq!(value_at(&time, &values, 0.5), 0.5);
        assert_eq!(
            value_at(&time, &values, 1.0),
            5.0,
            "the value after the event"
        );
        assert_eq!(value_at(&time, &values, 1.5), 6.0);
        assert_eq!(value_at(&time, &values, 2.0), 7.0);
        assert!(value_at(&time, &values, 2.5).is_nan());
        assert!(value_at(&time, &values, -1.0).is_nan());
    }

    #[test]
    fn quantiles_interpolate_order_statistics() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&sorted, 0.0), 1.0);
        assert_eq!(quantile(&sorted, 0.5), 3.0);
        assert_eq!(quantile(&sorted, 1.0), 5.0);
        assert!((quantile(&sorted, 0.1) - 1.4).abs() < 1e-12);
    }

    #[test]
    fn the_scale_runs_from_its_first_to_its_last_colour() {
        assert_eq!(colour(0.0), RGBColor(68, 1, 84));
        assert_eq!(colour(1.0), RGBColor(253, 231, 37));
        assert_eq!(colour(0.5), RGBColor(33, 145, 140));
        assert_eq!(colour(f64::NAN), colour(0.0));
    }

    #[test]
    fn svg_and_png_only() {
        assert!(check_plot_path(Path::new("a/b.svg")).is_ok());
        assert!(check_plot_path(Path::new("b.PNG")).is_ok());
        let e = check_plot_path(Path::new("b.pdf")).unwrap_err();
        assert_eq!(e.code(), "SW014");
        assert!(e.to_string().contains(".svg or .png"), "{e}");
    }
}
