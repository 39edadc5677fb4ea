//! The two programs of a function-level crosscheck (paper §5.5:
//! `assert(f(x) == f'(x))`, and `assert(dec(enc(x)) == x)`).
//!
//! Each side is a harness generated as a `library` target's is ([`super::harness`]),
//! with one call and no selector: its inputs are built from the first
//! function's parameter types under names that do not depend on the function
//! (`in.arg0`, ...), so that both sides make the same symbolic inputs, and
//! what a side records (return value, out-parameters) is written to standard
//! output instead of the suite's oracle, where the engine's crosscheck
//! compares it. Decisions that depend on what a function's code does (NULL
//! tried for a parameter, a parameter's pointee not recorded because the call
//! may free it) are taken from both functions' facts on both sides, so that
//! the sides differ only in the function they call.

use super::ast::{Api, Function};
use super::harness::{Gen, Options};
use super::ir::Facts;
use super::types::{self, Shape};
use super::{failed, load, with_harness, Loaded, Prepared};
use crate::compile::CompileError;
use crate::discovery::{LibrarySpec, Target};
use crate::from_build::Captured;
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

/// What a function crosscheck compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// `f(x)` against `g(x)`: the return values and what each wrote
    /// through its pointer parameters.
    Equal,
    /// `x` against `dec(enc(x))`, for `enc` and `dec` of one parameter each,
    /// a scalar or a string.
    Inverse,
}

/// One function of a crosscheck: the library target that defines it.
pub struct Side<'a> {
    pub target: &'a Target,
    pub spec: &'a LibrarySpec,
    pub captured: Option<&'a Captured>,
    pub function: &'a str,
}

/// The label of every input of a crosscheck harness.
const INPUTS: &str = "in";

/// Writes both sides' harnesses under `dir` (`first/`, `second/`) and
/// returns the two harness targets, named `names`.
pub fn prepare_pair(
    names: &[String; 2],
    sides: [Side<'_>; 2],
    pairing: Pairing,
    models_include: &Path,
    dir: &Path,
) -> Result<[Prepared; 2], CompileError> {
    let [a, b] = sides;
    let la = load(
        a.target,
        a.spec,
        a.captured,
        models_include,
        &dir.join("first"),
    )?;
    let lb = load(
        b.target,
        b.spec,
        b.captured,
        models_include,
        &dir.join("second"),
    )?;
    let fa = find(&la, a.function, a.target)?;
    let fb = find(&lb, b.function, b.target)?;
    let o = Options {
        elements: a.spec.pointer_elements,
        depth: a.spec.pointer_depth,
        sequence_length: 0,
    };
    let (text_a, text_b) = match pairing {
        Pairing::Equal => {
            same_signature(&la.api, fa, &lb.api, fb)?;
            let facts_a = merged(&la.facts, &fa.name, &lb.facts, &fb.name);
            let facts_b = merged(&lb.facts, &fb.name, &la.facts, &fa.name);
            (
                side_text(&la, &facts_a, &o, Role::Call(fa))?,
                side_text(&lb, &facts_b, &o, Role::Call(fb))?,
            )
        }
        Pairing::Inverse => {
            inverse_signatures(&la.api, fa, &lb.api, fb)?;
            (
                side_text(&la, &la.facts, &o, Role::Input(fa))?,
                side_text(&lb, &lb.facts, &o, Role::RoundTrip(fa, fb))?,
            )
        }
    };
    let first = write_side(
        &names[0],
        "first",
        la,
        a.captured,
        &text_a,
        models_include,
        dir,
    )?;
    let second = write_side(
        &names[1],
        "second",
        lb,
        b.captured,
        &text_b,
        models_include,
        dir,
    )?;
    Ok([first, second])
}

fn find<'l>(l: &'l Loaded, name: &str, t: &Target) -> Result<&'l Function, CompileError> {
    let f = l
        .api
        .functions
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| {
            failed(
                "crosscheck",
                format!(
                    "`{name}` is not declared in the headers of library target `{}`",
                    t.name
                ),
            )
        })?;
    let why = if f.is_static {
        Some("it is `static` in the header")
    } else if !l.facts.defined.contains(name) {
        Some("the library's module does not define it")
    } else if f.variadic {
        Some("it takes a variable argument list")
    } else {
        None
    };
    match why {
        Some(why) => Err(failed(
            "crosscheck",
            format!("`{name}` of `{}` cannot be called: {why}", t.name),
        )),
        None => Ok(f),
    }
}

