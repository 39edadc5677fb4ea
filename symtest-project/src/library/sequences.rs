//! Call sequences of a `library` target's harness: per handle type, a
//! function that makes a handle, up to `sequence-length` of those that take
//! it, and the one that ends it (issue #47's "create → add → query →
//! destroy"). A user that keeps a buffer of its caller in the handle (a
//! setter, [`super::ir::Facts::stores`]) runs first, before those that
//! consume what it set. A maker that fails (returns NULL, or a failure
//! status, [`super::status`]) ends the sequence there: its users are not
//! called on a handle that was never made.

use super::ast::{Api, Function};
use super::dispatch::{dispatch, indent, weight};
use super::harness::Gen;
use super::ir::Facts;
use super::status::Failure;
use super::types::{self, Shape};
use std::collections::{BTreeMap, BTreeSet};
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
    /// Those of `users` that keep a pointer they are given (not a handle of
    /// this type) in the handle: they run first.
    setters: Vec<(&'f Function, usize)>,
    enders: Vec<&'f Function>,
}

/// The functions one call sequence calls, as a test's objects tell them.
#[derive(Clone, Debug, Default)]
pub struct Calls {
    /// Per selector object (`sequence.make`, `sequence.set`,
    /// `sequence.step1`, ...), the function each of its values calls
    /// (`None`: none, or stop). A selector of one value makes no object.
    pub selectors: Vec<(String, Vec<Option<String>>)>,
    /// The function that ends the handle, called on every path that made
    /// one and ends normally.
    pub ender: Option<String>,
    /// How each function of the sequence is called, by its name.
    pub roles: BTreeMap<String, Role>,
}

/// How a call sequence calls one of its functions.
#[derive(Clone, Debug, Default)]
pub struct Role {
    /// The parameter given the handle (None: a constructor, which returns it).
    pub handle: Option<usize>,
    /// An initializer: the type of the object it fills (the harness
    /// allocates it zeroed).
    pub fills: Option<String>,
    /// A maker: when its call failed, as a C condition on its return `ret`.
    pub failed: Option<String>,
}

impl Calls {
    /// The functions a test of this sequence called (its objects, and
    /// whether its path ended normally).
    pub fn called(&self, objects: &[(String, Vec<u8>)], ended: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut past_make = false;
        for (name, values) in &self.selectors {
            let value = match objects.iter().find(|(n, _)| n == name) {
                Some((_, b)) if b.len() == 4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                Some(_) => continue,
                None if values.len() == 1 && name == "sequence.make" => 0,
                None => continue,
            };
            past_make |= name != "sequence.make";
            if let Some(Some(f)) = values.get(value as usize) {
                out.push(f.clone());
            }
        }
        if let (Some(e), true) = (&self.ender, ended && past_make) {
            out.push(e.clone());
        }
        out
    }
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
            setters: Vec::new(),
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
            let keeps = |s: &(usize, &Shape)| {
                facts.stores.contains(&(f.name.clone(), s.0, i))
                    && matches!(s.1, Shape::Pointer { .. } | Shape::Function { .. })
                    && handle_key(s.1).is_none_or(|h| h.0 != key)
            };
            let p = plans.get_mut(&key).expect("made");
            if shapes.iter().enumerate().any(|s| keeps(&s)) {
                p.setters.push((f, i));
            } else {
                p.users.push((f, i));
            }
        }
    }
    plans
        .into_values()
        .filter(|p| {
            let makes = !p.constructors.is_empty() || !p.initializers.is_empty();
            let takes = !p.users.is_empty() || !p.setters.is_empty();
            makes && takes
        })
        .collect()
}

/// Calls that get a made-up handle: a pointer to a structure the library
/// makes with a function of its own (a handle type of a plan), built as
/// symbolic bytes instead. `alone`: functions whose single call gets one
/// (but an initializer's, which is to fill it); `in_sequence`: those whose
/// call in a sequence gets one besides the sequence's handle.
#[derive(Clone, Debug, Default)]
pub struct MadeUp {
    pub alone: BTreeSet<String>,
    pub in_sequence: BTreeSet<String>,
}

