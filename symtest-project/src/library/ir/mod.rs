//! What the library's own code does with the pointers it is given, read from
//! its module's textual IR (`llvm-dis`): which functions it defines, which
//! pointer parameters and structure fields it compares with NULL (only those
//! get NULL as an input: a library whose code never checks a pointer has
//! "not NULL" in its contract), and which pointer parameters it may free (the
//! oracle does not read those after the call).
//!
//! The bitcode is clang's `-O0` output: a parameter is stored to its slot
//! (`%p.addr`) and loaded back before each use, and a field is reached through
//! a `getelementptr %struct.T, ptr %x, i32 0, i32 K`. Values are followed
//! through those, and through calls into the library's other functions (a
//! parameter handed to a helper that checks or frees it).

use std::collections::{BTreeMap, BTreeSet};

/// What the analysis found.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Functions the module defines.
    pub defined: BTreeSet<String>,
    /// Global variables the module defines.
    pub globals: BTreeSet<String>,
    /// (function, parameter index) compared with NULL.
    pub nullable_params: BTreeSet<(String, usize)>,
    /// (IR struct name without `%`, e.g. `struct.node`, field index) loaded
    /// and compared with NULL.
    pub nullable_fields: BTreeSet<(String, usize)>,
    /// (IR struct name, field `i`, field `j`, `i < j`): two pointer fields of
    /// one structure whose values the library subtracts or orders (`tail -
    /// head`, `top < end`), which C defines only for pointers into one array:
    /// the library's contract is that they point into one array.
    pub ranged_fields: BTreeSet<(String, usize, usize)>,
    /// The argument counts of calls through a pointer (a callback) whose
    /// returned pointer the library compares with NULL: a stub of such a
    /// callback returns NULL on some paths (a generator's end).
    pub nullable_results: BTreeSet<usize>,
    /// Each IR structure type's field types (`struct.s` → `["i32", "ptr",
    /// "%struct.anon.3"]`): the type of an anonymous structure a field holds.
    pub struct_fields: BTreeMap<String, Vec<String>>,
    /// (function, parameter index) that may reach `free`/`realloc`.
    pub freed_params: BTreeSet<(String, usize)>,
    /// Functions that call `free`/`realloc`, directly or through callees.
    pub frees: BTreeSet<String>,
    /// (function, parameter index) → the structure types (`struct.gz_state`)
    /// its code reaches fields of through that parameter: a parameter used
    /// as another structure than its declared one is a handle the library
    /// made (a public struct that is a view of a private one).
    pub views: BTreeMap<(String, usize), BTreeSet<String>>,
    /// (function, parameter `i`, parameter `j`): the function keeps pointer
    /// parameter `i` in memory reached through parameter `j`, and neither
    /// reads nor writes through it (a setter: `set_input(h, buf, len)` keeps
    /// `buf` in the handle `h` for its later calls), itself or through the
    /// library's functions it calls.
    pub stores: BTreeSet<(String, usize, usize)>,
    /// Each defined function's instructions, and the functions it calls.
    pub code: BTreeMap<String, (usize, BTreeSet<String>)>,
    /// How a function's return value tells that it failed, for those whose
    /// returns tell it ([`super::status`]).
    pub failures: BTreeMap<String, super::status::Failure>,
}

impl Facts {
    /// Whether field `i` of the IR structure `ir` is subtracted from or
    /// ordered against another of its fields.
    pub fn is_ranged(&self, ir: &str, i: usize) -> bool {
        self.ranged_fields
            .iter()
            .any(|(s, a, b)| s == ir && (*a == i || *b == i))
    }

    /// The IR name of the header's record `key` (`struct node` is
    /// `struct.node`); an anonymous one's is the type of the field that holds
    /// it (`struct.anon.3`: clang names anonymous types by their layout).
    pub fn ir_name(&self, api: &super::ast::Api, key: &str) -> Option<String> {
        match &api.records.get(key)?.within {
            None => Some(key.replacen(' ', ".", 1)),
            Some((parent, i)) => {
                let holder = self.ir_name(api, parent)?;
                let ty = self.struct_fields.get(&holder)?.get(*i)?;
                Some(ty.strip_prefix('%')?.trim_matches('"').to_string())
            }
        }
    }

