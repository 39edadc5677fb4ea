//! The public interface of a library, read from clang's AST of its headers
//! (`clang -Xclang -ast-dump=json -fsyntax-only` of a file that includes
//! them): the functions they declare, with their parameters' types as clang
//! prints them, and the records, enums, typedefs and `extern` variables those
//! types name.
//!
//! Clang writes a location's `file` only when it differs from the location it
//! wrote before, so the file of each declaration is tracked by visiting the
//! locations in the order clang wrote them (`loc`, `range.begin`,
//! `range.end`, then the children; a macro location's spelling before its
//! expansion).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize, Default)]
struct Loc {
    file: Option<String>,
    #[serde(rename = "spellingLoc")]
    spelling: Option<Box<Loc>>,
    #[serde(rename = "expansionLoc")]
    expansion: Option<Box<Loc>>,
}

#[derive(Deserialize, Default)]
struct Range {
    begin: Option<Loc>,
    end: Option<Loc>,
}

#[derive(Deserialize, Default)]
struct TypeRef {
    #[serde(rename = "qualType")]
    qual: String,
}

#[derive(Deserialize, Default)]
struct DeclRef {
    id: Option<String>,
}

#[derive(Deserialize, Default)]
struct Node {
    #[serde(default)]
    id: String,
    #[serde(default)]
    kind: String,
    name: Option<String>,
    loc: Option<Loc>,
    range: Option<Range>,
    #[serde(rename = "type")]
    ty: Option<TypeRef>,
    #[serde(rename = "tagUsed")]
    tag: Option<String>,
    #[serde(rename = "completeDefinition", default)]
    complete: bool,
    #[serde(rename = "storageClass")]
    storage: Option<String>,
    #[serde(rename = "variadic", default)]
    variadic: bool,
    #[serde(rename = "ownedTagDecl")]
    owned: Option<DeclRef>,
    #[serde(rename = "isBitfield", default)]
    bitfield: bool,
    #[serde(default)]
    inner: Vec<Node>,
}

/// A function the headers declare.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// The return type as clang prints it.
    pub ret: String,
    /// Parameters: name (empty when the prototype has none) and type.
    pub params: Vec<(String, String)>,
    pub variadic: bool,
    /// `static` (inline functions in a header).
    pub is_static: bool,
    /// The header that declares it.
    pub header: PathBuf,
}

/// A structure or union with a definition.
#[derive(Clone, Debug)]
pub struct Record {
    /// How C code names it (`struct node`, or the typedef of an anonymous one).
    pub spelled: String,
    pub union: bool,
    /// Fields: name and type (anonymous and bit-field members are marked).
    pub fields: Vec<Field>,
    /// An anonymous record: the record (key) and field index holding it.
    pub within: Option<(String, usize)>,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub ty: String,
    pub bitfield: bool,
}

/// What the headers (and what they include) declare.
#[derive(Debug, Default)]
pub struct Api {
    pub functions: Vec<Function>,
    /// Records by their printed name (`struct node`), including the
    /// anonymous ones a typedef names (`struct box` for `typedef struct {..} box`).
    pub records: BTreeMap<String, Record>,
    /// Enum constants by the enum's printed name (`enum color`).
    pub enums: BTreeMap<String, Vec<String>>,
    /// Typedef name → the type it names, as printed.
    pub typedefs: BTreeMap<String, String>,
    /// `extern` variables the public headers declare: name and type.
    pub globals: Vec<(String, String)>,
}

/// The system headers read before the library's, in the file clang reads and
/// in the generated harness: a header that uses `size_t` or `FILE` without
/// including their header (it documents "include <stdio.h> first") parses.
pub const SYSTEM_INCLUDES: &str = "#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <sys/types.h>\n#include <sys/stat.h>\n";

