//! Draws the pipeline's [`Event`]s on the main thread: cargo-style status
//! lines and indicatif bars (only when stderr is a terminal), nothing but
//! errors with `-q`, or one JSON object per line on stdout with
//! `--message-format json`.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::time::Duration;
use symtest_project::progress::{Event, Level, Phase};
use symtest_project::report::Status;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

pub struct Reporter {
    format: MessageFormat,
    quiet: bool,
    verbose: bool,
    color: bool,
    /// Bars are drawn (a terminal, human format, not quiet); they appear once
    /// the number of targets is known.
    bars_on: bool,
    multi: Option<MultiProgress>,
    overall: Option<ProgressBar>,
    bars: HashMap<String, ProgressBar>,
}

impl Reporter {
    pub fn new(format: MessageFormat, quiet: bool, verbose: bool, color: Color) -> Reporter {
        let tty = std::io::stderr().is_terminal();
        let color = match color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => tty && std::env::var_os("NO_COLOR").is_none(),
        };
        Reporter {
            format,
            quiet,
            verbose,
            color,
            bars_on: tty && !quiet && format == MessageFormat::Human,
            multi: None,
            overall: None,
            bars: HashMap::new(),
        }
    }

    fn start(&mut self, targets: usize) {
        if !self.bars_on || self.multi.is_some() {
            return;
        }
        let m = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let o = m.add(ProgressBar::new(targets as u64));
        o.set_style(
            ProgressStyle::with_template("    Overall [{bar:30}] {pos}/{len} targets  {elapsed}")
                .expect("template")
                .progress_chars("=> "),
        );
        o.enable_steady_tick(Duration::from_millis(250));
        self.multi = Some(m);
        self.overall = Some(o);
    }

    fn status(&self, verb: &str, text: &str, level: Level) {
        if self.quiet && level != Level::Error {
            return;
        }
        let code = match level {
            Level::Info => "1;32",
            Level::Warning => "1;33",
            Level::Error => "1;31",
        };
        let line = if self.color {
            format!("\x1b[{code}m{verb:>12}\x1b[0m {text}")
        } else {
            format!("{verb:>12} {text}")
        };
        match &self.multi {
            Some(m) => {
                let _ = m.println(line);
            }
            None => eprintln!("{line}"),
        }
    }

    fn json(&self, e: &Event) {
        if let Ok(s) = serde_json::to_string(e) {
            println!("{s}");
        }
    }

    pub fn event(&mut self, e: Event) {
        if self.format == MessageFormat::Json {
            self.json(&e);
            if let Event::TargetFinished { .. } = e {
                return;
            }
            if let Event::WaitingForLock { dir, .. } = &e {
                eprintln!(
                    "Blocking waiting for another cargo symtest to finish with {}",
                    dir.display()
                );
            }
            if let Event::Message {
                level: Level::Error,
                target,
                text,
            } = &e
            {
                eprintln!("error: {target}: {text}");
            }
            return;
        }
        match e {
            Event::WaitingForLock { dir, holder } => {
                // One line, as Cargo's "Blocking waiting for file lock".
                let by = holder.map_or_else(String::new, |p| format!(" (held by process {p})"));
                self.status(
                    "Blocking",
                    &format!(
                        "waiting for another cargo symtest to finish with {}{by}",
                        dir.display()
                    ),
                    Level::Warning,
                );
            }
            Event::Started {
                targets,
                crosschecks,
            } => self.start(targets + crosschecks),
            Event::Phase {
                target,
                phase,
                detail,
            } => {
                self.status(phase.verb(), &format!("{target} {detail}"), Level::Info);
                if phase == Phase::Exploring {
                    if let Some(m) = &self.multi {
                        let b = m.insert_before(
                            self.overall.as_ref().expect("with multi"),
                            ProgressBar::new_spinner(),
                        );
                        b.set_style(
                            ProgressStyle::with_template("{spinner} {prefix:>12} {msg}")
                                .expect("template"),
                        );
                        b.set_prefix(target.clone());
                        b.enable_steady_tick(Duration::from_millis(200));
                        self.bars.insert(target, b);
                    }
                } else if let Some(b) = self.bars.remove(&target) {
                    b.finish_and_clear();
                }
            }
            Event::Progress { target, live } => {
                if let Some(b) = self.bars.get(&target) {
                    b.set_message(format!(
                        "{:.0}s/{:.0}s  {} paths  {} tests  {} lines  {} bugs",
                        live.elapsed_s,
                        live.budget_s,
                        live.paths,
                        live.tests,
                        live.covered_lines,
                        live.bugs
                    ));
                } else if self.verbose && self.multi.is_none() {
                    eprintln!(
                        "             {target}: {:.0}s/{:.0}s  {} paths  {} tests  {} lines  {} bugs",
                        live.elapsed_s, live.budget_s, live.paths, live.tests, live.covered_lines, live.bugs
                    );
                }
            }
            Event::Message {
                target,
                level,
                text,
            } => {
                let verb = match level {
                    Level::Info => "Note",
                    Level::Warning => "Warning",
                    Level::Error => "Error",
                };
                if level != Level::Info || self.verbose {
                    self.status(verb, &format!("{target}: {text}"), level);
                }
            }
            Event::TargetFinished { report } => {
                if let Some(b) = self.bars.remove(&report.name) {
                    b.finish_and_clear();
                }
                if let Some(o) = &self.overall {
                    o.inc(1);
                }
                let level = if report.status == Status::Ok {
                    Level::Info
                } else {
                    Level::Error
                };
                let text = match report.status {
                    Status::Ok => format!(
                        "{} in {:.1}s: {} tests kept of {}, {} bugs",
                        report.name,
                        report.total_s,
                        report.tests_kept,
                        report.tests_written,
                        report.bugs.len()
                    ),
                    s => format!("{}: {}", report.name, s.as_str()),
                };
                self.status("Finished", &text, level);
            }
            Event::CrosscheckFinished { report } => {
                if let Some(b) = self.bars.remove(&report.name) {
                    b.finish_and_clear();
                }
                if let Some(o) = &self.overall {
                    o.inc(1);
                }
                let level = match report.status {
                    Status::Ok if report.unconfirmed() > 0 => Level::Warning,
                    Status::Ok => Level::Info,
                    _ => Level::Error,
                };
                self.status("Finished", &report.line(), level);
            }
        }
    }

    /// Removes the bars.
    pub fn clear(&mut self) {
        if let Some(o) = self.overall.take() {
            o.finish_and_clear();
        }
        if let Some(m) = self.multi.take() {
            let _ = m.clear();
        }
    }

    /// Clears the bars; prints the summary (human mode) or the closing event (JSON).
    pub fn finish(&mut self, summary: &str, closing: serde_json::Value) {
        self.clear();
        match self.format {
            MessageFormat::Json => println!("{closing}"),
            MessageFormat::Human if !self.quiet => print!("{summary}"),
            MessageFormat::Human => {}
        }
    }
}
