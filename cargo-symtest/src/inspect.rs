//! `cargo symtest inspect FILE.bc`: what the loader sees.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// LLVM 19 bitcode file (from `clang-19 -emit-llvm -c`).
    pub program: PathBuf,
}

pub fn run(a: InspectArgs) -> Result<u8> {
    let module = match symtest_loader::load_bitcode(&a.program) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(crate::EXIT_BAD_INPUT);
        }
    };
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
