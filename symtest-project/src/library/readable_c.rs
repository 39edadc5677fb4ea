//! `readable_tests.c` of a library target's suite: each kept test that calls
//! one public function, as plain C (see [`super::readable`]); a call sequence
//! is written by [`super::readable_seq`].

use super::readable::{Call, Kind, Param, Plan, PLAN_FILE, READABLE_C, READABLE_MK};
use super::readable_checks::checks;
use crate::discovery::Target;
use crate::emit::SuiteCase;
use crate::testcases::Outcome;
use crate::units::NativeInputs;
use crate::vectors::c_literal;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The text of a comment, with no `*/` in it.
pub(super) fn comment(s: &str) -> String {
    s.replace("*/", "* /").replace('\n', " ")
}

/// An integer of `bytes` (little-endian) as a C literal.
pub(super) fn int_literal(bytes: &[u8], signed: bool) -> Option<String> {
    if !matches!(bytes.len(), 1 | 2 | 4 | 8) {
        return None;
    }
    let mut raw = [0u8; 8];
    raw[..bytes.len()].copy_from_slice(bytes);
    let u = u64::from_le_bytes(raw);
    let bits = bytes.len() * 8;
    let wide = bytes.len() == 8;
    if signed {
        let v = if bits == 64 {
            u as i64
        } else {
            ((u << (64 - bits)) as i64) >> (64 - bits)
        };
        let suffix = if wide { "LL" } else { "" };
        Some(match v {
            i64::MIN => "(-9223372036854775807LL - 1)".to_string(),
            v if bits == 32 && v == i64::from(i32::MIN) => "(-2147483647 - 1)".to_string(),
            v => format!("{v}{suffix}"),
        })
    } else {
        Some(format!("{u}{}", if wide { "ULL" } else { "U" }))
    }
}

/// A float of `bytes` as a C literal (`ty` float or double).
fn float_literal(bytes: &[u8]) -> Option<String> {
    let (v, suffix) = match bytes.len() {
        4 => (f64::from(f32::from_le_bytes(bytes.try_into().ok()?)), "f"),
        8 => (f64::from_le_bytes(bytes.try_into().ok()?), ""),
        _ => return None,
    };
    Some(if v.is_nan() {
        "NAN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "INFINITY" } else { "-INFINITY" }.into()
    } else if suffix == "f" {
        format!("{:?}f", v as f32)
    } else {
        format!("{v:?}")
    })
}

/// A value of `kind` from its bytes: a scalar, or a structure as a
/// designated initializer (a `char` array in it as a string).
fn scalar(kind: &Kind, bytes: &[u8]) -> Option<String> {
    match kind {
        Kind::Int { signed, .. } => int_literal(bytes, *signed),
        Kind::Float { .. } => float_literal(bytes),
        Kind::String { .. } => {
            let end = bytes.iter().rposition(|&c| c != 0).map_or(0, |k| k + 1);
            Some(c_literal(&bytes[..end]))
        }
        Kind::Fixed { of, count } => {
            let size = bytes.len() / (*count).max(1) as usize;
            let v: Option<Vec<String>> = bytes.chunks(size.max(1)).map(|c| scalar(of, c)).collect();
            Some(format!("{{{}}}", v?.join(", ")))
        }
        Kind::Record { size, fields, .. } => {
            if bytes.len() as u64 != *size {
                return None;
            }
            let v: Option<Vec<String>> = fields
                .iter()
                .map(|f| {
                    let b = bytes.get(f.offset as usize..(f.offset + f.size) as usize)?;
                    Some(format!(".{} = {}", f.name, scalar(&f.kind, b)?))
                })
                .collect();
            Some(format!("{{{}}}", v?.join(", ")))
        }
        _ => None,
    }
}

