//! The status a library function returns, read from its module's textual IR
//! (clang's `-O0` output): the integer constants it may return, directly
//! (`ret i32 1`), through its return slot (`store i32 -2, ptr %3`), or
//! as the result of one of the library's functions it returns (`return
//! deflateReset(strm);`). From them, how the function tells a failure: a
//! function that may return a negative constant reports errors as negative
//! values (`0` or a count otherwise); one whose every return is `0` or `1`
//! returns a truth value (`0`: it failed). A call sequence stops after a
//! maker that failed (see [`super::sequences`]).

use std::collections::{BTreeMap, BTreeSet};

/// What one function's returns are, before following its callees.
#[derive(Clone, Debug, Default)]
struct Returns {
    constants: BTreeSet<i64>,
    /// Functions whose result it returns as is.
    forwards: BTreeSet<String>,
    /// Some return is neither a constant nor a callee's result.
    other: bool,
}

/// How a function's return value tells that it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A negative value.
    Negative,
    /// Zero (a truth value: every return is `0` or `1`).
    Zero,
}

/// Per defined function, how its return value tells a failure (functions
/// whose returns tell nothing are left out).
pub fn failures(ir: &str) -> BTreeMap<String, Failure> {
    let mut all: BTreeMap<String, Returns> = BTreeMap::new();
    let mut lines = ir.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("define ") {
            continue;
        }
        let Some(name) = line
            .split_once(" @")
            .and_then(|(_, r)| r.split_once('('))
            .map(|(n, _)| n.trim_matches('"').to_string())
        else {
            continue;
        };
        all.insert(name, returns(&mut lines));
    }
    let mut out = BTreeMap::new();
    for name in all.keys() {
        let (constants, other) = resolve(&all, name);
        let failure = if constants.iter().any(|&c| c < 0) {
            Some(Failure::Negative)
        } else if !other && constants == BTreeSet::from([0, 1]) {
            Some(Failure::Zero)
        } else {
            None
        };
        if let Some(f) = failure {
            out.insert(name.clone(), f);
        }
    }
    out
}

/// The constants `name` may return, following the functions whose result it
/// returns, and whether some return is something else (a computed value, a
/// function the module does not define).
fn resolve(all: &BTreeMap<String, Returns>, name: &str) -> (BTreeSet<i64>, bool) {
    let mut constants = BTreeSet::new();
    let mut other = false;
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) {
            continue;
        }
        let Some(r) = all.get(&n) else {
            other = true;
            continue;
        };
        constants.extend(&r.constants);
        other |= r.other;
        todo.extend(r.forwards.iter().cloned());
    }
    (constants, other)
}

/// An integer constant of the IR (`-2`, `1`), or None.
fn constant(word: &str) -> Option<i64> {
    word.parse().ok()
}

/// The returns of one function body (the lines after its `define`, up to its
/// closing brace). At `-O0` a function with several `return`s stores each
/// value to a slot and returns what it loads from there (values are
/// unnamed: `%3 = alloca i32`, `store i32 -2, ptr %3`, `%8 = load i32, ptr
/// %3`, `ret i32 %8`).
fn returns<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Returns {
    // Slot → the values stored to it; SSA value → the slot it was loaded
    // from, or the function whose call made it; the values returned.
    let mut stores: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut loads: BTreeMap<String, String> = BTreeMap::new();
    let mut calls: BTreeMap<String, String> = BTreeMap::new();
    let mut rets: Vec<String> = Vec::new();
    for line in lines.by_ref() {
        if line.starts_with('}') {
            break;
        }
        let body = line.trim();
        let (lhs, rhs) = match body.split_once(" = ") {
            Some((l, r)) if l.starts_with('%') => (Some(l.trim()), r),
            _ => (None, body),
        };
        let words: Vec<&str> = rhs.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        match (lhs, words.as_slice()) {
            (Some(l), ["load", ty, "ptr", slot, ..]) if ty.starts_with('i') => {
                loads.insert(l.to_string(), slot.to_string());
            }
            (Some(l), _) if rhs.contains("call ") => {
                if let Some((_, rest)) = rhs.split_once(" @") {
                    let callee = rest.split('(').next().unwrap_or("").trim_matches('"');
                    calls.insert(l.to_string(), callee.to_string());
                }
            }
            (None, ["store", ty, value, "ptr", slot, ..]) if ty.starts_with('i') => {
                stores
                    .entry(slot.to_string())
                    .or_default()
                    .push(value.to_string());
            }
            (None, ["ret", ty, value, ..]) if ty.starts_with('i') => rets.push(value.to_string()),
            _ => {}
        }
    }
    let mut r = Returns::default();
    let note = |value: &str, r: &mut Returns| {
        if let Some(c) = constant(value) {
            r.constants.insert(c);
        } else if let Some(f) = calls.get(value) {
            r.forwards.insert(f.clone());
        } else {
            r.other = true;
        }
    };
    for v in &rets {
        match loads.get(v).and_then(|slot| stores.get(slot)) {
            Some(values) => values.iter().for_each(|x| note(x, &mut r)),
            None => note(v, &mut r),
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_read_from_the_returns() {
        let ir = r#"
define dso_local i32 @truth_init(ptr noundef %0, i32 noundef %1) #0 !dbg !10 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %1, ptr %4, align 4
  store i32 0, ptr %3, align 4, !dbg !20
  br label %12

9:
  store i32 1, ptr %3, align 4
  br label %12

12:
  %13 = load i32, ptr %3, align 4
  ret i32 %13, !dbg !21
}

define dso_local i32 @reset(ptr noundef %s) #0 {
entry:
  %ret = alloca i32, align 4
  %0 = load i32, ptr %ret, align 4
  ret i32 %0
}

define dso_local i32 @errno_init2(ptr noundef %s) #0 {
entry:
  %retval = alloca i32, align 4
  store i32 -2, ptr %retval, align 4
  %call = call i32 @reset(ptr noundef %s)
  store i32 %call, ptr %retval, align 4
  %0 = load i32, ptr %retval, align 4
  ret i32 %0
}

define dso_local i32 @errno_init(ptr noundef %s) #0 {
entry:
  %call = call i32 @errno_init2(ptr noundef %s)
  ret i32 %call
}

define dso_local i32 @count(ptr noundef %s) #0 {
entry:
  ret i32 1
}

define dso_local i32 @size(ptr noundef %s) #0 {
entry:
  %0 = load i32, ptr %s, align 4
  ret i32 %0
}
"#;
        let f = failures(ir);
        assert_eq!(f.get("truth_init"), Some(&Failure::Zero));
        assert_eq!(f.get("errno_init2"), Some(&Failure::Negative));
        assert_eq!(f.get("errno_init"), Some(&Failure::Negative));
        assert_eq!(f.get("reset"), None);
        assert_eq!(f.get("count"), None);
        assert_eq!(f.get("size"), None);
    }
}