    /// The instructions of the functions `roots` reach through calls (their
    /// own included): how much code a call of them can run.
    pub fn reach<'n>(&self, roots: impl IntoIterator<Item = &'n str>) -> usize {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut todo: Vec<&str> = roots.into_iter().collect();
        let mut total = 0;
        while let Some(n) = todo.pop() {
            let Some((size, callees)) = self.code.get(n) else {
                continue;
            };
            if !seen.insert(n) {
                continue;
            }
            total += size;
            todo.extend(callees.iter().map(String::as_str));
        }
        total
    }
}

#[derive(Default)]
struct Func {
    params: usize,
    /// Parameter indexes compared with NULL here.
    nullable: BTreeSet<usize>,
    /// Parameter indexes passed straight to free/realloc.
    freed: BTreeSet<usize>,
    /// (param index, callee, callee's argument index).
    passes: Vec<(usize, String, usize)>,
    /// Param index → structure types reached through it.
    views: BTreeMap<usize, BTreeSet<String>>,
    callees: BTreeSet<String>,
    calls_free: bool,
    /// (i, j): pointer parameter `i` stored into memory reached through `j`.
    stores: BTreeSet<(usize, usize)>,
    /// Parameters read or written through here (not only kept).
    touched: BTreeSet<usize>,
    /// Instructions.
    size: usize,
}

/// The facts of a module's textual IR.
pub fn analyse(ir: &str) -> Facts {
    let mut facts = Facts::default();
    let mut funcs: BTreeMap<String, Func> = BTreeMap::new();
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut lines = ir.lines();
    while let Some(line) = lines.next() {
        if let Some((name, fields)) = struct_type(line) {
            facts.struct_fields.insert(name, fields);
            continue;
        }
        if let Some(rest) = line.strip_prefix('@') {
            if let Some((name, def)) = rest.split_once(" = ") {
                let name = name.trim_matches('"').to_string();
                if let Some(target) = aliasee(def) {
                    aliases.push((name, target));
                } else if !def.starts_with("external ") && !def.contains(" external ") {
                    facts.globals.insert(name);
                }
            }
            continue;
        }
        if !line.starts_with("define ") {
            continue;
        }
        let Some((name, params)) = signature(line) else {
            continue;
        };
        let f = scan_function(&mut lines, &params, &mut facts);
        facts.defined.insert(name.clone());
        funcs.insert(name, f);
    }
    // An alias of a function (a default symbol version's name) is that
    // function: one that hands each parameter on to it.
    for (name, target) in &aliases {
        if let Some(params) = funcs.get(target).map(|f| f.params) {
            let f = Func {
                params,
                passes: (0..params).map(|i| (i, target.clone(), i)).collect(),
                callees: BTreeSet::from([target.clone()]),
                size: 1,
                ..Func::default()
            };
            facts.defined.insert(name.clone());
            funcs.insert(name.clone(), f);
        } else if facts.globals.contains(target) {
            facts.globals.insert(name.clone());
        }
    }
    propagate(&funcs, &mut facts);
    facts.failures = super::status::failures(ir);
    for (name, target) in &aliases {
        if let Some(f) = facts.failures.get(target).copied() {
            facts.failures.insert(name.clone(), f);
        }
    }
    facts
}

/// A structure type's definition (`%struct.s = type { i32, ptr }`, packed
/// `<{ .. }>` too): its name without `%` and its field types.
fn struct_type(line: &str) -> Option<(String, Vec<String>)> {
    let rest = line.strip_prefix('%')?;
    let (name, def) = rest.split_once(" = type ")?;
    if !(name.starts_with("struct.") || name.starts_with("union.")) {
        return None;
    }
    let body = def.trim().trim_start_matches('<').trim_end_matches('>');
    let body = body.strip_prefix('{')?.strip_suffix('}')?;
    let fields = super::types::split_top(body);
    Some((name.trim_matches('"').to_string(), fields))
}

