//! The corpus of `cargo xtask bench projects --corpus`: the selection rule of
//! `tests/bench/corpus/RULE.md` (`--select` applies it and writes
//! `corpus.toml` and `walk.tsv` there), and reading the list back.

use super::content::{classify, Content};
use super::recipes;
use crate::{debsrc, paths};
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// The rule's name: the prefix of every name's key.
pub const RULE: &str = "symtest-corpus-v1";

/// Build systems, in the order the content rule tests them.
pub const STRATA: [(&str, u32); 7] = [
    ("meson", 6),
    ("cmake", 6),
    ("libtool", 6),
    ("autotools", 6),
    ("kbuild", 2),
    ("make", 6),
    ("other", 2),
];

/// The cache of classifications (named after the content rule's version).
const CLASSIFIED: &str = "classified-v2";

/// The walk's bound: fetches (failed ones included).
const MAX_FETCHES: usize = 400;
/// At most this many distinct build dependencies.
const MAX_BUILD_DEPS: usize = 20;
/// At most this many bytes of source files (the stanza's `Files`).
const MAX_SOURCE_BYTES: u64 = 10 * 1024 * 1024;
const EXCLUDED_SECTIONS: &[&str] = &[
    "kernel",
    "doc",
    "fonts",
    "localization",
    "metapackages",
    "oldlibs",
    "debian-installer",
    "perl",
    "python",
    "ruby",
    "java",
    "haskell",
    "ocaml",
    "golang",
    "rust",
    "javascript",
    "php",
    "gnu-r",
    "lisp",
    "cli-mono",
    "gnustep",
    "zope",
    "x11",
    "gnome",
    "kde",
    "xfce",
];

const TOOLCHAIN: &[&str] = &[
    "cargo",
    "rustc",
    "dh-cargo",
    "golang-go",
    "golang-any",
    "golang-*-go",
    "dh-golang",
    "gccgo",
    "gccgo-*",
    "ghc",
    "haskell-devscripts",
    "haskell-devscripts-minimal",
    "dh-ocaml",
    "ocaml",
    "ocaml-*",
    "default-jdk",
    "default-jdk-*",
    "openjdk-*",
    "javahelper",
    "maven-debian-helper",
    "maven-repo-helper",
    "gradle-debian-helper",
    "ant",
    "dh-python",
    "dh-sequence-python3",
    "pybuild-plugin-*",
    "python3-all-dev",
    "gem2deb",
    "dh-r",
    "r-base-dev",
    "dh-php",
    "php-dev",
    "pkg-php-tools",
    "nodejs",
    "dh-nodejs",
    "pkg-js-tools",
    "perl-xs-dev",
    "libmodule-build-perl",
    "fpc",
    "fp-compiler",
    "gnat",
    "gnat-*",
    "gfortran",
    "gfortran-*",
    "mono-devel",
    "mono-mcs",
    "mono-runtime",
    "cli-common-dev",
    "dh-elpa",
    "valac",
    "valac-*",
];

const GUI: &[&str] = &[
    "libx11-dev",
    "libxt-dev",
    "libxext-dev",
    "libxmu-dev",
    "libxaw7-dev",
    "libxrender-dev",
    "libxft-dev",
    "libxpm-dev",
    "libxcb*-dev",
    "libgtk*",
    "libgtkmm*",
    "qtbase5-dev",
    "qtbase5-*-dev",
    "qt6-base-dev",
    "qt6-*-dev",
    "qttools5-dev",
    "qtdeclarative5-dev",
    "libqt*",
    "*-qt5-dev",
    "*-qt6-dev",
    "*qt5*-dev",
    "libkf5*",
    "libkf6*",
    "libwxgtk*",
    "libsdl*",
    "libgl-dev",
    "libgl1-*",
    "libglu-dev",
    "libglu1-*",
    "libglew*",
    "libglfw*",
    "libgles*",
    "libglut-dev",
    "freeglut3-dev",
    "libegl*",
    "libglvnd*",
    "libwayland-dev",
    "libmotif-dev",
    "libfltk*",
    "libgnome*",
    "libxfce4*",
    "libvte*",
];