/// What one test's objects and recorded outputs say, by name.
pub(super) struct Recorded<'a> {
    pub(super) plan: &'a Plan,
    pub(super) objects: &'a [(String, Vec<u8>)],
    pub(super) outputs: Vec<(String, Vec<u8>)>,
    /// Where the call is in its test, for the checks' messages (` (step 1)`
    /// in a call sequence; empty for a single call).
    pub(super) step: String,
    /// The pointer inputs declared before the call (in a call sequence):
    /// their names as recorded, and their variables.
    pub(super) inputs: Vec<(String, String)>,
    /// The call may free memory it is given: arrays are copied to the heap.
    pub(super) heap: bool,
}

impl Recorded<'_> {
    pub(super) fn object(&self, name: &str) -> Option<&[u8]> {
        self.objects
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }
    pub(super) fn outputs(&self, name: &str) -> Vec<&[u8]> {
        self.outputs
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
            .collect()
    }
}

/// The outputs recorded in `expected/<test>/` (none when not recorded).
pub(super) fn read_outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(list) = std::fs::read_to_string(dir.join("outputs.txt")) else {
        return Vec::new();
    };
    list.lines()
        .filter_map(|l| l.split_once(' '))
        .filter_map(|(k, n)| {
            Some((
                n.to_string(),
                std::fs::read(dir.join("outputs").join(k)).ok()?,
            ))
        })
        .collect()
}

/// The statements that declare parameter `p` with its value.
pub(super) fn declare(p: &Param, r: &Recorded, body: &mut String) -> Result<(), String> {
    let missing = || format!("its input `{}` was not recorded", p.label);
    if p.nullable {
        let null = r
            .object(&format!("{}==NULL?", p.label))
            .ok_or_else(missing)?;
        if null.first() == Some(&0) {
            let ty = match &p.kind {
                Kind::String { ty } | Kind::Array { ty, .. } | Kind::Bytes { ty } => ty,
                _ => return Err(format!("`{}` is NULL but no pointer", p.name)),
            };
            let _ = writeln!(body, "  {} = NULL;", decl(ty, &p.name));
            return Ok(());
        }
    }
    match &p.kind {
        Kind::Record { ty, .. } => {
            let b = r.object(&p.label).ok_or_else(missing)?;
            let v = record_value(&p.kind, b, &p.label, &p.name, 0, r, body)?;
            let _ = writeln!(body, "  {ty} {} = {v};", p.name);
        }
        Kind::Array {
            elem, of, count, ..
        } if matches!(of.as_ref(), Kind::Record { .. }) => {
            let b = r.object(&p.label).ok_or_else(missing)?;
            let count = (*count).max(1) as usize;
            if b.is_empty() || !b.len().is_multiple_of(count) {
                return Err(format!("`{}` has {} bytes", p.name, b.len()));
            }
            let mut values = Vec::new();
            for (i, c) in b.chunks(b.len() / count).enumerate() {
                let var = if count > 1 {
                    format!("{}_{i}", p.name)
                } else {
                    p.name.clone()
                };
                values.push(record_value(of, c, &p.label, &var, 1, r, body)?);
            }
            let init = format!("{{{}}}", values.join(", "));
            body.push_str(&array(r.heap, elem, &p.name, count, &init));
        }
        Kind::Int { ty, .. } | Kind::Float { ty } => {
            let b = r.object(&p.label).ok_or_else(missing)?;
            let v =
                scalar(&p.kind, b).ok_or_else(|| format!("`{}` has {} bytes", p.name, b.len()))?;
            let _ = writeln!(body, "  {ty} {} = {v};", p.name);
        }
        Kind::Null { ty } => {
            let _ = writeln!(body, "  {} = NULL;", decl(ty, &p.name));
        }
        Kind::String { .. } | Kind::Bytes { .. } => {
            let b = r.object(&p.label).ok_or_else(missing)?;
            let end = b.iter().rposition(|&c| c != 0).map_or(0, |k| k + 1);
            let elem = if matches!(p.kind, Kind::String { .. }) {
                "char"
            } else {
                "unsigned char"
            };
            let init = c_literal(&b[..end]);
            body.push_str(&array(r.heap, elem, &p.name, b.len(), &init));
        }
        Kind::Array {
            elem, of, count, ..
        } => {
            let b = r.object(&p.label).ok_or_else(missing)?;
            let values = elements(of, b, *count, p)?;
            let init = format!("{{{}}}", values.join(", "));
            body.push_str(&array(r.heap, elem, &p.name, values.len(), &init));
        }
        Kind::Pointer { .. }
        | Kind::Fixed { .. }
        | Kind::StrField { .. }
        | Kind::Link { .. }
        | Kind::ArrField { .. }
        | Kind::Void => return Err(format!("`{}` has no value", p.name)),
    }
    Ok(())
}

