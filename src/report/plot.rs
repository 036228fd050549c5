//! SVG plots of where in the input range a unit's errors lie, from its `error_map`.
//!
//! Both axes of the input are the symmetric-log bins of [`crate::report::stats::input_bin`]: 0 is zero, ±1..±64 the
//! magnitudes from the smallest subnormal to the largest finite value (a fixed share of the
//! format's binades per bin), ±65 the infinities. Labels are powers of ten placed where they
//! fall on that scale for the unit's type.
//!
//! - One-argument functions: the largest error per bin on a log axis (errors below
//!   [`FLOOR`], exact results included, sit on the floor), bins with failures as red dots, the
//!   bound as a horizontal line.
//! - Two- and three-argument functions: a heat map over (first argument, second argument) of
//!   the largest error per cell, coloured on a log scale, cells with failures outlined in red,
//!   the bound marked on the colour bar (a third argument is folded into the cells).
//!
//! Only accuracy units (kind `ulp`) that were measured (pass or fail) and saw inputs are
//! plotted.

use crate::num::fp::FloatType;
use crate::report::stats::{BinStats, BINS_PER_SIGN};
use crate::report::{bound_column, format_ulp, Kind, Status, UnitReport};
use crate::spec::environment::KernelPath;
use crate::spec::registry;
use crate::spec::signature::Shape;
use crate::spec::table::Requirement;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;
use std::error::Error;
use std::io;
use std::path::{Path, PathBuf};

/// Errors below this many ulp (exact results included) are drawn at this level.
pub const FLOOR: f64 = 1e-3;

/// The outer edge of the bin axis: the infinities' bins and half a bin of margin.
const EDGE: f64 = BINS_PER_SIGN as f64 + 1.5;

const FAILURE: RGBColor = RGBColor(214, 39, 40);
const MEASURED: RGBColor = RGBColor(31, 119, 180);
const BOUND: RGBColor = RGBColor(230, 120, 0);
const GREY: RGBColor = RGBColor(90, 90, 90);
const NO_DATA: RGBColor = RGBColor(238, 238, 238);

/// Approximate width of one character of axis labels (14 px font), for spacing them.
const LABEL_CHAR_PX: f64 = 6.5;

/// Why a plot could not be drawn or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error(transparent)]
    Io(#[from] io::Error),
    /// plotters refused to draw (the fixed layout does not make it; its error is kept as text,
    /// its type being generic over the drawing backend).
    #[error("plotting {file}: {detail}")]
    Draw { file: String, detail: String },
}

/// Writes one SVG per unit worth plotting into `dir` (created if needed), named
/// `{function}_{type}_w{width}.svg`, and returns the paths written, in the units' order. Each
/// plot's subtitle names `path`, the kernels the units ran (a vulkan row is judged by another
/// table than a spirv one).
pub fn write_all(
    dir: &Path,
    units: &[UnitReport],
    path: KernelPath,
) -> Result<Vec<PathBuf>, PlotError> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for unit in units {
        if let Some(svg) = rendered(unit, Some(path))? {
            let path = dir.join(file_name(unit));
            std::fs::write(&path, svg)?;
            written.push(path);
        }
    }
    Ok(written)
}

/// The SVG of `unit`'s plot; `None` when it has nothing to plot (not an accuracy unit, skipped
/// or errored, or no input recorded by region). A drawing error, which the fixed layout does
/// not produce, also reads as `None` here; [`try_render`] reports it.
pub fn render(unit: &UnitReport) -> Option<String> {
    try_render(unit).ok().flatten()
}

/// [`render`], with a drawing error reported rather than folded into `None`.
pub fn try_render(unit: &UnitReport) -> Result<Option<String>, PlotError> {
    rendered(unit, None)
}

/// [`try_render`], the subtitle naming the kernel path where one is given.
fn rendered(unit: &UnitReport, path: Option<KernelPath>) -> Result<Option<String>, PlotError> {
    if !worth_plotting(unit) {
        return Ok(None);
    }
    let view = View::of(unit, path);
    let drawn = if view.arguments == 1 {
        draw_profile(unit, &view)
    } else {
        draw_heat_map(unit, &view)
    };
    drawn.map(Some).map_err(|e| PlotError::Draw {
        file: file_name(unit),
        detail: e.to_string(),
    })
}