/// The target of a global alias's definition (`alias i8, ptr @f_v2` after
/// its linkage and visibility words).
fn aliasee(def: &str) -> Option<String> {
    let words: Vec<&str> = def.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "alias")?;
    // Only linkage, visibility and similar keywords come before `alias`.
    if words[..at]
        .iter()
        .any(|w| !w.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
    {
        return None;
    }
    let target = words.last()?.strip_prefix('@')?;
    Some(target.trim_matches('"').to_string())
}

/// The facts of one function's body (the lines after its `define`, up to its
/// closing brace); fields compared with NULL go to `facts.nullable_fields`,
/// fields subtracted or ordered to `facts.ranged_fields`.
fn scan_function<'a>(
    lines: &mut impl Iterator<Item = &'a str>,
    params: &[Option<String>],
    facts: &mut Facts,
) -> Func {
    let mut scan = Scan::new(params, facts);
    for body in lines.by_ref() {
        if body.starts_with('}') {
            break;
        }
        if !body.starts_with(' ') && !body.is_empty() {
            if let Some((label, _)) = body.split_once(':') {
                scan.block = label.trim().to_string();
                continue;
            }
        }
        scan.instruction(body.trim());
    }
    scan.finish()
}

/// What [`scan_function`] tracks while it reads a function's body.
struct Scan<'n> {
    f: Func,
    /// SSA value → the parameter it holds.
    holds: BTreeMap<String, usize>,
    /// Slot → the parameter stored there.
    slots: BTreeMap<String, usize>,
    /// SSA value → the (structure type, field index) it addresses.
    fields: BTreeMap<String, (String, usize)>,
    /// SSA value → the (structure type, field index) it was loaded from (or
    /// is the address loaded from it, as an integer: `ptrtoint`).
    loaded_fields: BTreeMap<String, (String, usize)>,
    /// SSA value → the parameter whose memory it points into (a field, or
    /// an object a pointer field of it holds).
    within: BTreeMap<String, usize>,
    /// SSA value or slot → the argument count of the call through a pointer
    /// whose returned pointer it holds.
    results: BTreeMap<String, usize>,
    /// Compares of a parameter with NULL (result, parameter).
    null_cmps: Vec<(String, usize)>,
    /// The branches on a value (value, successors).
    branches: BTreeMap<String, Vec<String>>,
    /// The functions each block calls.
    block_calls: BTreeMap<String, BTreeSet<String>>,
    /// The current block's label.
    block: String,
    facts: &'n mut Facts,
}

