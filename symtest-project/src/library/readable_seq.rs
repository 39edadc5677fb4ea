//! The readable test of a call sequence (see [`super::sequences`]): one C
//! function that makes the handle with the maker's inputs as literals, then
//! calls each step the test chose, each in its own block with the checks of
//! what the suite recorded under that step's names (`make.`, `set.`, `1.`,
//! ..., `end.`), stopping where the test's selectors say the sequence
//! stopped, and ends the handle.

use super::readable::{Call, Kind, Param, Selector, Sequence, Step};
use super::readable_c::{comment, decl, declare, invoke, test_name, Recorded};
use super::readable_checks::checks;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The calls of a test of a sequence: each with its selector.
type Chosen<'s> = Vec<(&'s Selector, &'s Step)>;

/// The calls a test of `seq` made, as its selector objects chose them, and
/// whether it went past its maker (a maker that failed ends the sequence).
fn chosen<'s>(seq: &'s Sequence, r: &Recorded) -> Result<(Chosen<'s>, bool), String> {
    let mut out = Vec::new();
    let mut past_make = false;
    for (i, sel) in seq.selectors.iter().enumerate() {
        let value = match r.object(&sel.name) {
            Some(b) if b.len() == 4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
            Some(b) => return Err(format!("its selector `{}` has {} bytes", sel.name, b.len())),
            // A selector of one value makes no object.
            None if i == 0 && sel.values.len() == 1 => 0,
            None if i == 0 => return Err(format!("its selector `{}` was not recorded", sel.name)),
            // The sequence stopped before this selector.
            None => break,
        };
        past_make |= i > 0;
        match sel.values.get(value) {
            Some(Some(step)) => out.push((sel, step)),
            // No setter: the steps follow.
            Some(None) if sel.name == "sequence.set" => {}
            // Stop: the handle is ended.
            Some(None) => break,
            None => return Err(format!("`{}` = {value} chooses no call", sel.name)),
        }
    }
    Ok((out, past_make))
}

/// Where a call is in the sequence, as the checks' messages and the
/// comments tell it, and the prefix of its variables' names.
fn place(prefix: &str) -> (String, String) {
    let p = prefix.trim_end_matches('.');
    match p.parse::<u32>() {
        Ok(k) => (format!("step {k}"), format!("step{k}")),
        Err(_) => (p.to_string(), p.to_string()),
    }
}

/// The call of `step` with its variables named after `var` (the handle's
/// parameter is `h`), and the outputs recorded under `prefix` by the names
/// its checks read.
fn renamed(
    call: &Call,
    step: &Step,
    var: &str,
    prefix: &str,
    outputs: &[(String, Vec<u8>)],
) -> (Call, Vec<(String, Vec<u8>)>) {
    let mut call = call.clone();
    let mut names = Vec::new();
    for (i, p) in call.params.iter_mut().enumerate() {
        if step.handle != Some(i) {
            let new = format!("{var}_{}", p.name);
            names.push((std::mem::replace(&mut p.name, new.clone()), new));
        }
    }
    let outputs = outputs
        .iter()
        .filter_map(|(n, b)| {
            let n = n.strip_prefix(prefix)?;
            let n = names
                .iter()
                .find_map(|(old, new)| {
                    let rest = n.strip_prefix(old.as_str())?;
                    (rest.is_empty() || rest.starts_with('.')).then(|| format!("{new}{rest}"))
                })
                .unwrap_or_else(|| n.to_string());
            Some((n, b.clone()))
        })
        .collect();
    (call, outputs)
}