/// `{function}_{type}_w{width}.svg`, with anything but letters, digits, `_` and `-` in the
/// function's name replaced by `_`.
pub fn file_name(unit: &UnitReport) -> String {
    let function: String = unit
        .function
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{function}_{}_w{}.svg", unit.element.name(), unit.width)
}

fn worth_plotting(unit: &UnitReport) -> bool {
    unit.kind == Kind::Ulp
        && matches!(unit.status, Status::Pass | Status::Fail)
        && !unit.stats.error_map.is_empty()
}

/// How many floating-point arguments the unit's function takes: from its worst case, else
/// from the registry, else from the map (a second bin other than 0 means two).
fn argument_count(unit: &UnitReport) -> usize {
    if let Some(case) = &unit.stats.worst {
        return case.args.len();
    }
    if let Some(function) = registry::find(&unit.function) {
        return match function.shape {
            Shape::Unary
            | Shape::IntResult
            | Shape::WithFloatOut
            | Shape::WithIntOut
            | Shape::Nan
            | Shape::Length
            | Shape::Normalize => 1,
            Shape::Binary
            | Shape::FloatInt
            | Shape::BinaryWithIntOut
            | Shape::Distance
            | Shape::Dot
            | Shape::Cross => 2,
            Shape::Ternary => 3,
        };
    }
    if unit.stats.error_map.keys().any(|(_, y)| *y != 0) {
        2
    } else {
        1
    }
}

/// What both kinds of plot share: texts, the bound, the error scale.
struct View {
    arguments: usize,
    title: String,
    subtitle: String,
    /// The bound in ulp where the rule is one (0 for exact and 0.5 for correctly rounded
    /// results, as in the CSV's `bound_ulp`).
    bound: Option<f64>,
    /// Top of the error scale: a power of ten above the largest error and the bound.
    top: f64,
}

impl View {
    fn of(unit: &UnitReport, path: Option<KernelPath>) -> View {
        let bound_text = bound_column(unit.requirement.as_ref());
        let bound = bound_text.parse::<f64>().ok();
        let rule = unit
            .requirement
            .as_ref()
            .map(Requirement::describe)
            .unwrap_or_else(|| "no rule".to_string());
        let limit = match bound {
            Some(_) => format!("bound {bound_text} ulp"),
            None => rule.clone(),
        };
        // An absolute bound (a Vulkan cell inside its range, a Table 5 one) measures its
        // results apart from the ulp ones: the title gives its largest distance too.
        let absolute = if unit.stats.max_abs_error > 0.0 {
            format!(", max abs {:.3e}", unit.stats.max_abs_error)
        } else {
            String::new()
        };
        let title = format!(
            "{} {} w{} \u{2014} max {} ulp{absolute}, {limit}",
            unit.function,
            unit.element.name(),
            unit.width,
            short_ulp(unit.stats.max_error)
        );
        let map = &unit.stats.error_map;
        let failing = map.values().filter(|b| b.failures > 0).count();
        let arguments = argument_count(unit);
        let kernels = path
            .map(|p| format!("{} kernels, ", p.name()))
            .unwrap_or_default();
        let mut subtitle = format!(
            "{kernels}{} profile, {rule}; {} inputs, {} failures; failures in {failing} of {} input regions",
            unit.judging.profile().name(),
            unit.stats.inputs,
            unit.stats.failures,
            map.len()
        );
        if bound == Some(0.0) {
            subtitle.push_str("; any error above 0 fails");
        }
        if arguments > 2 {
            subtitle.push_str("; each cell is the worst over the third argument");
        }
        let largest = map
            .values()
            .map(|b| b.max_error)
            .chain(bound)
            .fold(1.0, f64::max);
        View {
            arguments,
            title,
            subtitle,
            bound,
            // Room above the largest error; within f64 for the largest finite errors.
            top: 10f64.powf((largest.log10() + 3f64.log10()).ceil().min(308.0)),
        }
    }

