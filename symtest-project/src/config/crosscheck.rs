//! `[[crosscheck]]` tables: exactly one form (`programs`, `functions`,
//! `inverse`), the targets they name, the shared environment and budgets.

use super::*;

/// One `[[crosscheck]]` table: its name (unique among targets and
/// crosschecks), exactly one form, two distinct program targets of this
/// file, its shared environment and budgets.
pub(super) fn check_crosscheck(
    file: &Path,
    cfg: &ConfigFile,
    c: &CrosscheckTable,
    seen: &mut std::collections::HashSet<String>,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    check_name(file, "crosscheck", &c.name, err)?;
    let name = c.name.get_ref();
    if !seen.insert(name.clone()) {
        return Err(err(
            c.name.span(),
            "name",
            format!("`{name}` names another target or crosscheck (each names its directory in symtest-out/)"),
        ));
    }
    let forms = [&c.programs, &c.functions, &c.inverse]
        .iter()
        .filter(|f| f.is_some())
        .count();
    if forms > 1 {
        return Err(err(
            c.name.span(),
            "programs",
            format!("crosscheck `{name}` gives more than one of `programs`, `functions` and `inverse`: give one"),
        ));
    }
    if let Some((key, _, entries)) = function_form(c) {
        let span = c
            .functions
            .as_ref()
            .or(c.inverse.as_ref())
            .expect("a form")
            .span();
        check_functions(cfg, name, key, entries, span, err)?;
        if let Some(a) = &c.args {
            return Err(err(
                a.span(),
                "args",
                format!("a `{key}` crosscheck takes its inputs from the functions' parameter types, not from `args` (crosscheck `{name}`)"),
            ));
        }
        return check_budgets(c, name, err);
    }
    let Some(programs) = &c.programs else {
        return Err(err(
            c.name.span(),
            "programs",
            format!("crosscheck `{name}` needs `programs` (the names of two program targets, e.g. programs = [\"wc\", \"other-wc\"]), `functions` or `inverse`"),
        ));
    };
    check_programs(cfg, name, programs, err)?;
    let Some(args) = &c.args else {
        return Err(err(
            c.name.span(),
            "args",
            format!("crosscheck `{name}` needs `args`: the symbolic environment both programs share (e.g. args = [\"--sym-args\", \"0\", \"2\", \"2\", \"--sym-stdin\", \"8\"])"),
        ));
    };
    for v in args.get_ref() {
        if let Some(why) = crate::escape::unrepresentable(v) {
            return Err(err(
                args.span(),
                "args",
                format!("{v:?} {why} (crosscheck `{name}`)"),
            ));
        }
    }
    check_budgets(c, name, err)
}

/// The function form of a crosscheck, if it has one: its key, what it
/// compares and its `target:function` entries.
pub fn function_form(
    c: &CrosscheckTable,
) -> Option<(&'static str, crate::library::cross::Pairing, &[String])> {
    use crate::library::cross::Pairing;
    match (&c.functions, &c.inverse) {
        (Some(f), _) => Some(("functions", Pairing::Equal, f.get_ref())),
        (None, Some(i)) => Some(("inverse", Pairing::Inverse, i.get_ref())),
        (None, None) => None,
    }
}

/// `functions` / `inverse`: two `target:function` entries naming
/// `kind = "library"` targets of the same file.
fn check_functions(
    cfg: &ConfigFile,
    name: &str,
    key: &str,
    entries: &[String],
    span: std::ops::Range<usize>,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let at = |message: String| Err(err(span.clone(), key, message));
    if entries.len() != 2 {
        return at(format!(
            "a crosscheck compares exactly two functions (got {}; crosscheck `{name}`)",
            entries.len()
        ));
    }
    if entries[0] == entries[1] {
        return at(format!(
            "`{}` is named twice (crosscheck `{name}`)",
            entries[0]
        ));
    }
    for e in entries {
        let Some((lib, f)) = e
            .split_once(':')
            .filter(|(l, f)| !l.is_empty() && !f.is_empty())
        else {
            return at(format!(
                "`{e}` is not `target:function` (the library target and the function; crosscheck `{name}`)"
            ));
        };
        let _ = f;
        match cfg.target.iter().map(|t| t.get_ref()).find(|t| t.name.get_ref() == lib) {
            None => {
                return at(format!(
                    "no target named `{lib}` in this file (crosscheck `{name}`)"
                ))
            }
            Some(t) if t.kind != Kind::Library => {
                return at(format!(
                    "target `{lib}` is kind = \"{}\": a function crosscheck takes its functions from `kind = \"library\"` targets (crosscheck `{name}`)",
                    t.kind.as_str()
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// A crosscheck's `max-instructions` and `max-time`.
fn check_budgets(
    c: &CrosscheckTable,
    name: &str,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    if let Some(v) = &c.max_instructions {
        if *v.get_ref() == 0 {
            return Err(err(
                v.span(),
                "max-instructions",
                format!("must be at least 1 (crosscheck `{name}`)"),
            ));
        }
    }
    check_max_time(c.max_time.as_ref(), err)?;
    Ok(())
}

/// `programs` of a crosscheck: two distinct `kind = "program"` targets of
/// the same file.
fn check_programs(
    cfg: &ConfigFile,
    name: &str,
    programs: &Spanned<Vec<String>>,
    err: &dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let at = |message: String| Err(err(programs.span(), "programs", message));
    let p = programs.get_ref();
    if p.len() != 2 {
        return at(format!(
            "a crosscheck compares exactly two programs (got {}; crosscheck `{name}`)",
            p.len()
        ));
    }
    if p[0] == p[1] {
        return at(format!(
            "`{}` is named twice: a crosscheck compares two different targets (crosscheck `{name}`)",
            p[0]
        ));
    }
    for prog in p {
        let target = cfg
            .target
            .iter()
            .map(|t| t.get_ref())
            .find(|t| t.name.get_ref() == prog);
        match target {
            None => {
                let names: Vec<&str> = cfg
                    .target
                    .iter()
                    .map(|t| t.get_ref().name.get_ref().as_str())
                    .collect();
                return at(format!(
                    "no target named `{prog}` in this file (targets: {}; crosscheck `{name}`)",
                    names.join(", ")
                ));
            }
            Some(t) if t.kind != Kind::Program => {
                return at(format!(
                    "target `{prog}` is kind = \"{}\": a crosscheck compares two `kind = \"program\"` targets (crosscheck `{name}`)",
                    t.kind.as_str()
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}
