//! `cargo symtest inspect FILE.bc`: what the loader sees.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// LLVM 19 bitcode file (from `clang-19 -emit-llvm -c`).
    pub program: PathBuf,
    /// List every construct the engine cannot execute (unsupported instructions,
    /// intrinsics and inline assembly) with its function and source line, instead of
    /// the function table; exit 1 if there is any.
    #[arg(long)]
    pub unsupported: bool,
    /// Give up loading after this many seconds (default 300).
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// Address-space limit of loading in MiB (at least 256).
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub max_memory: u64,
}

pub fn run(a: InspectArgs) -> Result<u8> {
    let clock = std::time::Instant::now();
    let limits = match limits(&a, clock) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    let name = a.program.display().to_string();
    // The rest runs in a supervised child (see supervise.rs).
    let loading = match crate::supervise::supervise(clock, &limits, &name) {
        Ok(crate::supervise::Role::Parent(code)) => return Ok(code),
        Ok(crate::supervise::Role::Child(l)) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    let module = match crate::loading::read_bitcode(&a.program, &limits)
        .and_then(|b| symtest_loader::load_bitcode_bytes(&b, &name).map_err(|e| e.to_string()))
    {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
    loading.done();
    if a.unsupported {
        let sites = module.unsupported();
        for s in &sites {
            println!("{}: {}: {}", module.describe_loc(s.loc), s.function, s.what);
        }
        println!(
            "{}: {} unsupported construct(s)",
            a.program.display(),
            sites.len()
        );
        return Ok(u8::from(!sites.is_empty()));
    }
    let summaries = module.summaries();
    println!(
        "{}: {} defined functions, {} declarations, {} globals, {} instructions",
        a.program.display(),
        summaries.len(),
        module.functions.len() - summaries.len(),
        module.globals.len(),
        module.instruction_count()
    );
    println!("{:<40} {:>8} {:>12}", "function", "blocks", "instructions");
    for s in summaries {
        println!("{:<40} {:>8} {:>12}", s.name, s.blocks, s.instructions);
    }
    Ok(0)
}

/// The loading limits of the options. Err: one line.
fn limits(a: &InspectArgs, clock: std::time::Instant) -> Result<crate::loading::Limits, String> {
    let max_time = a
        .max_time
        .map(|t| crate::exec::seconds("max-time", t))
        .transpose()?;
    if max_time.is_some_and(|t| t.is_zero()) {
        return Err("--max-time must be positive".into());
    }
    crate::loading::check_memory(a.max_memory)?;
    Ok(crate::loading::Limits::new(clock, max_time, a.max_memory))
}
