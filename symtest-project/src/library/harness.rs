//! The harness of a `library` target, generated: one `symtest_call_<f>` per
//! public function (its inputs built from its parameters' types, its
//! preconditions assumed, the call, then what it returned and wrote recorded
//! with `symtest_expect_output`) and a `main` that picks the function through
//! a symbolic selector, so one exploration shares its budget among the
//! functions and the searcher moves it toward those still gaining coverage.
//!
//! Inputs (ARCHITECTURE.md, "Library targets"):
//! - scalars, floats and enums are symbolic (an enum one of its constants, a
//!   `_Bool` 0 or 1); a structure or union passed by value is symbolic bytes
//!   with its pointers rebuilt;
//! - `char *` is a NUL-terminated string of up to `pointer_elements` bytes;
//!   any other pointer points to `pointer_elements` symbolic elements (a
//!   structure with pointer fields: one element, a linked node);
//! - pointers inside structures are built to `pointer_depth`, each NULL or a
//!   new object by a symbolic choice when the library compares that field with
//!   NULL (the choice is a product, not a branch: paths split only where the
//!   code tests the pointer), NULL past the depth;
//! - a parameter is NULL only when the library compares it with NULL
//!   ([`super::ir`]); function pointers get stubs returning symbolic values
//!   (a pointer NULL or not by a symbolic choice when the library compares
//!   what callbacks of as many arguments return with NULL);
//!   `extern` scalars of the headers are symbolic.

use super::ast::{Api, Function};
use super::dispatch::dispatch;
use super::ir::Facts;
use super::types::{self, Shape};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How inputs are shaped.
pub struct Options {
    pub elements: u32,
    pub depth: u32,
    /// Calls after the one that makes a handle in a call sequence.
    pub sequence_length: u32,
}

/// A function that gets no harness, and why.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub function: String,
    pub reason: String,
}

/// The generated harness.
pub struct Generated {
    pub text: String,
    /// The functions it calls, in selector order, then its call sequences
    /// (`sequence <handle type>`).
    pub functions: Vec<String>,
    pub skipped: Vec<Skipped>,
    /// Each call sequence: its name and what it calls.
    pub sequences: Vec<(String, String)>,
    /// Each call sequence's selectors, by the value of the `function`
    /// selector that runs it.
    pub selectors: Vec<(usize, super::sequences::Calls)>,
    /// The calls that get a made-up handle.
    pub made_up: super::sequences::MadeUp,
}

pub(super) struct Gen<'a> {
    pub(super) api: &'a Api,
    pub(super) facts: &'a Facts,
    pub(super) o: &'a Options,
    /// Record key → index of its init/record functions.
    pub(super) records: BTreeMap<String, usize>,
    pub(super) stubs: Vec<String>,
    pub(super) stub_of: BTreeMap<String, usize>,
    /// Loop variables made so far (each loop gets its own).
    pub(super) loops: usize,
    /// Crosschecking: inputs are named `<label_as>.arg<i>` whatever the
    /// function's and its parameters' names, so that two functions of one
    /// signature make the same inputs.
    pub(super) label_as: Option<String>,
}

/// The helpers every generated harness starts with.
pub(super) const PRELUDE: &str = include_str!("prelude.c");