/// A name's key in the order.
pub fn key(name: &str) -> String {
    sha256_hex(format!("{RULE}:{name}").as_bytes())
}

// ---------------------------------------------------------------------------
// The index.

/// What the rule reads of a `Sources` stanza.
#[derive(Debug, Clone, Default)]
pub struct Stanza {
    pub name: String,
    pub version: String,
    pub architecture: Vec<String>,
    /// (binary, section, arch=) of `Package-List`.
    pub binaries: Vec<(String, String, String)>,
    /// Distinct names of `Build-Depends` and `Build-Depends-Arch`.
    pub build_deps: Vec<String>,
    pub source_bytes: u64,
    pub extra_source_only: bool,
}

/// Each relation's first alternative's name.
fn relation_names(field: &str) -> Vec<String> {
    field
        .split(',')
        .filter_map(|rel| {
            let first = rel.split('|').next()?.trim();
            let name = first
                .split(|c: char| c.is_whitespace() || "([<:".contains(c))
                .next()?;
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect()
}

/// The stanzas of a `Sources` file.
pub fn parse_sources(text: &str) -> Vec<Stanza> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut fields: BTreeMap<&str, String> = BTreeMap::new();
        let mut cur: Option<&str> = None;
        for line in block.lines() {
            if line.starts_with([' ', '\t']) {
                if let Some(k) = cur {
                    let v = fields.entry(k).or_default();
                    v.push('\n');
                    v.push_str(line.trim());
                }
            } else if let Some((k, v)) = line.split_once(':') {
                cur = Some(k);
                fields.insert(k, v.trim().to_string());
            }
        }
        let Some(name) = fields.get("Package") else {
            continue;
        };
        let get = |k: &str| fields.get(k).map(String::as_str).unwrap_or("");
        let mut build_deps = relation_names(get("Build-Depends"));
        build_deps.extend(relation_names(get("Build-Depends-Arch")));
        build_deps.sort();
        build_deps.dedup();
        let binaries = get("Package-List")
            .lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w.len() >= 4).then(|| {
                    let section = w[2].rsplit('/').next().unwrap_or("").to_string();
                    let arch = w
                        .iter()
                        .find_map(|x| x.strip_prefix("arch="))
                        .unwrap_or("")
                        .to_string();
                    (w[0].to_string(), section, arch)
                })
            })
            .collect();
        let source_bytes = get("Files")
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum();
        out.push(Stanza {
            name: name.clone(),
            version: get("Version").to_string(),
            architecture: get("Architecture")
                .split_whitespace()
                .map(str::to_string)
                .collect(),
            binaries,
            build_deps,
            source_bytes,
            extra_source_only: get("Extra-Source-Only") == "yes",
        });
    }
    out
}

fn version_gt(a: &str, b: &str) -> bool {
    Command::new("dpkg")
        .args(["--compare-versions", a, "gt", b])
        .status()
        .is_ok_and(|s| s.success())
}

/// The universe: one stanza per name (its highest version), without
/// `Extra-Source-Only` ones.
pub fn universe(stanzas: Vec<Stanza>) -> BTreeMap<String, Stanza> {
    let mut u: BTreeMap<String, Stanza> = BTreeMap::new();
    for s in stanzas.into_iter().filter(|s| !s.extra_source_only) {
        match u.get(&s.name) {
            Some(old) if !version_gt(&s.version, &old.version) => {}
            _ => {
                u.insert(s.name.clone(), s);
            }
        }
    }
    u
}