/// The calls of `functions` that get a made-up handle of one of `plans`.
pub(super) fn made_up(api: &Api, plans: &[Plan], functions: &[&Function]) -> MadeUp {
    let keys: BTreeSet<&str> = plans.iter().map(|p| p.key.as_str()).collect();
    let mut out = MadeUp::default();
    for f in functions {
        let handles: Vec<usize> = f
            .params
            .iter()
            .enumerate()
            .filter(|(_, (_, t))| {
                handle_key(&types::shape(api, t)).is_some_and(|h| keys.contains(h.0.as_str()))
            })
            .map(|(i, _)| i)
            .collect();
        let fills = plans
            .iter()
            .any(|p| p.initializers.iter().any(|(g, _)| g.name == f.name));
        if handles.iter().any(|&i| !(fills && i == 0)) {
            out.alone.insert(f.name.clone());
        }
        let given = plans.iter().find_map(|p| {
            p.users
                .iter()
                .chain(&p.setters)
                .find(|(g, _)| g.name == f.name)
                .map(|u| u.1)
                .or_else(|| (fills || p.enders.iter().any(|g| g.name == f.name)).then_some(0))
        });
        if handles.iter().any(|&i| Some(i) != given) {
            out.in_sequence.insert(f.name.clone());
        }
    }
    out
}

