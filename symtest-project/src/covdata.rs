//! Native line and branch coverage: clang's source-based coverage
//! (`-fprofile-instr-generate -fcoverage-mapping`), each test's profile merged
//! by `llvm-profdata-19` and read back from `llvm-cov-19 export`, over the
//! executable lines gcov would list (`-ftest-coverage` notes, read by
//! `llvm-cov-19 gcov`).
//!
//! Why not gcov: clang's gcov instrumentation counts arcs on the complement of
//! a spanning tree and derives the rest by flow conservation. A block left
//! through a call that does not return (`exit`, `error`, gnulib's `die`, so
//! every error path of a real program) breaks conservation: gcov reports the
//! block as never run and credits the lines after the call instead (coreutils
//! `uniq`: the `die` of "error reading" counted 0, the two `free`s after it 1,
//! on a run that printed the error). Source-based coverage increments a
//! region's counter when the region starts, so such a block counts. The
//! denominator stays gcov's: the lines of the basic blocks (the lines the
//! engine's claim is made of).

use crate::toolchain::tool;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Line and branch counts of one source file.
#[derive(Clone, Debug, Default)]
pub struct FileCoverage {
    /// Executable lines and how often each ran.
    pub lines: BTreeMap<u32, u64>,
    /// (line, branch side index on that line) -> times taken.
    pub branches: BTreeMap<(u32, u32), u64>,
    /// (line, branch side index) -> the condition's extent: (column, end
    /// line, end column). Side `2k` is the `k`-th condition of the line
    /// holding, `2k + 1` the same condition failing.
    pub regions: BTreeMap<(u32, u32), (u32, u32, u32)>,
}

impl FileCoverage {
    pub fn covered_lines(&self) -> BTreeSet<u32> {
        self.lines
            .iter()
            .filter(|(_, c)| **c > 0)
            .map(|(l, _)| *l)
            .collect()
    }
    pub fn taken_branches(&self) -> BTreeSet<(u32, u32)> {
        self.branches
            .iter()
            .filter(|(_, c)| **c > 0)
            .map(|(b, _)| *b)
            .collect()
    }

    /// The file in gcov's text format (`count:line:source`), for tools and
    /// people used to `.gcov` files.
    pub fn gcov_text(&self, source_name: &str, source: &str) -> String {
        let mut out = format!("        -:    0:Source:{source_name}\n");
        for (i, text) in source.lines().enumerate() {
            let n = i as u32 + 1;
            let count = match self.lines.get(&n) {
                None => "-".to_string(),
                Some(0) => "#####".to_string(),
                Some(c) => c.to_string(),
            };
            out.push_str(&format!("{count:>9}:{n:>5}:{text}\n"));
        }
        out
    }
}

fn llvm_cov() -> String {
    tool("SYMTEST_LLVM_COV", "llvm-cov-19")
}

fn llvm_profdata() -> String {
    tool("SYMTEST_LLVM_PROFDATA", "llvm-profdata-19")
}

fn output(cmd: &mut Command, what: &str) -> Result<Vec<u8>, String> {
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run {what} (install LLVM 19: `cargo xtask setup`): {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim_end()
        ));
    }
    Ok(o.stdout)
}

/// A path compared lexically (`.` and `..` resolved), for matching the
/// names the compiler recorded with the units' sources.
pub fn normalized(p: &Path) -> PathBuf {
    crate::capture::log::normalize(Path::new("/"), p)
}

/// What gcov's notes say of one source file: its lines with code, and the
/// functions starting on each line.
#[derive(Clone, Debug, Default)]
pub struct GcovLines {
    pub lines: BTreeSet<u32>,
    /// Line -> the functions gcov places there (a function a macro defines
    /// starts on the line of the macro's use).
    pub function_starts: BTreeMap<u32, Vec<String>>,
}

