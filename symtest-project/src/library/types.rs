//! What a C type, as clang prints it (`const char *`, `struct node *`,
//! `int (*)(int, void *)`, `size_t`, `char[8]`), is for input generation:
//! typedefs resolved through the headers' [`Api`].

use super::ast::Api;

/// The shape of a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    Void,
    /// An integer, character or boolean.
    Int {
        boolean: bool,
    },
    Float,
    /// An enum and its constants.
    Enum(Vec<String>),
    /// A pointer: what it points to (as printed, qualifiers kept), whether
    /// that is `const`, and its shape.
    Pointer {
        pointee: String,
        constant: bool,
        to: Box<Shape>,
    },
    /// A function pointer: its return type and parameter types.
    Function {
        ret: String,
        params: Vec<String>,
        variadic: bool,
    },
    /// A fixed array: element type and length.
    Array {
        elem: String,
        len: u64,
    },
    /// A structure or union with a definition (its key in `Api::records`).
    Record(String),
    /// A structure or union the headers only declare (a handle type).
    Opaque(String),
    /// Something input generation does not build (`va_list`, a vector type).
    Unsupported(String),
}

/// Removes the top-level qualifiers (`const`, `volatile`, `restrict`): those
/// after the last `*` of a pointer (`char *const`), those anywhere around a
/// type that is no pointer (`const int`); a pointer's leading `const`
/// qualifies what it points to and stays.
pub fn unqualified(t: &str) -> (String, bool) {
    let mut s = t.trim().to_string();
    let mut constant = false;
    loop {
        let before = s.clone();
        let pointer = s.ends_with('*') || s.ends_with(')');
        for q in ["const ", "volatile ", "restrict ", "__restrict "] {
            if pointer {
                break;
            }
            if let Some(r) = s.strip_prefix(q) {
                constant |= q == "const ";
                s = r.trim().to_string();
            }
        }
        for q in ["const", "volatile", "restrict", "__restrict"] {
            if let Some(r) = s.strip_suffix(q) {
                if r.ends_with(' ') || r.ends_with('*') {
                    constant |= q == "const";
                    s = r.trim().to_string();
                }
            }
        }
        if s == before {
            return (s, constant);
        }
    }
}

/// Splits a comma-separated list at its top level (not inside parentheses,
/// brackets, braces or angle brackets: C types, and LLVM's).
pub(super) fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for c in s.chars() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The shape of `t` (resolving typedefs at most 32 deep).
pub fn shape(api: &Api, t: &str) -> Shape {
    shape_at(api, t, 0)
}

fn shape_at(api: &Api, t: &str, depth: u32) -> Shape {
    if depth > 32 {
        return Shape::Unsupported(format!("typedef chain too long at `{t}`"));
    }
    let (s, _) = unqualified(t);
    // A function pointer: `R (*)(P, Q)`.
    if let Some(i) = s.find("(*)") {
        return function_pointer(&s, i);
    }
    // An anonymous record or enum, named by where it is (`union (unnamed
    // union at f.h:3:5)`).
    if api.records.contains_key(&s) {
        return Shape::Record(s);
    }
    if let Some(c) = api.enums.get(&s) {
        return Shape::Enum(c.clone());
    }
    if s.contains('(') && !s.ends_with('*') && !s.ends_with(']') {
        return Shape::Unsupported(format!("`{s}`"));
    }
    if let Some(p) = s.strip_suffix('*') {
        return pointer(api, p, depth);
    }
    if s.ends_with(']') {
        return array(&s);
    }
    if let Some(shape) = tagged_or_builtin(api, &s) {
        return shape;
    }
    if let Some(under) = api.typedefs.get(&s) {
        if under == &s {
            return Shape::Unsupported(format!("`{s}`"));
        }
        // A typedef of an anonymous record names it by the record's key.
        if api.records.contains_key(under) {
            return Shape::Record(under.clone());
        }
        return shape_at(api, under, depth + 1);
    }
    integer(&s)
}

/// The function pointer `s` (`R (*)(P, Q)`, its `(*)` at `i`).
fn function_pointer(s: &str, i: usize) -> Shape {
    let ret = s[..i].trim().to_string();
    let rest = s[i + 3..].trim();
    if rest.starts_with('[') {
        return Shape::Unsupported(format!("pointer to array `{s}`"));
    }
    let inner = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')'));
    let Some(inner) = inner else {
        return Shape::Unsupported(format!("function pointer `{s}`"));
    };
    let mut params = split_top(inner);
    let variadic = params.last().is_some_and(|p| p == "...");
    if variadic {
        params.pop();
    }
    if params.len() == 1 && params[0] == "void" {
        params.clear();
    }
    Shape::Function {
        ret,
        params,
        variadic,
    }
}

/// A pointer to `p` (the type before its `*`).
fn pointer(api: &Api, p: &str, depth: u32) -> Shape {
    let pointee = p.trim().to_string();
    let (_, constant) = unqualified(&pointee);
    // A pointer to a function type (`handler_t *` where `typedef int
    // handler_t(void *)`) is a function pointer.
    let resolved = resolve_typedef(api, &pointee);
    if let Some(open) = resolved.find('(') {
        if resolved.ends_with(')')
            && !resolved.contains("(*)")
            && !resolved.contains("(unnamed")
            && !resolved.contains("(anonymous")
        {
            let ret = resolved[..open].trim();
            return shape_at(api, &format!("{ret} (*){}", &resolved[open..]), depth + 1);
        }
    }
    let to = shape_at(api, &pointee, depth + 1);
    Shape::Pointer {
        pointee,
        constant,
        to: Box::new(to),
    }
}

