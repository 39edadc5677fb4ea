//! Inline assembly that only means something to the compiler: barriers
//! (`asm volatile("" ::: "memory")`), pauses in spin loops (`pause`,
//! `rep; nop`), fences, and register identities that launder a value
//! (`asm("# hide" : "=r"(p) : "0"(q))`, `"+r"(x)`). Recognised by the template
//! and the constraint string; the engine then executes them as what they
//! mean (a no-op, or a move of each tied input to its output), see
//! [`symtest_ir::Callee::AsmMove`].

/// The constraints of one inline asm, as LLVM writes them
/// (`=r,0,~{dirflag},~{fpsr},~{flags}`).
#[derive(Debug, PartialEq, Eq)]
struct Constraints {
    /// Per output, in order: whether it is a register (direct) output.
    outputs: Vec<bool>,
    /// Per call argument (indirect outputs, then inputs, in constraint
    /// order): the output it is tied to (`0`..`9`), if any.
    args: Vec<Option<usize>>,
}

fn parse_constraints(s: &str) -> Option<Constraints> {
    let mut c = Constraints {
        outputs: Vec::new(),
        args: Vec::new(),
    };
    if s.trim().is_empty() {
        return Some(c);
    }
    for part in s.split(',') {
        if part.starts_with('~') {
            // A clobber: registers, flags or memory. Nothing the engine keeps.
            continue;
        }
        if let Some(out) = part.strip_prefix('=') {
            let out = out.trim_start_matches('&');
            let indirect = out.starts_with('*');
            c.outputs.push(!indirect);
            if indirect {
                c.args.push(None);
            }
            continue;
        }
        let input = part.trim_start_matches('*');
        let tied = if !input.is_empty() && input.bytes().all(|b| b.is_ascii_digit()) {
            Some(input.parse::<usize>().ok()?)
        } else {
            None
        };
        c.args.push(tied);
    }
    Some(c)
}

/// Whether a template does nothing to a single-threaded program: empty,
/// comments (`#` to the end of a line, `/* */`), `nop`, `pause`, `rep; nop`,
/// `lfence`, `mfence`, `sfence` (AT&T syntax, statements separated by lines
/// or `;`).
fn is_barrier_template(text: &str) -> bool {
    // Block comments first (they may span lines).
    let mut rest = text;
    let mut code = String::new();
    while let Some(i) = rest.find("/*") {
        code.push_str(&rest[..i]);
        code.push(' ');
        match rest[i + 2..].find("*/") {
            Some(j) => rest = &rest[i + 2 + j + 2..],
            None => return false,
        }
    }
    code.push_str(rest);
    let mut words: Vec<String> = Vec::new();
    for line in code.lines() {
        let line = line.split('#').next().unwrap_or("");
        for stmt in line.split(';') {
            let stmt = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
            if !stmt.is_empty() {
                words.push(stmt.to_ascii_lowercase());
            }
        }
    }
    let mut i = 0;
    while i < words.len() {
        match words[i].as_str() {
            "nop" | "pause" | "lfence" | "mfence" | "sfence" | "rep nop" | "rep; nop" => i += 1,
            // `rep; nop` split at its `;`: the prefix of the next `nop`.
            "rep" if words.get(i + 1).is_some_and(|w| w == "nop") => i += 2,
            _ => return false,
        }
    }
    true
}

/// What an inline asm means, if it is a barrier or a register identity: for
/// each register output in order, the call argument whose value it takes (an
/// empty list: a no-op). None for anything else.
pub(crate) fn meaning(text: &str, constraints: &str) -> Option<Vec<u32>> {
    if !is_barrier_template(text) {
        return None;
    }
    let c = parse_constraints(constraints)?;
    let mut ties = Vec::new();
    for (k, &direct) in c.outputs.iter().enumerate() {
        if !direct {
            // A memory output the template never writes keeps its contents.
            continue;
        }
        let arg = c.args.iter().position(|t| *t == Some(k))?;
        ties.push(u32::try_from(arg).ok()?);
    }
    Some(ties)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLOBBERS: &str = "~{dirflag},~{fpsr},~{flags}";

    #[test]
    fn barriers_and_pauses_are_no_ops() {
        for t in [
            "",
            "  ",
            "# a comment",
            "/* nothing */",
            "nop",
            "pause",
            "rep; nop",
            "rep;nop",
            "rep\n\tnop",
            "mfence",
            "# hide %0\n\t# and $1",
        ] {
            assert_eq!(
                meaning(t, &format!("~{{memory}},{CLOBBERS}")),
                Some(vec![]),
                "{t:?}"
            );
            assert_eq!(meaning(t, ""), Some(vec![]), "{t:?}");
        }
        // An input the template does not use (a "do not optimize away" barrier).
        assert_eq!(meaning("", "r,~{memory}"), Some(vec![]));
        assert_eq!(meaning("", "*m,~{memory}"), Some(vec![]));
    }

    #[test]
    fn outputs_tied_to_inputs_are_moves() {
        // asm volatile("# comment" : "=r"(p) : "0"(q))
        assert_eq!(
            meaning("# comment", &format!("=r,0,{CLOBBERS}")),
            Some(vec![0])
        );
        // "+r"(x): an output tied to its own input.
        assert_eq!(meaning("", "=r,0"), Some(vec![0]));
        // Two outputs, tied crosswise, after an unused input.
        assert_eq!(meaning("", "=r,=&r,r,1,0"), Some(vec![2, 1]));
        // A memory output the template never writes, and a register one.
        assert_eq!(meaning("", "=*m,=r,1"), Some(vec![1]));
    }

    #[test]
    fn anything_else_is_not_recognised() {
        // An untied output: its value is whatever the register held.
        assert_eq!(meaning("", "=r"), None);
        assert_eq!(meaning("", "=r,r"), None);
        // Real instructions.
        assert_eq!(meaning("mov $1, $0", "=r,r"), None);
        assert_eq!(meaning("rdtsc", "=A"), None);
        assert_eq!(meaning("rep movsb", "=*m,*m"), None);
        assert_eq!(meaning("rep", ""), None);
        assert_eq!(meaning("nop; ret", ""), None);
        assert_eq!(meaning("lock; incl $0", "=*m,*m"), None);
        assert_eq!(meaning("/* unterminated", ""), None);
        assert_eq!(meaning("xchg %ax, %ax # no", ""), None);
    }
}
