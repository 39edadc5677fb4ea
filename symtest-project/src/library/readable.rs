//! Readable tests of a `library` target: what each generated call's inputs
//! are, in C terms ([`plan`], written beside the harness when it is
//! generated), from which the suite gets `readable_tests.c` ([`write`],
//! [`source`]): one plain C function per kept test that calls one public
//! function with its inputs as literals and checks what the harness recorded.

use super::ast::{Api, Function};
use super::harness::{Gen, Options};
use super::ir::Facts;
use super::sequences::Calls;
use super::types::{self, Shape};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The plan's file name, beside the generated harness.
pub const PLAN_FILE: &str = "symtest_library.readable.json";
/// The readable tests' file name in the suite, and their make rules.
pub const READABLE_C: &str = "readable_tests.c";
pub const READABLE_MK: &str = "readable.mk";

/// What a value of one parameter (or of the return) is.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub enum Kind {
    /// An integer or enum type (`ty` as written), signed or not.
    Int {
        ty: String,
        signed: bool,
    },
    Float {
        ty: String,
    },
    /// A `char *`: a NUL-terminated string.
    String {
        ty: String,
    },
    /// A pointer to `count` elements of `elem` (each of kind `of`).
    Array {
        ty: String,
        elem: String,
        of: Box<Kind>,
        count: u32,
    },
    /// A pointer to `void`: bytes.
    Bytes {
        ty: String,
    },
    /// A pointer the harness always gives NULL.
    Null {
        ty: String,
    },
    /// Any other pointer (a return: only where it points is checked).
    Pointer {
        ty: String,
    },
    /// A structure of scalars and arrays of scalars, with its layout.
    Record {
        ty: String,
        size: u64,
        fields: Vec<FieldLayout>,
    },
    /// A fixed array inside a structure: `count` elements of kind `of`.
    Fixed {
        of: Box<Kind>,
        count: u64,
    },
    /// A `char *` field of a structure (NULL by a choice when `nullable`).
    StrField {
        nullable: bool,
    },
    /// A field that points to one structure `key` (of the plan's layouts).
    Link {
        key: String,
        nullable: bool,
    },
    /// A field that points to the harness's elements of scalar `elem`.
    ArrField {
        elem: String,
        of: Box<Kind>,
        nullable: bool,
    },
    Void,
}

/// A field of a [`Kind::Record`]: name, offset and size in bytes, kind.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FieldLayout {
    pub name: String,
    pub offset: u64,
    pub size: u64,
    pub kind: Kind,
}

/// One parameter of a call: its name in the test, the object the harness
/// names its value by, whether it may be NULL (a `<label>==NULL?` object),
/// and whether the harness records what the call wrote through it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub label: String,
    pub kind: Kind,
    pub nullable: bool,
    pub out: bool,
}

/// A call the readable tests can write, or why not.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Call {
    pub function: String,
    pub params: Vec<Param>,
    pub ret: Kind,
    /// `extern` integers of the headers the harness makes symbolic (name, kind).
    pub globals: Vec<(String, Kind)>,
    /// The function may free memory it is given: its inputs are on the heap.
    #[serde(default)]
    pub frees: bool,
}

/// The plan of a harness: each entry of its `function` selector, in order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Plan {
    pub includes: Vec<String>,
    /// How deep the harness builds pointers inside structures.
    pub depth: u32,
    /// How many elements the harness gives a pointer to scalars.
    pub elements: u32,
    pub layouts: Layouts,
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    pub name: String,
    pub call: Option<Call>,
    /// A call sequence's calls.
    #[serde(default)]
    pub sequence: Option<Sequence>,
    /// Why the entry has no readable call.
    pub why: Option<String>,
}

/// A call sequence, as its selectors choose its calls: the maker
/// (`sequence.make`), a setter or none (`sequence.set`), then each step's
/// user or stop (`sequence.step<k>`), and the ender.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sequence {
    pub selectors: Vec<Selector>,
    pub ender: Option<Step>,
}

