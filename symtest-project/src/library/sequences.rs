//! Call sequences of a `library` target's harness: per handle type, a
//! function that makes a handle, up to `sequence-length` of those that take
//! it, and the one that ends it (issue #47's "create → add → query →
//! destroy").

use super::ast::{Api, Function};
use super::harness::{indent, Gen};
use super::ir::Facts;
use super::types::{self, Shape};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A call sequence over one handle type: the functions that make a handle,
/// those that take it, and the one that ends it.
pub(super) struct Plan<'f> {
    /// The record (or declared-only type) the handle points to.
    pub(super) key: String,
    /// Functions returning a handle.
    constructors: Vec<&'f Function>,
    /// Functions filling a handle given as their first parameter, with the
    /// type it points to (complete: the harness allocates it).
    initializers: Vec<(&'f Function, String)>,
    /// Functions taking a handle: which parameter.
    users: Vec<(&'f Function, usize)>,
    enders: Vec<&'f Function>,
}

/// The words of a C name (`yaml_parser_initialize` → yaml, parser,
/// initialize; `deflateEnd` → deflate, end).
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c.is_ascii_digit() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The handle type a shape points to (a record or a declared-only type).
fn handle_key(s: &Shape) -> Option<(String, bool, String)> {
    match s {
        Shape::Pointer {
            to,
            constant,
            pointee,
        } => match to.as_ref() {
            Shape::Record(k) | Shape::Opaque(k) => Some((k.clone(), *constant, pointee.clone())),
            _ => None,
        },
        _ => None,
    }
}

/// Call sequences of the API (bounded; issue #47's "create → add → query →
/// destroy"): per handle type, its makers (functions returning it, or
/// filling one given first whose name says so: `init`, `create`, `new`,
/// `alloc`, `make`), its users, its enders (freeing it, or named `free`, `delete`,
/// `destroy`, `close`, `end`, `release`).
pub(super) fn plan_sequences<'f>(
    api: &Api,
    facts: &Facts,
    functions: &[&'f Function],
) -> Vec<Plan<'f>> {
    const MAKE: &[&str] = &["init", "create", "new", "alloc", "make"];
    const END: &[&str] = &[
        "free", "delete", "destroy", "close", "end", "release", "fini", "cleanup", "dispose",
        "finish",
    ];
    let mut plans: BTreeMap<String, Plan<'f>> = BTreeMap::new();
    let plan = |plans: &mut BTreeMap<String, Plan<'f>>, key: &str| -> () {
        plans.entry(key.to_string()).or_insert_with(|| Plan {
            key: key.to_string(),
            constructors: Vec::new(),
            initializers: Vec::new(),
            users: Vec::new(),
            enders: Vec::new(),
        });
    };
    for f in functions.iter().copied().filter(|f| !f.variadic) {
        let w = words(&f.name);
        let shapes: Vec<Shape> = f.params.iter().map(|(_, t)| types::shape(api, t)).collect();
        if let Some((key, _, _)) = handle_key(&types::shape(api, &f.ret)) {
            if !shapes
                .iter()
                .any(|s| handle_key(s).is_some_and(|h| h.0 == key))
            {
                plan(&mut plans, &key);
                plans.get_mut(&key).expect("made").constructors.push(f);
                continue;
            }
        }
        let first = shapes.first().and_then(handle_key);
        if let Some((key, constant, pointee)) = &first {
            let named = |ws: &[&str], prefix: bool| {
                w.iter().any(|x| {
                    ws.iter()
                        .any(|m| x == m || (prefix && x.starts_with(m) && x.len() > m.len() + 2))
                })
            };
            if !constant && named(MAKE, true) && api.records.contains_key(key) {
                plan(&mut plans, key);
                plans
                    .get_mut(key)
                    .expect("made")
                    .initializers
                    .push((f, pointee.clone()));
                continue;
            }
            if facts.freed_params.contains(&(f.name.clone(), 0)) || named(END, false) {
                plan(&mut plans, key);
                plans.get_mut(key).expect("made").enders.push(f);
                continue;
            }
        }
        if let Some((i, (key, _, _))) = shapes
            .iter()
            .enumerate()
            .find_map(|(i, s)| Some((i, handle_key(s)?)))
        {
            plan(&mut plans, &key);
            plans.get_mut(&key).expect("made").users.push((f, i));
        }
    }
    plans
        .into_values()
        .filter(|p| {
            (!p.constructors.is_empty() || !p.initializers.is_empty()) && !p.users.is_empty()
        })
        .collect()
}