/// `pattern` (`*` for any characters) matches the whole of `name`.
pub fn glob(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// The metadata clause that skips `s` (clause, detail), if any.
pub fn metadata_clause(s: &Stanza, hand: &[&str]) -> Option<(&'static str, String)> {
    if hand.contains(&s.name.as_str()) {
        return Some(("hand", "a fixed member (hand recipe)".into()));
    }
    if !s
        .architecture
        .iter()
        .any(|a| matches!(a.as_str(), "any" | "linux-any" | "amd64" | "any-amd64"))
    {
        return Some(("arch", s.architecture.join(" ")));
    }
    let n = s.name.as_str();
    if n == "linux"
        || ["linux-", "firmware-", "fonts-"]
            .iter()
            .any(|p| n.starts_with(p))
        || ["-firmware", "-doc", "-data"]
            .iter()
            .any(|p| n.ends_with(p))
    {
        return Some(("name", n.to_string()));
    }
    let arch_bins: Vec<&(String, String, String)> =
        s.binaries.iter().filter(|b| b.2 != "all").collect();
    if !arch_bins.is_empty()
        && arch_bins
            .iter()
            .all(|b| EXCLUDED_SECTIONS.contains(&b.1.as_str()))
    {
        let mut secs: Vec<&str> = arch_bins.iter().map(|b| b.1.as_str()).collect();
        secs.sort();
        secs.dedup();
        return Some(("section", secs.join(" ")));
    }
    if let Some(d) = s
        .build_deps
        .iter()
        .find(|d| TOOLCHAIN.iter().any(|p| glob(p, d)))
    {
        return Some(("toolchain", d.clone()));
    }
    if let Some(d) = s.build_deps.iter().find(|d| GUI.iter().any(|p| glob(p, d))) {
        return Some(("gui", d.clone()));
    }
    if s.build_deps.len() > MAX_BUILD_DEPS {
        return Some(("build-deps", format!("{} packages", s.build_deps.len())));
    }
    if s.source_bytes > MAX_SOURCE_BYTES {
        return Some(("size", format!("{} bytes", s.source_bytes)));
    }
    None
}

// ---------------------------------------------------------------------------
// corpus.toml

/// One package of the corpus.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Member {
    pub name: String,
    pub version: String,
    pub build_system: String,
    pub c_lines: u64,
    pub rank: u64,
    /// A fixed member (built by its hand recipe).
    #[serde(default)]
    pub hand: bool,
    /// Taken from the reserve (the walk ended with quotas short).
    #[serde(default)]
    pub reserve: bool,
}

#[derive(Debug, serde::Deserialize)]
struct CorpusFile {
    package: Vec<Member>,
}

pub fn dir() -> PathBuf {
    paths::workspace_root().join("tests/bench/corpus")
}

/// The members of `tests/bench/corpus/corpus.toml`, in rank order.
pub fn members() -> Result<Vec<Member>> {
    let path = dir().join("corpus.toml");
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "reading {} (write it with `cargo xtask bench projects --select`)",
            path.display()
        )
    })?;
    let f: CorpusFile =
        toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let mut m = f.package;
    m.sort_by_key(|p| p.rank);
    Ok(m)
}

/// The classification of a fetched candidate, cached by name and version
/// (`None`: the fetch failed, with why).
fn classified(
    apt: &debsrc::Apt,
    name: &str,
    version: &str,
) -> std::result::Result<Content, String> {
    let cache = paths::cache_dir()
        .join("corpus")
        .join(CLASSIFIED)
        .join(format!("{name}_{}.json", version.replace(':', "%3a")));
    if let Some(c) = std::fs::read_to_string(&cache)
        .ok()
        .and_then(|t| serde_json::from_str::<Content>(&t).ok())
    {
        return Ok(c);
    }
    let src = debsrc::fetch_cached(Some(apt), name, version).map_err(|e| {
        let text = format!("{e:#}");
        // apt's own error (`E: Failed to fetch URL  404  Not Found`), else
        // the first line.
        let apt_error = text
            .lines()
            .find(|l| l.starts_with("E: ") && !l.contains("Failed to fetch some"));
        match apt_error {
            Some(l) => fetch_failure(l),
            None => text.lines().next().unwrap_or("").trim().to_string(),
        }
    })?;
    let c = classify(&src.tree);
    if let Some(parent) = cache.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let _ = std::fs::write(&cache, serde_json::to_string(&c).unwrap_or_default());
    Ok(c)
}

/// apt's `E: Failed to fetch URL  404  Not Found [IP: ...]` as `404 Not Found:
/// FILE` (other errors as they are).
fn fetch_failure(line: &str) -> String {
    let Some(rest) = line.strip_prefix("E: Failed to fetch ") else {
        return line.trim().to_string();
    };
    let (url, status) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let status = status.split('[').next().unwrap_or("");
    let status = status.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("{status}: {}", url.rsplit('/').next().unwrap_or(url))
}