/// A structure's value from its object's bytes `b` (named `label`): a
/// designated initializer; what its pointer fields point to is declared
/// first in `body` (as `var_<field>`), as the harness built it at `depth`.
fn record_value(
    kind: &Kind,
    b: &[u8],
    label: &str,
    var: &str,
    depth: u32,
    r: &Recorded,
    body: &mut String,
) -> Result<String, String> {
    let Kind::Record { size, fields, .. } = kind else {
        return scalar(kind, b).ok_or_else(|| format!("`{label}` is no value"));
    };
    if b.len() as u64 != *size {
        return Err(format!("`{label}` has {} bytes, not {size}", b.len()));
    }
    let mut parts = Vec::new();
    for f in fields {
        let v = match &f.kind {
            Kind::StrField { nullable }
            | Kind::Link { nullable, .. }
            | Kind::ArrField { nullable, .. } => {
                let flabel = format!("{label}.{}", f.name);
                let fvar = format!("{var}_{}", f.name);
                let missing = || format!("its input `{flabel}` was not recorded");
                let null = depth >= r.plan.depth
                    || *nullable
                        && r.object(&format!("{flabel}==NULL?"))
                            .ok_or_else(missing)?
                            .first()
                            == Some(&0);
                if null {
                    "NULL".to_string()
                } else {
                    let fb = r.object(&flabel).ok_or_else(missing)?;
                    match &f.kind {
                        Kind::Link { key, .. } => {
                            let inner = r
                                .plan
                                .layouts
                                .get(key)
                                .ok_or_else(|| format!("no layout of `{key}`"))?;
                            let Kind::Record { ty, .. } = inner else {
                                return Err(format!("no layout of `{key}`"));
                            };
                            let init = record_value(inner, fb, &flabel, &fvar, depth + 1, r, body)?;
                            if r.heap {
                                let init = format!("{{{init}}}");
                                body.push_str(&array(true, ty, &fvar, 1, &init));
                                fvar
                            } else {
                                let _ = writeln!(body, "  {ty} {fvar} = {init};");
                                format!("&{fvar}")
                            }
                        }
                        Kind::ArrField { elem, of, .. } => {
                            let p = Param {
                                name: fvar.clone(),
                                label: flabel.clone(),
                                kind: Kind::Void,
                                nullable: false,
                                out: false,
                            };
                            let values = elements(of, fb, r.plan.elements, &p)?;
                            let init = format!("{{{}}}", values.join(", "));
                            body.push_str(&array(r.heap, elem, &fvar, values.len(), &init));
                            fvar
                        }
                        _ => {
                            let end = fb.iter().rposition(|&c| c != 0).map_or(0, |k| k + 1);
                            let init = c_literal(&fb[..end]);
                            body.push_str(&array(r.heap, "char", &fvar, fb.len(), &init));
                            fvar
                        }
                    }
                }
            }
            k => {
                let fb = b
                    .get(f.offset as usize..(f.offset + f.size) as usize)
                    .ok_or_else(|| format!("`{label}` has no field `{}`", f.name))?;
                scalar(k, fb).ok_or_else(|| format!("field `{}` of `{label}`", f.name))?
            }
        };
        parts.push(format!(".{} = {v}", f.name));
    }
    Ok(format!("{{{}}}", parts.join(", ")))
}

