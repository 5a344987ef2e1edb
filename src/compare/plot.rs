//! Plots with the `plotters` crate: one signal of a comparison (reference,
//! tube, result, outliers and the error) as SVG text, and every column of a
//! simulation result as an SVG or PNG file (`mofmu simulate --plot`).
//!
//! Text is laid out with a font compiled into the binary (Hack, from
//! `epaint_default_fonts`), so plots look the same on every machine and no
//! system font library is needed.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use thiserror::Error;

use super::tube::Tube;

#[derive(Debug, Error)]
pub enum PlotError {
    #[error("drawing the plot failed: {0}")]
    Draw(String),
    #[error("a plot is written as .svg or .png, not `{0}`")]
    Format(String),
    #[error("writing the plot `{0}` failed: {1}")]
    Write(String, std::io::Error),
    #[error("there is nothing to plot: {0}")]
    Empty(&'static str),
}

pub(crate) const FONT: &str = "sans-serif";
/// More samples than this are thinned out per pixel column before drawing
/// (the first, lowest, highest and last sample of each column are kept),
/// so a long result gives a plot of bounded size that looks the same.
const MAX_LINE_POINTS: usize = 4000;
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

pub(crate) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is compiled in, so it always parses.
        let registered = plotters::style::register_font(
            FONT,
            FontStyle::Normal,
            epaint_default_fonts::HACK_REGULAR,
        );
        debug_assert!(registered.is_ok());
    });
}

/// One compared signal as SVG: above, the tube (shaded), the reference and
/// the result, with outliers marked; below, each result sample's distance
/// from the tube (zero inside).
pub fn signal_svg(
    name: &str,
    tube: &Tube<'_>,
    reference: (&[f64], &[f64]),
    result: (&[f64], &[f64]),
) -> Result<String, PlotError> {
    register_font();
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (960, 640)).into_drawing_area();
        draw_signal(&root, name, tube, reference, result).map_err(draw_error)?;
        root.present().map_err(draw_error)?;
    }
    Ok(text)
}

/// What draws one plot on any backend (SVG text or a pixel buffer).
pub(crate) trait Drawing {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB::ErrorType>;
}

/// Refuses a plot path whose extension is neither `.svg` nor `.png`.
pub fn check_plot_format(path: &Path) -> Result<(), PlotError> {
    match extension(path).as_str() {
        "svg" | "png" => Ok(()),
        _ => Err(PlotError::Format(path.display().to_string())),
    }
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Draws `drawing` into `path` as SVG or PNG (by its extension), whole or not at all.
pub(crate) fn write_plot(
    path: &Path,
    size: (u32, u32),
    drawing: &impl Drawing,
) -> Result<(), PlotError> {
    register_font();
    let bytes = match extension(path).as_str() {
        "svg" => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
                drawing.draw(&root).map_err(draw_error)?;
                root.present().map_err(draw_error)?;
            }
            text.into_bytes()
        }
        "png" => {
            let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                drawing.draw(&root).map_err(draw_error)?;
                root.present().map_err(draw_error)?;
            }
            encode_png(&pixels, size)?
        }
        _ => return Err(PlotError::Format(path.display().to_string())),
    };
    // Whole or not at all: a failed write leaves no half-written plot.
    crate::fix::write_atomically(path, &bytes)
        .map_err(|e| PlotError::Write(path.display().to_string(), e))
}

/// Every column of a result over time in one chart, written to `path` as
/// SVG or PNG (by its extension).
pub fn write_result_plot(
    path: &Path,
    title: &str,
    time: &[f64],
    names: &[String],
    columns: &[Vec<f64>],
) -> Result<(), PlotError> {
    write_plot(
        path,
        (1024, 640),
        &ResultDrawing {
            title,
            time,
            names,
            columns,
        },
    )
}

struct ResultDrawing<'a> {
    title: &'a str,
    time: &'a [f64],
    names: &'a [String],
    columns: &'a [Vec<f64>],
}

impl Drawing for ResultDrawing<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB::ErrorType> {
        draw_result(root, self.title, self.time, self.names, self.columns)
    }
}

/// RGB pixels, row by row, as a PNG file's bytes.
fn encode_png(pixels: &[u8], (width, height): (u32, u32)) -> Result<Vec<u8>, PlotError> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let encoded = encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(pixels));
    encoded.map_err(|e| PlotError::Draw(format!("encoding the PNG failed: {e}")))?;
    Ok(bytes)
}

pub(crate) type DrawResult<E> = Result<(), DrawingAreaErrorKind<E>>;

fn draw_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> PlotError {
    PlotError::Draw(e.to_string())
}

