//! What `cargo symtest init --from-build` wrote for a package: the capture's
//! manifest, the programs and libraries its `symtest.toml` lists and what it
//! left out, checked against the recipe; and the harness targets a recipe adds.

use super::recipes::Recipe;
use crate::paths;
use anyhow::{bail, Context, Result};
use std::path::Path;

/// The capture `init` made (the one directory under the build root's
/// `capture/`).
pub(super) fn manifest(tree: &Path) -> Result<serde_json::Value> {
    let dir = tree.join("symtest-out/.build/capture");
    let capture = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                && p.join("manifest.json").is_file()
        })
        .with_context(|| format!("no capture under {}", dir.display()))?;
    Ok(serde_json::from_str(&std::fs::read_to_string(
        capture.join("manifest.json"),
    )?)?)
}

/// (programs as (name, binary), libraries, left out, rule) from the
/// `symtest.toml` `init` wrote.
pub(super) type Listed = (
    Vec<(String, String)>,
    Vec<String>,
    Vec<(String, String)>,
    String,
);

pub(super) fn listed(config: &str) -> Result<Listed> {
    let doc: toml::Value = toml::from_str(config).context("parsing the symtest.toml init wrote")?;
    let programs = doc
        .get("target")
        .and_then(|t| t.as_array())
        .map(|ts| {
            ts.iter()
                .filter_map(|t| {
                    Some((
                        t.get("name")?.as_str()?.to_string(),
                        t.get("binary")?.as_str()?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    // Those proposed in comments (a harness to write) and the library
    // targets listed.
    let mut libraries: Vec<String> = config
        .lines()
        .filter_map(|l| l.strip_prefix("# library = "))
        .map(|l| l.trim_matches('"').to_string())
        .collect();
    for (_, l) in library_targets(config)? {
        if !libraries.contains(&l) {
            libraries.push(l);
        }
    }
    let mut left_out = Vec::new();
    let mut in_left = false;
    for l in config.lines() {
        if l == "# Left out:" {
            in_left = true;
            continue;
        }
        if in_left {
            match l.strip_prefix("#   ").and_then(|x| x.split_once(": ")) {
                Some((o, why)) => left_out.push((o.to_string(), why.to_string())),
                None => in_left = false,
            }
        }
    }
    let rule = config
        .lines()
        .find_map(|l| l.strip_prefix("# Programs: "))
        .unwrap_or("")
        .to_string();
    Ok((programs, libraries, left_out, rule))
}

/// The library targets (`kind = "library"`) of the config: (name, library).
pub(super) fn library_targets(config: &str) -> Result<Vec<(String, String)>> {
    let doc: toml::Value = toml::from_str(config).context("parsing the symtest.toml init wrote")?;
    Ok(doc
        .get("target")
        .and_then(|t| t.as_array())
        .map(|ts| {
            ts.iter()
                .filter(|t| t.get("kind").and_then(|k| k.as_str()) == Some("library"))
                .filter_map(|t| {
                    Some((
                        t.get("name")?.as_str()?.to_string(),
                        t.get("library")?.as_str()?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default())
}

/// Fails if `init` listed a program it must not have: a build-time helper,
/// test or example of the recipe, a probe (`/dev/null`, a temporary file),
/// or a file outside the tree.
pub(super) fn check_listing(
    r: &Recipe,
    programs: &[(String, String)],
    left: &[(String, String)],
) -> Result<()> {
    for (name, binary) in programs {
        if r.not_programs.contains(&binary.as_str())
            || binary.starts_with('/')
            || binary.contains("..")
        {
            bail!(
                "{}: init --from-build listed `{name}` (binary = {binary}), which is not a \
                 program of the project",
                r.name
            );
        }
    }
    for helper in r.not_programs {
        if !left.iter().any(|(o, _)| o == helper) {
            bail!(
                "{}: init --from-build did not name `{helper}` among what it left out \
                 (left out: {left:?})",
                r.name
            );
        }
    }
    Ok(())
}

/// The harness targets of the recipe, appended to the config (their sources
/// copied into the tree's `symtest/`).
pub(super) fn add_harnesses(r: &Recipe, tree: &Path, build: &[String]) -> Result<String> {
    let src_dir = paths::workspace_root().join("tests/bench/projects");
    let mut s = String::new();
    let toml_list = |v: &[String]| -> String {
        format!(
            "[{}]",
            v.iter()
                .map(|w| serde_json::to_string(w).unwrap_or_default())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    for h in r.harnesses {
        std::fs::create_dir_all(tree.join("symtest"))?;
        std::fs::copy(src_dir.join(h.source), tree.join("symtest").join(h.source))
            .with_context(|| format!("copying {}", h.source))?;
        s.push_str(&format!(
            "\n# Added by cargo xtask bench projects: a harness of tests/bench/projects/.\n\
             [[target]]\nname = \"{}\"\nkind = \"harness\"\nbuild = {}\nlibrary = \"{}\"\n\
             sources = [\"symtest/{}\"]\ninclude = {}\nmax-time = 60\n",
            h.name,
            toml_list(build),
            h.library,
            h.source,
            toml_list(&h.include.iter().map(|i| i.to_string()).collect::<Vec<_>>())
        ));
    }
    Ok(s)
}