/// The elements of an array of `of` in `b`: as many as the elements the
/// harness gave (each `b.len() / count` bytes, the size found from the object).
pub(super) fn elements(of: &Kind, b: &[u8], count: u32, p: &Param) -> Result<Vec<String>, String> {
    let count = count.max(1) as usize;
    if b.is_empty() || !b.len().is_multiple_of(count) {
        return Err(format!(
            "`{}` has {} bytes for {count} elements",
            p.name,
            b.len()
        ));
    }
    let size = b.len() / count;
    b.chunks(size)
        .map(|c| scalar(of, c).ok_or_else(|| format!("`{}` has elements of {size} bytes", p.name)))
        .collect()
}

/// The statement that declares array `name` of `n` elements `elem` with
/// the initializer `init`: a copy on the heap when `heap` (the call may
/// free it, as it may what the harness gave it).
fn array(heap: bool, elem: &str, name: &str, n: usize, init: &str) -> String {
    if heap {
        // A compound literal's initializer is in braces (a string's too).
        let init = if init.starts_with('{') {
            init.to_string()
        } else {
            format!("{{{init}}}")
        };
        format!("  {elem} *{name} = on_heap(({elem}[{n}]){init}, sizeof({elem}[{n}]));\n")
    } else {
        format!("  {elem} {name}[{n}] = {init};\n")
    }
}

/// The declaration of `name` of type `ty` (`char *s`, `int n`).
pub(super) fn decl(ty: &str, name: &str) -> String {
    if ty.ends_with('*') {
        format!("{ty}{name}")
    } else {
        format!("{ty} {name}")
    }
}

/// The statement that calls `call` with `args` (its return in `ret`).
pub(super) fn invoke(call: &Call, args: &[&str], indent: &str) -> Result<String, String> {
    let invoke = format!("{}({})", call.function, args.join(", "));
    match &call.ret {
        Kind::Void => Ok(format!("{indent}{invoke};\n")),
        Kind::Int { ty, .. }
        | Kind::Float { ty }
        | Kind::String { ty }
        | Kind::Pointer { ty }
        | Kind::Record { ty, .. } => Ok(format!("{indent}{} = {invoke};\n", decl(ty, "ret"))),
        _ => Err("its return is not checked".into()),
    }
}

/// A test's function: its name, and its text (or why it has none).
fn test_function(
    call: &Call,
    name: &str,
    r: &Recorded,
    bug: Option<String>,
) -> Result<String, String> {
    let mut body = String::new();
    for (g, k) in &call.globals {
        let b = r
            .object(g)
            .ok_or_else(|| format!("the global `{g}` was not recorded"))?;
        let v = scalar(k, b).ok_or_else(|| format!("`{g}` has {} bytes", b.len()))?;
        let _ = writeln!(body, "  {g} = {v};");
    }
    for p in &call.params {
        declare(p, r, &mut body)?;
    }
    let args: Vec<&str> = call.params.iter().map(|p| p.name.as_str()).collect();
    body.push_str(&invoke(call, &args, "  ")?);
    let n = checks(call, r, &mut body);
    if n == 0 && bug.is_none() {
        let _ = writeln!(
            body,
            "  /* Nothing was recorded to check: the test checks that the call returns. */"
        );
    }
    if !matches!(call.ret, Kind::Void) {
        body.push_str("  (void)ret;\n");
    }
    let head = match &bug {
        Some(b) => format!(
            "/* Documents a bug: {}. It fails (crashes) while the bug is there. */\n",
            comment(b)
        ),
        None => String::new(),
    };
    Ok(format!("{head}static void {name}(void) {{\n{body}}}\n"))
}

const HELPERS: &str = r#"
static unsigned failed_checks;
static const char *current_test;

