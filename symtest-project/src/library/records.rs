//! The records of a `library` target's harness: after the call, what a
//! value holds (`record`), and per structure type its init, new and record
//! functions (`record_functions`).

use super::ast::{Field, Record};
use super::harness::{holds_pointer, Gen};
use super::types::{self, Shape};
use std::collections::BTreeMap;
use std::fmt::Write;

impl Gen<'_> {
    /// Statements that record the lvalue `lv` of shape `shape` after the call;
    /// `follow`: pointers may be followed (the function frees nothing).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record(
        &mut self,
        out: &mut String,
        lv: &str,
        shape: &Shape,
        name: &str,
        depth: u32,
        dexpr: &str,
        follow: bool,
        indent: &str,
    ) {
        match shape {
            Shape::Int { .. } | Shape::Enum(_) => {
                let _ = writeln!(out, "{indent}{{ __typeof__({lv}) v_ = {lv}; symtest_lib_out({name}, &v_, sizeof v_); }}");
            }
            Shape::Float => {
                let _ = writeln!(out, "{indent}symtest_lib_out_float({name}, {lv});");
            }
            Shape::Record(key) => {
                let k = self.record_index(key);
                let _ = writeln!(
                    out,
                    "{indent}symtest_lib_record{k}(&{lv}, {dexpr}, {}, {name});",
                    u8::from(follow)
                );
            }
            Shape::Array { elem, len } => {
                let es = types::shape(self.api, elem);
                if matches!(es, Shape::Int { .. } | Shape::Enum(_)) {
                    let _ = writeln!(out, "{indent}symtest_lib_out({name}, {lv}, sizeof {lv});");
                } else {
                    let j = self.next_loop();
                    let _ = writeln!(out, "{indent}for (size_t {j} = 0; {j} < {len}; {j}++) {{");
                    let inner = format!("{indent}  ");
                    self.record(
                        out,
                        &format!("{lv}[{j}]"),
                        &es,
                        name,
                        depth,
                        dexpr,
                        follow,
                        &inner,
                    );
                    let _ = writeln!(out, "{indent}}}");
                }
            }
            Shape::Pointer { pointee, to, .. } => {
                let follow_here = follow && depth < self.o.depth;
                match to.as_ref() {
                    Shape::Int { .. } if follow_here && types::is_char(self.api, pointee) => {
                        let _ = writeln!(out, "{indent}symtest_lib_out_string({name}, {lv});");
                    }
                    Shape::Record(_) if follow_here => {
                        let _ = writeln!(out, "{indent}symtest_lib_out_null({name}, {lv});");
                        let _ = writeln!(out, "{indent}if ({lv})");
                        let inner = format!("{indent}  ");
                        let field = format!("symtest_lib_name({name}, \"->\")");
                        let deeper = format!("{dexpr} + 1");
                        self.record(
                            out,
                            &format!("(*{lv})"),
                            to,
                            &field,
                            depth + 1,
                            &deeper,
                            follow,
                            &inner,
                        );
                    }
                    _ => {
                        let _ = writeln!(out, "{indent}symtest_lib_out_null({name}, {lv});");
                    }
                }
            }
            _ => {}
        }
    }

    /// The init and record functions of every record used, until none is new.
    pub(super) fn record_functions(&mut self) -> String {
        let mut done = 0usize;
        let mut protos = String::new();
        let mut bodies = String::new();
        while done < self.records.len() {
            let (key, k) = {
                let (key, &k) = self
                    .records
                    .iter()
                    .find(|(_, &v)| v == done)
                    .expect("indexes are dense");
                (key.clone(), k)
            };
            done += 1;
            let Some(rec) = self.api.records.get(&key).cloned() else {
                continue;
            };
            let ty = &rec.spelled;
            let _ = writeln!(
                protos,
                "static void symtest_lib_init{k}({ty} *o, unsigned depth, const char *name);"
            );
            let _ = writeln!(
                protos,
                "static {ty} *symtest_lib_new{k}(size_t n, unsigned depth, const char *name);"
            );
            let _ = writeln!(protos, "static void symtest_lib_record{k}(const {ty} *o, unsigned depth, int follow, const char *name);");
            let has_pointer = rec
                .fields
                .iter()
                .any(|f| holds_pointer(self.api, &types::shape(self.api, &f.ty), 0));
            self.init_function(&mut bodies, k, &key, &rec, has_pointer);
            new_function(&mut bodies, k, ty);
            self.record_function(&mut bodies, k, &rec, has_pointer);
        }
        protos + &bodies
    }

    /// `symtest_lib_init{k}`: the bytes are symbolic already; make them valid.
    fn init_function(
        &mut self,
        bodies: &mut String,
        k: usize,
        key: &str,
        rec: &Record,
        has_pointer: bool,
    ) {
        let ty = &rec.spelled;
        let _ = writeln!(
            bodies,
            "static void symtest_lib_init{k}({ty} *o, unsigned depth, const char *name) {{"
        );
        let _ = writeln!(bodies, "  (void)o; (void)depth; (void)name;");
        let ir_name = self.facts.ir_name(self.api, key).unwrap_or_default();
        if rec.union {
            if has_pointer {
                // Which member is live is unknown: no pointer is made up.
                let _ = writeln!(bodies, "  memset(o, 0, sizeof *o);");
            }
        } else {
            let bases = self.ranges(&ir_name, rec);
            for (i, f) in rec.fields.iter().enumerate() {
                if f.bitfield || f.name.is_empty() {
                    continue;
                }
                let nullable = self.facts.nullable_fields.contains(&(ir_name.clone(), i));
                match bases.get(&i) {
                    Some(&b) if b != i => {
                        let base = &rec.fields[b];
                        // As many elements as the base field has (a record:
                        // one, as any pointer field to a record gets).
                        let count = match types::shape(self.api, &base.ty) {
                            Shape::Pointer { to, .. } if matches!(*to, Shape::Record(_)) => 1,
                            _ => self.o.elements,
                        };
                        let _ = writeln!(
                            bodies,
                            "  o->{0} = symtest_lib_range(o->{1}, {count}, sizeof *o->{1}, symtest_lib_name(name, \".{0}@\"));",
                            f.name, base.name
                        );
                    }
                    _ => self.init_field(bodies, f, nullable),
                }
            }
        }
        let _ = writeln!(bodies, "}}");
    }

    /// The fields of the record `rec` (IR name `ir`) that point into one
    /// array, each with its group's first field (the array's own): pointer
    /// fields to one type that the library subtracts or orders, directly or
    /// through others of the group.
    fn ranges(&self, ir: &str, rec: &Record) -> BTreeMap<usize, usize> {
        let pointee = |i: usize| -> Option<String> {
            let f = rec
                .fields
                .get(i)
                .filter(|f| !f.bitfield && !f.name.is_empty())?;
            match types::shape(self.api, &f.ty) {
                Shape::Pointer { pointee, to, .. } if !matches!(*to, Shape::Void) => {
                    Some(types::unqualified(&pointee).0)
                }
                _ => None,
            }
        };
        // Each field of a group → the group's least field.
        let mut base: BTreeMap<usize, usize> = BTreeMap::new();
        for (s, a, b) in &self.facts.ranged_fields {
            if s != ir || pointee(*a).is_none() || pointee(*a) != pointee(*b) {
                continue;
            }
            let (ra, rb) = (
                base.get(a).copied().unwrap_or(*a),
                base.get(b).copied().unwrap_or(*b),
            );
            let least = ra.min(rb);
            for v in base.values_mut() {
                if *v == ra || *v == rb {
                    *v = least;
                }
            }
            base.insert(*a, least);
            base.insert(*b, least);
        }
        base
    }

    /// The statements of `symtest_lib_init{k}` that make the field `f` valid;
    /// `nullable`: the library compares it with NULL.
    fn init_field(&mut self, bodies: &mut String, f: &Field, nullable: bool) {
        let shape = types::shape(self.api, &f.ty);
        let name = format!("symtest_lib_name(name, \".{}\")", f.name);
        let lv = format!("o->{}", f.name);
        // Fields are one level deeper than the object holding them.
        if let Shape::Pointer { .. } = shape {
            let _ = writeln!(
                bodies,
                "  if (depth >= {}) o->{} = NULL; else {{",
                self.o.depth, f.name
            );
            self.fix(bodies, &lv, &shape, &name, 1, "depth", nullable, "    ");
            let _ = writeln!(bodies, "  }}");
        } else {
            self.fix(bodies, &lv, &shape, &name, 0, "depth", nullable, "  ");
        }
    }

    /// `symtest_lib_record{k}`: the fields after the call.
    fn record_function(&mut self, bodies: &mut String, k: usize, rec: &Record, has_pointer: bool) {
        let ty = &rec.spelled;
        let _ = writeln!(bodies, "static void symtest_lib_record{k}(const {ty} *o, unsigned depth, int follow, const char *name) {{");
        let _ = writeln!(bodies, "  (void)o; (void)depth; (void)follow; (void)name;");
        if !(rec.union && has_pointer) {
            for f in &rec.fields {
                if f.name.is_empty() {
                    continue;
                }
                let shape = types::shape(self.api, &f.ty);
                let name = format!("symtest_lib_name(name, \".{}\")", f.name);
                let lv = format!("o->{}", f.name);
                if f.bitfield {
                    let _ = writeln!(
                        bodies,
                        "  {{ long long v_ = {lv}; symtest_lib_out({name}, &v_, sizeof v_); }}"
                    );
                    continue;
                }
                match shape {
                    // A pointer the call may have set to anything (memory it
                    // never initialized, an object it freed): whether it is
                    // NULL, not what it points to.
                    Shape::Pointer { .. } => {
                        let _ = writeln!(bodies, "  symtest_lib_out_null({name}, {lv});");
                    }
                    Shape::Function { .. } => {}
                    _ => self.record(bodies, &lv, &shape, &name, 0, "depth", true, "  "),
                }
            }
        }
        let _ = writeln!(bodies, "}}");
    }
}

/// `symtest_lib_new{k}`: `n` objects of the record type `ty`, each made valid.
fn new_function(bodies: &mut String, k: usize, ty: &str) {
    let _ = writeln!(
        bodies,
        "static {ty} *symtest_lib_new{k}(size_t n, unsigned depth, const char *name) {{"
    );
    let _ = writeln!(
        bodies,
        "  {ty} *o = ({ty} *)symtest_lib_alloc(n * sizeof *o, name);"
    );
    let _ = writeln!(bodies, "  for (size_t i = 0; i < n; i++)");
    let _ = writeln!(bodies, "    symtest_lib_init{k}(&o[i], depth, name);");
    let _ = writeln!(bodies, "  return o;");
    let _ = writeln!(bodies, "}}");
}