/// The text of one call of the sequence: its inputs declared (at the
/// function's level: the library may keep pointers to them in the handle),
/// then a block with the call and its checks. Adds the pointer inputs it
/// declared to `inputs`; returns the text and its number of checks.
fn call_text(
    sel_prefix: &str,
    step: &Step,
    r: &Recorded,
    inputs: &mut Vec<(String, String)>,
) -> Result<(String, usize), String> {
    let (at, var) = place(sel_prefix);
    let why = |w: &str| format!("its {at} calls `{}`: {w}", step.function);
    let call = step
        .call
        .as_ref()
        .ok_or_else(|| why(step.why.as_deref().unwrap_or("no readable call")))?;
    let (call, outputs) = renamed(call, step, &var, sel_prefix, &r.outputs);
    let rs = Recorded {
        plan: r.plan,
        objects: r.objects,
        outputs,
        step: format!(" ({at})"),
        inputs: inputs.clone(),
        heap: call.frees,
    };
    let mut text = String::new();
    for (i, p) in call.params.iter().enumerate() {
        if step.handle != Some(i) {
            declare(p, &rs, &mut text).map_err(|w| why(&w))?;
        }
    }
    let args: Vec<&str> = call
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if step.handle == Some(i) {
                "h"
            } else {
                p.name.as_str()
            }
        })
        .collect();
    let mut block = invoke(&call, &args, "    ").map_err(|w| why(&w))?;
    let mut checked = String::new();
    let n = checks(&call, &rs, &mut checked);
    for l in checked.lines() {
        let _ = writeln!(block, "  {l}");
    }
    if step.handle.is_none() {
        block.push_str("    h = ret;\n");
    } else if !matches!(call.ret, Kind::Void) {
        block.push_str("    (void)ret;\n");
    }
    let _ = write!(text, "  {{\n{block}  }}\n");
    inputs.extend(
        call.params
            .iter()
            .filter(|p| pointed(p))
            .map(|p| (p.label.clone(), p.name.clone())),
    );
    Ok((text, n))
}

/// Whether a parameter's value is an object a returned pointer may point into.
fn pointed(p: &Param) -> bool {
    matches!(
        p.kind,
        Kind::String { .. } | Kind::Array { .. } | Kind::Bytes { .. }
    )
}

/// The statements that make the handle `h` before its maker runs: declared
/// (a constructor returns it), or a zeroed object an initializer fills.
fn handle_decl(step: &Step) -> Result<String, String> {
    let call = step.call.as_ref();
    match (&step.fills, step.handle, call.map(|c| &c.ret)) {
        (Some(ty), Some(_), _) => Ok(format!(
            "  /* The handle: a zeroed `{ty}`, which {} fills. */\n  {ty} *h = calloc(1, sizeof({ty}));\n",
            step.function
        )),
        (None, None, Some(Kind::Pointer { ty } | Kind::String { ty })) => Ok(format!(
            "  /* The handle, which {} returns. */\n  {};\n",
            step.function,
            decl(ty, "h")
        )),
        _ => Err(format!(
            "its maker `{}` is not written: {}",
            step.function,
            step.why.as_deref().unwrap_or("no readable call")
        )),
    }
}

/// The test function of a call sequence (named after its maker, from
/// `names`): its name and text, or why it is not written. `ended`: the
/// test's path ended normally (not in a bug).
pub(super) fn test_sequence(
    seq: &Sequence,
    r: &Recorded,
    bug: Option<String>,
    ended: bool,
    names: &mut BTreeMap<String, usize>,
) -> Result<(String, String), String> {
    let (calls, past_make) = chosen(seq, r)?;
    let Some((_, maker)) = calls.first() else {
        return Err("its maker was not chosen".into());
    };
    let mut body = handle_decl(maker)?;
    let mut inputs = Vec::new();
    let mut n = 0;
    let mut what = Vec::new();
    for (sel, step) in &calls {
        let (at, _) = place(&sel.prefix);
        let _ = writeln!(body, "  /* {}: {}. */", capital(&at), step.function);
        let (t, k) = call_text(&sel.prefix, step, r, &mut inputs)?;
        body.push_str(&t);
        n += k;
        what.push(step.function.clone());
    }
    if !past_make && ended {
        let cond = maker
            .failed
            .as_deref()
            .map_or(String::new(), |c| format!(" (`{c}`)"));
        let _ = writeln!(
            body,
            "  /* {} failed{cond}: the sequence ends here, as in the suite's test. */",
            maker.function
        );
        if maker.fills.is_some() {
            body.push_str("  free(h);\n");
        }
    }
    if let (Some(end), true) = (&seq.ender, past_make) {
        let _ = writeln!(body, "  /* End: {}. */", end.function);
        let (t, k) = call_text("end.", end, r, &mut inputs)?;
        body.push_str(&t);
        n += k;
        what.push(end.function.clone());
    }
    if n == 0 && bug.is_none() {
        body.push_str(
            "  /* Nothing was recorded to check: the test checks that the calls return. */\n",
        );
    }
    let name = test_name(names, &format!("{}_sequence", maker.function));
    let head = match &bug {
        Some(b) => format!(
            "/* Documents a bug: {}. It fails (crashes) while the bug is there. */\n",
            comment(b)
        ),
        None => String::new(),
    };
    Ok((
        format!(
            "/* Calls {}. */\n{head}static void {name}(void) {{\n{body}}}\n",
            what.join(", then ")
        ),
        name,
    ))
}

/// `s` with its first letter upper-case.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}