static void fail(const char *what, const char *got, const char *want) {
  printf("  %s: FAILED %s: got %s, expected %s\n", current_test, what, got, want);
  failed_checks++;
}
static void check_int(const char *what, long long got, long long want) {
  char g[32], w[32];
  if (got == want) return;
  snprintf(g, sizeof g, "%lld", got); snprintf(w, sizeof w, "%lld", want);
  fail(what, g, w);
}
static void check_uint(const char *what, unsigned long long got, unsigned long long want) {
  char g[32], w[32];
  if (got == want) return;
  snprintf(g, sizeof g, "%llu", got); snprintf(w, sizeof w, "%llu", want);
  fail(what, g, w);
}
/* To 6 significant digits, as the suite records floats. */
static void check_float(const char *what, long double got, const char *want) {
  char g[64];
  snprintf(g, sizeof g, "%.6Lg", got);
  if (strcmp(g, want) != 0) fail(what, g, want);
}
static void check_int_at(const char *what, size_t i, long long got, long long want) {
  char w[300];
  if (got == want) return;
  snprintf(w, sizeof w, "%s, i = %zu", what, i);
  check_int(w, got, want);
}
static void check_uint_at(const char *what, size_t i, unsigned long long got, unsigned long long want) {
  char w[300];
  if (got == want) return;
  snprintf(w, sizeof w, "%s, i = %zu", what, i);
  check_uint(w, got, want);
}
static void check_float_at(const char *what, size_t i, long double got, const char *want) {
  char w[300];
  snprintf(w, sizeof w, "%s, i = %zu", what, i);
  check_float(w, got, want);
}
static void check_string(const char *what, const char *got, const char *want) {
  if (got && strcmp(got, want) == 0) return;
  fail(what, got ? got : "NULL", want);
}
static void check_bytes(const char *what, const void *got, const char *want, size_t n) {
  if (got && memcmp(got, want, n) == 0) return;
  fail(what, "other bytes", want);
}
static void check_true(const char *what, int ok) {
  if (!ok) fail(what, "no", "yes");
}

/* A copy of `n` bytes on the heap: the input of a call that may free it. */
static void *on_heap(const void *bytes, size_t n) {
  void *p = malloc(n);
  if (!p) abort();
  memcpy(p, bytes, n);
  return p;
}