impl<'a> Gen<'a> {
    /// The C condition on `symtest_ret` under which a call of `f` failed: a
    /// `_Bool` that is false, or an integer status as the library's code
    /// returns it ([`super::status`]); None when its returns do not tell.
    fn failed(&self, f: &Function) -> Option<&'static str> {
        match types::shape(self.api, &f.ret) {
            Shape::Int { boolean: true } => Some("!symtest_ret"),
            Shape::Int { boolean: false } => match self.facts.failures.get(&f.name)? {
                Failure::Negative => Some("symtest_ret < 0"),
                Failure::Zero => Some("symtest_ret == 0"),
            },
            _ => None,
        }
    }

    /// The bodies of the calls of `list` on the handle `h` (names after
    /// `prefix`); those that do not build are left out.
    fn on_handle(
        &mut self,
        list: &[(&Function, usize)],
        assume: &BTreeMap<String, Vec<String>>,
        prefix: &str,
    ) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (f, i) in list {
            let a = assume.get(&f.name).cloned().unwrap_or_default();
            if let Ok(body) = self.call_body(f, &a, Some((*i, "h")), prefix) {
                out.push((f.name.clone(), body));
            }
        }
        out
    }

    /// The bodies that make a sequence's handle `h`: each constructor's call
    /// (its return), and each initializer's on a zeroed object (freed, and
    /// `h` NULL, when it reports a failure); their roles into `roles`.
    /// Nothing when a constructor's call does not build.
    fn makers(
        &mut self,
        p: &Plan,
        assume: &BTreeMap<String, Vec<String>>,
        roles: &mut BTreeMap<String, Role>,
    ) -> Option<Vec<(String, String)>> {
        let none: &[String] = &[];
        let assumed = |f: &Function| assume.get(&f.name).map_or(none, Vec::as_slice).to_vec();
        let mut makers = Vec::new();
        for f in &p.constructors {
            let body = self.call_body(f, &assumed(f), None, "make.").ok()?;
            let role = Role {
                failed: Some("ret == NULL".into()),
                ..Role::default()
            };
            roles.insert(f.name.clone(), role);
            makers.push((
                f.name.clone(),
                format!("{body}  h = (void *)symtest_ret;\n"),
            ));
        }
        for (f, pointee) in &p.initializers {
            let Ok(body) = self.call_body(f, &assumed(f), Some((0, "h")), "make.") else {
                continue;
            };
            // A maker that reports a failure leaves no handle to go on with.
            let cond = self.failed(f);
            let failed = cond.map_or(String::new(), |cond| {
                format!("  if ({cond}) {{\n    free(h);\n    h = NULL;\n  }}\n")
            });
            let role = Role {
                handle: Some(0),
                fills: Some(pointee.clone()),
                failed: cond.map(|c| c.replace("symtest_ret", "ret")),
            };
            roles.insert(f.name.clone(), role);
            makers.push((
                f.name.clone(),
                format!(
                    "  h = calloc(1, sizeof({pointee}));\n  if (!h)\n    abort();\n{body}{failed}"
                ),
            ));
        }
        Some(makers)
    }

    /// Writes the call of the first of the plan's enders whose call builds
    /// on `h` into `out`; its name (its role into `roles`).
    fn end(
        &mut self,
        out: &mut String,
        p: &Plan,
        assume: &BTreeMap<String, Vec<String>>,
        roles: &mut BTreeMap<String, Role>,
    ) -> Option<String> {
        let none: &[String] = &[];
        for f in &p.enders {
            let a = assume.get(&f.name).map_or(none, Vec::as_slice).to_vec();
            if let Ok(body) = self.call_body(f, &a, Some((0, "h")), "end.") {
                let _ = writeln!(out, "  {{");
                out.push_str(&indent(&body));
                let _ = writeln!(out, "  }}");
                let role = Role {
                    handle: Some(0),
                    ..Role::default()
                };
                roles.insert(f.name.clone(), role);
                return Some(f.name.clone());
            }
        }
        None
    }

    /// `symtest_seq_<k>`: make a handle, call one of its setters (or none),
    /// then up to `sequence_length` (the setter's call included) of its
    /// other users on it, each chosen by a symbolic selector (or stop),
    /// end it. Returns its text, what it calls, and its selectors.
    pub(super) fn sequence(
        &mut self,
        k: usize,
        p: &Plan,
        assume: &BTreeMap<String, Vec<String>>,
    ) -> Option<(String, String, Calls)> {
        let mut roles = BTreeMap::new();
        let makers = self.makers(p, assume, &mut roles)?;
        for (f, i) in p.setters.iter().chain(&p.users) {
            let role = Role {
                handle: Some(*i),
                ..Role::default()
            };
            roles.insert(f.name.clone(), role);
        }
        let setters = self.on_handle(&p.setters, assume, "set.");
        let steps = self.o.sequence_length - u32::from(!setters.is_empty());
        let mut users = Vec::new();
        for step in 1..=steps {
            users.push(self.on_handle(&p.users, assume, &format!("{step}.")));
        }
        if makers.is_empty() || (setters.is_empty() && users.iter().all(Vec::is_empty)) {
            return None;
        }
        let mut selectors = Vec::new();
        let mut out = String::new();
        let _ = writeln!(out, "static void symtest_seq_{k}(void) {{");
        let _ = writeln!(out, "  void *h = NULL;");
        let _ = writeln!(
            out,
            "  int make = symtest_range(0, {}, \"sequence.make\");",
            makers.len()
        );
        // Each choice weighs by the code its call can reach ([`weight`]).
        let reach = |n: &str| weight(self.facts.reach([n]));
        let bodies: Vec<(String, usize)> =
            makers.iter().map(|m| (m.1.clone(), reach(&m.0))).collect();
        dispatch(&mut out, "make", &bodies, "  ");
        selectors.push((
            "sequence.make".into(),
            makers.iter().map(|m| Some(m.0.clone())).collect(),
        ));
        let _ = writeln!(out, "  if (!h)\n    return;");
        let mut choose = |out: &mut String, name: &str, calls: &[(String, String)]| {
            let var = name.replace('.', "_");
            let _ = writeln!(
                out,
                "  int {var} = symtest_range(0, {}, \"{name}\");",
                calls.len() + 1
            );
            // Stopping (or no setter) weighs as the lightest call.
            let mut bodies: Vec<(String, usize)> =
                calls.iter().map(|c| (c.1.clone(), reach(&c.0))).collect();
            let least = bodies.iter().map(|b| b.1).min().unwrap_or(1);
            bodies.push(if name == "sequence.set" {
                (String::new(), least)
            } else {
                ("  goto end;\n".into(), least)
            });
            dispatch(out, &var, &bodies, "  ");
            let mut values: Vec<Option<String>> = calls.iter().map(|c| Some(c.0.clone())).collect();
            values.push(None);
            selectors.push((name.to_string(), values));
        };
        if !setters.is_empty() {
            choose(&mut out, "sequence.set", &setters);
        }
        for (step, these) in users.iter().enumerate() {
            if !these.is_empty() {
                choose(&mut out, &format!("sequence.step{}", step + 1), these);
            }
        }
        if users.iter().any(|u| !u.is_empty()) {
            let _ = writeln!(out, "end:");
        }
        let ender = self.end(&mut out, p, assume, &mut roles);
        let _ = writeln!(out, "  ;\n}}");
        let what = describe(&makers, &setters, users.first(), steps, ender.as_deref());
        let calls = Calls {
            selectors,
            ender,
            roles,
        };
        Some((out, what, calls))
    }
}

/// What a sequence calls, as the report shows it: `make | make → one of
/// {setters} or none → up to N of {users} → end`.
fn describe(
    makers: &[(String, String)],
    setters: &[(String, String)],
    users: Option<&Vec<(String, String)>>,
    steps: u32,
    ender: Option<&str>,
) -> String {
    let names = |calls: &[(String, String)], sep: &str| {
        calls
            .iter()
            .map(|c| c.0.as_str())
            .collect::<Vec<_>>()
            .join(sep)
    };
    format!(
        "{}{} → up to {steps} of {{{}}}{}",
        names(makers, " | "),
        if setters.is_empty() {
            String::new()
        } else {
            format!(" → one of {{{}}} or none", names(setters, ", "))
        },
        users.map_or(String::new(), |u| names(u, ", ")),
        ender.map_or(String::new(), |e| format!(" → {e}"))
    )
}