/// The executable lines of each `(source, object)` pair: the lines gcov lists
/// for `source` in the notes file (`.gcno`, written by `-ftest-coverage`
/// beside the object), i.e. the lines of its basic blocks. One `llvm-cov gcov`
/// run over every object (no counters needed).
pub fn executable_lines(objects: &[(PathBuf, PathBuf)]) -> Result<Vec<BTreeSet<u32>>, String> {
    Ok(gcov_lines(objects)?.into_iter().map(|g| g.lines).collect())
}

/// [`executable_lines`], with the line each function starts on.
pub fn gcov_lines(objects: &[(PathBuf, PathBuf)]) -> Result<Vec<GcovLines>, String> {
    if objects.is_empty() {
        return Ok(Vec::new());
    }
    let dir = std::env::temp_dir();
    let text = output(
        Command::new(llvm_cov())
            .args(["gcov", "-t", "-b"])
            .args(objects.iter().map(|(_, o)| o))
            .current_dir(&dir),
        "llvm-cov-19 gcov",
    )?;
    let text = String::from_utf8_lossy(&text);
    let sections = gcov_sections(&text);
    Ok(objects
        .iter()
        .map(|(src, _)| {
            let want = normalized(src);
            let canonical = src.canonicalize().ok();
            // Every unit's notes for the file: a file another unit includes
            // (gnulib's xstrtoumax.c includes xstrtol.c with an unsigned
            // type) has code there that its own unit compiles out.
            let mut merged = GcovLines::default();
            for (name, g) in &sections {
                let n = normalized(Path::new(name));
                if n == want || (canonical.is_some() && n.canonicalize().ok() == canonical) {
                    merged.lines.extend(g.lines.iter().copied());
                    for (line, fs) in &g.function_starts {
                        let e = merged.function_starts.entry(*line).or_default();
                        for f in fs {
                            if !e.contains(f) {
                                e.push(f.clone());
                            }
                        }
                    }
                }
            }
            merged
        })
        .collect())
}

/// gcov's text output over several files (`-b`: with a `function NAME
/// called ...` line before each function's first line): (the file each
/// `Source:` header names, its lines with code and where functions start).
fn gcov_sections(text: &str) -> Vec<(String, GcovLines)> {
    let mut out: Vec<(String, GcovLines)> = Vec::new();
    let mut starting: Vec<String> = Vec::new();
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("function ") {
            if let Some(name) = rest.split_whitespace().next() {
                starting.push(name.to_string());
            }
            continue;
        }
        let mut parts = l.splitn(3, ':');
        let (Some(count), Some(num), rest) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let Ok(n) = num.trim().parse::<u32>() else {
            continue;
        };
        if n == 0 {
            if let Some(src) = rest.and_then(|r| r.strip_prefix("Source:")) {
                out.push((src.to_string(), GcovLines::default()));
            }
            continue;
        }
        if let Some((_, g)) = out.last_mut() {
            if count.trim() != "-" {
                g.lines.insert(n);
            }
            if !starting.is_empty() {
                g.function_starts
                    .entry(n)
                    .or_default()
                    .append(&mut starting);
            }
        }
    }
    out
}

/// Merges raw profiles into one indexed profile.
pub fn merge(profraws: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut list = String::new();
    for p in profraws {
        list.push_str(&p.display().to_string());
        list.push('\n');
    }
    let list_file = out.with_extension("list");
    std::fs::write(&list_file, list)
        .map_err(|e| format!("writing {}: {e}", list_file.display()))?;
    output(
        Command::new(llvm_profdata())
            .args(["merge", "-sparse", "-f"])
            .arg(&list_file)
            .arg("-o")
            .arg(out),
        "llvm-profdata-19 merge",
    )?;
    let _ = std::fs::remove_file(&list_file);
    Ok(())
}