/// Applies the rule; writes `corpus.toml` and `walk.tsv` into
/// `tests/bench/corpus/`.
pub fn select(fetch_hand: &dyn Fn(&recipes::Recipe) -> Result<PathBuf>) -> Result<()> {
    let apt = debsrc::Apt::new("corpus")?;
    let index = apt.index()?;
    let index_sha = sha256_hex(index.text.as_bytes());
    let u = universe(parse_sources(&index.text));
    eprintln!(
        "select: {} source packages in bookworm main ({} {})",
        u.len(),
        index.version,
        index.date
    );
    let mut order: Vec<(String, &Stanza)> = u.values().map(|s| (key(&s.name), s)).collect();
    order.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.name.cmp(&b.1.name)));
    let hand = recipes::all();
    let hand_names: Vec<&str> = hand.iter().map(|r| r.package).collect();
    let mut w = Walk::default();
    for (i, (_, s)) in order.iter().enumerate() {
        if w.full() || w.fetches >= MAX_FETCHES {
            break;
        }
        w.visit(&apt, i + 1, s, &hand_names)?;
    }
    let walked = w.rows.last().map_or(0, |row| row.0);
    let quota_total: u32 = STRATA.iter().map(|s| s.1).sum();
    let short = (quota_total as usize).saturating_sub(w.selected.len());
    for mut m in std::mem::take(&mut w.reserve).into_iter().take(short) {
        m.reserve = true;
        if let Some(row) = w.rows.iter_mut().find(|row| row.1 == m.name) {
            row.3 = "reserve".into();
        }
        w.selected.push(m);
    }
    // The fixed members, classified for the report.
    for r in &hand {
        let src = fetch_hand(r)?;
        let c = classify(&src);
        let rank = order
            .iter()
            .position(|(_, s)| s.name == r.package)
            .map_or(0, |p| p + 1);
        w.selected.push(Member {
            name: r.name.to_string(),
            version: r.version.to_string(),
            build_system: c.build_system,
            c_lines: c.c_lines,
            rank: rank as u64,
            hand: true,
            reserve: false,
        });
    }
    w.selected.sort_by_key(|m| m.rank);
    let header = format!(
        "index = \"bookworm main Sources, release {} of {}\"\n\
         index-sha256 = \"{index_sha}\"\nuniverse = {}\nwalked-to-rank = {walked}",
        index.version,
        index.date,
        u.len()
    );
    let toml = corpus_toml(&header, &w);
    let out = dir();
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("corpus.toml"), &toml)?;
    let mut tsv = String::from("rank\tpackage\tversion\tverdict\tdetail\n");
    for (rank, name, version, verdict, detail) in &w.rows {
        let _ = writeln!(tsv, "{rank}\t{name}\t{version}\t{verdict}\t{detail}");
    }
    std::fs::write(out.join("walk.tsv"), tsv)?;
    apt.finish();
    let (selected, fetches) = (&w.selected, w.fetches);
    eprintln!(
        "select: {} packages ({} sampled, {} fixed) after {fetches} fetches up to rank {walked}; \
         wrote {} and walk.tsv",
        selected.len(),
        selected.iter().filter(|m| !m.hand).count(),
        selected.iter().filter(|m| m.hand).count(),
        out.join("corpus.toml").display()
    );
    if selected.iter().filter(|m| !m.hand).count() < quota_total as usize {
        eprintln!(
            "select: warning: the walk ended with {} of {quota_total} sampled packages",
            selected.iter().filter(|m| !m.hand).count()
        );
    }
    Ok(())
}

/// The selection's walk over the candidates in the rule's order.
#[derive(Default)]
struct Walk {
    /// The members taken, per stratum up to its quota (then the reserve
    /// and the fixed members).
    selected: Vec<Member>,
    /// The members past their stratum's quota, in walk order.
    reserve: Vec<Member>,
    /// (rank, name, version, verdict, detail) of each package walked.
    rows: Vec<(usize, String, String, String, String)>,
    /// How many packages each metadata clause skipped.
    metadata_skips: BTreeMap<&'static str, usize>,
    /// Members taken per stratum.
    taken: BTreeMap<&'static str, u32>,
    /// Packages fetched.
    fetches: usize,
}

