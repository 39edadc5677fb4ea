//! `cargo symtest why TARGET [FILE:LINE]`: why the last run's kept tests do
//! not cover a target's lines and branch sides (its `coverage/why.json`).

use crate::project_cmd::SelectArgs;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct WhyArgs {
    /// The target (as in symtest.toml).
    pub target: String,
    /// Only this line (and its branch sides): `FILE:LINE`, FILE as the report
    /// names it (relative to the project root) or its last components.
    pub location: Option<String>,
    /// Where the per-target results are (default `symtest-out/` at the project root).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Use this symtest.toml instead of discovering targets.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Only the targets of this package (repeatable).
    #[arg(short = 'p', long = "package", value_name = "SPEC")]
    pub packages: Vec<String>,
    /// Print the whole report as JSON (its `why.json`).
    #[arg(long, conflicts_with = "location")]
    pub json: bool,
}

fn bad(msg: String) -> Result<u8> {
    eprintln!("error: {msg}");
    Ok(crate::EXIT_BAD_INPUT)
}

pub fn run(a: WhyArgs) -> Result<u8> {
    let select = SelectArgs {
        packages: a.packages.clone(),
        workspace: false,
        config: a.config.clone(),
        targets: vec![a.target.clone()],
    };
    let project = match symtest_project::select(&select.selection()) {
        Ok(p) => p,
        Err(e) => return bad(e.to_string()),
    };
    let (out_root, _) = match symtest_project::run::locations(&project, a.out_dir.as_deref(), None)
    {
        Ok(l) => l,
        Err(e) => return bad(e.to_string()),
    };
    let dir = out_root.join(&a.target);
    if !dir.join("summary.json").is_file() {
        return bad(format!(
            "no results for target `{}` in {} (run `cargo symtest` first)",
            a.target,
            out_root.display()
        ));
    }
    let report = match symtest_project::why::read(&dir) {
        Ok(r) => r,
        Err(e) => {
            return bad(format!(
                "{e} (the results of `{}` predate `why` reports: run `cargo symtest` again)",
                a.target
            ))
        }
    };
    if dir.join(symtest_project::pipeline::STALE_MARKER).is_file() {
        eprintln!(
            "warning: the results of `{}` are stale: the last run failed (see {})",
            a.target,
            dir.join(symtest_project::pipeline::STALE_MARKER).display()
        );
    }
    let Some(loc) = &a.location else {
        if a.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print!("{}", symtest_project::why::text(&report));
        }
        return Ok(0);
    };
    let Some((file, line)) = loc
        .rsplit_once(':')
        .and_then(|(f, l)| Some((f, l.parse::<u32>().ok().filter(|l| *l > 0)?)))
    else {
        return bad(format!("`{loc}` is not FILE:LINE (e.g. src/echo.c:120)"));
    };
    match symtest_project::why::line_text(&report, file, line) {
        Ok(t) => {
            print!("{t}");
            Ok(0)
        }
        Err(e) => bad(e),
    }
}
