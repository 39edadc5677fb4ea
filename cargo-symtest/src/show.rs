//! `cargo symtest show FILE.ktest…`: print tests like KLEE's ktest-tool.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use symtest_ktest::KTest;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// .ktest files to print.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

pub fn run(a: ShowArgs) -> Result<u8> {
    let mut status = 0;
    for f in &a.files {
        match KTest::read_from(f) {
            Ok(k) => {
                println!("ktest file : '{}'", f.display());
                print!("{}", k.render());
            }
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                status = crate::EXIT_BAD_INPUT;
            }
        }
    }
    Ok(status)
}
