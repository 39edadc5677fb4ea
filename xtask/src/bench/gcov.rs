//! Coverage from gcov: runs the gcov build of a program on tests and reads
//! the `.gcov` files (line and branch coverage of the program's own source,
//! as in the paper's §5.1).

use super::native::{self, Builds};
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What one `.gcov` file says about the program's source.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Executable lines (count is not `-`).
    pub lines: BTreeSet<u32>,
    /// Lines executed at least once.
    pub covered: BTreeSet<u32>,
    /// Every branch direction: (line, index within the line).
    pub branches: BTreeSet<(u32, u32)>,
    /// Branch directions taken at least once.
    pub taken: BTreeSet<(u32, u32)>,
}

impl Coverage {
    pub fn line_pct(&self) -> f64 {
        pct(self.covered.len(), self.lines.len())
    }
    pub fn branch_pct(&self) -> f64 {
        pct(self.taken.len(), self.branches.len())
    }
}

pub fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// Parses gcov's text format (`gcov -b -c`): `count:line:source` records
/// and the `branch N taken M` lines that follow a source line.
pub fn parse(text: &str) -> Coverage {
    let mut c = Coverage::default();
    let mut current = 0u32;
    for l in text.lines() {
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix("branch") {
            // "branch  0 taken 5" / "branch  1 never executed" / "... (fallthrough)"
            let mut words = rest.split_whitespace();
            let Some(idx) = words.next().and_then(|w| w.parse::<u32>().ok()) else {
                continue;
            };
            c.branches.insert((current, idx));
            if words.next() == Some("taken") {
                let n = words
                    .next()
                    .map(|w| w.trim_end_matches('%'))
                    .and_then(|w| w.parse::<u64>().ok())
                    .unwrap_or(0);
                if n > 0 {
                    c.taken.insert((current, idx));
                }
            }
            continue;
        }
        let mut parts = l.splitn(3, ':');
        let (Some(count), Some(line)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(line) = line.trim().parse::<u32>() else {
            continue;
        };
        let count = count.trim();
        if line == 0 || count == "-" || count.is_empty() {
            continue;
        }
        // Lines of a function never called are "#####" (or "=====" for
        // exceptional paths); counts may end in "*" (a block not fully run).
        if count.starts_with("call") || count.starts_with("function") {
            continue;
        }
        current = line;
        c.lines.insert(line);
        let n = count.trim_end_matches('*');
        if n.chars().all(|ch| ch.is_ascii_digit()) && n.parse::<u64>().is_ok_and(|v| v > 0) {
            c.covered.insert(line);
        }
    }
    c
}

fn clear_counters(dir: &Path) -> Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "gcda") {
            std::fs::remove_file(&p)?;
        }
    }
    Ok(())
}

/// Runs gcov on the program `src` of the gcov build; returns the text of
/// `<file>.gcov` (written into the build directory, or to stdout).
fn gcov_text(b: &Builds, src: &Path, to_stdout: bool) -> Result<String> {
    let stem = src
        .file_stem()
        .and_then(|s| s.to_str())
        .context("program file name")?;
    let mut cmd = Command::new("gcov");
    cmd.current_dir(&b.cov_dir).args(["-b", "-c"]);
    if to_stdout {
        cmd.arg("-t");
    }
    cmd.arg("-o").arg(&b.cov_dir).arg(format!("{stem}.o"));
    let out = cmd.output().context("running gcov (install gcc)")?;
    if !out.status.success() {
        bail!(
            "gcov failed in {}: {}",
            b.cov_dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    if to_stdout {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let name = src
        .file_name()
        .and_then(|s| s.to_str())
        .context("program file name")?;
    let file = b.cov_dir.join(format!("{name}.gcov"));
    std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))
}

/// Coverage of one test alone.
pub fn of_test(b: &Builds, src: &Path, ktest: &Path) -> Result<Coverage> {
    clear_counters(&b.cov_dir)?;
    native::run_test(b, &b.cov_bin, ktest, native::REPLAY_TIMEOUT)?;
    Ok(parse(&gcov_text(b, src, true)?))
}

/// Runs all `tests` on the gcov build, one after the other, and copies the
/// resulting `.gcov` file to `dest`; returns what it says.
pub fn of_all(b: &Builds, src: &Path, tests: &[PathBuf], dest: &Path) -> Result<Coverage> {
    clear_counters(&b.cov_dir)?;
    for t in tests {
        native::run_test(b, &b.cov_bin, t, native::REPLAY_TIMEOUT)?;
    }
    let text = gcov_text(b, src, false)?;
    std::fs::write(dest, &text).with_context(|| format!("writing {}", dest.display()))?;
    Ok(parse(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_and_branches() {
        let text = "        -:    0:Source:p.c\n\
                    -:    1:#include \"symtest.h\"\n\
                    function main called 1 returned 100% blocks executed 80%\n\
                    1:    4:int main(void) {\n\
                    call    0 returned 1\n\
                    1*:    5:  if (x == 1)\n\
                    branch  0 taken 0 (fallthrough)\n\
                    branch  1 taken 1\n\
                    #####:    6:    return 3;\n\
                    1:    7:  return 0;\n";
        let c = parse(text);
        assert_eq!(c.lines.iter().copied().collect::<Vec<_>>(), [4, 5, 6, 7]);
        assert_eq!(c.covered.iter().copied().collect::<Vec<_>>(), [4, 5, 7]);
        assert_eq!(c.branches.len(), 2);
        assert_eq!(c.taken.iter().copied().collect::<Vec<_>>(), [(5, 1)]);
        assert_eq!(c.line_pct(), 75.0);
        assert_eq!(c.branch_pct(), 50.0);
    }
}