/// One selector of a call sequence: its object's name, the prefix of the
/// names of its calls' inputs and outputs (`make.`, `set.`, `1.`, `end.`),
/// and by its value, the call it makes (None: none, or stop).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Selector {
    pub name: String,
    pub prefix: String,
    pub values: Vec<Option<Step>>,
}

/// One call of a sequence: its function, the parameter given the handle
/// (None: the call returns it), the type an initializer fills, a maker's
/// failure as a C condition on `ret`, and its readable call (or why none).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    pub function: String,
    pub handle: Option<usize>,
    pub fills: Option<String>,
    pub failed: Option<String>,
    pub call: Option<Call>,
    pub why: Option<String>,
}

/// Whether integer type `t` is signed (typedefs resolved).
fn signed(api: &Api, t: &str) -> bool {
    let mut s = types::unqualified(t).0;
    for _ in 0..32 {
        match api.typedefs.get(&s) {
            Some(u) if u != &s => s = types::unqualified(u).0,
            _ => break,
        }
    }
    !(s.contains("unsigned") || s == "_Bool" || s == "bool")
}

/// The kind of a scalar (an element, a return, a global), if it is one.
fn scalar(api: &Api, t: &str, s: &Shape) -> Option<Kind> {
    let ty = types::unqualified(t).0;
    match s {
        Shape::Int { .. } => Some(Kind::Int {
            signed: signed(api, &ty),
            ty,
        }),
        Shape::Enum(_) => Some(Kind::Int { ty, signed: true }),
        Shape::Float if !ty.contains("long double") => Some(Kind::Float { ty }),
        _ => None,
    }
}

/// The kind of a pointer parameter's or return's value.
fn pointer(
    api: &Api,
    layouts: &Layouts,
    t: &str,
    pointee: &str,
    to: &Shape,
    count: u32,
) -> Result<Kind, String> {
    let ty = types::unqualified(t).0;
    match to {
        Shape::Int { .. } if types::is_char(api, pointee) => Ok(Kind::String { ty }),
        Shape::Void => Ok(Kind::Bytes { ty }),
        Shape::Record(key) => match layouts.get(key) {
            Some(of) => Ok(Kind::Array {
                ty,
                elem: types::unqualified(pointee).0,
                of: Box::new(of.clone()),
                // A structure with pointers is given one element (a node).
                count: if linked(of) { 1 } else { count },
            }),
            None => Err(format!(
                "`{t}` points to `{pointee}`, a structure the readable tests do not write as a literal yet (pointers, unions or bit-fields in it)"
            )),
        },
        inner => match scalar(api, pointee, inner) {
            // An element that needs fixing (an enum, a boolean) is
            // still one value of its bytes.
            Some(of) => Ok(Kind::Array {
                ty,
                elem: types::unqualified(pointee).0,
                of: Box::new(of),
                count,
            }),
            None => Err(format!(
                "`{t}` points to `{pointee}`, which the readable tests do not write as a literal yet"
            )),
        },
    }
}