impl<'a> Gen<'a> {
    /// A generator of no records, stubs or loops yet; inputs named after
    /// the functions' parameters unless `label_as` names them.
    pub(super) fn new(
        api: &'a Api,
        facts: &'a Facts,
        o: &'a Options,
        label_as: Option<String>,
    ) -> Gen<'a> {
        Gen {
            api,
            facts,
            o,
            records: BTreeMap::new(),
            stubs: Vec::new(),
            stub_of: BTreeMap::new(),
            loops: 0,
            label_as,
        }
    }

    pub(super) fn next_loop(&mut self) -> String {
        self.loops += 1;
        format!("i_{}", self.loops)
    }

    pub(super) fn record_index(&mut self, key: &str) -> usize {
        let n = self.records.len();
        *self.records.entry(key.to_string()).or_insert(n)
    }

    fn stub(&mut self, ret: &str, params: &[String], variadic: bool) -> String {
        let key = format!("{ret}|{}|{variadic}", params.join(","));
        if let Some(&k) = self.stub_of.get(&key) {
            return format!("symtest_lib_stub{k}");
        }
        let k = self.stubs.len();
        let mut s = String::new();
        let args: Vec<String> = params
            .iter()
            .enumerate()
            .map(|(i, p)| format!("__typeof__({p}) a{i}"))
            .collect();
        let mut list = if args.is_empty() {
            "void".to_string()
        } else {
            args.join(", ")
        };
        if variadic {
            list.push_str(", ...");
        }
        let _ = writeln!(s, "static __typeof__({ret}) symtest_lib_stub{k}({list}) {{");
        for i in 0..params.len() {
            let _ = writeln!(s, "  (void)a{i};");
        }
        match types::shape(self.api, ret) {
            Shape::Void => {}
            // NULL on some paths where the library compares what such a
            // callback returns with NULL (a generator's end).
            Shape::Pointer { .. } if self.facts.nullable_results.contains(&params.len()) => {
                let _ = writeln!(
                    s,
                    "  return (__typeof__({ret}))symtest_lib_nullable(symtest_lib_alloc({}, \"stub{k}.return\"), \"stub{k}.return==NULL?\");",
                    self.o.elements * 8
                );
            }
            Shape::Pointer { .. } => {
                let _ = writeln!(
                    s,
                    "  return (__typeof__({ret}))symtest_lib_alloc({}, \"stub{k}.return\");",
                    self.o.elements * 8
                );
            }
            _ => {
                let _ = writeln!(s, "  __typeof__({ret}) r;");
                let _ = writeln!(
                    s,
                    "  symtest_make_symbolic(&r, sizeof r, \"stub{k}.return\");"
                );
                let _ = writeln!(s, "  return r;");
            }
        }
        s.push_str("}\n");
        self.stubs.push(s);
        self.stub_of.insert(key, k);
        format!("symtest_lib_stub{k}")
    }

    /// Why a type cannot be an input (None: it can), at pointer depth `depth`.
    pub(super) fn unsupported(&self, shape: &Shape) -> Option<String> {
        match shape {
            Shape::Unsupported(why) => Some(why.clone()),
            Shape::Void => Some("a `void` value".into()),
            Shape::Pointer { to, pointee, .. } => match to.as_ref() {
                Shape::Opaque(n) => Some(format!(
                    "`{pointee} *`: the headers do not define `{n}` (a handle another function makes)"
                )),
                Shape::Function { .. } => Some(format!("a pointer to a function pointer `{pointee} *`")),
                Shape::Unsupported(why) => Some(why.clone()),
                Shape::Pointer { to: inner, .. } if matches!(inner.as_ref(), Shape::Opaque(_)) => {
                    self.unsupported(to)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Statements that make the lvalue `lv` (already symbolic bytes) a valid
    /// input of shape `shape`: pointers get objects, enums and booleans their
    /// values. `name` is the C expression of its name.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fix(
        &mut self,
        out: &mut String,
        lv: &str,
        shape: &Shape,
        name: &str,
        depth: u32,
        dexpr: &str,
        nullable: bool,
        indent: &str,
    ) {
        match shape {
            Shape::Int { boolean: true } => {
                let _ = writeln!(out, "{indent}{{ unsigned char b_; memcpy(&b_, &{lv}, 1); symtest_assume(b_ <= 1); }}");
            }
            Shape::Enum(consts) => {
                let alts: Vec<String> = consts.iter().map(|c| format!("({lv} == {c})")).collect();
                let _ = writeln!(out, "{indent}symtest_assume({});", alts.join(" | "));
            }
            Shape::Record(key) => {
                let k = self.record_index(key);
                let _ = writeln!(out, "{indent}symtest_lib_init{k}(&{lv}, {dexpr}, {name});");
            }
            Shape::Array { elem, len } => {
                let es = types::shape(self.api, elem);
                if needs_fix(&es) {
                    let i = self.next_loop();
                    let _ = writeln!(out, "{indent}for (size_t {i} = 0; {i} < {len}; {i}++) {{");
                    let inner = format!("{indent}  ");
                    self.fix(
                        out,
                        &format!("{lv}[{i}]"),
                        &es,
                        name,
                        depth,
                        dexpr,
                        nullable,
                        &inner,
                    );
                    let _ = writeln!(out, "{indent}}}");
                }
            }
            Shape::Function {
                ret,
                params,
                variadic,
            } => {
                let s = self.stub(ret, params, *variadic);
                let _ = writeln!(out, "{indent}{lv} = {s};");
            }
            Shape::Pointer { to, .. } => {
                if depth > self.o.depth || self.unsupported(shape).is_some() {
                    let _ = writeln!(out, "{indent}{lv} = NULL;");
                    return;
                }
                let n = self.o.elements;
                let value = match to.as_ref() {
                    Shape::Int { .. } if matches!(shape, Shape::Pointer { pointee, .. } if types::is_char(self.api, pointee)) =>
                    {
                        format!("symtest_lib_string({n}, {name})")
                    }
                    Shape::Void => format!("symtest_lib_alloc({n}, {name})"),
                    Shape::Record(key) => {
                        let linked = self.api.records.get(key).is_some_and(|r| {
                            r.fields.iter().any(|f| {
                                matches!(types::shape(self.api, &f.ty), Shape::Pointer { .. })
                            })
                        });
                        let count = if linked || depth > 0 { 1 } else { n };
                        format!(
                            "symtest_lib_new{}({count}, {dexpr} + 1, {name})",
                            self.record_index(key)
                        )
                    }
                    inner => {
                        // Scalars, or pointers: `n` elements, each fixed.
                        let fix_each = needs_fix(inner);
                        if fix_each {
                            let _ = writeln!(
                                out,
                                "{indent}{lv} = symtest_lib_alloc({n} * sizeof *{lv}, {name});"
                            );
                            let i = self.next_loop();
                            let _ =
                                writeln!(out, "{indent}for (size_t {i} = 0; {i} < {n}; {i}++) {{");
                            let inner_indent = format!("{indent}  ");
                            let elem_name = format!("symtest_lib_name({name}, \"[]\")");
                            let deeper = format!("{dexpr} + 1");
                            // Elements that are pointers may be `const`
                            // (`const char *const *`): written as bytes.
                            let const_elem = matches!(shape, Shape::Pointer { pointee, .. } if types::unqualified(pointee).1);
                            let elem = match inner {
                                Shape::Pointer { .. } | Shape::Function { .. } if const_elem => {
                                    format!("(*(void **)&{lv}[{i}])")
                                }
                                _ => format!("{lv}[{i}]"),
                            };
                            self.fix(
                                out,
                                &elem,
                                inner,
                                &elem_name,
                                depth + 1,
                                &deeper,
                                false,
                                &inner_indent,
                            );
                            let _ = writeln!(out, "{indent}}}");
                            if nullable {
                                let _ = writeln!(out, "{indent}{lv} = symtest_lib_nullable({lv}, symtest_lib_name({name}, \"==NULL?\"));");
                            }
                            return;
                        }
                        format!("symtest_lib_alloc({n} * sizeof *{lv}, {name})")
                    }
                };
                if nullable {
                    let _ = writeln!(
                        out,
                        "{indent}{lv} = symtest_lib_nullable({value}, symtest_lib_name({name}, \"==NULL?\"));"
                    );
                } else {
                    let _ = writeln!(out, "{indent}{lv} = {value};");
                }
            }
            _ => {}
        }
    }

    /// The function of one call of `f`: `static void symtest_call_<f>(void)`,
    /// its `extern` scalars symbolic before and recorded after.
    fn call(&mut self, f: &Function, assume: &[String]) -> Result<String, String> {
        let body = self.call_body(f, assume, None, "")?;
        let mut out = String::new();
        let _ = writeln!(out, "static void symtest_call_{}(void) {{", f.name);
        let scalars: Vec<String> = self
            .api
            .globals
            .iter()
            .filter(|(g, t)| {
                self.facts.globals.contains(g)
                    && matches!(
                        types::shape(self.api, t),
                        Shape::Int { .. } | Shape::Enum(_)
                    )
                    && !types::unqualified(t).1
            })
            .map(|(g, _)| g.clone())
            .collect();
        for g in &scalars {
            let _ = writeln!(out, "  symtest_make_symbolic(&{g}, sizeof {g}, \"{g}\");");
        }
        out.push_str(&body);
        for g in &scalars {
            let _ = writeln!(out, "  symtest_lib_out(\"{g}\", &{g}, sizeof {g});");
        }
        let _ = writeln!(out, "}}");
        Ok(out)
    }

    /// The statements of one call of `f`: its inputs built (parameter
    /// `given.0` is the C expression `given.1` instead), its preconditions,
    /// the call, what it returned and wrote recorded (names after `prefix`).
    pub(super) fn call_body(
        &mut self,
        f: &Function,
        assume: &[String],
        given: Option<(usize, &str)>,
        prefix: &str,
    ) -> Result<String, String> {
        let given_index = given.map(|g| g.0);
        let shapes: Vec<Shape> = f
            .params
            .iter()
            .map(|(_, t)| types::shape(self.api, t))
            .collect();
        self.check_params(f, &shapes, given_index)?;
        let ret = types::shape(self.api, &f.ret);
        if let Shape::Unsupported(why) = &ret {
            return Err(format!("its return type: {why}"));
        }
        let names = self.param_names(f);
        let mut out = self.inputs(f, &shapes, &names, assume, given, prefix);
        let args = names.join(", ");
        match ret {
            Shape::Void => {
                let _ = writeln!(out, "  ({})({args});", f.name);
            }
            _ => {
                let (unq, _) = types::unqualified(&f.ret);
                let _ = writeln!(
                    out,
                    "  __typeof__({unq}) symtest_ret = ({})({args});",
                    f.name
                );
                self.record_return(&mut out, &ret, prefix);
            }
        }
        self.record_out_params(&mut out, f, &shapes, &names, given_index, prefix);
        Ok(out)
    }

    /// The names of `f`'s parameters in a generated call (positional when
    /// crosschecking, or for an unnamed parameter).
    pub(super) fn param_names(&self, f: &Function) -> Vec<String> {
        f.params
            .iter()
            .enumerate()
            .map(|(i, (n, _))| {
                if n.is_empty() || self.label_as.is_some() {
                    format!("arg{i}")
                } else {
                    n.clone()
                }
            })
            .collect()
    }

    /// The statements that build `f`'s inputs (`names`, of `shapes`;
    /// parameter `given.0` is the C expression `given.1`) and assume its
    /// preconditions.
    pub(super) fn inputs(
        &mut self,
        f: &Function,
        shapes: &[Shape],
        names: &[String],
        assume: &[String],
        given: Option<(usize, &str)>,
        prefix: &str,
    ) -> String {
        let mut out = String::new();
        for (i, ((_, t), s)) in f.params.iter().zip(shapes).enumerate() {
            let n = &names[i];
            let (unq, _) = types::unqualified(t);
            if let Some((_, expr)) = given.filter(|g| g.0 == i) {
                let _ = writeln!(out, "  __typeof__({unq}) {n} = ({unq})({expr});");
                continue;
            }
            let label = format!(
                "\"{prefix}{}.{n}\"",
                self.label_as.as_deref().unwrap_or(&f.name)
            );
            let nullable = self.facts.nullable_params.contains(&(f.name.clone(), i));
            let _ = writeln!(out, "  __typeof__({unq}) {n};");
            if let Some(count) = self.range_end(f, shapes, i, given) {
                // The end of a range (`start, end`): a place in the start's
                // object, up to one past its last element.
                let start = &names[i - 1];
                let _ = writeln!(out, "  {{ unsigned char o_; symtest_make_symbolic(&o_, 1, {label}); symtest_assume(o_ <= {count}); {n} = ({unq})((uintptr_t){start} + (uintptr_t)({start} != 0) * o_ * sizeof *{start}); }}");
                continue;
            }
            match s {
                Shape::Pointer { .. } if self.unsupported(s).is_some() => {
                    let _ = writeln!(out, "  {n} = NULL;");
                }
                Shape::Pointer { .. } | Shape::Function { .. } => {
                    self.fix(&mut out, n, s, &label, 0, "0", nullable, "  ");
                }
                _ => {
                    let _ = writeln!(out, "  symtest_make_symbolic(&{n}, sizeof {n}, {label});");
                    self.fix(&mut out, n, s, &label, 0, "0", false, "  ");
                }
            }
        }
        // A pointer followed by an integer (`buf, len`): the length stays
        // within the object the pointer is given.
        for i in 1..f.params.len() {
            if let (Shape::Pointer { pointee, to, .. }, Shape::Int { boolean: false }) =
                (&shapes[i - 1], &shapes[i])
            {
                if self.unsupported(&shapes[i - 1]).is_some()
                    || matches!(to.as_ref(), Shape::Record(_))
                {
                    continue;
                }
                let _ = pointee;
                if !is_length_name(&f.params[i].0) {
                    continue;
                }
                let elements = self.o.elements;
                let _ = writeln!(
                    out,
                    "  symtest_assume((unsigned long long){} <= {elements}ULL); /* `{}` is the length of `{}` */",
                    names[i], names[i], names[i - 1]
                );
                // A size and a count (`buf, size, nitems`): their product.
                if matches!(shapes.get(i + 1), Some(Shape::Int { boolean: false }))
                    && f.params.get(i + 1).is_some_and(|p| is_length_name(&p.0))
                {
                    let (a, b) = (&names[i], &names[i + 1]);
                    let _ = writeln!(
                        out,
                        "  symtest_assume((unsigned long long){b} <= {elements}ULL && (unsigned long long){a} * (unsigned long long){b} <= {elements}ULL); /* `{a}` times `{b}` bytes of `{}` */",
                        names[i - 1]
                    );
                }
            }
        }
        for a in assume {
            let _ = writeln!(out, "  symtest_assume({a});");
        }
        out
    }

    /// When parameter `i` of `f` ends a range that parameter `i - 1` starts
    /// (one pointer type, named `start`/`begin`/`first` then
    /// `end`/`last`/`stop`/`limit`), the elements the harness gives the
    /// start (neither given in a sequence).
    pub(super) fn range_end(
        &self,
        f: &Function,
        shapes: &[Shape],
        i: usize,
        given: Option<(usize, &str)>,
    ) -> Option<u32> {
        if i == 0 || given.is_some_and(|g| g.0 + 1 == i || g.0 == i) {
            return None;
        }
        let ((a, ta), (b, tb)) = (&f.params[i - 1], &f.params[i]);
        let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
        let named = ["start", "begin", "first"].iter().any(|w| a.ends_with(w))
            && ["end", "last", "stop", "limit"]
                .iter()
                .any(|w| b.ends_with(w));
        let Shape::Pointer { to, .. } = &shapes[i] else {
            return None;
        };
        if !named || ta != tb || self.unsupported(&shapes[i]).is_some() {
            return None;
        }
        match to.as_ref() {
            Shape::Void | Shape::Function { .. } => None,
            Shape::Record(key) => {
                let linked = self.api.records.get(key).is_some_and(|r| {
                    r.fields
                        .iter()
                        .any(|f| matches!(types::shape(self.api, &f.ty), Shape::Pointer { .. }))
                });
                Some(if linked { 1 } else { self.o.elements })
            }
            _ => Some(self.o.elements),
        }
    }

    /// Why a parameter of `f` (but the given one) cannot be an input.
    pub(super) fn check_params(
        &self,
        f: &Function,
        shapes: &[Shape],
        given_index: Option<usize>,
    ) -> Result<(), String> {
        for (i, ((n, t), s)) in f.params.iter().zip(shapes).enumerate() {
            if Some(i) == given_index {
                continue;
            }
            if let Some(why) = self.unsupported(s) {
                let nullable = self.facts.nullable_params.contains(&(f.name.clone(), i));
                if !(nullable && matches!(s, Shape::Pointer { .. })) {
                    return Err(format!("parameter `{n}` ({t}): {why}"));
                }
            }
        }
        for (i, ((n, t), s)) in f.params.iter().zip(shapes).enumerate() {
            let Shape::Pointer { to, .. } = s else {
                continue;
            };
            let Shape::Record(key) = to.as_ref() else {
                continue;
            };
            if Some(i) == given_index {
                continue;
            }
            let declared = key.replacen(' ', ".", 1);
            let others: Vec<&String> = self
                .facts
                .views
                .get(&(f.name.clone(), i))
                .map(|v| {
                    v.iter()
                        .filter(|x| **x != declared && !x.starts_with(&format!("{declared}.")))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(other) = others.first() {
                return Err(format!(
                    "parameter `{n}` ({t}) is a handle: the library uses it as `{}`, not as the `{key}` the header shows (it needs the function that makes it)",
                    other.replacen('.', " ", 1)
                ));
            }
        }
        Ok(())
    }

    /// What the call returned (`symtest_ret`): a value, or where a pointer
    /// points and, for new memory, its string or fields.
    fn record_return(&mut self, out: &mut String, ret: &Shape, prefix: &str) {
        let mut rec = String::new();
        match ret {
            // A returned pointer: where it points; memory the call
            // made is read (a string, a structure's fields).
            Shape::Pointer { pointee, to, .. } => {
                let _ = writeln!(
                    rec,
                    "  if (!symtest_lib_out_pointer(\"{prefix}return\", symtest_ret)) {{"
                );
                match to.as_ref() {
                    Shape::Int { .. } if types::is_char(self.api, pointee) => {
                        let _ = writeln!(rec, "    symtest_lib_returned(symtest_ret, 1);");
                        let _ = writeln!(
                            rec,
                            "    symtest_lib_out_string(\"{prefix}*return\", symtest_ret);"
                        );
                    }
                    Shape::Record(_) => {
                        let _ = writeln!(
                            rec,
                            "    symtest_lib_returned(symtest_ret, sizeof *symtest_ret);"
                        );
                        let lv = "(*symtest_ret)";
                        let name = format!("\"{prefix}*return\"");
                        self.record(&mut rec, lv, to, &name, 1, "1", true, "    ");
                    }
                    _ => {}
                }
                let _ = writeln!(rec, "  }}");
            }
            _ => {
                let name = format!("\"{prefix}return\"");
                self.record(&mut rec, "symtest_ret", ret, &name, 0, "0", true, "  ")
            }
        }
        out.push_str(&rec);
    }

    /// What the call wrote through its non-`const` pointer parameters (but
    /// the given one, and those it may free).
    fn record_out_params(
        &mut self,
        out: &mut String,
        f: &Function,
        shapes: &[Shape],
        names: &[String],
        given_index: Option<usize>,
        prefix: &str,
    ) {
        let frees = self.facts.frees.contains(&f.name);
        // Out-parameters: what the call wrote through its pointers.
        for (i, ((_, t), s)) in f.params.iter().zip(shapes).enumerate() {
            let Shape::Pointer { constant, to, .. } = s else {
                continue;
            };
            if *constant
                || Some(i) == given_index
                || self.range_end(f, shapes, i, None).is_some()
                || self.unsupported(s).is_some()
                || self.facts.freed_params.contains(&(f.name.clone(), i))
                || matches!(to.as_ref(), Shape::Void)
            {
                continue;
            }
            let _ = t;
            let n = &names[i];
            let label = format!("\"{prefix}{n}\"");
            let is_string = types::is_char(
                self.api,
                match s {
                    Shape::Pointer { pointee, .. } => pointee,
                    _ => unreachable!(),
                },
            );
            let _ = writeln!(out, "  if ({n}) {{");
            match to.as_ref() {
                _ if is_string => {
                    let _ = writeln!(
                        out,
                        "    symtest_lib_out({label}, {n}, {});",
                        self.o.elements + 1
                    );
                }
                Shape::Record(_) => {
                    let mut rec = String::new();
                    self.record(
                        &mut rec,
                        &format!("(*{n})"),
                        to,
                        &label,
                        0,
                        "0",
                        !frees,
                        "    ",
                    );
                    out.push_str(&rec);
                }
                Shape::Int { .. } | Shape::Enum(_) => {
                    let _ = writeln!(
                        out,
                        "    symtest_lib_out({label}, {n}, {} * sizeof *{n});",
                        self.o.elements
                    );
                }
                Shape::Float => {
                    let _ = writeln!(out, "    for (size_t j = 0; j < {}; j++) symtest_lib_out_float({label}, {n}[j]);", self.o.elements);
                }
                _ => {}
            }
            let _ = writeln!(out, "  }}");
        }
    }
}

/// Whether a parameter's name says it is a length (`len`, `size`, `n`,
/// `count`, `nbytes`): unnamed ones are taken at their word.
fn is_length_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.is_empty()
        || matches!(n.as_str(), "n" | "sz" | "nb" | "cb")
        || [
            "len", "size", "count", "num", "cnt", "bytes", "elements", "nmemb", "items",
        ]
        .iter()
        .any(|w| n.contains(w))
}

/// Whether a value of this shape holds a pointer, in it or in the records and
/// arrays it holds.
pub(super) fn holds_pointer(api: &Api, s: &Shape, depth: u32) -> bool {
    if depth > 16 {
        return true;
    }
    match s {
        Shape::Pointer { .. } | Shape::Function { .. } | Shape::Unsupported(_) => true,
        Shape::Array { elem, .. } => holds_pointer(api, &types::shape(api, elem), depth + 1),
        Shape::Record(key) => api.records.get(key).is_some_and(|r| {
            r.fields
                .iter()
                .any(|f| holds_pointer(api, &types::shape(api, &f.ty), depth + 1))
        }),
        _ => false,
    }
}

/// Whether a value of this shape needs more than symbolic bytes.
pub(super) fn needs_fix(s: &Shape) -> bool {
    match s {
        Shape::Pointer { .. } | Shape::Function { .. } | Shape::Record(_) | Shape::Enum(_) => true,
        Shape::Int { boolean } => *boolean,
        Shape::Array { .. } => true,
        _ => false,
    }
}

/// The harness of `functions` (already filtered), with the preconditions in
/// `assume`, including `includes` (header names as the harness includes them).
pub fn generate(
    api: &Api,
    facts: &Facts,
    o: &Options,
    functions: &[&Function],
    assume: &BTreeMap<String, Vec<String>>,
    includes: &[String],
    excluded_sequences: &std::collections::BTreeSet<String>,
) -> Generated {
    let mut g = Gen::new(api, facts, o, None);
    let mut calls = Vec::new();
    let mut called = Vec::new();
    let mut skipped = Vec::new();
    for f in functions {
        if f.variadic {
            skipped.push(Skipped {
                function: f.name.clone(),
                reason: "it takes a variable argument list".into(),
            });
            continue;
        }
        let a = assume.get(&f.name).map_or(&[][..], Vec::as_slice);
        match g.call(f, a) {
            Ok(text) => {
                calls.push(text);
                called.push(f.name.clone());
            }
            Err(reason) => skipped.push(Skipped {
                function: f.name.clone(),
                reason,
            }),
        }
    }
    let mut seq_texts = Vec::new();
    let mut sequences = Vec::new();
    let mut selectors = Vec::new();
    let plans = super::sequences::plan_sequences(api, facts, functions);
    let made_up = super::sequences::made_up(api, &plans, functions);
    if o.sequence_length > 0 {
        for plan in plans {
            let name = format!("sequence {}", plan.key);
            if excluded_sequences.contains(&name) {
                continue;
            }
            // Named by its place among the sequences generated, as `main`
            // and the compile check name it.
            if let Some((text, what, chosen)) = g.sequence(sequences.len(), &plan, assume) {
                seq_texts.push(text);
                selectors.push((called.len(), chosen));
                sequences.push((name.clone(), what));
                called.push(name);
            }
        }
    }
    let records = g.record_functions();
    let mut text = String::new();
    text.push_str("/* The harness of a `library` target, generated by `cargo symtest` from the\n");
    text.push_str(
        " * library's headers: one symtest_call_<function> per public function, chosen\n",
    );
    text.push_str(
        " * by the symbolic `function` selector in main. Do not edit: it is rewritten. */\n",
    );
    text.push_str(super::ast::SYSTEM_INCLUDES);
    for h in includes {
        let _ = writeln!(text, "#include \"{h}\"");
    }
    text.push_str(PRELUDE);
    text.push('\n');
    for s in &g.stubs {
        text.push_str(s);
    }
    text.push_str(&records);
    for c in calls.iter().chain(&seq_texts) {
        text.push_str(c);
    }
    text.push_str(&main_text(&called, &sequences));
    Generated {
        text,
        functions: called,
        skipped,
        sequences,
        selectors,
        made_up,
    }
}

/// `main`: the `function` selector over the entries `called` (functions,
/// and the call sequences `sequences`), all weighing alike: each public
/// function gets its share of the budget, wherever its code is (weighing
/// them by the code they reach hands the budget to the few that reach the
/// slowest queries, compression's).
fn main_text(called: &[String], sequences: &[(String, String)]) -> String {
    let mut text = String::from("\nint main(void) {\n");
    let _ = writeln!(
        text,
        "  int k = symtest_range(0, {}, \"function\");",
        called.len().max(1)
    );
    let cases: Vec<(String, usize)> = called
        .iter()
        .map(|n| match n.strip_prefix("sequence ") {
            Some(_) => {
                let k = sequences.iter().position(|(s, _)| s == n).unwrap_or(0);
                (format!("  symtest_seq_{k}();\n"), 1)
            }
            None => (format!("  symtest_call_{n}();\n"), 1),
        })
        .collect();
    dispatch(&mut text, "k", &cases, "  ");
    text.push_str("  return 0;\n}\n");
    text
}