/* Memory the library returns is not freed by the tests. An allocation above
 * the engine's limit (1024 MiB) returns NULL, as in the engine. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "detect_leaks=0:malloc_fill_byte=0:max_malloc_fill_size=1048576:"
         "allocator_may_return_null=1:max_allocation_size_mb=1024:strict_memcmp=0";
}
"#;

/// Whether a test documents a bug (the bug, as its comment tells it), or
/// why it is not written (`at` names a file from the project's root).
fn documented_bug(c: &SuiteCase, at: &dyn Fn(&str) -> String) -> Result<Option<String>, String> {
    match &c.test.outcome {
        Outcome::Exit { code: 0 } => Ok(None),
        Outcome::Error(e) if c.bug => Ok(Some(format!(
            "{} at {}:{}: {}",
            e.kind,
            at(&e.file),
            e.line,
            e.message
        ))),
        Outcome::Error(e) => Err(format!(
            "it ends in `{}` at {}:{}, which the report does not call a bug of the library",
            e.kind,
            at(&e.file),
            e.line
        )),
        Outcome::Exit { code } => Err(format!("the library ends the process (exit {code})")),
        Outcome::Early { reason, .. } => Err(format!("it did not run to its end ({reason})")),
    }
}

/// The text of `readable_tests.c` for the `cases` of a harness planned as
/// `plan`, their recorded outputs under `expected` (files named from `root`).
pub fn source(plan: &Plan, cases: &[SuiteCase], expected: &Path, root: &Path) -> String {
    let at = |file: &str| {
        Path::new(file)
            .strip_prefix(root)
            .map_or(file.to_string(), |p| p.display().to_string())
    };
    let mut text = String::from(
        "/* Readable tests of this library, generated by `cargo symtest` from the\n * suite's tests: each calls one public function, or a sequence of calls on\n * a handle, with the inputs the test found, and checks what the calls\n * returned and wrote when the suite was made.\n * Build and run: `make readable` (`./readable_tests --bugs` also runs the\n * tests that document bugs). Do not edit: it is rewritten. */\n",
    );
    text.push_str("#include <math.h>\n");
    text.push_str(super::ast::SYSTEM_INCLUDES);
    for h in &plan.includes {
        let _ = writeln!(text, "#include \"{h}\"");
    }
    text.push_str(HELPERS);
    let mut funcs = String::new();
    let mut runs = String::new();
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    let mut skipped = 0usize;
    for c in cases {
        let k = match c.test.objects.iter().find(|(n, _)| n == "function") {
            Some((_, b)) if b.len() == 4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
            _ => 0,
        };
        let Some(entry) = plan.entries.get(k) else {
            continue;
        };
        let written = match (&entry.call, &entry.sequence) {
            (None, None) => Err(entry.why.clone().unwrap_or("no readable call".into())),
            _ => documented_bug(c, &at).and_then(|bug| {
                let r = Recorded {
                    plan,
                    objects: &c.test.objects,
                    outputs: read_outputs(&expected.join(&c.name)),
                    step: String::new(),
                    inputs: Vec::new(),
                    heap: entry.call.as_ref().is_some_and(|c| c.frees),
                };
                let (t, name) = match (&entry.call, &entry.sequence) {
                    (Some(call), _) => {
                        let name = test_name(&mut names, &call.function);
                        (test_function(call, &name, &r, bug.clone())?, name)
                    }
                    (None, Some(seq)) => {
                        let ended = matches!(c.test.outcome, Outcome::Exit { .. });
                        super::readable_seq::test_sequence(seq, &r, bug.clone(), ended, &mut names)?
                    }
                    (None, None) => unreachable!("matched above"),
                };
                Ok((t, name, bug.is_some()))
            }),
        };
        match written {
            Ok((t, name, documents)) => {
                let _ = writeln!(funcs, "/* From the suite's test {}. */\n{t}", c.name);
                let _ = writeln!(
                    runs,
                    "  run(\"{name}\", {name}, {}, bugs);",
                    u8::from(documents)
                );
            }
            Err(why) => {
                skipped += 1;
                let _ = writeln!(
                    funcs,
                    "/* {} ({}): not written: {}. */\n",
                    c.name,
                    entry.name,
                    comment(&why)
                );
            }
        }
    }
    text.push('\n');
    text.push_str(&funcs);
    text.push_str(&main_text(&runs, skipped));
    text
}

/// The next test name of `stem` (`test_<stem>_<n>`).
pub(super) fn test_name(names: &mut BTreeMap<String, usize>, stem: &str) -> String {
    let n = names.entry(stem.to_string()).or_default();
    *n += 1;
    format!("test_{stem}_{n}")
}

/// The runner of the tests (`runs`, one `run(...)` line each) and the count
/// of the suite's tests not written.
fn main_text(runs: &str, skipped: usize) -> String {
    format!(
        r#"static unsigned passed, failed, documenting;

static void run(const char *name, void (*test)(void), int documents_bug, int bugs) {{
  unsigned before = failed_checks;
  if (documents_bug && !bugs) {{
    printf("%s: documents a bug, not run (./readable_tests --bugs runs it)\n", name);
    documenting++;
    return;
  }}
  current_test = name;
  test();
  if (failed_checks == before) {{
    printf("%s: passed\n", name);
    passed++;
  }} else {{
    printf("%s: FAILED\n", name);
    failed++;
  }}
}}

int main(int argc, char **argv) {{
  int bugs = argc > 1 && strcmp(argv[1], "--bugs") == 0;
{runs}  printf("%u passed, %u failed, %u document bugs; {skipped} tests of the suite are not written here (see the comments)\n",
         passed, failed, documenting);
  return failed != 0;
}}
"#
    )
}