impl Gen<'_> {
    /// The readable call of `f`, as [`Gen::call_body`] builds its inputs
    /// (named after `prefix`; parameter `given` is a sequence's handle).
    fn readable(
        &self,
        f: &Function,
        layouts: &Layouts,
        given: Option<usize>,
        prefix: &str,
    ) -> Result<Call, String> {
        let shapes: Vec<Shape> = f
            .params
            .iter()
            .map(|(_, t)| types::shape(self.api, t))
            .collect();
        let names = self.param_names(f);
        let mut params = Vec::new();
        for (i, ((_, t), s)) in f.params.iter().zip(&shapes).enumerate() {
            let n = &names[i];
            let label = format!("{prefix}{}.{n}", f.name);
            if given == Some(i) {
                params.push(Param {
                    name: n.clone(),
                    label,
                    kind: Kind::Pointer {
                        ty: types::unqualified(t).0,
                    },
                    nullable: false,
                    out: false,
                });
                continue;
            }
            let nullable = self.facts.nullable_params.contains(&(f.name.clone(), i));
            let g = given.map(|k| (k, "h"));
            if self.range_end(f, &shapes, i, g).is_some() {
                return Err(format!("parameter `{n}` ends a range: not written yet"));
            }
            let kind = match s {
                Shape::Pointer { .. } if self.unsupported(s).is_some() => Kind::Null {
                    ty: types::unqualified(t).0,
                },
                Shape::Pointer { pointee, to, .. } => pointer(self.api, layouts, t, pointee, to, self.o.elements)?,
                Shape::Function { .. } => {
                    return Err(format!(
                        "parameter `{n}` is a function pointer (the harness gives it a stub)"
                    ))
                }
                Shape::Record(k) => layouts.get(k).cloned().ok_or_else(|| {
                    format!("parameter `{n}` is a `{k}` by value with pointers, unions or bit-fields: not written yet")
                })?,
                other => scalar(self.api, t, other)
                    .ok_or_else(|| format!("parameter `{n}` ({t}) is not written as a literal"))?,
            };
            let out = match s {
                Shape::Pointer { constant, to, .. } => {
                    !*constant
                        && !matches!(kind, Kind::Null { .. } | Kind::Bytes { .. })
                        && !self.facts.freed_params.contains(&(f.name.clone(), i))
                        && !matches!(to.as_ref(), Shape::Void)
                }
                _ => false,
            };
            params.push(Param {
                name: n.clone(),
                label,
                kind,
                nullable,
                out,
            });
        }
        let ret = self.return_kind(f, layouts)?;
        // A call of a sequence leaves the globals as they are.
        let globals = if given.is_none() && prefix.is_empty() {
            self.checked_globals()
        } else {
            Vec::new()
        };
        Ok(Call {
            function: f.name.clone(),
            params,
            ret,
            globals,
            frees: self.facts.frees.contains(&f.name),
        })
    }

    /// How the readable test checks what `f` returns.
    fn return_kind(&self, f: &Function, layouts: &Layouts) -> Result<Kind, String> {
        Ok(match types::shape(self.api, &f.ret) {
            Shape::Void => Kind::Void,
            Shape::Pointer { pointee, to, .. } => {
                match pointer(self.api, layouts, &f.ret, &pointee, &to, 1) {
                    Ok(Kind::String { ty }) => Kind::String { ty },
                    _ => Kind::Pointer {
                        ty: types::unqualified(&f.ret).0,
                    },
                }
            }
            Shape::Record(k) if layouts.contains_key(&k) => layouts[&k].clone(),
            s => scalar(self.api, &f.ret, &s)
                .ok_or_else(|| format!("its return type `{}` is not checked yet", f.ret))?,
        })
    }

    /// The library's writable integer and enum globals a call's test checks.
    fn checked_globals(&self) -> Vec<(String, Kind)> {
        self.api
            .globals
            .iter()
            .filter(|(g, t)| self.facts.globals.contains(g.as_str()) && !types::unqualified(t).1)
            .filter_map(|(g, t)| {
                let s = types::shape(self.api, t);
                matches!(s, Shape::Int { .. } | Shape::Enum(_))
                    .then(|| scalar(self.api, t, &s).map(|k| (g.clone(), k)))
                    .flatten()
            })
            .collect()
    }
}

/// The layouts of the structures the readable tests write, by their key.
pub type Layouts = BTreeMap<String, Kind>;

/// The readable step of a sequence's call of `name` (inputs named after
/// `prefix`), as `calls` says it is called.
fn step(g: &Gen, layouts: &Layouts, calls: &Calls, name: &str, prefix: &str) -> Step {
    let role = calls.roles.get(name).cloned().unwrap_or_default();
    let r = match g.api.functions.iter().find(|f| f.name == name) {
        None => Err("not a function of the headers".to_string()),
        Some(f) => g.readable(f, layouts, role.handle, prefix),
    };
    let (call, why) = match r {
        Ok(c) => (Some(c), None),
        Err(w) => (None, Some(w)),
    };
    Step {
        function: name.to_string(),
        handle: role.handle,
        fills: role.fills,
        failed: role.failed,
        call,
        why,
    }
}