/// One file of `llvm-cov export`: its coverage segments and branches.
#[derive(Debug, Deserialize)]
pub struct ExportFile {
    pub filename: String,
    /// `[line, col, count, has_count, is_region_entry, is_gap_region]`.
    segments: Vec<(u32, u32, u64, bool, bool, bool)>,
    /// `[line, col, end_line, end_col, true_count, false_count, ...]`.
    #[serde(default)]
    branches: Vec<Vec<serde_json::Value>>,
    /// Each function of the file: (the line its body ends on, how often it ran).
    #[serde(skip)]
    function_ends: Vec<(u32, u64)>,
    /// Each function of the file: (its name, without the `file:` prefix of a
    /// static function, how often it ran).
    #[serde(skip)]
    function_counts: Vec<(String, u64)>,
}

#[derive(Deserialize)]
struct Export {
    data: Vec<ExportData>,
}

#[derive(Deserialize)]
struct ExportData {
    files: Vec<ExportFile>,
    #[serde(default)]
    functions: Vec<ExportFunction>,
}

#[derive(Deserialize)]
struct ExportFunction {
    count: u64,
    filenames: Vec<String>,
    #[serde(default)]
    name: String,
    /// `[line, col, end_line, end_col, count, file_id, expanded_file_id, kind]`;
    /// the first is the body.
    regions: Vec<Vec<u64>>,
}

/// `llvm-cov export` of `binary` under `profdata`, parsed: the files of
/// `sources` (every file when it is empty).
pub fn export(
    binary: &Path,
    profdata: &Path,
    sources: &[&Path],
) -> Result<Vec<ExportFile>, String> {
    let text = output(
        Command::new(llvm_cov())
            .args(["export", "-format=text", "-skip-expansions"])
            .arg(binary)
            .arg(format!("-instr-profile={}", profdata.display()))
            .args(sources),
        "llvm-cov-19 export",
    )?;
    parse_export(&text)
}

/// What a binary's coverage mapping says of its functions, whatever runs:
/// read once per build (one `llvm-cov export` under an empty profile) so
/// that each test's export can name only the files the functions it ran
/// touch and leave out the list of functions (both of which cost more than
/// the rest on a large program: busybox's 563 files and 19,000 functions
/// made 16 MB of JSON per test). Each test's function counts then come from
/// its profile ([`profile_counts`]): the count llvm-cov gives a function is
/// its first region's, clang's entry counter, the profile's `Function count`.
#[derive(Debug, Default)]
pub struct FunctionMap {
    /// The records of the export, in its order.
    records: Vec<MappedFunction>,
    /// A profile's name of a function -> its records: the export's name,
    /// and `<first file>:<name>` for a name llvm-cov stripped of that prefix.
    by_name: HashMap<String, Vec<usize>>,
    /// Each file's records whose body is in it, in the export's order (as
    /// [`parse_export`] attaches them).
    by_file: HashMap<String, Vec<usize>>,
}

#[derive(Debug)]
struct MappedFunction {
    /// Without the `file:` prefix of a static function.
    bare: String,
    /// Every file its regions lie in (expansions, included code).
    files: Vec<String>,
    /// The line its body ends on, when the body is in its first file.
    end: Option<u32>,
}

/// One test's profile resolved against a [`FunctionMap`]: the files whose
/// coverage its functions can change, and the count of each function that ran.
#[derive(Debug, Default)]
pub struct Selection {
    /// The files (as the coverage mapping names them) any function with a
    /// non-zero counter has a region in; every other file's lines and
    /// branches all count zero.
    pub files: BTreeSet<String>,
    /// Record -> the function's count; records absent ran 0 times.
    counts: HashMap<usize, u64>,
}

impl FunctionMap {
    /// The functions of `binary`'s coverage mapping. `scratch` is a directory
    /// for the empty profile; `source` any one file, so that the export's
    /// files (which are not needed) stay small.
    pub fn read(binary: &Path, scratch: &Path, source: &Path) -> Result<FunctionMap, String> {
        let text = scratch.join("empty.proftext");
        let profile = scratch.join("empty.profdata");
        std::fs::write(&text, "").map_err(|e| format!("writing {}: {e}", text.display()))?;
        output(
            Command::new(llvm_profdata())
                .args(["merge", "-o"])
                .arg(&profile)
                .arg(&text),
            "llvm-profdata-19 merge",
        )?;
        let json = output(
            Command::new(llvm_cov())
                .args(["export", "-format=text", "-skip-expansions"])
                .arg(binary)
                .arg(format!("-instr-profile={}", profile.display()))
                .arg(source),
            "llvm-cov-19 export",
        );
        let _ = std::fs::remove_file(&text);
        let _ = std::fs::remove_file(&profile);
        FunctionMap::parse(&json?)
    }