/// Reads the API of `headers` (absolute paths) with the compile flags `flags`
/// (`-I`, `-D`, ...). `tu` is the file written to include them. A header
/// that does not compile on its own (a C++ header, one meant to be included
/// by another) is left out of the file when all of them together do not
/// compile; the headers used come back with the API (the harness includes
/// those), and every header in `headers` still counts as public.
pub fn read(
    clang: &str,
    headers: &[PathBuf],
    flags: &[String],
    tu: &Path,
) -> Result<(Api, Vec<PathBuf>), String> {
    let dump = |used: &[PathBuf]| -> Result<Vec<u8>, String> {
        let mut text = String::from(SYSTEM_INCLUDES);
        for h in used {
            text.push_str(&format!("#include \"{}\"\n", h.display()));
        }
        std::fs::write(tu, &text).map_err(|e| format!("writing {}: {e}", tu.display()))?;
        let out = std::process::Command::new(clang)
            .args(["-Xclang", "-ast-dump=json", "-fsyntax-only", "-w"])
            .args(flags)
            .arg(tu)
            .output()
            .map_err(|e| format!("running {clang}: {e}"))?;
        if out.status.success() {
            return Ok(out.stdout);
        }
        let err = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("error"))
            .take(5)
            .collect();
        let shown = if first.is_empty() {
            err.trim().to_string()
        } else {
            first.join("\n")
        };
        Err(format!(
            "the headers do not compile ({}): {shown}",
            out.status
        ))
    };
    let (json, used) = match dump(headers) {
        Ok(j) => (j, headers.to_vec()),
        Err(all) if headers.len() > 1 => {
            // Each header in turn, kept when it compiles with those kept
            // before it (two headers of alternative builds may conflict).
            let mut kept: Vec<PathBuf> = Vec::new();
            for h in headers {
                kept.push(h.clone());
                if dump(&kept).is_err() {
                    kept.pop();
                }
            }
            if kept.is_empty() {
                return Err(all);
            }
            (dump(&kept)?, kept)
        }
        Err(e) => return Err(e),
    };
    let root: Node =
        serde_json::from_slice(&json).map_err(|e| format!("reading clang's AST: {e}"))?;
    Ok((collect(&root, headers), used))
}

/// Walks the translation unit's declarations, tracking the current file.
fn collect(root: &Node, headers: &[PathBuf]) -> Api {
    let public: Vec<String> = headers.iter().map(|h| h.display().to_string()).collect();
    let is_public = |f: &str| {
        public.iter().any(|p| p == f)
            || std::fs::canonicalize(f)
                .ok()
                .is_some_and(|c| headers.iter().any(|h| h == &c))
    };
    let mut c = Collector::default();
    let mut current = String::new();
    for d in &root.inner {
        let file_before = current.clone();
        // The declaration's own location decides its file.
        visit_loc(d.loc.as_ref(), &mut current);
        let file = if current.is_empty() {
            file_before
        } else {
            current.clone()
        };
        visit_rest(d, &mut current);
        match d.kind.as_str() {
            "FunctionDecl" if is_public(&file) => c.function(d, &file),
            "RecordDecl" if d.complete => c.record(d),
            "EnumDecl" => c.enumeration(d),
            "TypedefDecl" => c.typedef(d),
            "VarDecl" if is_public(&file) && d.storage.as_deref() == Some("extern") => {
                if let (Some(n), Some(t)) = (&d.name, &d.ty) {
                    c.api.globals.push((n.clone(), t.qual.clone()));
                }
            }
            _ => {}
        }
    }
    c.api
}

/// The API [`collect`] gathers, and the anonymous records and enums (by
/// their node's id) a later typedef may name.
#[derive(Default)]
struct Collector<'a> {
    api: Api,
    anonymous: BTreeMap<String, &'a Node>,
    anonymous_enums: BTreeMap<String, Vec<String>>,
}

impl<'a> Collector<'a> {
    /// A function declared in the public header `file` (its first
    /// declaration counts).
    fn function(&mut self, d: &Node, file: &str) {
        let name = d.name.clone().unwrap_or_default();
        let ty = d.ty.as_ref().map(|t| t.qual.clone()).unwrap_or_default();
        let ret = ty
            .split_once('(')
            .map_or(ty.as_str(), |(r, _)| r)
            .trim()
            .to_string();
        let params = d
            .inner
            .iter()
            .filter(|p| p.kind == "ParmVarDecl")
            .map(|p| {
                (
                    p.name.clone().unwrap_or_default(),
                    p.ty.as_ref().map(|t| t.qual.clone()).unwrap_or_default(),
                )
            })
            .collect();
        if !self.api.functions.iter().any(|f| f.name == name) {
            self.api.functions.push(Function {
                name,
                ret,
                params,
                variadic: d.variadic || ty.contains("...)"),
                is_static: d.storage.as_deref() == Some("static"),
                header: PathBuf::from(file),
            });
        }
    }

    /// A structure or union with a definition; an anonymous one waits for
    /// the typedef that names it.
    fn record(&mut self, d: &'a Node) {
        let tag = d.tag.clone().unwrap_or_else(|| "struct".into());
        match &d.name {
            Some(n) if !n.is_empty() => {
                let key = format!("{tag} {n}");
                insert_record(&mut self.api, &key, &key, d);
            }
            _ => {
                self.anonymous.insert(d.id.clone(), d);
            }
        }
    }