impl<'n> Scan<'n> {
    fn new(params: &[Option<String>], facts: &'n mut Facts) -> Self {
        let holds = params
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((p.clone()?, i)))
            .collect();
        Scan {
            f: Func {
                params: params.len(),
                ..Func::default()
            },
            holds,
            slots: BTreeMap::new(),
            fields: BTreeMap::new(),
            loaded_fields: BTreeMap::new(),
            results: BTreeMap::new(),
            within: BTreeMap::new(),
            null_cmps: Vec::new(),
            branches: BTreeMap::new(),
            block_calls: BTreeMap::new(),
            block: String::from("entry"),
            facts,
        }
    }

    /// The parameter whose value `v` is, or whose memory it points into.
    fn param_of(&self, v: &str) -> Option<usize> {
        self.holds.get(v).or_else(|| self.within.get(v)).copied()
    }

    /// One line of the body, trimmed.
    fn instruction(&mut self, body: &str) {
        if !body.is_empty() && !body.starts_with('#') && !body.starts_with(';') {
            self.f.size += 1;
        }
        self.note_control(body);
        let (lhs, rhs) = match body.split_once(" = ") {
            Some((l, r)) if l.starts_with('%') => (Some(l.trim()), r),
            _ => (None, body),
        };
        let words: Vec<&str> = rhs.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        if let (Some(lhs), Some(args)) = (lhs, indirect_call(rhs)) {
            if returns_pointer(rhs) {
                self.results.insert(lhs.to_string(), args.len());
            }
        }
        match (words.first().copied(), lhs) {
            (Some("store"), _) => self.store(&words),
            (Some("load"), Some(lhs)) => self.load(lhs, &words),
            (Some("getelementptr"), Some(lhs)) => self.getelementptr(lhs, &words),
            // A load or an address without a result: nothing more to read.
            (Some("load" | "getelementptr"), None) => return,
            (Some("icmp"), _) if words.contains(&"null") && words.contains(&"ptr") => {
                self.null_compare(lhs, &words)
            }
            (Some("ptrtoint"), Some(lhs)) => {
                if let Some(fd) = words.get(2).and_then(|v| self.loaded_fields.get(*v)) {
                    self.loaded_fields.insert(lhs.to_string(), fd.clone());
                }
            }
            (Some("sub"), _) => self.ranged(&words),
            (Some("icmp"), _) if is_ordering(words.get(1).copied()) => self.ranged(&words),
            _ => {}
        }
        self.call(rhs);
    }

    /// The branches on a value (`br i1 %c, label %a, label %b`) and the
    /// functions the current block calls.
    fn note_control(&mut self, body: &str) {
        if let Some(rest) = body.strip_prefix("br i1 ") {
            let parts: Vec<&str> = rest.split(", label %").collect();
            if parts.len() == 3 {
                self.branches.insert(
                    parts[0].trim().to_string(),
                    parts[1..]
                        .iter()
                        .map(|l| l.split([',', ' ']).next().unwrap_or("").trim().to_string())
                        .collect(),
                );
            }
        }
        if let Some(at) = body.find("call ") {
            if let Some(c) = body[at..].find(" @") {
                let rest = &body[at + c + 2..];
                let name = rest.split('(').next().unwrap_or("").trim_matches('"');
                self.block_calls
                    .entry(self.block.clone())
                    .or_default()
                    .insert(name.to_string());
            }
        }
    }

    /// `store ptr %p, ptr %p.addr`: a parameter kept in a slot, or in memory
    /// reached through another parameter; a parameter's memory written.
    fn store(&mut self, words: &[&str]) {
        let vals: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| w.starts_with('%'))
            .collect();
        // The address: the value after the last `ptr`.
        let at = words.iter().rposition(|w| *w == "ptr");
        if let Some(dst) = at.and_then(|k| words.get(k + 1)) {
            if let Some(k) = self.param_of(dst) {
                self.f.touched.insert(k);
            }
        }
        if let [v, slot, ..] = vals.as_slice() {
            if let Some(&n) = self.results.get(*v) {
                self.results.insert(slot.to_string(), n);
            }
            if let Some(&i) = self.holds.get(*v) {
                self.slots.insert(slot.to_string(), i);
                let into = self.within.get(*slot).or_else(|| self.holds.get(*slot));
                if let Some(&j) = into.filter(|&&j| j != i) {
                    if words.get(1) == Some(&"ptr") {
                        self.f.stores.insert((i, j));
                    }
                }
            }
        }
    }

    /// `%v = load ptr, ptr %p.addr`: a parameter loaded back from its slot, a
    /// field's value, a pointer read from a parameter's memory.
    fn load(&mut self, lhs: &str, words: &[&str]) {
        let Some(from) = words.iter().copied().rfind(|w| w.starts_with('%')) else {
            return;
        };
        if let Some(k) = self.param_of(from) {
            self.f.touched.insert(k);
        }
        if let Some(&i) = self.slots.get(from) {
            self.holds.insert(lhs.to_string(), i);
        }
        if let Some(fd) = self.fields.get(from) {
            self.loaded_fields.insert(lhs.to_string(), fd.clone());
        }
        if let Some(&n) = self
            .results
            .get(from)
            .filter(|_| words.get(1) == Some(&"ptr"))
        {
            self.results.insert(lhs.to_string(), n);
        }
        if let Some(&j) = self.within.get(from) {
            if words.get(1) == Some(&"ptr") {
                self.within.insert(lhs.to_string(), j);
            }
        }
    }

    /// `%v = getelementptr inbounds %struct.node, ptr %0, i32 0, i32 1`: the
    /// structure a parameter is used as, a field's address, an address in a
    /// parameter's memory.
    fn getelementptr(&mut self, lhs: &str, words: &[&str]) {
        let is_aggregate = |w: &&str| w.starts_with("%struct.") || w.starts_with("%union.");
        let ty = words.iter().copied().find(is_aggregate);
        let nums: Vec<&str> = words
            .windows(2)
            .filter(|w| w[0] == "i32")
            .map(|w| w[1])
            .collect();
        let base = words
            .iter()
            .copied()
            .skip_while(|w| !is_aggregate(w))
            .nth(2);
        if let (Some(ty), Some(&i)) = (ty, base.and_then(|b| self.holds.get(b))) {
            self.f
                .views
                .entry(i)
                .or_default()
                .insert(ty[1..].to_string());
        }
        // Any offset from a parameter's pointer (a field, `p + n`) points
        // into its memory.
        let any_base = words.iter().skip_while(|w| **w != "ptr").nth(1).copied();
        if let Some(j) = any_base.and_then(|b| self.param_of(b)) {
            self.within.insert(lhs.to_string(), j);
        }
        if let (Some(ty), ["0", k]) = (ty, nums.as_slice()) {
            if let Ok(k) = k.parse::<usize>() {
                self.fields
                    .insert(lhs.to_string(), (ty[1..].to_string(), k));
            }
        }
    }

    /// `icmp eq ptr %v, null`: a parameter or a loaded field compared with NULL.
    fn null_compare(&mut self, lhs: Option<&str>, words: &[&str]) {
        for w in words {
            if let Some(&i) = self.holds.get(*w) {
                self.null_cmps.push((lhs.unwrap_or("").to_string(), i));
            }
            if let Some(fd) = self.loaded_fields.get(*w) {
                self.facts.nullable_fields.insert(fd.clone());
            }
            if let Some(&n) = self.results.get(*w) {
                self.facts.nullable_results.insert(n);
            }
        }
    }

    /// `sub i64 %a, %b` or `icmp ult ptr %a, %b`: two fields of one structure
    /// subtracted or ordered.
    fn ranged(&mut self, words: &[&str]) {
        let fields: Vec<&(String, usize)> = words
            .iter()
            .filter_map(|w| self.loaded_fields.get(*w))
            .collect();
        if let [(sa, a), (sb, b)] = fields.as_slice() {
            if sa == sb && a != b {
                let (i, j) = (*a.min(b), *a.max(b));
                self.facts.ranged_fields.insert((sa.clone(), i, j));
            }
        }
    }

    /// A call: through a pointer (what it is given may be freed), or of a
    /// named function (freeing its first argument, or handed parameters).
    fn call(&mut self, rhs: &str) {
        if let Some(args) = indirect_call(rhs) {
            // A call through a pointer (a hook, a callback): the callee is
            // unknown, so what it is given may be freed.
            self.f.calls_free = true;
            for a in args.iter().flatten() {
                if let Some(&i) = self.holds.get(a) {
                    self.f.freed.insert(i);
                }
            }
            return;
        }
        let Some(at) = rhs.find(" @") else { return };
        if !(rhs.starts_with("call ") || rhs.starts_with("tail call ") || rhs.contains("call ")) {
            return;
        }
        let rest = &rhs[at + 2..];
        let Some(open) = rest.find('(') else { return };
        let callee = rest[..open].trim_matches('"').to_string();
        let args = args_of(&rest[open..]);
        let is_free = callee == "free" || callee == "realloc";
        if is_free {
            self.f.calls_free = true;
        }
        for (j, a) in args.iter().enumerate() {
            if let Some(&i) = a.as_ref().and_then(|a| self.holds.get(a)) {
                if is_free && j == 0 {
                    self.f.freed.insert(i);
                } else {
                    self.f.passes.push((i, callee.clone(), j));
                }
            }
        }
        self.f.callees.insert(callee);
    }

    /// The function's facts: its compares with NULL, but those whose failing
    /// side only asserts (`assert(p)`, a precondition: the parameter is not
    /// NULL); any other compare handles NULL.
    fn finish(self) -> Func {
        let Scan {
            mut f,
            null_cmps,
            branches,
            block_calls,
            ..
        } = self;
        let fails = |label: &String| {
            block_calls.get(label).is_some_and(|c| {
                c.iter().any(|n| {
                    matches!(
                        n.as_str(),
                        "__assert_fail"
                            | "__assert"
                            | "__assert2"
                            | "__assert_rtn"
                            | "_assert"
                            | "abort"
                            | "llvm.trap"
                    )
                })
            })
        };
        for (result, i) in null_cmps {
            let asserts = branches
                .get(&result)
                .is_some_and(|succ| succ.iter().any(fails));
            if !asserts {
                f.nullable.insert(i);
            }
        }
        f
    }
}