    /// The map of an export's `functions` (any profile: its counts are not read).
    pub fn parse(json: &[u8]) -> Result<FunctionMap, String> {
        let e: Export =
            serde_json::from_slice(json).map_err(|e| format!("reading llvm-cov's export: {e}"))?;
        let mut map = FunctionMap::default();
        for f in e.data.iter().flat_map(|d| &d.functions) {
            let i = map.records.len();
            let first = f.filenames.first();
            let body = f.regions.first();
            // As `parse_export`: a body in the function's first file.
            let end = match (first, body) {
                (Some(_), Some(b)) if b.get(5) == Some(&0) => b.get(2).map(|&e| e as u32),
                _ => None,
            };
            let mut files: Vec<String> = Vec::new();
            for name in &f.filenames {
                if !files.contains(name) {
                    files.push(name.clone());
                }
            }
            map.by_name.entry(f.name.clone()).or_default().push(i);
            if let Some(first) = first {
                if end.is_some() {
                    map.by_file.entry(first.clone()).or_default().push(i);
                }
                // llvm-cov strips a static function's `file:` prefix when it
                // is the function's first file; the profile keeps it.
                let prefixed = format!("{first}:{}", f.name);
                if !f.name.starts_with(&format!("{first}:")) {
                    map.by_name.entry(prefixed).or_default().push(i);
                }
            }
            map.records.push(MappedFunction {
                bare: f.name.rsplit(':').next().unwrap_or(&f.name).to_string(),
                files,
                end,
            });
        }
        Ok(map)
    }

    /// Every file a function has a region in.
    pub fn files(&self) -> BTreeSet<&str> {
        self.records
            .iter()
            .flat_map(|r| r.files.iter().map(String::as_str))
            .collect()
    }

    /// The files and counts of a profile's functions (`counts`, from
    /// [`profile_counts`]); `None` when a function cannot be told apart: a
    /// name the mapping does not hold, or holds for several functions, or
    /// one the profile holds twice. The caller then reads everything.
    pub fn select(&self, counts: &[(String, u64)]) -> Option<Selection> {
        let mut sel = Selection::default();
        for (name, count) in counts {
            let [i] = self.by_name.get(name)?.as_slice() else {
                return None;
            };
            if sel.counts.insert(*i, *count).is_some() {
                return None;
            }
            sel.files.extend(self.records[*i].files.iter().cloned());
        }
        Some(sel)
    }

    /// Gives the files of an export made with `-skip-functions` what
    /// [`parse_export`] reads from the functions of a full one: each
    /// function's body end and count, under `sel`.
    pub fn attach(&self, files: &mut [ExportFile], sel: &Selection) {
        for file in files {
            let Some(records) = self.by_file.get(&file.filename) else {
                continue;
            };
            for &i in records {
                let r = &self.records[i];
                let count = sel.counts.get(&i).copied().unwrap_or(0);
                if let Some(end) = r.end {
                    file.function_ends.push((end, count));
                    file.function_counts.push((r.bare.clone(), count));
                }
            }
        }
    }
}

/// Each function of an indexed profile and its count (`llvm-profdata show
/// --all-functions`: the first counter of a function of clang's
/// instrumentation, its entry). A sparse profile holds only the functions
/// that ran.
pub fn profile_counts(profdata: &Path) -> Result<Vec<(String, u64)>, String> {
    let text = output(
        Command::new(llvm_profdata())
            .args(["show", "--all-functions"])
            .arg(profdata),
        "llvm-profdata-19 show",
    )?;
    parse_profile_counts(&String::from_utf8_lossy(&text))
}