impl<'a> Gen<'a> {
    /// `symtest_seq_<k>`: make a handle, call up to `sequence_length` of its
    /// users on it (each chosen by a symbolic selector, or stop), end it.
    pub(super) fn sequence(
        &mut self,
        k: usize,
        p: &Plan,
        assume: &BTreeMap<String, Vec<String>>,
    ) -> Option<(String, String)> {
        let none: &[String] = &[];
        let assumed = |f: &Function| assume.get(&f.name).map_or(none, Vec::as_slice).to_vec();
        let mut makers = Vec::new();
        for f in &p.constructors {
            let body = self.call_body(f, &assumed(f), None, "make.").ok()?;
            makers.push((
                f.name.clone(),
                format!("{body}  h = (void *)symtest_ret;\n"),
            ));
        }
        for (f, pointee) in &p.initializers {
            let Ok(body) = self.call_body(f, &assumed(f), Some((0, "h")), "make.") else {
                continue;
            };
            makers.push((
                f.name.clone(),
                format!("  h = calloc(1, sizeof({pointee}));\n  if (!h)\n    abort();\n{body}"),
            ));
        }
        if makers.is_empty() {
            return None;
        }
        let mut users = Vec::new();
        for (f, i) in &p.users {
            for step in 1..=self.o.sequence_length {
                let prefix = format!("{step}.");
                if let Ok(body) = self.call_body(f, &assumed(f), Some((*i, "h")), &prefix) {
                    users.push((step, f.name.clone(), body));
                }
            }
        }
        if users.is_empty() {
            return None;
        }
        let mut out = String::new();
        let _ = writeln!(out, "static void symtest_seq_{k}(void) {{");
        let _ = writeln!(out, "  void *h = NULL;");
        let _ = writeln!(
            out,
            "  switch (symtest_range(0, {}, \"sequence.make\")) {{",
            makers.len()
        );
        for (i, (_, body)) in makers.iter().enumerate() {
            let _ = writeln!(out, "  case {i}: {{");
            out.push_str(&indent(body));
            let _ = writeln!(out, "  }} break;");
        }
        let _ = writeln!(out, "  default: return;\n  }}");
        let _ = writeln!(out, "  if (!h)\n    return;");
        for step in 1..=self.o.sequence_length {
            let these: Vec<&(u32, String, String)> = users.iter().filter(|u| u.0 == step).collect();
            let _ = writeln!(
                out,
                "  switch (symtest_range(0, {}, \"sequence.step{step}\")) {{",
                these.len() + 1
            );
            for (i, (_, _, body)) in these.iter().enumerate() {
                let _ = writeln!(out, "  case {i}: {{");
                out.push_str(&indent(body));
                let _ = writeln!(out, "  }} break;");
            }
            let _ = writeln!(out, "  default: goto end;\n  }}");
        }
        let _ = writeln!(out, "end:");
        let mut ender = None;
        for f in &p.enders {
            let idx = 0;
            if let Ok(body) = self.call_body(f, &assumed(f), Some((idx, "h")), "end.") {
                let _ = writeln!(out, "  {{");
                out.push_str(&indent(&body));
                let _ = writeln!(out, "  }}");
                ender = Some(f.name.clone());
                break;
            }
        }
        let _ = writeln!(out, "  ;\n}}");
        let mut user_names: Vec<String> = users.iter().map(|u| u.1.clone()).collect();
        user_names.dedup();
        let what = format!(
            "{} → up to {} of {{{}}}{}",
            makers
                .iter()
                .map(|m| m.0.as_str())
                .collect::<Vec<_>>()
                .join(" | "),
            self.o.sequence_length,
            user_names.join(", "),
            ender.map_or(String::new(), |e| format!(" → {e}"))
        );
        Some((out, what))
    }
}