/// The fixed array `s` (`char[8]`).
fn array(s: &str) -> Shape {
    let open = s.rfind('[').unwrap_or(0);
    let elem = s[..open].trim().to_string();
    match s[open + 1..s.len() - 1].trim().parse::<u64>() {
        Ok(len) if len > 0 => Shape::Array { elem, len },
        _ => Shape::Unsupported(format!("array without a length `{s}`")),
    }
}

/// A `struct`, `union` or `enum` type, `void`, a boolean or a floating
/// type; `None` for anything else.
fn tagged_or_builtin(api: &Api, s: &str) -> Option<Shape> {
    if s.starts_with("struct ") || s.starts_with("union ") {
        return Some(if api.records.contains_key(s) {
            Shape::Record(s.to_string())
        } else {
            Shape::Opaque(s.to_string())
        });
    }
    if s.starts_with("enum ") {
        return Some(match api.enums.get(s) {
            Some(c) if !c.is_empty() => Shape::Enum(c.clone()),
            _ => Shape::Int { boolean: false },
        });
    }
    if s == "void" {
        return Some(Shape::Void);
    }
    if s == "_Bool" || s == "bool" {
        return Some(Shape::Int { boolean: true });
    }
    if s.contains("float") || s.contains("double") {
        return Some(if s.contains("_Complex") {
            Shape::Unsupported(format!("complex type `{s}`"))
        } else {
            Shape::Float
        });
    }
    None
}

/// An integer type spelled with its keywords (`unsigned long`), else
/// unsupported (`va_list`, an unknown name).
fn integer(s: &str) -> Shape {
    if s.starts_with("__builtin_va_list") || s.starts_with("__va_list") || s.contains("va_list") {
        return Shape::Unsupported(format!("variable argument list `{s}`"));
    }
    const INTEGERS: &[&str] = &[
        "char", "short", "int", "long", "unsigned", "signed", "__int128", "_BitInt",
    ];
    if s.split_whitespace()
        .all(|w| INTEGERS.contains(&w) || w.starts_with("_BitInt"))
    {
        return Shape::Int { boolean: false };
    }
    Shape::Unsupported(format!("type `{s}`"))
}

/// A typedef name resolved to the type it names, through typedefs of
/// typedefs (the name itself when it is none).
fn resolve_typedef(api: &Api, t: &str) -> String {
    let mut s = unqualified(t).0;
    for _ in 0..32 {
        match api.typedefs.get(&s) {
            Some(u) if u != &s => s = unqualified(u).0,
            _ => break,
        }
    }
    s
}

/// Whether a pointee is a character type (a `char *` is a string).
pub fn is_char(api: &Api, pointee: &str) -> bool {
    let (s, _) = unqualified(pointee);
    let base = match api.typedefs.get(&s) {
        Some(u) => unqualified(u).0,
        None => s,
    };
    matches!(base.as_str(), "char" | "signed char" | "unsigned char")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api() -> Api {
        let mut a = Api::default();
        a.typedefs.insert("size_t".into(), "unsigned long".into());
        a.typedefs.insert("box".into(), "struct box".into());
        a.typedefs.insert("color".into(), "enum color".into());
        a.records.insert(
            "struct box".into(),
            super::super::ast::Record {
                spelled: "box".into(),
                within: None,
                union: false,
                fields: vec![],
            },
        );
        a.enums
            .insert("enum color".into(), vec!["RED".into(), "BLUE".into()]);
        a
    }

    #[test]
    fn shapes_of_printed_types() {
        let a = api();
        assert_eq!(shape(&a, "size_t"), Shape::Int { boolean: false });
        assert_eq!(
            shape(&a, "const unsigned long long"),
            Shape::Int { boolean: false }
        );
        assert_eq!(shape(&a, "double"), Shape::Float);
        assert_eq!(
            shape(&a, "color"),
            Shape::Enum(vec!["RED".into(), "BLUE".into()])
        );
        assert_eq!(shape(&a, "box"), Shape::Record("struct box".into()));
        assert_eq!(
            shape(&a, "struct FILE_ *"),
            Shape::Pointer {
                pointee: "struct FILE_".into(),
                constant: false,
                to: Box::new(Shape::Opaque("struct FILE_".into()))
            }
        );
        match shape(&a, "const char *") {
            Shape::Pointer { constant, to, .. } => {
                assert!(constant);
                assert_eq!(*to, Shape::Int { boolean: false });
            }
            s => panic!("{s:?}"),
        }
        assert_eq!(
            shape(&a, "int (*)(int, void *)"),
            Shape::Function {
                ret: "int".into(),
                params: vec!["int".into(), "void *".into()],
                variadic: false
            }
        );
        assert_eq!(
            shape(&a, "char[8]"),
            Shape::Array {
                elem: "char".into(),
                len: 8
            }
        );
        assert!(matches!(
            shape(&a, "__builtin_va_list"),
            Shape::Unsupported(_)
        ));
        assert!(is_char(&a, "const char"));
        assert_eq!(
            unqualified("const char *"),
            ("const char *".to_string(), false)
        );
        assert_eq!(unqualified("char *const"), ("char *".to_string(), true));
        assert_eq!(unqualified("const int"), ("int".to_string(), true));
        assert!(!is_char(&a, "int"));
    }
}