fn parse_profile_counts(text: &str) -> Result<Vec<(String, u64)>, String> {
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut name: Option<&str> = None;
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("    ") {
            if let Some(c) = rest.strip_prefix("Function count: ") {
                let c = c
                    .trim()
                    .parse()
                    .map_err(|e| format!("llvm-profdata show: `{l}`: {e}"))?;
                let n = name.take().ok_or_else(|| {
                    format!("llvm-profdata show: a count without a function: `{l}`")
                })?;
                out.push((n.to_string(), c));
            }
        } else if let Some(n) = l.strip_prefix("  ").and_then(|r| r.strip_suffix(':')) {
            if name.is_some() {
                return Err(format!(
                    "llvm-profdata show: no count for `{}`",
                    name.unwrap_or_default()
                ));
            }
            name = Some(n);
        } else if !l.starts_with(' ') && name.is_some() {
            break;
        }
    }
    if let Some(n) = name {
        return Err(format!("llvm-profdata show: no count for `{n}`"));
    }
    Ok(out)
}

/// [`export`] of only the files of `sel` (names of `sources`, as the build
/// knows them: `selected`), without the functions, which `map` gives back.
/// `None` when llvm-cov finds a function whose profile does not match its
/// mapping (it leaves such a function out: the map cannot tell which).
/// One thread: the caller runs several.
pub fn export_selected(
    binary: &Path,
    profdata: &Path,
    selected: &[&Path],
    map: &FunctionMap,
    sel: &Selection,
) -> Result<Option<Vec<ExportFile>>, String> {
    if selected.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let o = Command::new(llvm_cov())
        .args([
            "export",
            "-format=text",
            "-skip-expansions",
            "-skip-functions",
            "-num-threads=1",
        ])
        .arg(binary)
        .arg(format!("-instr-profile={}", profdata.display()))
        .args(selected)
        .output()
        .map_err(|e| {
            format!("cannot run llvm-cov-19 export (install LLVM 19: `cargo xtask setup`): {e}")
        })?;
    if !o.status.success() {
        return Err(format!(
            "llvm-cov-19 export failed ({}):\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim_end()
        ));
    }
    if String::from_utf8_lossy(&o.stderr).contains("mismatched data") {
        return Ok(None);
    }
    let mut files = parse_export(&o.stdout)?;
    map.attach(&mut files, sel);
    Ok(Some(files))
}

pub fn parse_export(text: &[u8]) -> Result<Vec<ExportFile>, String> {
    let e: Export =
        serde_json::from_slice(text).map_err(|e| format!("reading llvm-cov's export: {e}"))?;
    let mut out = Vec::new();
    for d in e.data {
        let mut files = d.files;
        for f in &d.functions {
            let (Some(body), Some(name)) = (f.regions.first(), f.filenames.first()) else {
                continue;
            };
            if body.get(5) != Some(&0) {
                continue;
            }
            if let (Some(file), Some(&end)) =
                (files.iter_mut().find(|x| &x.filename == name), body.get(2))
            {
                file.function_ends.push((end as u32, f.count));
                let bare = f.name.rsplit(':').next().unwrap_or(&f.name);
                file.function_counts.push((bare.to_string(), f.count));
            }
        }
        out.extend(files);
    }
    Ok(out)
}

impl ExportFile {
    /// The counts of `executable` lines (gcov's lines of the file). A line's
    /// count is the largest of the region in effect where the line starts and
    /// of every region starting on it or resuming where its code begins
    /// (`switch (c)` after a gap), gaps between statements left out; a
    /// line no region maps (a function's header, before the body's region)
    /// takes the count of the next region that starts; a line that begins
    /// with a skipped range (a macro expanded there: `return EXIT_SUCCESS;`)
    /// keeps the count of the region around it, since it has code; and the
    /// line a function ends on counts each call (gcov's return block).
    pub fn coverage(&self, executable: &BTreeSet<u32>) -> FileCoverage {
        self.coverage_with(executable, &BTreeMap::new())
    }