fn draw_signal<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    name: &str,
    tube: &Tube<'_>,
    reference: (&[f64], &[f64]),
    result: (&[f64], &[f64]),
) -> DrawResult<DB::ErrorType> {
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(440);
    let outline = tube.outline();
    let outside = super::outliers(tube, result.0, result.1);
    let errors: Vec<(f64, f64)> = result
        .0
        .iter()
        .zip(result.1)
        .filter_map(|(&t, &y)| {
            let (low, high) = tube.bounds(t)?;
            let distance = super::violation(y, low, high);
            Some((t, if distance.is_finite() { distance } else { 0.0 }))
        })
        .collect();

    let times = outline.iter().map(|p| p.0).chain(result.0.iter().copied());
    let values = outline
        .iter()
        .flat_map(|p| [p.1, p.2])
        .chain(result.1.iter().copied());
    let x_range = padded_range(times);
    let y_range = padded_range(values);

    let mut chart = ChartBuilder::on(&top)
        .caption(name, (FONT, 20))
        .margin(12)
        .x_label_area_size(28)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range.clone(), y_range)?;
    chart.configure_mesh().light_line_style(WHITE).draw()?;
    let shown = thin_band(&outline);
    let band: Vec<(f64, f64)> = shown
        .iter()
        .map(|p| (p.0, p.2))
        .chain(shown.iter().rev().map(|p| (p.0, p.1)))
        .collect();
    let tube_color = RGBColor(31, 119, 180);
    chart
        .draw_series(std::iter::once(Polygon::new(band, tube_color.mix(0.18))))?
        .label("tube")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 18, y + 5)], tube_color.mix(0.3).filled())
        });
    chart
        .draw_series(LineSeries::new(
            thin(reference.0, reference.1),
            tube_color.stroke_width(2),
        ))?
        .label("reference")
        .legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + 18, y)], tube_color.stroke_width(2))
        });
    let result_color = RGBColor(255, 127, 14);
    chart
        .draw_series(LineSeries::new(
            thin(result.0, result.1),
            result_color.stroke_width(1),
        ))?
        .label("result")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], result_color));
    if !outside.is_empty() {
        chart
            .draw_series(
                outside
                    .iter()
                    .filter(|o| o.1.is_finite())
                    .map(|o| Circle::new((o.0, o.1), 3, RED.filled())),
            )?
            .label(format!("outside the tube ({})", outside.len()))
            .legend(|(x, y)| Circle::new((x + 9, y), 3, RED.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()?;

    // Distances are never negative: the axis starts at zero.
    let largest_error = errors.iter().map(|e| e.1).fold(0.0, f64::max);
    let error_range = 0.0..if largest_error > 0.0 {
        1.05 * largest_error
    } else {
        1.0
    };
    let mut error_chart = ChartBuilder::on(&bottom)
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range, error_range)?;
    error_chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc("time")
        .y_desc("distance from tube")
        .draw()?;
    let (error_time, error_value): (Vec<f64>, Vec<f64>) = errors.into_iter().unzip();
    error_chart.draw_series(LineSeries::new(thin(&error_time, &error_value), RED))?;
    Ok(())
}

fn draw_result<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    time: &[f64],
    names: &[String],
    columns: &[Vec<f64>],
) -> DrawResult<DB::ErrorType> {
    root.fill(&WHITE)?;
    let x_range = padded_range(time.iter().copied());
    let y_range = padded_range(columns.iter().flatten().copied());
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 20))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range, y_range)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc("time")
        .draw()?;
    for (i, (name, column)) in names.iter().zip(columns).enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        chart
            .draw_series(LineSeries::new(thin(time, column), color.stroke_width(2)))?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()?;
    Ok(())
}

/// The finite points of a line, thinned to about [`MAX_LINE_POINTS`].
pub(crate) fn thin(time: &[f64], values: &[f64]) -> Vec<(f64, f64)> {
    let points: Vec<(f64, f64)> = time
        .iter()
        .zip(values)
        .filter(|(t, y)| t.is_finite() && y.is_finite())
        .map(|(&t, &y)| (t, y))
        .collect();
    if points.len() <= MAX_LINE_POINTS {
        return points;
    }
    let buckets = MAX_LINE_POINTS / 4;
    let per_bucket = points.len().div_ceil(buckets);
    let mut kept = Vec::with_capacity(MAX_LINE_POINTS);
    for bucket in points.chunks(per_bucket) {
        let low = bucket.iter().min_by(|a, b| a.1.total_cmp(&b.1));
        let high = bucket.iter().max_by(|a, b| a.1.total_cmp(&b.1));
        let (Some(&low), Some(&high)) = (low, high) else {
            continue;
        };
        let (first, last) = (bucket[0], bucket[bucket.len() - 1]);
        let mut inner = [low, high];
        inner.sort_by(|a, b| a.0.total_cmp(&b.0));
        kept.push(first);
        kept.extend(inner);
        kept.push(last);
    }
    kept
}

/// The tube's outline thinned to about [`MAX_LINE_POINTS`]: per pixel
/// column the lowest lower and the highest upper bound at the column's first
/// and last time, so the drawn tube is never narrower than the real one.
pub(crate) fn thin_band(outline: &[(f64, f64, f64)]) -> Vec<(f64, f64, f64)> {
    if outline.len() <= MAX_LINE_POINTS {
        return outline.to_vec();
    }
    let per_bucket = outline.len().div_ceil(MAX_LINE_POINTS / 2);
    let mut kept = Vec::with_capacity(MAX_LINE_POINTS);
    for bucket in outline.chunks(per_bucket) {
        let low = bucket.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let high = bucket.iter().map(|p| p.2).fold(f64::NEG_INFINITY, f64::max);
        kept.push((bucket[0].0, low, high));
        kept.push((bucket[bucket.len() - 1].0, low, high));
    }
    kept
}

/// The range of the finite values with 5 % room on each side (and a unit
/// range around a constant).
pub(crate) fn padded_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        low = low.min(v);
        high = high.max(v);
    }
    if low > high {
        return 0.0..1.0;
    }
    let room = if high > low {
        0.05 * (high - low)
    } else {
        0.5 * low.abs().max(1.0)
    };
    (low - room)..(high + room)
}