    /// The positions and labels of the error axis: powers of ten from the floor to the top.
    fn error_ticks(&self) -> Vec<(f64, String)> {
        let low = FLOOR.log10().round() as i32;
        let high = self.top.log10().round() as i32;
        let step = (1..)
            .find(|s| (high - low) / s <= 8)
            .expect("a step exists");
        (low..=high)
            .filter(|d| (d - low) % step == 0)
            .map(|d| {
                let text = if d == low {
                    format!("\u{2264}{}", decade_text(d))
                } else {
                    decade_text(d)
                };
                (10f64.powi(d), text)
            })
            .collect()
    }
}

/// An error for a title: as the CSV writes it, in scientific notation from a million ulp on
/// (a wrong double can be 1e300 ulp off).
fn short_ulp(error: f64) -> String {
    if error.is_finite() && error >= 1e6 {
        format!("{error:.3e}")
    } else {
        format_ulp(error)
    }
}

/// `1e-30`, `0.01`, `1`, `1000`, `1e38`.
fn decade_text(decade: i32) -> String {
    if (-3..=3).contains(&decade) {
        format!("{}", 10f64.powi(decade))
    } else {
        format!("1e{decade}")
    }
}

/// Positions on the bin axis and their labels: 0, ±inf, and the powers of ten of the type's
/// range at the smallest step (1, 2, 5, 10, 20, ... decades) that gives at most 8 per sign and
/// leaves labels `px_per_bin` apart room to stand; a power too close to 0 or to the infinities
/// is left out, except 1.
fn bin_ticks(element: FloatType, px_per_bin: f64) -> Vec<(f64, String)> {
    let infinity = f64::from(BINS_PER_SIGN) + 1.0;
    let lowest = f64::from(element.emin() - element.precision() as i32 + 1);
    let highest = f64::from(element.emax() + 1);
    let binades_per_bin = (highest - lowest) / f64::from(BINS_PER_SIGN);
    // Bin k holds [lowest + (k-1)w, lowest + kw) in log2: its centre is at k.
    let position = |decade: i32| {
        0.5 + (f64::from(decade) * std::f64::consts::LOG2_10 - lowest) / binades_per_bin
    };
    let first = (lowest * std::f64::consts::LOG10_2).ceil() as i32;
    let last = element.max_finite().log10().floor() as i32;
    // Negative labels are the wider: spacing is decided on them, the same on both sides.
    let width = |text: &str| (text.chars().count() + 1) as f64 * LABEL_CHAR_PX;
    let fits = |a: (f64, &str), b: (f64, &str)| {
        (a.0 - b.0).abs() * px_per_bin >= (width(a.1) + width(b.1)) / 2.0 + 6.0
    };
    let side = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .map(|step| {
            (first..=last)
                .filter(|d| d % step == 0)
                .map(|d| (d, position(d), decade_text(d)))
                .filter(|(d, at, text)| {
                    *d == 0
                        || (fits((*at, text), (0.0, "0")) && fits((*at, text), (infinity, "inf")))
                })
                .collect::<Vec<_>>()
        })
        .find(|side| {
            side.len() <= 8
                && side
                    .windows(2)
                    .all(|w| fits((w[0].1, &w[0].2), (w[1].1, &w[1].2)))
        })
        .unwrap_or_else(|| vec![(0, position(0), decade_text(0))]);
    let mut ticks = vec![
        (-infinity, "-inf".to_string()),
        (0.0, "0".to_string()),
        (infinity, "inf".to_string()),
    ];
    for (_, at, text) in side {
        ticks.push((-at, format!("-{text}")));
        ticks.push((at, text));
    }
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    ticks
}

/// The label at `value` among `ticks` (empty between them).
fn label_at(ticks: &[(f64, String)], value: f64) -> String {
    ticks
        .iter()
        .find(|(at, _)| (at - value).abs() <= 1e-9 * at.abs().max(1.0))
        .map(|(_, text)| text.clone())
        .unwrap_or_default()
}

fn positions(ticks: &[(f64, String)]) -> Vec<f64> {
    ticks.iter().map(|(at, _)| *at).collect()
}

/// A linear axis with ticks where we put them. (Plotters' own key-point wrapper over an `f64`
/// range loses the label formatter.)
struct BinAxis {
    linear: RangedCoordf64,
    ticks: Vec<f64>,
}

