//! Source locations from debug info: the file table and per-instruction,
//! per-function and per-global locations.

use symtest_ir::{FileId, Loc};

use crate::llvm::{Md, Val};
use crate::module::Cx;

/// `directory/filename`, or the filename alone when it is absolute or there is no
/// directory.
pub(crate) fn join_path(dir: &str, file: &str) -> String {
    if file.starts_with('/') || dir.is_empty() {
        file.to_string()
    } else if dir.ends_with('/') {
        format!("{dir}{file}")
    } else {
        format!("{dir}/{file}")
    }
}

impl<'m> Cx<'m> {
    /// The file-table entry of a `DIFile` (or of a scope's file).
    pub(crate) fn file_of(&mut self, scope: Md<'m>) -> Option<FileId> {
        if let Some(&f) = self.file_cache.get(&scope) {
            return f;
        }
        let id = scope
            .scope_file()
            .and_then(|f| f.file_name())
            .filter(|(_, name)| !name.is_empty())
            .map(|(dir, name)| {
                let path = join_path(&dir, &name);
                if let Some(&id) = self.file_index.get(&path) {
                    return id;
                }
                let id = FileId(self.files.len() as u32);
                self.files.push(path.clone());
                self.file_index.insert(path, id);
                id
            });
        self.file_cache.insert(scope, id);
        id
    }

    /// The location of an instruction; `fallback_file` (the function's file) is
    /// used, with line 0, for instructions without a debug location.
    pub(crate) fn inst_loc(&mut self, inst: Val<'m>, fallback_file: Option<FileId>) -> Loc {
        let Some((line, col, scope)) = inst.debug_loc().and_then(|d| d.location()) else {
            return Loc {
                file: fallback_file,
                line: 0,
                col: 0,
            };
        };
        let file = scope.and_then(|s| self.file_of(s)).or(fallback_file);
        Loc { file, line, col }
    }

    /// The location of a function: its `DISubprogram`, else its first instruction
    /// with a debug location.
    pub(crate) fn function_loc(&mut self, f: Val<'m>) -> Loc {
        if let Some(sp) = f.subprogram() {
            let file = self.file_of(sp);
            let line = sp.subprogram_line().unwrap_or(0);
            if file.is_some() || line > 0 {
                return Loc { file, line, col: 0 };
            }
        }
        for b in f.blocks() {
            for i in b.instructions() {
                let l = self.inst_loc(i, None);
                if l.line > 0 {
                    return l;
                }
            }
        }
        Loc::default()
    }

    /// The location of a global variable's declaration (from its
    /// `DIGlobalVariableExpression`).
    pub(crate) fn global_loc(&mut self, g: Val<'m>) -> Loc {
        for md in g.global_metadata(self.dbg_kind) {
            if let Some((file, line)) = md.global_var_decl() {
                let file = file.and_then(|f| self.file_of(f));
                return Loc { file, line, col: 0 };
            }
        }
        Loc::default()
    }
}

#[cfg(test)]
mod tests {
    use super::join_path;

    #[test]
    fn joins_relative_and_keeps_absolute() {
        assert_eq!(join_path("/src", "a.c"), "/src/a.c");
        assert_eq!(join_path("/src/", "a.c"), "/src/a.c");
        assert_eq!(join_path("/src", "/abs/a.c"), "/abs/a.c");
        assert_eq!(join_path("", "a.c"), "a.c");
    }
}