impl Walk {
    /// Whether every stratum has its quota.
    fn full(&self) -> bool {
        STRATA
            .iter()
            .all(|(s, q)| self.taken.get(s).copied().unwrap_or(0) >= *q)
    }

    /// Decides candidate `s` at `rank`: by its metadata, else fetched and
    /// classified, taken into its stratum or the reserve.
    fn visit(&mut self, apt: &debsrc::Apt, rank: usize, s: &Stanza, hand: &[&str]) -> Result<()> {
        let row = |verdict: &str, detail: String| {
            (
                rank,
                s.name.clone(),
                s.version.clone(),
                verdict.to_string(),
                detail,
            )
        };
        if let Some((clause, detail)) = metadata_clause(s, hand) {
            *self.metadata_skips.entry(clause).or_default() += 1;
            self.rows.push(row(clause, detail));
            return Ok(());
        }
        self.fetches += 1;
        let fetches = self.fetches;
        eprintln!("select: [{fetches}] rank {rank}: {} {}", s.name, s.version);
        let c = match classified(apt, &s.name, &s.version) {
            Ok(c) => c,
            Err(why) => {
                self.rows.push(row("download", why));
                return Ok(());
            }
        };
        let desc = format!(
            "{}, {} C lines ({:.0}% of code), {} .c files",
            c.build_system,
            c.c_lines,
            c.share(),
            c.c_files
        );
        let member = Member {
            name: s.name.clone(),
            version: s.version.clone(),
            build_system: c.build_system.clone(),
            c_lines: c.c_lines,
            rank: rank as u64,
            hand: false,
            reserve: false,
        };
        let verdict = match c.clause() {
            Some((clause, _)) => clause,
            None => self.take(&c, member)?,
        };
        if verdict != "selected" && verdict != "quota-full" {
            // Not kept: only the classification is cached.
            let d = debsrc::cached_dir(&s.name, &s.version);
            std::fs::remove_dir_all(d).ok();
        }
        self.rows.push(row(verdict, desc));
        Ok(())
    }

    /// Takes `member` (classified `c`) into its stratum, or into the
    /// reserve when the stratum has its quota; the verdict.
    fn take(&mut self, c: &Content, member: Member) -> Result<&'static str> {
        let (stratum, quota) = STRATA
            .iter()
            .find(|(s, _)| *s == c.build_system)
            .copied()
            .context("a build system outside the strata")?;
        let n = self.taken.entry(stratum).or_default();
        Ok(if *n >= quota {
            self.reserve.push(member);
            "quota-full"
        } else {
            *n += 1;
            self.selected.push(member);
            "selected"
        })
    }
}