/// A type's spelling without qualifiers, and its shape.
fn spelled(api: &Api, t: &str) -> (String, String) {
    (
        types::unqualified(t).0.to_string(),
        format!("{:?}", types::shape(api, t)),
    )
}

fn compatible(api_a: &Api, a: &str, api_b: &Api, b: &str) -> bool {
    let (sa, ha) = spelled(api_a, a);
    let (sb, hb) = spelled(api_b, b);
    sa == sb || ha == hb
}

fn same_signature(
    api_a: &Api,
    f: &Function,
    api_b: &Api,
    g: &Function,
) -> Result<(), CompileError> {
    let params = f.params.len() == g.params.len()
        && f.params
            .iter()
            .zip(&g.params)
            .all(|((_, a), (_, b))| compatible(api_a, a, api_b, b));
    if params && compatible(api_a, &f.ret, api_b, &g.ret) {
        return Ok(());
    }
    Err(failed(
        "crosscheck",
        format!(
            "`{}` and `{}` do not have the same signature: {} against {}",
            f.name,
            g.name,
            signature(f),
            signature(g)
        ),
    ))
}

fn signature(f: &Function) -> String {
    let params: Vec<&str> = f.params.iter().map(|(_, t)| t.as_str()).collect();
    format!("{} ({})", f.ret, params.join(", "))
}

/// `dec(enc(x))` type-checks and gives back `x`'s type, a scalar or a string.
fn inverse_signatures(
    api_a: &Api,
    enc: &Function,
    api_b: &Api,
    dec: &Function,
) -> Result<(), CompileError> {
    let fits = enc.params.len() == 1
        && dec.params.len() == 1
        && compatible(api_a, &enc.ret, api_b, &dec.params[0].1)
        && compatible(api_a, &enc.params[0].1, api_b, &dec.ret)
        && value_shape(api_a, &enc.params[0].1).is_some();
    if fits {
        return Ok(());
    }
    Err(failed(
        "crosscheck",
        format!(
            "`inverse` needs `T2 {}(T1)` and `T1 {}(T2)` with T1 a scalar or a string: they are {} and {}",
            enc.name,
            dec.name,
            signature(enc),
            signature(dec)
        ),
    ))
}

/// How a value of type `t` is written to the output: `Some(true)` a string,
/// `Some(false)` a scalar, `None` neither.
fn value_shape(api: &Api, t: &str) -> Option<bool> {
    match types::shape(api, t) {
        Shape::Int { .. } | Shape::Enum(_) | Shape::Float => Some(false),
        Shape::Pointer { pointee, .. } if types::is_char(api, &pointee) => Some(true),
        _ => None,
    }
}

/// `own`'s facts, with what `other`'s facts say of `other_fn` said of
/// `own_fn` too: both sides decide alike.
fn merged(own: &Facts, own_fn: &str, other: &Facts, other_fn: &str) -> Facts {
    let mut f = own.clone();
    let rename = |set: &std::collections::BTreeSet<(String, usize)>| -> Vec<(String, usize)> {
        set.iter()
            .filter(|(n, _)| n == other_fn)
            .map(|(_, i)| (own_fn.to_string(), *i))
            .collect()
    };
    f.nullable_params.extend(rename(&other.nullable_params));
    f.freed_params.extend(rename(&other.freed_params));
    f.nullable_fields
        .extend(other.nullable_fields.iter().cloned());
    f.nullable_results
        .extend(other.nullable_results.iter().copied());
    if other.frees.contains(other_fn) {
        f.frees.insert(own_fn.to_string());
    }
    for ((n, i), v) in &other.views {
        if n == other_fn {
            f.views
                .entry((own_fn.to_string(), *i))
                .or_default()
                .extend(v.iter().cloned());
        }
    }
    f
}