/// The make rules that build and run `readable_tests.c`: it compiles as the
/// harness does (the harness's rule in `makefile`), and links with the code
/// under test but the harness.
fn rules(makefile: &str) -> Option<String> {
    let lines: Vec<&str> = makefile.lines().collect();
    let at = lines.iter().position(|l| {
        l.starts_with("symtest_u")
            && l.contains(&format!(
                "_{}: ",
                crate::library::HARNESS_FILE.replace(".c", ".o")
            ))
    })?;
    let recipe = lines
        .get(at + 1)?
        .replacen(" -Dmain=symtest_target_main", "", 1);
    let stem = READABLE_C.trim_end_matches(".c");
    let harness_o = crate::library::HARNESS_FILE.replace(".c", ".o");
    Some(format!(
        "# The readable tests (readable_tests.c): `make readable` builds and runs them.\n\
         .PHONY: readable\n\
         READABLE_CODE := $(filter-out %_{harness_o},$(CODE_OBJECTS))\n\
         {stem}.o: $(SUITE_DIR)/{READABLE_C}\n{recipe}\n\n\
         {stem}: {stem}.o $(READABLE_CODE) $(CODE_ARCHIVES)\n\
         \t$(CC) $(CFLAGS) $(LINK_PRE) -o $@ {stem}.o $(READABLE_CODE) $(CODE_LINK) $(LINK_POST)\n\n\
         readable: {stem}\n\t./{stem}\n"
    ))
}

/// Writes `readable_tests.c` and its make rules into the suite being staged
/// (`staging`, to become `dest`) of a library target: nothing for other
/// targets, or when the harness was generated with no plan.
pub fn write(
    staging: &Path,
    target: &Target,
    inputs: &NativeInputs,
    root: &Path,
    dest: &Path,
    cases: &[SuiteCase],
) -> Result<()> {
    let Some(generated) = target.library.as_ref().and_then(|l| l.generated.as_ref()) else {
        return Ok(());
    };
    let Ok(json) = std::fs::read_to_string(generated.with_file_name(PLAN_FILE)) else {
        return Ok(());
    };
    let plan: Plan = serde_json::from_str(&json).context("reading the readable tests' plan")?;
    let mk = crate::emit::makefile(target, inputs, root, dest).text;
    let Some(rules) = rules(&mk) else {
        return Ok(());
    };
    std::fs::write(
        staging.join(READABLE_C),
        source(&plan, cases, &staging.join("expected"), root),
    )
    .with_context(|| format!("writing {READABLE_C}"))?;
    std::fs::write(staging.join(READABLE_MK), rules)
        .with_context(|| format!("writing {READABLE_MK}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{c_literal, float_literal, int_literal};

    #[test]
    fn literals_of_recorded_bytes() {
        assert_eq!(int_literal(&[0xfe, 0xff, 0xff, 0xff], true).unwrap(), "-2");
        assert_eq!(
            int_literal(&[0, 0, 0, 0x80], true).unwrap(),
            "(-2147483647 - 1)"
        );
        assert_eq!(
            int_literal(&[5, 0, 0, 0, 0, 0, 0, 0], false).unwrap(),
            "5ULL"
        );
        assert_eq!(int_literal(&[0xff], true).unwrap(), "-1");
        assert_eq!(int_literal(&[1, 2, 3], true), None);
        assert_eq!(float_literal(&1.5f64.to_le_bytes()).unwrap(), "1.5");
        assert_eq!(float_literal(&0.25f32.to_le_bytes()).unwrap(), "0.25f");
        assert_eq!(float_literal(&f64::NAN.to_le_bytes()).unwrap(), "NAN");
        assert_eq!(c_literal(b"a\"?\n\x01"), r#""a\"\?\n\001""#);
    }
}