/// The readable calls of a sequence whose selectors are `calls`.
fn sequence(g: &Gen, layouts: &Layouts, calls: &Calls) -> Sequence {
    let selectors = calls
        .selectors
        .iter()
        .map(|(name, values)| {
            let prefix = match name.strip_prefix("sequence.") {
                Some(k) if k.starts_with("step") => format!("{}.", &k[4..]),
                Some(k) => format!("{k}."),
                None => format!("{name}."),
            };
            let values = values
                .iter()
                .map(|v| v.as_ref().map(|f| step(g, layouts, calls, f, &prefix)))
                .collect();
            Selector {
                name: name.clone(),
                prefix,
                values,
            }
        })
        .collect();
    let ender = calls
        .ender
        .as_ref()
        .map(|e| step(g, layouts, calls, e, "end."));
    Sequence { selectors, ender }
}

/// The plan of a harness that calls `called` (its selector entries; the
/// call sequences among them choose their calls as `sequences` says), the
/// structures it writes laid out as in `layouts`.
pub fn plan(
    api: &Api,
    facts: &Facts,
    o: &Options,
    called: &[String],
    sequences: &[(usize, Calls)],
    includes: &[String],
    layouts: &Layouts,
) -> Plan {
    let g = Gen::new(api, facts, o, None);
    let entries = called
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let f = api.functions.iter().find(|f| &f.name == name);
            let calls = sequences.iter().find(|(i, _)| *i == k).map(|s| &s.1);
            let mut seq = None;
            let r = match f {
                _ if name.starts_with("sequence ") => match calls {
                    Some(c) => {
                        seq = Some(sequence(&g, layouts, c));
                        Err("a call sequence".to_string())
                    }
                    None => Err("a call sequence whose calls are not known".to_string()),
                },
                None => Err("not a function of the headers".to_string()),
                Some(f) => g.readable(f, layouts, None, ""),
            };
            let (call, why) = match r {
                Ok(c) => (Some(c), None),
                Err(w) => (None, Some(w)),
            };
            Entry {
                name: name.clone(),
                call,
                sequence: seq,
                why,
            }
        })
        .collect();
    Plan {
        includes: includes.to_vec(),
        depth: o.depth,
        elements: o.elements,
        layouts: layouts.clone(),
        entries,
    }
}

pub use super::readable_c::{source, write};

/// Whether a structure's layout has pointer fields.
pub(super) fn linked(k: &Kind) -> bool {
    matches!(k, Kind::Record { fields, .. }
        if fields.iter().any(|f| matches!(f.kind, Kind::Link { .. } | Kind::StrField { .. } | Kind::ArrField { .. })))
}

/// Whether a field of type `ty` can be written, the structures `set` can.
fn field_ok(api: &Api, ty: &str, set: &std::collections::BTreeSet<String>) -> bool {
    match types::shape(api, ty) {
        Shape::Array { elem, .. } => scalar(api, &elem, &types::shape(api, &elem)).is_some(),
        Shape::Pointer { pointee, to, .. } => match to.as_ref() {
            Shape::Record(k) => set.contains(k),
            inner => scalar(api, &pointee, inner).is_some(),
        },
        s => scalar(api, ty, &s).is_some(),
    }
}

/// The structures the readable tests can write: no union, bit-field or
/// anonymous member, their fields scalars, fixed arrays of scalars, strings,
/// or pointers to such structures.
fn writable_keys(api: &Api) -> Vec<String> {
    let mut set: std::collections::BTreeSet<String> = api
        .records
        .iter()
        .filter(|(_, r)| {
            !r.union
                && !r.fields.is_empty()
                && r.fields.iter().all(|f| !f.bitfield && !f.name.is_empty())
        })
        .map(|(k, _)| k.clone())
        .collect();
    loop {
        let keep: std::collections::BTreeSet<String> = set
            .iter()
            .filter(|k| {
                api.records[*k]
                    .fields
                    .iter()
                    .all(|f| field_ok(api, &f.ty, &set))
            })
            .cloned()
            .collect();
        if keep.len() == set.len() {
            return keep.into_iter().collect();
        }
        set = keep;
    }
}