impl BinAxis {
    fn new(ticks: &[(f64, String)]) -> BinAxis {
        BinAxis {
            linear: (-EDGE..EDGE).into(),
            ticks: positions(ticks),
        }
    }
}

impl Ranged for BinAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.linear.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.linear.range()
    }
}

/// `value` on the error axis: at least the floor.
fn on_error_axis(value: f64) -> f64 {
    value.max(FLOOR)
}

type Drawn = Result<String, Box<dyn Error>>;

/// Height of the title, subtitle and legend rows.
const HEADER_PX: u32 = 96;

/// What a legend entry shows beside its text.
enum Sample {
    Dot(RGBColor, u32),
    Line(RGBColor),
    Outline(RGBColor),
    Swatch(RGBColor),
}

/// Draws the title, the subtitle and a one-row legend in `area` (above the chart, where it
/// cannot hide data).
fn draw_header<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    view: &View,
    legend: &[(Sample, String)],
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    area.draw_text(
        &view.title,
        &("sans-serif", 24).into_font().color(&BLACK),
        (16, 12),
    )?;
    area.draw_text(
        &view.subtitle,
        &("sans-serif", 16).into_font().color(&GREY),
        (16, 42),
    )?;
    let y = 78;
    let mut x = 16;
    for (sample, text) in legend {
        match sample {
            Sample::Dot(color, radius) => {
                area.draw(&Circle::new((x + 8, y), *radius, color.filled()))?
            }
            Sample::Line(color) => {
                area.draw(&PathElement::new(
                    vec![(x, y), (x + 16, y)],
                    color.stroke_width(2),
                ))?;
            }
            Sample::Outline(color) => area.draw(&PathElement::new(
                vec![
                    (x + 2, y - 6),
                    (x + 14, y - 6),
                    (x + 14, y + 6),
                    (x + 2, y + 6),
                    (x + 2, y - 6),
                ],
                color.stroke_width(2),
            ))?,
            Sample::Swatch(color) => area.draw(&Rectangle::new(
                [(x + 2, y - 6), (x + 14, y + 6)],
                color.filled(),
            ))?,
        }
        area.draw_text(
            text,
            &("sans-serif", 16)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
            (x + 24, y),
        )?;
        x += 24 + (text.chars().count() as f64 * 7.5) as i32 + 32;
    }
    Ok(())
}