    /// An enum's constants; an anonymous one's wait for the typedef that
    /// names it.
    fn enumeration(&mut self, d: &Node) {
        let consts = enum_constants(d);
        match &d.name {
            Some(n) if !n.is_empty() => {
                self.api.enums.insert(format!("enum {n}"), consts);
            }
            _ => {
                self.anonymous_enums.insert(d.id.clone(), consts);
            }
        }
    }

    /// A typedef, and the anonymous record or enum it names
    /// (`typedef struct { ... } box;`: the record is `struct box`).
    fn typedef(&mut self, d: &Node) {
        let (Some(name), Some(ty)) = (&d.name, &d.ty) else {
            return;
        };
        self.api.typedefs.insert(name.clone(), ty.qual.clone());
        let owned = d.inner.iter().find_map(|c| c.owned.as_ref()?.id.clone());
        if let Some(id) = owned {
            if let Some(r) = self.anonymous.remove(&id) {
                insert_record(&mut self.api, &ty.qual, name, r);
            }
            if let Some(e) = self.anonymous_enums.remove(&id) {
                self.api.enums.insert(ty.qual.clone(), e);
            }
        }
    }
}

/// The names of an enum declaration's constants.
fn enum_constants(d: &Node) -> Vec<String> {
    d.inner
        .iter()
        .filter(|c| c.kind == "EnumConstantDecl")
        .filter_map(|c| c.name.clone())
        .collect()
}

/// Inserts the record `d` as `key`, spelled `spelled`, with the anonymous
/// records and enums its fields have (`union (unnamed union at f.h:3:5)`:
/// clang writes such a record right before the field of its type), spelled
/// through the field (`__typeof__(((struct s *)0)->u)`).
fn insert_record(api: &mut Api, key: &str, spelled: &str, d: &Node) {
    let mut rec = record(d);
    rec.spelled = spelled.to_string();
    let mut pending: Option<&Node> = None;
    let mut index = 0;
    for c in &d.inner {
        match c.kind.as_str() {
            "RecordDecl" | "EnumDecl" if c.name.as_deref().unwrap_or("").is_empty() => {
                pending = Some(c)
            }
            "FieldDecl" => {
                index += 1;
                let (Some(anon), Some(ty), Some(field)) = (pending.take(), &c.ty, &c.name) else {
                    continue;
                };
                if !(ty.qual.contains("(unnamed") || ty.qual.contains("(anonymous")) {
                    continue;
                }
                if anon.kind == "EnumDecl" {
                    api.enums.insert(ty.qual.clone(), enum_constants(anon));
                } else if anon.complete {
                    let inner = format!("__typeof__((({spelled} *)0)->{field})");
                    insert_record(api, &ty.qual, &inner, anon);
                    if let Some(r) = api.records.get_mut(&ty.qual) {
                        r.within = Some((key.to_string(), index - 1));
                    }
                }
            }
            _ => {}
        }
    }
    api.records.insert(key.to_string(), rec);
}

fn record(d: &Node) -> Record {
    Record {
        spelled: String::new(),
        within: None,
        union: d.tag.as_deref() == Some("union"),
        fields: d
            .inner
            .iter()
            .filter(|c| c.kind == "FieldDecl")
            .map(|c| Field {
                name: c.name.clone().unwrap_or_default(),
                ty: c.ty.as_ref().map(|t| t.qual.clone()).unwrap_or_default(),
                bitfield: c.bitfield,
            })
            .collect(),
    }
}

fn visit(n: &Node, current: &mut String) {
    visit_loc(n.loc.as_ref(), current);
    visit_rest(n, current);
}

/// The locations of a node after its own: its range's, then its children's.
fn visit_rest(n: &Node, current: &mut String) {
    if let Some(r) = &n.range {
        visit_loc(r.begin.as_ref(), current);
        visit_loc(r.end.as_ref(), current);
    }
    for c in &n.inner {
        visit(c, current);
    }
}

fn visit_loc(l: Option<&Loc>, current: &mut String) {
    let Some(l) = l else { return };
    if l.spelling.is_some() || l.expansion.is_some() {
        visit_loc(l.spelling.as_deref(), current);
        visit_loc(l.expansion.as_deref(), current);
        return;
    }
    if let Some(f) = &l.file {
        current.clone_from(f);
    }
}