/// Whether an `icmp` predicate orders its operands (`ult`, `sge`, ..), as
/// opposed to `eq`/`ne`.
fn is_ordering(pred: Option<&str>) -> bool {
    matches!(
        pred,
        Some("ult" | "ule" | "ugt" | "uge" | "slt" | "sle" | "sgt" | "sge")
    )
}

/// Nullable and freed parameters, freeing functions and views through calls,
/// to a fixed point.
fn propagate(funcs: &BTreeMap<String, Func>, facts: &mut Facts) {
    // Through calls, to a fixed point.
    let mut nullable: BTreeSet<(String, usize)> = BTreeSet::new();
    let mut freed: BTreeSet<(String, usize)> = BTreeSet::new();
    let mut frees: BTreeSet<String> = BTreeSet::new();
    for (n, f) in funcs {
        nullable.extend(f.nullable.iter().map(|&i| (n.clone(), i)));
        freed.extend(f.freed.iter().map(|&i| (n.clone(), i)));
        if f.calls_free {
            frees.insert(n.clone());
        }
    }
    loop {
        let mut changed = false;
        for (n, f) in funcs {
            for (i, callee, j) in &f.passes {
                let key = (callee.clone(), *j);
                if nullable.contains(&key) && nullable.insert((n.clone(), *i)) {
                    changed = true;
                }
                if freed.contains(&key) && freed.insert((n.clone(), *i)) {
                    changed = true;
                }
            }
            if !frees.contains(n) && f.callees.iter().any(|c| frees.contains(c)) {
                frees.insert(n.clone());
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    facts.nullable_params = nullable
        .into_iter()
        .filter(|(n, i)| funcs.get(n).is_some_and(|f| *i < f.params))
        .collect();
    // Views, through calls, to a fixed point.
    let mut views: BTreeMap<(String, usize), BTreeSet<String>> = BTreeMap::new();
    for (n, f) in funcs {
        for (i, v) in &f.views {
            views.insert((n.clone(), *i), v.clone());
        }
    }
    loop {
        let mut changed = false;
        for (n, f) in funcs {
            for (i, callee, j) in &f.passes {
                let Some(theirs) = views.get(&(callee.clone(), *j)).cloned() else {
                    continue;
                };
                let mine = views.entry((n.clone(), *i)).or_default();
                let before = mine.len();
                mine.extend(theirs);
                changed |= mine.len() != before;
            }
        }
        if !changed {
            break;
        }
    }
    facts.views = views;
    facts.stores = stores_through_calls(funcs);
    facts.code = funcs
        .iter()
        .map(|(n, f)| (n.clone(), (f.size, f.callees.clone())))
        .collect();
    facts.freed_params = freed;
    facts.frees = frees;
}

/// Each function's pointer parameters that it only keeps, in memory reached
/// through another parameter (it neither reads nor writes through them, nor
/// hands them to a function that does): its own stores, and those of the
/// functions it hands both to, to a fixed point.
fn stores_through_calls(funcs: &BTreeMap<String, Func>) -> BTreeSet<(String, usize, usize)> {
    let mut stores: BTreeSet<(String, usize, usize)> = BTreeSet::new();
    // Only kept: not touched, and every function it is handed to only keeps it.
    let only_kept = |stores: &BTreeSet<(String, usize, usize)>, f: &Func, i: usize| {
        !f.touched.contains(&i)
            && f.passes
                .iter()
                .filter(|p| p.0 == i)
                .all(|(_, callee, k)| stores.iter().any(|(c, kk, _)| c == callee && kk == k))
    };
    loop {
        let mut found = Vec::new();
        for (n, f) in funcs {
            let mut mine: BTreeSet<(usize, usize)> = f.stores.clone();
            for (i, callee, k) in &f.passes {
                for (j, c2, l) in &f.passes {
                    if c2 == callee && i != j && stores.contains(&(callee.clone(), *k, *l)) {
                        mine.insert((*i, *j));
                    }
                }
            }
            for (i, j) in mine {
                if only_kept(&stores, f, i) && !stores.contains(&(n.clone(), i, j)) {
                    found.push((n.clone(), i, j));
                }
            }
        }
        if found.is_empty() {
            return stores;
        }
        stores.extend(found);
    }
}

/// The arguments of a call through a pointer (`call void %3(ptr noundef %4)`).
fn indirect_call(rhs: &str) -> Option<Vec<Option<String>>> {
    let at = rhs.find("call ")?;
    let after = &rhs[at + 5..];
    for (i, _) in after.match_indices(" %") {
        let tok = &after[i + 1..];
        let end = tok.find(['(', ' ', ','])?;
        if tok[end..].starts_with('(') {
            return Some(args_of(&tok[end..]));
        }
    }
    None
}

/// Whether a call returns a pointer (`call ptr %5(..)`, `call noalias ptr
/// @f(..)`): its first word after `call` that is not an attribute.
fn returns_pointer(rhs: &str) -> bool {
    let Some(at) = rhs.find("call ") else {
        return false;
    };
    rhs[at + 5..]
        .split_whitespace()
        .find(|w| *w == "ptr" || !w.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        == Some("ptr")
}

/// `define dso_local i32 @f(ptr noundef %s, i64 noundef %1) #0 {` → name and
/// each parameter's value (`%s`).
fn signature(line: &str) -> Option<(String, Vec<Option<String>>)> {
    let at = line.find(" @")?;
    let rest = &line[at + 2..];
    let open = rest.find('(')?;
    let name = rest[..open].trim_matches('"').to_string();
    Some((name, args_of(&rest[open..])))
}

/// The values of a parenthesized argument or parameter list (its last word
/// when that is a `%` value).
fn args_of(s: &str) -> Vec<Option<String>> {
    let mut depth = 0i32;
    let mut end = s.len();
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = &s[1.min(s.len())..end];
    let mut out = Vec::new();
    let (mut d, mut cur) = (0i32, String::new());
    for c in inner.chars() {
        match c {
            '(' | '{' | '[' | '<' => d += 1,
            ')' | '}' | ']' | '>' => d -= 1,
            ',' if d == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.iter()
        .map(|a| {
            a.split_whitespace()
                .last()
                .filter(|w| w.starts_with('%'))
                .map(str::to_string)
        })
        .collect()
}

#[cfg(test)]
mod tests;