/// One-argument functions: the largest error per bin against the input's bin.
fn draw_profile(unit: &UnitReport, view: &View) -> Drawn {
    const SIZE: (u32, u32) = (1100, 640);
    let bins: Vec<(i16, BinStats)> = unit
        .stats
        .error_map
        .iter()
        .map(|((x, _), bin)| (*x, *bin))
        .collect();
    // Plot area width: the picture less margins and the y label area.
    const BOUND_LABEL_PX: u32 = 110;
    let px_per_bin = f64::from(SIZE.0 - 16 - BOUND_LABEL_PX - 80) / (2.0 * EDGE);
    let x_ticks = bin_ticks(unit.element, px_per_bin);
    let y_ticks = view.error_ticks();
    let bound = view.bound.filter(|b| *b > 0.0);
    let mut legend = vec![
        (
            Sample::Dot(MEASURED, 3),
            format!("largest error in the region (below {FLOOR} ulp: at the floor)"),
        ),
        (Sample::Dot(FAILURE, 5), "region with failures".to_string()),
    ];
    if let Some(bound) = bound {
        legend.push((
            Sample::Line(BOUND),
            format!("bound {} ulp", format_ulp(bound)),
        ));
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let (header, body) = root.split_vertically(HEADER_PX);
        draw_header(&header, view, &legend)?;
        let mut chart = ChartBuilder::on(&body)
            .margin(16)
            .margin_right(BOUND_LABEL_PX)
            .x_label_area_size(52)
            .y_label_area_size(80)
            .build_cartesian_2d(
                BinAxis::new(&x_ticks),
                (FLOOR..view.top)
                    .log_scale()
                    .with_key_points(positions(&y_ticks)),
            )?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| label_at(&x_ticks, *v))
            .y_label_formatter(&|v| label_at(&y_ticks, *v))
            .x_desc(format!(
                "x ({}, symmetric log scale: zero in the middle, infinities at the ends)",
                unit.element.name()
            ))
            .y_desc("largest error in the region (ulp)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .bold_line_style(BLACK.mix(0.12))
            .draw()?;

        // Thin lines join neighbouring ranges only: a gap in the inputs stays a gap, and the
        // single values (zero, the infinities) stand alone.
        let special = |x: i16| x == 0 || x.abs() > BINS_PER_SIGN;
        let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
        let mut previous: Option<i16> = None;
        for (x, bin) in bins.iter().filter(|(x, _)| !special(*x)) {
            let point = (f64::from(*x), on_error_axis(bin.max_error));
            match (previous, runs.last_mut()) {
                (Some(p), Some(run)) if p + 1 == *x && p != -1 => run.push(point),
                _ => runs.push(vec![point]),
            }
            previous = Some(*x);
        }
        chart.draw_series(
            runs.into_iter()
                .filter(|run| run.len() > 1)
                .map(|run| PathElement::new(run, MEASURED.mix(0.5).stroke_width(1))),
        )?;
        chart.draw_series(
            bins.iter()
                .filter(|(_, bin)| bin.failures == 0)
                .map(|(x, bin)| {
                    Circle::new(
                        (f64::from(*x), on_error_axis(bin.max_error)),
                        3,
                        MEASURED.filled(),
                    )
                }),
        )?;
        if let Some(bound) = bound {
            let label = format!("bound {} ulp", format_ulp(bound));
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(-EDGE, bound), (EDGE, bound)],
                BOUND.stroke_width(2),
            )))?;
            // Its label in the right margin, clear of the data.
            let (right, level) = chart.backend_coord(&(EDGE, bound));
            root.draw_text(
                &label,
                &("sans-serif", 15)
                    .into_font()
                    .color(&BOUND)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
                (right + 6, level),
            )?;
        }
        // Failures last, on top of everything.
        chart.draw_series(
            bins.iter()
                .filter(|(_, bin)| bin.failures > 0)
                .map(|(x, bin)| {
                    Circle::new(
                        (f64::from(*x), on_error_axis(bin.max_error)),
                        5,
                        FAILURE.filled(),
                    )
                }),
        )?;
        root.present()?;
    }
    Ok(svg)
}

/// The colour of an error on the log scale from the floor to `top`.
fn heat(error: f64, top: f64) -> RGBColor {
    let low = FLOOR.log10();
    let share = (on_error_axis(error).log10() - low) / (top.log10() - low);
    ViridisRGB::get_color(share.clamp(0.0, 1.0))
}