/// A C file whose IR holds the layout of each flat structure of `api`
/// (`symtest_layout_<k>_<field>_{o,s}`, `symtest_layout_<k>_size`), and
/// those structures' keys in order.
pub fn layout_probe(api: &Api, includes: &[String]) -> (String, Vec<String>) {
    let keys = writable_keys(api);
    let mut text = String::from(super::ast::SYSTEM_INCLUDES);
    for h in includes {
        text.push_str(&format!("#include \"{h}\"\n"));
    }
    for (k, key) in keys.iter().enumerate() {
        let r = &api.records[key];
        let ty = &r.spelled;
        text.push_str(&format!(
            "const unsigned long symtest_layout_{k}_size = sizeof({ty});\n"
        ));
        for (j, f) in r.fields.iter().enumerate() {
            text.push_str(&format!(
                "const unsigned long symtest_layout_{k}_{j}_o = offsetof({ty}, {0});\nconst unsigned long symtest_layout_{k}_{j}_s = sizeof((({ty} *)0)->{0});\n",
                f.name
            ));
        }
    }
    (text, keys)
}

/// The layouts of structures `keys` from the IR of [`layout_probe`]'s file.
pub fn layouts(api: &Api, facts: &Facts, keys: &[String], ir: &str) -> Layouts {
    let value = |name: &str| -> Option<u64> {
        let at = format!("@{name} = ");
        let line = ir.lines().find(|l| l.starts_with(&at))?;
        line.split(" i64 ")
            .nth(1)?
            .split(',')
            .next()?
            .trim()
            .parse()
            .ok()
    };
    let mut out = Layouts::new();
    for (k, key) in keys.iter().enumerate() {
        let r = &api.records[key];
        let Some(size) = value(&format!("symtest_layout_{k}_size")) else {
            continue;
        };
        let mut fields = Vec::new();
        for (j, f) in r.fields.iter().enumerate() {
            let (Some(offset), Some(fsize)) = (
                value(&format!("symtest_layout_{k}_{j}_o")),
                value(&format!("symtest_layout_{k}_{j}_s")),
            ) else {
                break;
            };
            let ir = facts.ir_name(api, key).unwrap_or_default();
            // Fields that point into one array with others: made from one
            // object and offsets, which the literals do not spell.
            if facts.is_ranged(&ir, j) {
                break;
            }
            let nullable = facts.nullable_fields.contains(&(ir.clone(), j));
            let kind = match types::shape(api, &f.ty) {
                Shape::Pointer { to, pointee, .. } => match *to {
                    Shape::Record(key) => Kind::Link { key, nullable },
                    Shape::Int { .. } if types::is_char(api, &pointee) => {
                        Kind::StrField { nullable }
                    }
                    inner => match scalar(api, &pointee, &inner) {
                        Some(of) => Kind::ArrField {
                            elem: types::unqualified(&pointee).0,
                            of: Box::new(of),
                            nullable,
                        },
                        None => break,
                    },
                },
                Shape::Array { elem, .. } if types::is_char(api, &elem) => {
                    Kind::String { ty: f.ty.clone() }
                }
                Shape::Array { elem, len } => match scalar(api, &elem, &types::shape(api, &elem)) {
                    Some(of) => Kind::Fixed {
                        of: Box::new(of),
                        count: len,
                    },
                    None => break,
                },
                s => match scalar(api, &f.ty, &s) {
                    Some(kind) => kind,
                    None => break,
                },
            };
            fields.push(FieldLayout {
                name: f.name.clone(),
                offset,
                size: fsize,
                kind,
            });
        }
        if fields.len() == r.fields.len() {
            out.insert(
                key.clone(),
                Kind::Record {
                    ty: r.spelled.clone(),
                    size,
                    fields,
                },
            );
        }
    }
    out
}
