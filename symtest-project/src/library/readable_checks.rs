//! The checks of a readable test: after the call, what the suite recorded
//! (the return value, what the call wrote through its pointers), each naming
//! what it checks.

use super::readable::{Call, Kind};
use super::readable_c::{elements, int_literal, Recorded};
use crate::vectors::c_literal;
use std::fmt::Write as _;

/// The checks of what the call returned (`ret`) and wrote, from the outputs.
pub(super) fn checks(c: &Call, r: &Recorded, body: &mut String) -> usize {
    let mut n = 0;
    let f = &format!("{}{}", c.function, r.step);
    let ret_at = r.outputs("return");
    match (&c.ret, ret_at.first()) {
        (Kind::Int { signed, .. }, Some(b)) => {
            if let Some(v) = int_literal(b, *signed) {
                let how = if *signed { "int" } else { "uint" };
                let _ = writeln!(body, "  check_{how}(\"the value {f} returns\", ret, {v});");
                n += 1;
            }
        }
        (Kind::Float { .. }, Some(b)) => {
            let _ = writeln!(
                body,
                "  check_float(\"the value {f} returns\", ret, {});",
                c_literal(b)
            );
            n += 1;
        }
        (Kind::String { .. } | Kind::Pointer { .. }, Some(b)) => {
            n += check_pointer(c, r, b, body);
        }
        _ => {}
    }
    if let Kind::Record { fields, .. } = &c.ret {
        n += check_fields(
            &format!("the value {f} returns"),
            "return",
            "ret",
            fields,
            r,
            body,
        );
    }
    for p in c.params.iter().filter(|p| p.out) {
        if let Kind::Array { of, .. } = &p.kind {
            if let Kind::Record { fields, .. } = of.as_ref() {
                let what = format!("`{}[0]` after {f}", p.name);
                n += check_fields(&what, &p.name, &format!("{}[0]", p.name), fields, r, body);
                continue;
            }
        }
        let written = r.outputs(&p.name);
        let Some(first) = written.first() else {
            continue;
        };
        let name = &p.name;
        match &p.kind {
            Kind::String { .. } => {
                let _ = writeln!(
                    body,
                    "  check_bytes(\"the bytes {f} leaves in `{name}`\", {name}, {}, {});",
                    c_literal(first),
                    first.len()
                );
                n += 1;
            }
            Kind::Array {
                of, count, elem, ..
            } => {
                let values: Vec<String> = match of.as_ref() {
                    Kind::Float { .. } => written.iter().map(|b| c_literal(b)).collect(),
                    _ => elements(of, first, *count, p).unwrap_or_default(),
                };
                let (how, want_ty) = match of.as_ref() {
                    Kind::Float { .. } => ("float", "const char *"),
                    Kind::Int { signed: true, .. } => ("int", elem.as_str()),
                    _ => ("uint", elem.as_str()),
                };
                let want_ty = want_ty.trim_start_matches("const ");
                let _ = writeln!(
                    body,
                    "  {{
    const {want_ty} want[{}] = {{{}}};
    for (size_t i = 0; i < {}; i++)
      check_{how}_at(\"`{name}[i]` after {f}\", i, {name}[i], want[i]);
  }}",
                    values.len(),
                    values.join(", "),
                    values.len()
                );
                n += values.len();
            }
            _ => {}
        }
    }
    n
}

/// The checks of a structure's fields (`expr`), as recorded under `label`.
fn check_fields(
    what: &str,
    label: &str,
    expr: &str,
    fields: &[super::readable::FieldLayout],
    r: &Recorded,
    body: &mut String,
) -> usize {
    let mut n = 0;
    for fl in fields {
        let Some(b) = r.outputs(&format!("{label}.{}", fl.name)).first().copied() else {
            continue;
        };
        let (name, x) = (&fl.name, format!("{expr}.{}", fl.name));
        let line = match &fl.kind {
            Kind::Int { signed, .. } => int_literal(b, *signed).map(|v| {
                let how = if *signed { "int" } else { "uint" };
                format!("check_{how}(\"field `{name}` of {what}\", {x}, {v});")
            }),
            Kind::Float { .. } => Some(format!(
                "check_float(\"field `{name}` of {what}\", {x}, {});",
                c_literal(b)
            )),
            Kind::Link { .. } | Kind::StrField { .. } | Kind::ArrField { .. } => {
                Some(match b.first() {
                    Some(1) => {
                        format!("check_true(\"field `{name}` of {what} is NULL\", {x} == NULL);")
                    }
                    _ => format!(
                        "check_true(\"field `{name}` of {what} is not NULL\", {x} != NULL);"
                    ),
                })
            }
            _ => Some(format!(
                "check_bytes(\"field `{name}` of {what}\", {x}, {}, {});",
                c_literal(b),
                b.len()
            )),
        };
        if let Some(l) = line {
            let _ = writeln!(body, "  {l}");
            n += 1;
        }
    }
    n
}

/// The checks of a returned pointer: NULL, into an input, or new memory
/// (and for a string, what it holds).
fn check_pointer(c: &Call, r: &Recorded, b: &[u8], body: &mut String) -> usize {
    let f = &format!("{}{}", c.function, r.step);
    let at = String::from_utf8_lossy(b).into_owned();
    if at == "NULL" {
        let _ = writeln!(body, "  check_true(\"{f} returns NULL\", ret == NULL);");
        return 1;
    }
    if let Some(rest) = at.strip_prefix("into ") {
        let (label, off) = rest.rsplit_once(" at offset ").unwrap_or((rest, "0"));
        let var = c
            .params
            .iter()
            .map(|p| (&p.label, &p.name))
            .chain(r.inputs.iter().map(|(l, v)| (l, v)))
            .find(|(l, _)| *l == label);
        if let Some((_, v)) = var {
            let _ = writeln!(
                body,
                "  check_true(\"{f} returns a pointer {off} bytes into `{v}`\", (const char *)ret == (const char *){v} + {off});"
            );
            return 1;
        }
        return 0;
    }
    let _ = writeln!(
        body,
        "  check_true(\"{f} returns new memory\", ret != NULL);"
    );
    match (&c.ret, r.outputs("*return").first()) {
        (Kind::String { .. }, Some(s)) => {
            let _ = writeln!(
                body,
                "  check_string(\"the string {f} returns\", ret, {});",
                c_literal(s)
            );
            2
        }
        _ => 1,
    }
}