/// What a side's `main` does with the inputs.
enum Role<'f> {
    /// Calls the function and records what it returned and wrote.
    Call(&'f Function),
    /// Records the input of the function (`x`).
    Input(&'f Function),
    /// Records `dec(enc(x))`.
    RoundTrip(&'f Function, &'f Function),
}

fn side_text(
    l: &Loaded,
    facts: &Facts,
    o: &Options,
    role: Role<'_>,
) -> Result<String, CompileError> {
    let mut g = Gen::new(&l.api, facts, o, Some(INPUTS.into()));
    let body = match role {
        Role::Call(f) => g.call_body(f, &[], None, ""),
        Role::Input(f) => value_body(&mut g, f, None),
        Role::RoundTrip(enc, dec) => value_body(&mut g, enc, Some(dec)),
    }
    .map_err(|why| failed("crosscheck", format!("no call can be generated: {why}")))?;
    let records = g.record_functions();
    let mut text = String::new();
    text.push_str("/* One side of a function crosscheck, generated by `cargo symtest`: the\n");
    text.push_str(" * inputs built from the parameters' types, the call, and what it returned\n");
    text.push_str(
        " * and wrote printed to standard output, which the other side's must equal. */\n",
    );
    text.push_str(super::ast::SYSTEM_INCLUDES);
    text.push_str("#include \"symtest.h\"\n");
    for h in &l.includes {
        let _ = writeln!(text, "#include \"{h}\"");
    }
    text.push_str(CROSS_OUT);
    text.push_str(super::harness::PRELUDE);
    text.push('\n');
    for s in &g.stubs {
        text.push_str(s);
    }
    text.push_str(&records);
    text.push_str("\nint main(void) {\n");
    text.push_str(&body);
    text.push_str("  return 0;\n}\n");
    Ok(text)
}

/// What a side records goes to standard output: `name: bytes`.
const CROSS_OUT: &str = r#"
static void symtest_cross_out(const char *name, const void *p, size_t n) {
  fputs(name, stdout);
  fputs(": ", stdout);
  fwrite(p, 1, n, stdout);
  fputc('\n', stdout);
}
#define symtest_expect_output symtest_cross_out
"#;

/// The inputs of `enc`, then `x` recorded: the input itself, or what
/// `dec(enc(x))` gives back.
fn value_body(g: &mut Gen<'_>, enc: &Function, dec: Option<&Function>) -> Result<String, String> {
    let shapes: Vec<Shape> = enc
        .params
        .iter()
        .map(|(_, t)| types::shape(g.api, t))
        .collect();
    g.check_params(enc, &shapes, None)?;
    let names = g.param_names(enc);
    let mut out = g.inputs(enc, &shapes, &names, &[], None, "");
    let x = &names[0];
    let value = match dec {
        None => x.clone(),
        Some(dec) => {
            let (mid, _) = types::unqualified(&enc.ret);
            let (back, _) = types::unqualified(&dec.ret);
            let _ = writeln!(
                out,
                "  __typeof__({mid}) symtest_mid = ({})({x});",
                enc.name
            );
            let _ = writeln!(
                out,
                "  __typeof__({back}) symtest_back = ({})(symtest_mid);",
                dec.name
            );
            "symtest_back".to_string()
        }
    };
    match value_shape(g.api, &enc.params[0].1) {
        Some(true) => {
            let _ = writeln!(out, "  symtest_lib_out_string(\"x\", {value});");
        }
        _ => {
            let shape = types::shape(g.api, &enc.params[0].1);
            g.record(&mut out, &value, &shape, "\"x\"", 0, "0", true, "  ");
        }
    }
    Ok(out)
}

/// Writes one side's harness into `dir/<side>/` and checks that it compiles.
fn write_side(
    name: &str,
    side: &str,
    l: Loaded,
    captured: Option<&Captured>,
    text: &str,
    models_include: &Path,
    dir: &Path,
) -> Result<Prepared, CompileError> {
    let file = dir.join(side).join(format!("symtest_crosscheck_{side}.c"));
    std::fs::write(&file, text)
        .map_err(|e| failed(&format!("writing {}", file.display()), e.to_string()))?;
    let mut derived = l.derived;
    derived.name = name.to_string();
    derived.library = None;
    // The engine runs each side under the POSIX runtime (it compares their
    // standard outputs): natively it is replayed as a program with no
    // arguments, whose runtime consumes the model's own objects first.
    derived.kind = crate::config::Kind::Program;
    derived.args = Vec::new();
    derived.option_seeds = false;
    let flags = crate::compile::common_args(&derived, models_include);
    let check = Command::new(&l.clang)
        .args(["-fsyntax-only", "-w"])
        .args(&flags)
        .arg(&file)
        .output()
        .map_err(|e| failed(&l.clang, e.to_string()))?;
    if !check.status.success() {
        return Err(failed(
            &format!("{} -fsyntax-only {}", l.clang, file.display()),
            String::from_utf8_lossy(&check.stderr).into_owned(),
        ));
    }
    let (target, captured) = with_harness(derived, captured, &file);
    Ok(Prepared {
        target,
        captured,
        functions: Vec::new(),
        skipped: Vec::new(),
        sequences: Vec::new(),
        calls: Vec::new(),
        made_up: Default::default(),
    })
}