/// Two (or three) argument functions: the largest error per (x bin, y bin) cell.
fn draw_heat_map(unit: &UnitReport, view: &View) -> Drawn {
    const SIZE: (u32, u32) = (1130, 1060);
    const BAR_PX: u32 = 170;
    let map: &BTreeMap<(i16, i16), BinStats> = &unit.stats.error_map;
    let px_per_bin = f64::from(SIZE.0 - BAR_PX - 2 * 16 - 80) / (2.0 * EDGE);
    let x_ticks = bin_ticks(unit.element, px_per_bin);
    // Stacked labels only need their height apart.
    let y_ticks = bin_ticks(unit.element, px_per_bin * 3.0);
    let mut scale_ticks = view.error_ticks();
    let bound = view.bound.filter(|b| *b >= FLOOR);
    if let Some(bound) = bound {
        scale_ticks.retain(|(at, _)| (at.log10() - bound.log10()).abs() > 0.15);
        scale_ticks.push((bound, format!("bound {} ulp", format_ulp(bound))));
    }
    let legend = [
        (Sample::Outline(FAILURE), "region with failures".to_string()),
        (Sample::Swatch(NO_DATA), "no inputs there".to_string()),
        (
            Sample::Swatch(heat(1.0, view.top)),
            "colour: largest error in the region (log scale, right)".to_string(),
        ),
    ];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let (header, body) = root.split_vertically(HEADER_PX);
        draw_header(&header, view, &legend)?;
        let (left, right) = body.split_horizontally(SIZE.0 - BAR_PX);
        let mut chart = ChartBuilder::on(&left)
            .margin(16)
            .x_label_area_size(52)
            .y_label_area_size(80)
            .build_cartesian_2d(BinAxis::new(&x_ticks), BinAxis::new(&y_ticks))?;
        chart.plotting_area().fill(&NO_DATA)?;
        chart.draw_series(map.iter().map(|((x, y), bin)| {
            let (x, y) = (f64::from(*x), f64::from(*y));
            Rectangle::new(
                [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                heat(bin.max_error, view.top).filled(),
            )
        }))?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| label_at(&x_ticks, *v))
            .y_label_formatter(&|v| label_at(&y_ticks, *v))
            .x_desc(format!(
                "x (first argument, {}, symmetric log scale)",
                unit.element.name()
            ))
            .y_desc("y (second argument, symmetric log scale)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .bold_line_style(WHITE.mix(0.35))
            .draw()?;
        chart.draw_series(
            map.iter()
                .filter(|(_, bin)| bin.failures > 0)
                .map(|((x, y), _)| {
                    let (x, y) = (f64::from(*x), f64::from(*y));
                    PathElement::new(
                        vec![
                            (x - 0.5, y - 0.5),
                            (x + 0.5, y - 0.5),
                            (x + 0.5, y + 0.5),
                            (x - 0.5, y + 0.5),
                            (x - 0.5, y - 0.5),
                        ],
                        FAILURE.stroke_width(2),
                    )
                }),
        )?;

        // The colour bar, with the bound among its ticks.
        let mut bar = ChartBuilder::on(&right)
            .margin_top(16)
            .margin_bottom(16 + 52)
            .margin_left(8)
            .margin_right(8)
            .set_label_area_size(LabelAreaPosition::Right, 100)
            .build_cartesian_2d(
                0f64..1f64,
                (FLOOR..view.top)
                    .log_scale()
                    .with_key_points(positions(&scale_ticks)),
            )?;
        bar.configure_mesh()
            .disable_x_mesh()
            .disable_x_axis()
            .disable_y_mesh()
            .y_label_formatter(&|v| label_at(&scale_ticks, *v))
            .y_desc("largest error in the region (ulp)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .draw()?;
        const STEPS: i32 = 120;
        let (low, high) = (FLOOR.log10(), view.top.log10());
        let at = |k: i32| 10f64.powf(low + (high - low) * f64::from(k) / f64::from(STEPS));
        bar.draw_series((0..STEPS).map(|i| {
            Rectangle::new(
                [(0.0, at(i)), (1.0, at(i + 1))],
                heat((at(i) * at(i + 1)).sqrt(), view.top).filled(),
            )
        }))?;
        if let Some(bound) = bound {
            bar.draw_series(std::iter::once(PathElement::new(
                vec![(0.0, bound), (1.0, bound)],
                BLACK.stroke_width(2),
            )))?;
        }
        root.present()?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::{input_bin, Case, Outcome, UnitStats};
    use crate::spec::table::{Judging, Profile};

    fn case(args: Vec<f64>, error: f64) -> Case {
        Case {
            index: 0,
            args,
            device_results: vec![0.0],
            references: vec![rug::Float::with_val(53, 0.0)],
            error,
            absolute: false,
            outcome: if error > 4.0 {
                Outcome::Fail
            } else {
                Outcome::Pass
            },
            output: 0,
            lanes: Vec::new(),
        }
    }

    fn bin(inputs: u64, failures: u64, max_error: f64) -> BinStats {
        BinStats {
            inputs,
            failures,
            max_error,
        }
    }

    /// sin on float: a few regions, the one holding 1.0 failing at 6 ulp against 4.
    fn sin_unit() -> UnitReport {
        let float = FloatType::Float;
        let at = |x: f64| input_bin(x, float).unwrap();
        let mut error_map = BTreeMap::new();
        error_map.insert((0, 0), bin(2, 0, 0.0));
        error_map.insert((at(-1e30), 0), bin(40, 0, 0.5));
        error_map.insert((at(-1.0), 0), bin(40, 0, 1.5));
        error_map.insert((at(1e-20), 0), bin(40, 0, 0.25));
        error_map.insert((at(1e-20) + 1, 0), bin(40, 0, 0.3));
        error_map.insert((at(1.0), 0), bin(40, 3, 6.0));
        error_map.insert((at(1e20), 0), bin(40, 0, 2.0));
        error_map.insert((BINS_PER_SIGN + 1, 0), bin(1, 0, 0.0));
        UnitReport {
            kind: Kind::Ulp,
            function: "sin".into(),
            element: float,
            width: 1,
            judging: Judging::Table(Profile::Full),
            requirement: Some(Requirement::Ulp(4.0)),
            rule: String::new(),
            integer_outputs: vec![false],
            stats: UnitStats {
                inputs: 243,
                failures: 3,
                max_error: 6.0,
                worst: Some(case(vec![1.0], 6.0)),
                error_map,
                ..UnitStats::default()
            },
            status: Status::Fail,
            note: String::new(),
        }
    }

    /// pow on float: a grid of cells, one failing; its (x, 0) cells must not make it a
    /// one-argument plot.
    fn pow_unit() -> UnitReport {
        let mut unit = sin_unit();
        unit.function = "pow".into();
        unit.requirement = Some(Requirement::Ulp(16.0));
        let mut error_map = BTreeMap::new();
        for x in -20i16..=40 {
            for y in -10i16..=10 {
                let error = 0.5 + f64::from((x * y).abs()) / 40.0;
                error_map.insert((x, y), bin(3, 0, error));
            }
        }
        error_map.insert((35, 0), bin(3, 1, 40.0));
        unit.stats.error_map = error_map;
        unit.stats.max_error = 40.0;
        unit.stats.worst = Some(case(vec![1e10, 0.0], 40.0));
        unit
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"))
    }

    fn texts<'a>(document: &'a roxmltree::Document) -> Vec<&'a str> {
        document
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect()
    }

    #[test]
    fn a_one_argument_unit_gives_a_profile_with_its_bound_and_failures() {
        let svg = render(&sin_unit()).expect("plotted");
        let document = parse(&svg);
        assert_eq!(document.root_element().tag_name().name(), "svg");
        let texts = texts(&document);
        assert!(
            texts.contains(&"sin float w1 \u{2014} max 6 ulp, bound 4 ulp"),
            "{texts:?}"
        );
        assert!(texts.contains(&"bound 4 ulp"), "{texts:?}");
        for label in ["0", "1", "-1", "inf", "-inf", "1e-30", "1e30", "-1e30"] {
            assert!(texts.contains(&label), "no x label {label}: {texts:?}");
        }
        // The bound line spans the plot at one height, in its own colour.
        let bound_lines = document
            .descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#E67800"))
            .count();
        assert_eq!(bound_lines, 2, "the line and its legend sample");
        // One red dot for the failing region, one in the legend.
        let red_dots: Vec<_> = document
            .descendants()
            .filter(|n| n.has_tag_name("circle") && n.attribute("fill") == Some("#D62728"))
            .collect();
        assert_eq!(red_dots.len(), 2);
        let blue_dots = document
            .descendants()
            .filter(|n| n.has_tag_name("circle") && n.attribute("fill") == Some("#1F77B4"))
            .count();
        assert_eq!(
            blue_dots,
            7 + 1,
            "the other regions and the legend's sample"
        );
        // The failing dot lies above the bound line.
        let dot_y: i32 = red_dots[1].attribute("cy").unwrap().parse().unwrap();
        // The plot's line comes after the legend's sample.
        let line = document
            .descendants()
            .rfind(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#E67800"))
            .unwrap();
        let line_y: i32 = line
            .attribute("points")
            .unwrap()
            .split([',', ' '])
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert!(dot_y < line_y, "dot at {dot_y}, bound at {line_y}");
    }

    #[test]
    fn a_two_argument_unit_gives_a_heat_map_with_failing_cells_outlined() {
        let unit = pow_unit();
        let svg = render(&unit).expect("plotted");
        let document = parse(&svg);
        let texts = texts(&document);
        assert!(
            texts.contains(&"pow float w1 \u{2014} max 40 ulp, bound 16 ulp"),
            "{texts:?}"
        );
        assert!(texts.contains(&"bound 16 ulp"), "{texts:?}");
        let cells = unit.stats.error_map.len();
        let filled = document
            .descendants()
            .filter(|n| n.has_tag_name("rect"))
            .count();
        assert!(filled >= cells, "{filled} rectangles for {cells} cells");
        let outlines = document
            .descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#D62728"))
            .count();
        assert_eq!(outlines, 1 + 1, "the failing cell and the legend's sample");
    }

    #[test]
    fn two_arguments_are_told_by_the_worst_case_not_the_keys() {
        let mut unit = pow_unit();
        unit.stats.error_map.retain(|(_, y), _| *y == 0);
        assert_eq!(argument_count(&unit), 2);
        unit.stats.worst = None;
        assert_eq!(argument_count(&unit), 2, "pow from the registry");
        assert_eq!(argument_count(&sin_unit()), 1);
    }

    #[test]
    fn nothing_to_plot_gives_none() {
        let mut skipped = sin_unit();
        skipped.status = Status::Skip;
        assert!(render(&skipped).is_none());
        let mut errored = sin_unit();
        errored.status = Status::Error;
        assert!(render(&errored).is_none());
        let mut edge = sin_unit();
        edge.kind = Kind::Edge;
        assert!(render(&edge).is_none());
        let mut empty = sin_unit();
        empty.stats.error_map.clear();
        assert!(render(&empty).is_none());
    }

    #[test]
    fn units_without_a_ulp_bound_or_with_a_zero_bound_still_plot() {
        let mut implementation_defined = sin_unit();
        implementation_defined.requirement = Some(Requirement::ImplementationDefined);
        let svg = render(&implementation_defined).unwrap();
        let document = parse(&svg);
        assert!(texts(&document).iter().all(|t| !t.starts_with("bound")));
        let mut exact = sin_unit();
        exact.requirement = Some(Requirement::Exact);
        let svg = render(&exact).unwrap();
        assert!(texts(&parse(&svg))
            .iter()
            .any(|t| t.contains("bound 0 ulp")));
        for element in FloatType::ALL {
            let mut unit = pow_unit();
            unit.element = element;
            parse(&render(&unit).unwrap());
            unit.stats.max_error = f64::INFINITY;
            parse(&render(&unit).unwrap());
            // The largest finite error still fits the scale.
            let corner = unit.stats.error_map.get_mut(&(40, 10)).unwrap();
            corner.max_error = f64::MAX;
            parse(&render(&unit).unwrap());
            assert_eq!(short_ulp(f64::MAX), "1.798e308");
            let mut line = sin_unit();
            line.element = element;
            line.stats.error_map.get_mut(&(0, 0)).unwrap().max_error = f64::MAX;
            parse(&render(&line).unwrap());
        }
    }

    #[test]
    fn bin_labels_fall_on_their_bins() {
        for element in FloatType::ALL {
            let ticks = bin_ticks(element, 8.0);
            for (at, text) in &ticks {
                let value: f64 = match text.as_str() {
                    "inf" => f64::INFINITY,
                    "-inf" => f64::NEG_INFINITY,
                    other => other.parse().unwrap(),
                };
                let bin = input_bin(value, element).unwrap();
                assert!(
                    (f64::from(bin) - at).abs() <= 0.5,
                    "{element} {text} at {at} but in bin {bin}"
                );
            }
            assert!(ticks.iter().any(|(_, t)| t == "1") && ticks.iter().any(|(_, t)| t == "0"));
        }
    }

    #[test]
    fn write_all_writes_one_file_per_plotted_unit() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("plots");
        let mut skipped = sin_unit();
        skipped.function = "cos".into();
        skipped.status = Status::Skip;
        let mut wide = sin_unit();
        wide.width = 4;
        let written = write_all(
            &out,
            &[sin_unit(), skipped, pow_unit(), wide],
            KernelPath::Vulkan,
        )
        .unwrap();
        let names: Vec<String> = written
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["sin_float_w1.svg", "pow_float_w1.svg", "sin_float_w4.svg"]
        );
        for path in &written {
            assert_eq!(path.parent().unwrap(), out);
            let svg = std::fs::read_to_string(path).unwrap();
            parse(&svg);
            assert!(svg.contains("vulkan kernels, "), "{}", path.display());
        }
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 3);
    }
}
