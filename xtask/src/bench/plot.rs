//! `coverage.svg`: line coverage over time for both tools — the average
//! over the programs (thick) and each program (thin) — from the cumulative
//! gcov coverage after each kept test, at the time the tool kept it.

use super::suite::{ProgramResult, ToolResult};
use anyhow::{anyhow, Result};
use plotters::prelude::*;
use std::path::Path;

/// Which tool's result of a program to draw.
type Pick = fn(&ProgramResult) -> &ToolResult;

/// Coverage of `t` at time `s`: the last timeline point at or before `s`.
pub fn at(t: &ToolResult, s: f64) -> f64 {
    t.timeline
        .iter()
        .take_while(|(ts, _)| *ts <= s)
        .last()
        .map_or(0.0, |(_, p)| *p)
}

/// Average over the programs, on a grid of `steps + 1` times in [0, end].
pub fn average_curve(
    rs: &[ProgramResult],
    tool: fn(&ProgramResult) -> &ToolResult,
    end: f64,
    steps: usize,
) -> Vec<(f64, f64)> {
    (0..=steps)
        .map(|i| {
            let s = end * i as f64 / steps as f64;
            let avg = if rs.is_empty() {
                0.0
            } else {
                rs.iter().map(|r| at(tool(r), s)).sum::<f64>() / rs.len() as f64
            };
            (s, avg)
        })
        .collect()
}

fn step_curve(t: &ToolResult, end: f64) -> Vec<(f64, f64)> {
    let mut pts = vec![(0.0, 0.0)];
    let mut last = 0.0;
    for &(s, p) in &t.timeline {
        pts.push((s, last));
        pts.push((s, p));
        last = p;
    }
    pts.push((end, last));
    pts
}

pub fn coverage_over_time(path: &Path, rs: &[ProgramResult]) -> Result<()> {
    let end = rs
        .iter()
        .map(|r| r.symtest.budget_s.max(r.random.budget_s))
        .fold(1.0, f64::max);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("plot: {e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Line coverage over time ({} programs, gcov)", rs.len()),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..end, 0.0..100.0)
        .map_err(|e| anyhow!("plot: {e}"))?;
    chart
        .configure_mesh()
        .x_desc("seconds")
        .y_desc("line coverage (%)")
        .draw()
        .map_err(|e| anyhow!("plot: {e}"))?;
    let tools: [(&str, Pick, RGBColor); 2] = [
        ("symtest", |r| &r.symtest, RGBColor(31, 119, 180)),
        ("random testing", |r| &r.random, RGBColor(214, 39, 40)),
    ];
    for (name, tool, color) in tools {
        for r in rs {
            chart
                .draw_series(LineSeries::new(step_curve(tool(r), end), color.mix(0.25)))
                .map_err(|e| anyhow!("plot: {e}"))?;
        }
        chart
            .draw_series(LineSeries::new(
                average_curve(rs, tool, end, 200),
                color.stroke_width(3),
            ))
            .map_err(|e| anyhow!("plot: {e}"))?
            .label(format!("{name} (average)"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| anyhow!("plot: {e}"))?;
    root.present().map_err(|e| anyhow!("plot: {e}"))?;
    Ok(())
}
