//! A [`Figure`] drawn as SVG with `plotters` (its SVG backend alone): a
//! horizontal bar chart, one band per category, one bar per series in a
//! band, whiskers for intervals, the title on top and both axes labelled.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::Figure;

/// Series colours, told apart in colour-blind vision too.
const PALETTE: [RGBColor; 4] = [
    RGBColor(0x1b, 0x6c, 0xa8),
    RGBColor(0xe0, 0x8a, 0x1e),
    RGBColor(0x3a, 0x9d, 0x5d),
    RGBColor(0xb8, 0x4a, 0x62),
];

const WIDTH: u32 = 760;

/// Why a figure could not be drawn: plotters' own error, as text.
#[derive(Debug, thiserror::Error)]
#[error("drawing `{figure}`: {reason}")]
pub struct DrawError {
    pub figure: String,
    pub reason: String,
}

/// The widest value a figure's axis must hold: 1 for shares, else a tenth
/// more than the largest value or bound.
fn x_max(fig: &Figure) -> f64 {
    let values = fig.series.iter().flat_map(|s| {
        s.values
            .iter()
            .copied()
            .chain(s.intervals.iter().flatten().map(|(_, hi)| *hi))
    });
    let (mut max, mut fractional) = (0.0f64, false);
    for v in values {
        max = max.max(v);
        fractional |= v.fract() != 0.0;
    }
    if fractional && max <= 1.0 {
        1.0
    } else if fractional {
        max * 1.1
    } else {
        // Counts: whole numbers, one more than the largest.
        (max + 1.0).max(2.0).ceil()
    }
}

/// A value of the horizontal axis: shares to two places, counts whole
/// (and nothing at a tick between two whole numbers).
fn tick(x: f64, shares: bool) -> String {
    if shares {
        format!("{x:.1}")
    } else if x.fract().abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

fn label_width(fig: &Figure) -> u32 {
    let longest = fig
        .categories
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
    (longest as u32 * 7 + 24).clamp(60, 340)
}

/// The figure as an SVG document.
pub fn draw(fig: &Figure) -> Result<String, DrawError> {
    let err = |e: &dyn std::fmt::Display| DrawError {
        figure: fig.id.clone(),
        reason: e.to_string(),
    };
    let n = fig.categories.len().max(1);
    let per_band = (fig.series.len() as u32 * 14 + 10).max(24);
    let legend = if fig.series.len() > 1 { 24 } else { 0 };
    let height = 110 + legend + per_band * n as u32;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let max = x_max(fig);
        let mut chart = ChartBuilder::on(&root)
            .caption(&fig.title, ("sans-serif", 18))
            .margin(10)
            .margin_right(24)
            .x_label_area_size(44)
            .y_label_area_size(label_width(fig) + 22)
            .build_cartesian_2d(0f64..max, 0f64..n as f64)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc(fig.x_label.as_str())
            .y_desc(fig.y_label.as_str())
            .y_labels(0)
            .x_label_formatter(&|x| tick(*x, max <= 1.0))
            .x_labels(if max <= 1.0 {
                11
            } else {
                (max as usize + 1).min(11)
            })
            .light_line_style(TRANSPARENT)
            .axis_desc_style(("sans-serif", 14))
            .label_style(("sans-serif", 12))
            .draw()
            .map_err(|e| err(&e))?;
        bars(&mut chart, fig, n).map_err(|e| err(&e))?;
        // The categories, right-aligned left of the axis at each band's middle.
        let style = TextStyle::from(("sans-serif", 12).into_font())
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (i, name) in fig.categories.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(0.0, (n - 1 - i) as f64 + 0.5));
            root.draw(&Text::new(name.as_str(), (x - 6, y), style.clone()))
                .map_err(|e| err(&e))?;
        }
        if legend > 0 {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.3))
                .label_font(("sans-serif", 12))
                .draw()
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
    }
    Ok(out)
}

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// The bars, their whiskers and the series' legend entries. Category `i`
/// is drawn at the top (band `n-1-i`).
fn bars(
    chart: &mut Chart,
    fig: &Figure,
    n: usize,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let k = fig.series.len().max(1) as f64;
    let slot = 0.8 / k;
    for (s, series) in fig.series.iter().enumerate() {
        let color = PALETTE[s % PALETTE.len()];
        let band = |i: usize| (n - 1 - i) as f64 + 0.1 + slot * (k - 1.0 - s as f64);
        let rects = series.values.iter().enumerate().map(|(i, &v)| {
            let y0 = band(i);
            Rectangle::new(
                [(0.0, y0 + slot * 0.08), (v, y0 + slot * 0.92)],
                color.filled(),
            )
        });
        chart
            .draw_series(rects)?
            .label(series.name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
        // Each bar's value just right of its end (of its whisker, with one).
        let value_style =
            TextStyle::from(("sans-serif", 10).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        let values = series.values.iter().enumerate().map(|(i, &v)| {
            let end = series
                .intervals
                .as_ref()
                .and_then(|iv| iv.get(i))
                .map_or(v, |iv| iv.1);
            let text = if v.fract() == 0.0 {
                format!("{v:.0}")
            } else {
                format!("{v:.2}")
            };
            Text::new(text, (end, band(i) + slot / 2.0), value_style.clone())
        });
        chart.draw_series(values)?;
        if let Some(intervals) = &series.intervals {
            let whiskers = intervals.iter().enumerate().flat_map(|(i, &(lo, hi))| {
                let y = band(i) + slot / 2.0;
                let cap = slot * 0.3;
                [
                    PathElement::new(vec![(lo, y), (hi, y)], BLACK.stroke_width(2)),
                    PathElement::new(vec![(lo, y - cap), (lo, y + cap)], BLACK.stroke_width(2)),
                    PathElement::new(vec![(hi, y - cap), (hi, y + cap)], BLACK.stroke_width(2)),
                ]
            });
            chart.draw_series(whiskers)?;
        }
    }
    Ok(())
}