/// `corpus.toml`: the rule, the index lines of `header`, the walk's
/// figures and the selected members.
fn corpus_toml(header: &str, w: &Walk) -> String {
    let mut toml = String::new();
    let _ = writeln!(
        toml,
        "# The corpus of `cargo xtask bench projects --corpus`, written by\n\
         # `cargo xtask bench projects --select` by the rule of RULE.md. Do not edit:\n\
         # run the selection again. Every package the walk passed, with the clause\n\
         # that decided it, is in walk.tsv.\n"
    );
    let _ = writeln!(toml, "rule = \"{RULE}\"");
    let _ = writeln!(toml, "{header}");
    let _ = writeln!(toml, "fetches = {}", w.fetches);
    let _ = writeln!(
        toml,
        "quotas = {{ {} }}",
        STRATA
            .iter()
            .map(|(s, q)| format!("{s} = {q}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        toml,
        "selected = {{ {} }}",
        STRATA
            .iter()
            .map(|(s, _)| format!(
                "{s} = {}",
                w.selected
                    .iter()
                    .filter(|m| !m.hand && m.build_system == *s)
                    .count()
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        toml,
        "metadata-skips = {{ {} }}",
        w.metadata_skips
            .iter()
            .map(|(c, n)| format!("{} = {n}", toml_key(c)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for m in &w.selected {
        let _ = writeln!(
            toml,
            "\n[[package]]\nname = \"{}\"\nversion = \"{}\"\nbuild-system = \"{}\"\n\
             c-lines = {}\nrank = {}{}{}",
            m.name,
            m.version,
            m.build_system,
            m.c_lines,
            m.rank,
            if m.hand { "\nhand = true" } else { "" },
            if m.reserve { "\nreserve = true" } else { "" },
        );
    }
    toml
}

fn toml_key(k: &str) -> String {
    if k.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        format!("\"{k}\"")
    }
}

/// The SHA-256 of `data` as 64 lowercase hexadecimal digits.
fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fetch_failures_name_the_file() {
        assert_eq!(
            fetch_failure(
                "E: Failed to fetch http://example.org/pool/main/s/x/x_1.0.orig.tar.gz  404  \
                 Not Found [IP: 192.0.2.1 80]"
            ),
            "404 Not Found: x_1.0.orig.tar.gz"
        );
        assert_eq!(fetch_failure("E: other"), "E: other");
    }

    #[test]
    fn globs_match_whole_names() {
        assert!(glob("libsdl*", "libsdl2-dev"));
        assert!(glob("*-qt5-dev", "libfoo-qt5-dev"));
        assert!(glob("golang-*-go", "golang-1.19-go"));
        assert!(!glob("golang-*-go", "golang-github-x-dev"));
        assert!(!glob("libglu1-*", "libglusterfs-dev"));
        assert!(glob("ant", "ant"));
        assert!(!glob("ant", "antlr"));
    }

    const STANZA: &str = "Package: zlib\n\
Binary: zlib1g, zlib1g-dev\n\
Version: 1:1.2.13.dfsg-1\n\
Build-Depends: debhelper (>= 13), gcc-multilib [amd64 i386] <!nobiarch>, dpkg-dev (>= 1.16.1) | foo\n\
Architecture: any\n\
Files:\n 53a25f41af7ba47a2c12fdc7c941cb84 2399 zlib_1.2.13.dfsg-1.dsc\n \
ef268c6fda8701834db2d8322b0ccf4e 1239825 zlib_1.2.13.dfsg.orig.tar.bz2\n\
Package-List: \n zlib1g deb libs required arch=any\n zlib1g-udeb udeb debian-installer optional arch=any\n\
\n\
Package: perlthing\n\
Version: 1.0-1\n\
Build-Depends: debhelper-compat (= 13), perl-xs-dev\n\
Architecture: any\n\
Package-List:\n libperlthing-perl deb perl optional arch=any\n";

    #[test]
    fn reads_stanzas_and_applies_metadata_clauses() {
        let s = parse_sources(STANZA);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].name, "zlib");
        assert_eq!(s[0].version, "1:1.2.13.dfsg-1");
        assert_eq!(s[0].build_deps, ["debhelper", "dpkg-dev", "gcc-multilib"]);
        assert_eq!(s[0].source_bytes, 2399 + 1239825);
        assert_eq!(s[0].binaries.len(), 2);
        assert_eq!(s[0].binaries[1].1, "debian-installer");
        assert_eq!(metadata_clause(&s[0], &[]), None);
        assert_eq!(metadata_clause(&s[0], &["zlib"]).unwrap().0, "hand");
        assert_eq!(metadata_clause(&s[1], &[]).unwrap().0, "section");
        let mut t = s[0].clone();
        t.build_deps.push("cargo".into());
        assert_eq!(metadata_clause(&t, &[]).unwrap().0, "toolchain");
        t.build_deps.pop();
        t.build_deps.push("libgtk-3-dev".into());
        assert_eq!(metadata_clause(&t, &[]).unwrap().0, "gui");
        t.build_deps = (0..21).map(|i| format!("lib{i}-dev")).collect();
        assert_eq!(metadata_clause(&t, &[]).unwrap().0, "build-deps");
        t.build_deps.clear();
        t.source_bytes = MAX_SOURCE_BYTES + 1;
        assert_eq!(metadata_clause(&t, &[]).unwrap().0, "size");
        t.architecture = vec!["all".into()];
        assert_eq!(metadata_clause(&t, &[]).unwrap().0, "arch");
    }
}
