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
}

pub fn run(a: InspectArgs) -> Result<u8> {
    let module = match symtest_loader::load_bitcode(&a.program) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
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
