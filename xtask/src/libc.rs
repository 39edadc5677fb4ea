//! Builds the libc runtime that `cargo symtest exec --libc=musl` links programs with:
//! musl (from Debian's source package) compiled by clang-19 to LLVM bitcode, with our
//! replacements for its x86-64 assembly and its system-call layer
//! (`libc-models/musl/`), linked with the POSIX model (`libc-models/posix/`) and
//! serial OpenMP's runtime routines (`libc-models/openmp/`).
//!
//! Results live in the cache dir under `musl-<version>-<key>` (see `libc_key.rs`):
//! `runtime.bc` (musl + model, linked), `entry.bc` (the POSIX runtime's entry),
//! `include/` (musl's installed headers) and `STAMP`. The key hashes our patches and
//! flags, so editing a model selects a fresh build; the musl source is cached by version.

use crate::libc_key::{self, BYTEWISE_FILES, MODEL_CFLAGS, MUSL_CFLAGS, MUSL_VERSION};
use crate::{paths, util};
use anyhow::{bail, Context, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// musl directories left out: the allocator (the engine's heap replaces it), the
/// dynamic linker, and files whose job the engine or the model does.
const EXCLUDED_DIRS: &[&str] = &["src/malloc", "src/ldso"];
const EXCLUDED_FILES: &[&str] = &[
    // abort and __assert_fail are the engine's (they end the path with an error).
    "src/exit/abort.c",
    "src/exit/abort_lock.c",
    "src/exit/assert.c",
    // Thread cancellation needs the assembly __syscall_cp_asm; __syscall_cp.c's
    // plain version routes cancellation points to the model instead.
    "src/thread/pthread_cancel.c",
];

pub fn models_dir() -> PathBuf {
    paths::workspace_root().join("libc-models")
}

pub fn ensure() -> Result<()> {
    let models = models_dir();
    let cache = paths::cache_dir();
    let hashing = || format!("hashing {}", models.display());
    let musl = libc_key::musl_dir(&cache, &models).with_context(hashing)?;
    let runtime = libc_key::runtime_dir(&cache, &models).with_context(hashing)?;
    if runtime.join("STAMP").exists() {
        eprintln!(
            "setup: musl {MUSL_VERSION} runtime cached at {}",
            runtime.display()
        );
        return Ok(());
    }
    if !musl.join("STAMP").exists() {
        build_musl(&models, &musl)?;
    }
    build_runtime(&models, &musl, &runtime)
}

/// A fresh staging directory beside `dir` and a work directory for `dir`, both
/// private to this process (two setups may run at once on a shared machine).
fn staging_for(dir: &Path) -> Result<(PathBuf, PathBuf)> {
    let name = dir
        .file_name()
        .expect("named")
        .to_string_lossy()
        .into_owned();
    let pid = std::process::id();
    let work = paths::cache_dir().join(format!("build-{name}-{pid}"));
    let staging = paths::cache_dir().join(format!("{name}.partial-{pid}"));
    for d in [&work, &staging] {
        if d.exists() {
            fs::remove_dir_all(d).with_context(|| format!("removing {}", d.display()))?;
        }
    }
    fs::create_dir_all(&staging)?;
    fs::create_dir_all(&work)?;
    Ok((staging, work))
}

/// Writes `stamp` into a finished staging directory as its `STAMP` and
/// atomically moves the directory into place; if another process published the
/// same key first, its (identical) result is kept.
fn publish(staging: &Path, dir: &Path, work: &Path, stamp: &str) -> Result<()> {
    fs::write(staging.join("STAMP"), stamp)?;
    fs::remove_dir_all(work).ok();
    if dir.join("STAMP").exists() {
        fs::remove_dir_all(staging).ok();
        return Ok(());
    }
    if dir.exists() {
        fs::remove_dir_all(dir)?;
    }
    if let Err(e) = fs::rename(staging, dir) {
        if dir.join("STAMP").exists() {
            fs::remove_dir_all(staging).ok();
            return Ok(());
        }
        return Err(e).with_context(|| format!("moving the build into {}", dir.display()));
    }
    Ok(())
}

/// musl as one bitcode module (libc.bc) plus its installed headers.
fn build_musl(models: &Path, dir: &Path) -> Result<()> {
    let started = std::time::Instant::now();
    eprintln!("setup: compiling musl {MUSL_VERSION} to bitcode (cached afterwards)");
    let src = musl_source()?;
    let (staging, work) = staging_for(dir)?;
    generate_headers(&src, &work)?;
    install_headers(&src, &work, &staging.join("include"))?;
    let jobs = musl_jobs(&src, models, &work)?;
    let n = jobs.len();
    let objs = compile_all(jobs)?;
    link(&objs, &staging.join("libc.bc"), &work)?;
    let stamp = format!("musl {MUSL_VERSION}, {n} bitcode files\n");
    publish(&staging, dir, &work, &stamp)?;
    eprintln!(
        "setup: musl ({n} files) compiled in {:.0} s into {}",
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(())
}

/// runtime.bc = libc.bc + the POSIX model + serial OpenMP; entry.bc = the POSIX
/// runtime's entry.
fn build_runtime(models: &Path, musl: &Path, dir: &Path) -> Result<()> {
    let started = std::time::Instant::now();
    let (staging, work) = staging_for(dir)?;
    let include = musl.join("include");
    copy_tree(&include, &staging.join("include"))?;
    let mut model_files = Vec::new();
    collect_c(&models.join("posix"), &mut model_files)?;
    model_files.retain(|p| !p.starts_with(models.join("posix").join("entry")));
    // Serial OpenMP's runtime routines (omp.h), for code built with -fopenmp.
    collect_c(&models.join("openmp"), &mut model_files)?;
    model_files.sort();
    let jobs: Vec<Job> = model_files
        .iter()
        .map(|f| {
            let stem = f.file_stem().unwrap_or_default().to_string_lossy();
            model_command(f, &work.join(format!("model-{stem}.bc")), &include, models)
        })
        .collect();
    let mut objs = vec![musl.join("libc.bc")];
    objs.extend(compile_all(jobs)?);
    link(&objs, &staging.join("runtime.bc"), &work)?;
    let entry_src = models.join("posix").join("entry").join("posix_entry.c");
    compile_one(&model_command(
        &entry_src,
        &staging.join("entry.bc"),
        &include,
        models,
    ))?;
    let stamp = format!("musl {MUSL_VERSION} + POSIX model\n");
    publish(&staging, dir, &work, &stamp)?;
    eprintln!(
        "setup: musl runtime linked in {:.1} s into {}",
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(())
}

fn link(objs: &[PathBuf], out: &Path, work: &Path) -> Result<()> {
    let list = work.join("objects.txt");
    // An @file keeps the command line short; llvm-link reads one argument per line.
    fs::write(
        &list,
        objs.iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )?;
    util::run_logged(
        Command::new("llvm-link-19")
            .arg(format!("@{}", list.display()))
            .arg("-o")
            .arg(out),
        &work.join("link.log"),
    )
    .with_context(|| format!("linking {}", out.display()))
}

/// The unpacked musl source, fetched once (see [`crate::debsrc`]).
fn musl_source() -> Result<PathBuf> {
    crate::debsrc::fetch(
        "musl",
        &format!("{MUSL_VERSION}-1"),
        &format!("musl-{MUSL_VERSION}"),
        "VERSION",
    )
}

/// The headers musl's Makefile generates: bits/alltypes.h, bits/syscall.h, version.h.
fn generate_headers(src: &Path, work: &Path) -> Result<()> {
    let bits = work.join("obj/include/bits");
    fs::create_dir_all(&bits)?;
    fs::create_dir_all(work.join("obj/src/internal"))?;
    let out = Command::new("sed")
        .arg("-f")
        .arg(src.join("tools/mkalltypes.sed"))
        .arg(src.join("arch/x86_64/bits/alltypes.h.in"))
        .arg(src.join("include/alltypes.h.in"))
        .output()
        .context("running sed for bits/alltypes.h")?;
    if !out.status.success() {
        bail!(
            "generating bits/alltypes.h failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    fs::write(bits.join("alltypes.h"), &out.stdout)?;
    let syscalls = fs::read_to_string(src.join("arch/x86_64/bits/syscall.h.in"))?;
    let mut text = syscalls.clone();
    for line in syscalls.lines() {
        if line.contains("__NR_") {
            text.push_str(&line.replace("__NR_", "SYS_"));
            text.push('\n');
        }
    }
    fs::write(bits.join("syscall.h"), text)?;
    fs::write(
        work.join("obj/src/internal/version.h"),
        format!("#define VERSION \"{MUSL_VERSION}\"\n"),
    )?;
    Ok(())
}

/// musl's `make install-headers`: include/, then arch bits over generic bits.
fn install_headers(src: &Path, work: &Path, dest: &Path) -> Result<()> {
    copy_tree(&src.join("include"), dest)?;
    copy_tree(&src.join("arch/generic/bits"), &dest.join("bits"))?;
    copy_tree(&src.join("arch/x86_64/bits"), &dest.join("bits"))?;
    copy_tree(&work.join("obj/include/bits"), &dest.join("bits"))?;
    for entry in fs::read_dir(dest.join("bits"))? {
        let p = entry?.path();
        if p.extension().is_some_and(|e| e == "in") {
            fs::remove_file(p)?;
        }
    }
    fs::remove_file(dest.join("alltypes.h.in")).ok();
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// One compiler invocation and the file it is for.
struct Job {
    source: PathBuf,
    cmd: Command,
    out: PathBuf,
}

/// The musl files to compile (musl's own selection rule, with the x86-64 directory
/// replaced by our C in libc-models/musl/src).
fn musl_jobs(src: &Path, models: &Path, work: &Path) -> Result<Vec<Job>> {
    let ours = models.join("musl").join("src");
    let mut sources: Vec<(String, PathBuf)> = Vec::new();
    let mut dirs: Vec<PathBuf> = fs::read_dir(src.join("src"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let rel_dir = dir.strip_prefix(src)?.to_string_lossy().into_owned();
        if EXCLUDED_DIRS.contains(&rel_dir.as_str()) {
            continue;
        }
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .collect();
        files.sort();
        for f in files {
            let rel = f.strip_prefix(src)?.to_string_lossy().into_owned();
            if EXCLUDED_FILES.contains(&rel.as_str()) || ours.join(&rel["src/".len()..]).exists() {
                continue;
            }
            sources.push((rel, f));
        }
    }
    let mut our_files = Vec::new();
    collect_c(&ours, &mut our_files)?;
    our_files.sort();
    for f in our_files {
        let rel = format!("libc-models/musl/src/{}", f.strip_prefix(&ours)?.display());
        sources.push((rel, f));
    }
    let obj = work.join("bc");
    let mut jobs = Vec::new();
    for (i, (rel, f)) in sources.into_iter().enumerate() {
        let out = obj.join(format!("{i:05}-{}.bc", rel.replace('/', "_")));
        let mut cmd = Command::new("clang-19");
        cmd.args(MUSL_CFLAGS);
        if BYTEWISE_FILES.contains(&rel.as_str()) {
            cmd.arg("-U__GNUC__");
        }
        cmd.arg("-I")
            .arg(models.join("musl/arch"))
            .arg("-I")
            .arg(src.join("arch/x86_64"))
            .arg("-I")
            .arg(src.join("arch/generic"))
            .arg("-I")
            .arg(work.join("obj/src/internal"))
            .arg("-I")
            .arg(src.join("src/include"))
            .arg("-I")
            .arg(src.join("src/internal"))
            .arg("-I")
            .arg(work.join("obj/include"))
            .arg("-I")
            .arg(src.join("include"))
            .arg(&f)
            .arg("-o")
            .arg(&out);
        jobs.push(Job {
            source: PathBuf::from(rel),
            cmd,
            out,
        });
    }
    fs::create_dir_all(&obj)?;
    Ok(jobs)
}

fn model_command(f: &Path, out: &Path, include: &Path, models: &Path) -> Job {
    let mut cmd = Command::new("clang-19");
    cmd.args(MODEL_CFLAGS)
        .arg("-isystem")
        .arg(include)
        .arg("-I")
        .arg(models.join("include"))
        .arg("-I")
        .arg(models.join("posix"))
        .arg(f)
        .arg("-o")
        .arg(out);
    Job {
        source: f.to_path_buf(),
        cmd,
        out: out.to_path_buf(),
    }
}

fn collect_c(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            collect_c(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "c") {
            out.push(p);
        }
    }
    Ok(())
}

fn compile_one(job: &Job) -> Result<()> {
    let mut cmd = Command::new(job.cmd.get_program());
    cmd.args(job.cmd.get_args());
    let out = cmd
        .output()
        .with_context(|| format!("could not start {}", util::display(&cmd)))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = stderr.lines().take(20).collect();
        bail!(
            "compiling {} failed ({})\ncommand: {}\n{}",
            job.source.display(),
            out.status,
            util::display(&cmd),
            first.join("\n")
        );
    }
    Ok(())
}

/// Compiles every job on all cores; the first failure names its file and command.
fn compile_all(jobs: Vec<Job>) -> Result<Vec<PathBuf>> {
    let outs: Vec<PathBuf> = jobs.iter().map(|j| j.out.clone()).collect();
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                if failure.lock().expect("not poisoned").is_some() {
                    return;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { return };
                if let Err(e) = compile_one(job) {
                    let mut f = failure.lock().expect("not poisoned");
                    if f.is_none() {
                        *f = Some(e);
                    }
                    return;
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("not poisoned") {
        return Err(e.context("building the musl bitcode runtime"));
    }
    Ok(outs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_compile_names_the_file_and_the_command() {
        let dir = std::env::temp_dir().join(format!("symtest-libc-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("broken_model.c");
        fs::write(&bad, "int f(void) { return undeclared_name; }\n").unwrap();
        let job = model_command(&bad, &dir.join("out.bc"), &dir, &models_dir());
        let err = compile_one(&job).unwrap_err().to_string();
        fs::remove_dir_all(&dir).ok();
        assert!(
            err.contains("compiling") && err.contains("broken_model.c"),
            "{err}"
        );
        assert!(err.contains("command: clang-19"), "{err}");
        assert!(err.contains("undeclared_name"), "clang's diagnostic: {err}");
    }

    #[test]
    fn the_runtime_key_follows_the_models() {
        let models = models_dir();
        let cache = PathBuf::from("/cache");
        let a = libc_key::runtime_dir(&cache, &models).unwrap();
        let b = libc_key::runtime_dir(&cache, &models).unwrap();
        assert_eq!(a, b, "stable");
        let musl = libc_key::musl_dir(&cache, &models).unwrap();
        assert!(musl.starts_with("/cache"));
        assert_ne!(a, musl);
    }
}