    /// [`ExportFile::coverage`], where a line that no region maps and that
    /// starts functions (`function_starts`, from gcov's notes) counts their
    /// calls: a function a macro defines (coreutils' od: `PRINT_TYPE
    /// (print_char, unsigned char)`) has its regions on the macro's
    /// definition, and the line of the macro's use, where gcov and the
    /// engine place its code, would read 0 whichever test runs it.
    pub fn coverage_with(
        &self,
        executable: &BTreeSet<u32>,
        function_starts: &BTreeMap<u32, Vec<String>>,
    ) -> FileCoverage {
        let mut fc = FileCoverage::default();
        let segs = &self.segments;
        let mut next = 0usize;
        let mut wrapped: Option<&(u32, u32, u64, bool, bool, bool)> = None;
        for &line in executable {
            // Segments before this line: the last one is in effect at its start.
            while next < segs.len() && segs[next].0 < line {
                wrapped = Some(&segs[next]);
                next += 1;
            }
            // Every region starting on the line, and a region resuming where
            // the line's code begins (`switch (c)` after a gap); not one that
            // resumes after a region nested on the line ends (`return 0;` of
            // an `if` not taken, its `if` resuming after it).
            let on_line = segs[next..].iter().take_while(|s| s.0 == line);
            let starts: Vec<u64> = on_line
                .enumerate()
                .filter(|(k, s)| !s.5 && s.3 && (s.4 || *k == 0))
                .map(|(_, s)| s.2)
                .collect();
            let around = wrapped.filter(|w| w.3 && !w.5).map(|w| w.2);
            let calls = function_starts.get(&line).and_then(|names| {
                names
                    .iter()
                    .filter_map(|n| {
                        self.function_counts
                            .iter()
                            .find(|(f, _)| f == n)
                            .map(|(_, c)| *c)
                    })
                    .max()
            });
            let count = match (around, starts.iter().max()) {
                (None, None) if calls.is_some() => calls.unwrap_or(0),
                (None, None) => segs[next..]
                    .iter()
                    .find(|s| !s.5 && s.3 && s.4)
                    .map_or(0, |s| s.2),
                (a, s) => a.unwrap_or(0).max(s.copied().unwrap_or(0)),
            };
            // The line a function's body ends on (its closing brace) runs on
            // every return, as gcov counts it, not only when control falls
            // through to it.
            let returns = self
                .function_ends
                .iter()
                .filter(|(end, _)| *end == line)
                .map(|(_, c)| *c)
                .max()
                .unwrap_or(0);
            fc.lines.insert(line, count.max(returns));
        }
        let mut per_line: BTreeMap<u32, u32> = BTreeMap::new();
        for b in &self.branches {
            let get = |i: usize| b.get(i).and_then(|v| v.as_u64());
            let (Some(line), Some(t), Some(f)) = (get(0), get(4), get(5)) else {
                continue;
            };
            let line = line as u32;
            let k = per_line.entry(line).or_default();
            fc.branches.insert((line, *k), t);
            fc.branches.insert((line, *k + 1), f);
            let extent = (
                get(1).unwrap_or(0) as u32,
                get(2).map_or(line, |v| v as u32),
                get(3).unwrap_or(u64::from(u32::MAX)) as u32,
            );
            fc.regions.insert((line, *k), extent);
            fc.regions.insert((line, *k + 1), extent);
            *k += 2;
        }
        fc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcov_notes_list_each_file_s_lines_with_code() {
        let text = "        -:    0:Source:/p/suite/../src/a.c\n        -:    0:Graph:/o/a.gcno\n        -:    0:Data:-\n        -:    1:int x;\n    #####:    3:int f(void) {\n    #####:    4:  return 1;\n        -:    0:Source:/p/src/a.h\n    #####:    9:static int g;\n";
        let s = gcov_sections(text);
        assert_eq!(s.len(), 2);
        assert_eq!(normalized(Path::new(&s[0].0)), Path::new("/p/src/a.c"));
        assert_eq!(s[0].1.lines.iter().copied().collect::<Vec<_>>(), [3, 4]);
        assert_eq!(s[1].1.lines.iter().copied().collect::<Vec<_>>(), [9]);
    }

    /// `-b` names each function on the line before its first: a function a
    /// macro defines starts on the line of the macro's use, which no region
    /// maps; that line counts the function's calls.
    #[test]
    fn a_function_a_macro_defines_counts_on_the_line_of_its_use() {
        let text = "        -:    0:Source:/p/od.c\nfunction print_s_char called 0 returned 0% blocks executed 0%\n    #####:  472:PRINT_TYPE (print_s_char, signed char)\nbranch  0 never executed\nfunction print_char called 3 returned 100% blocks executed 80%\n        3:  473:PRINT_TYPE (print_char, unsigned char)\n";
        let s = gcov_sections(text);
        let g = &s[0].1;
        assert_eq!(g.lines.iter().copied().collect::<Vec<_>>(), [472, 473]);
        assert_eq!(g.function_starts[&472], ["print_s_char"]);
        assert_eq!(g.function_starts[&473], ["print_char"]);
        let f = ExportFile {
            filename: "/p/od.c".into(),
            // The functions' regions are on the macro's definition (433-460).
            segments: vec![
                (433, 73, 3, true, true, false),
                (460, 2, 0, false, false, false),
            ],
            branches: Vec::new(),
            function_ends: vec![(460, 0), (460, 3)],
            function_counts: vec![("print_s_char".into(), 0), ("print_char".into(), 3)],
        };
        let fc = f.coverage_with(&g.lines, &g.function_starts);
        assert_eq!(fc.lines[&472], 0);
        assert_eq!(fc.lines[&473], 3);
        // Without the notes' function lines the use's line reads 0.
        assert_eq!(f.coverage(&g.lines).lines[&473], 0);
    }

    #[test]
    fn profile_counts_by_function() {
        let text = "Counters:\n  main:\n    Hash: 0x0000000000000001\n    Counters: 3\n    Function count: 1\n  a.c:helper:\n    Hash: 0x00000000000000ff\n    Counters: 2\n    Function count: 4\nInstrumentation level: Front-end\nFunctions shown: 2\n";
        assert_eq!(
            parse_profile_counts(text).unwrap(),
            [("main".to_string(), 1), ("a.c:helper".to_string(), 4)]
        );
        // IR instrumentation has no entry count: not read.
        assert!(
            parse_profile_counts("Counters:\n  f:\n    Hash: 0x1\n    Counters: 1\n  g:\n")
                .is_err()
        );
    }

    /// The files of the functions that ran, each function's body end and
    /// count; a name the map cannot place gives up.
    #[test]
    fn a_profile_selects_the_files_of_its_functions() {
        let json = r#"{"data":[{"files":[],"functions":[
            {"name":"main","count":0,"filenames":["/p/a.c","/p/m.h"],"regions":[[3,1,9,2,0,0,0,0]]},
            {"name":"a.c:twice","count":0,"filenames":["/p/h.h"],"regions":[[1,30,5,2,0,0,0,0]]},
            {"name":"b.c:twice","count":0,"filenames":["/p/h.h"],"regions":[[1,30,5,2,0,0,0,0]]},
            {"name":"helper","count":0,"filenames":["/p/c.c","/p/b.c"],"regions":[[2,1,4,2,0,0,0,0]]},
            {"name":"b","count":0,"filenames":["/p/b.c"],"regions":[[3,1,7,2,0,0,0,0]]},
            {"name":"dup","count":0,"filenames":["/p/b.c"],"regions":[[8,1,9,2,0,0,0,0]]},
            {"name":"dup","count":0,"filenames":["/p/a.c"],"regions":[[11,1,12,2,0,0,0,0]]}
        ]}]}"#;
        let map = FunctionMap::parse(json.as_bytes()).unwrap();
        let counts = |v: &[(&str, u64)]| -> Vec<(String, u64)> {
            v.iter().map(|(n, c)| (n.to_string(), *c)).collect()
        };
        let sel = map
            .select(&counts(&[("main", 1), ("b.c:twice", 2)]))
            .unwrap();
        assert_eq!(
            sel.files.iter().map(String::as_str).collect::<Vec<_>>(),
            ["/p/a.c", "/p/h.h", "/p/m.h"]
        );
        // A file another includes is its includer's too.
        let sel = map.select(&counts(&[("/p/c.c:helper", 1)])).unwrap();
        assert_eq!(
            sel.files.iter().map(String::as_str).collect::<Vec<_>>(),
            ["/p/b.c", "/p/c.c"]
        );
        let sel = map.select(&counts(&[("b.c:twice", 2)])).unwrap();
        let mut files = vec![ExportFile {
            filename: "/p/h.h".into(),
            segments: Vec::new(),
            branches: Vec::new(),
            function_ends: Vec::new(),
            function_counts: Vec::new(),
        }];
        map.attach(&mut files, &sel);
        assert_eq!(files[0].function_ends, [(5, 0), (5, 2)]);
        assert_eq!(
            files[0].function_counts,
            [("twice".to_string(), 0), ("twice".to_string(), 2)]
        );
        assert!(map.select(&counts(&[("nosuch", 1)])).is_none());
        assert!(map.select(&counts(&[("dup", 1)])).is_none());
        assert!(map.select(&counts(&[("b", 1), ("b", 2)])).is_none());
    }

    /// `if (x) die(); free(p);` where `x` held: the `die` line counts, the
    /// line after the `if` does not; a header line takes the body's count.
    #[test]
    fn lines_count_from_region_starts() {
        let f = ExportFile {
            filename: "a.c".into(),
            segments: vec![
                (2, 1, 1, true, true, false),   // function body
                (3, 7, 1, true, true, false),   // condition
                (4, 5, 1, true, true, false),   // then: die(...)
                (4, 8, 0, true, false, true),   // gap after it
                (5, 3, 0, true, true, false),   // free(p): never reached
                (5, 11, 1, true, false, false), // the body resumes after it
                (6, 2, 0, false, false, false), // end
                (7, 1, 1, true, true, false),   // another function's body
                (7, 9, 0, true, false, true),   // a gap
                (7, 12, 1, true, false, false), // `switch (c)`: the body resumes
                (8, 10, 0, false, true, false), // `return EXIT_SUCCESS;`: skipped macro
                (8, 10, 1, true, false, false),
                (9, 2, 0, false, false, false),
            ],
            branches: vec![vec![
                3.into(),
                7.into(),
                3.into(),
                8.into(),
                1.into(),
                0.into(),
            ]],
            function_ends: vec![(6, 1)],
            function_counts: Vec::new(),
        };
        let fc = f.coverage(&[1, 3, 4, 5, 6, 8].into_iter().collect());
        assert_eq!(fc.lines[&6], 1, "the closing brace runs on every return");
        assert_eq!(fc.lines[&8], 1, "a line starting with a macro has code");
        assert_eq!(fc.lines[&1], 1, "header line: the body's count");
        assert_eq!(fc.lines[&3], 1);
        assert_eq!(fc.lines[&4], 1);
        assert_eq!(fc.lines[&5], 0);
        assert_eq!(fc.covered_lines().len(), 5);
        assert_eq!(fc.branches.len(), 2);
        assert_eq!(fc.taken_branches().len(), 1);
        let text = fc.gcov_text("a.c", "h\n{\nif\ndie\nfree\n}\n");
        assert!(text.contains("    #####:    5:free"), "{text}");
        assert!(text.contains("        -:    2:{"), "{text}");
    }
}
