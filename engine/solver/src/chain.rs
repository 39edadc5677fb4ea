//! The solver optimization chain: which layers are on ([`LayerSet`]) and
//! how they are stacked ([`build_chain`]).
//!
//! Order, outermost first: independence → bounds → cex → cache → domain →
//! linear → backend.
//!
//! * The bounds layer ([`crate::BoundsSolver`]) right below independence: it
//!   decides the groups that only bound one value (loop counters against a
//!   symbolic bound) exactly, in microseconds, and passes everything else
//!   on untouched. Measured on a loop `for (i = 1; i <= n; i++)` with `n`
//!   symbolic (`--max-time 20`, release): see ARCHITECTURE.md.
//!
//! * Independence first, so the caches see the small independent groups:
//!   a group untouched by a new branch condition recurs exactly, and a
//!   small set has many more cached subsets and supersets than a whole
//!   path condition (the paper's Table 1: the two together remove far
//!   more queries than either alone).
//! * The counter-example cache above the query-result cache: it answers
//!   everything the result cache would (an exact hit) and more (subsets,
//!   supersets, checked guesses), so the result cache below it only
//!   answers repeats of sets the bounded cex cache has evicted.
//!
//! Independence alone multiplies the (cheap) backend queries, one per
//! group; it pays with a cache below it, which answers most groups again.
//! The counter-example cache answers what the result cache would and more,
//! so the result cache below it answers little, and above it (either
//! place) the same queries at the same cost: the order of the caches
//! matters less than having both independence and a cache. The chain's
//! own work per query is small beside one backend query. (How the layers
//! change the number and time of the backend's queries on real
//! explorations: `cargo xtask bench solver`.)
//!
//! Every layer may be left out without changing any answer (Sat/Unsat),
//! only speed and which model a satisfiable query gets (property-tested
//! over all sixty-four combinations).

use crate::{
    BoundsSolver, CachingSolver, CexCachingSolver, DomainSolver, IndependentSolver, LinearSolver,
    Solver,
};
use std::fmt;
use std::str::FromStr;

/// Which optimization layers are enabled. `independence`, `bounds`, `cex`
/// and `cache` are solver layers ([`build_chain`]); `rewrite`, `simplify` and
/// `ivc` (implied value concretization) are carried for the expression
/// and executor sides so one list configures all of them; `cex` also
/// switches the executor's reuse of each state's last model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LayerSet {
    /// Expression rewriting in the pool's builders.
    pub rewrite: bool,
    /// Constraint-set simplification with equalities.
    pub simplify: bool,
    /// Implied value concretization.
    pub ivc: bool,
    /// Constraint independence ([`IndependentSolver`]).
    pub independence: bool,
    /// Counter-example cache ([`CexCachingSolver`]).
    pub cex: bool,
    /// Query-result cache ([`CachingSolver`]).
    pub cache: bool,
    /// Exact interval reasoning on one bounded value ([`crate::BoundsSolver`]).
    pub bounds: bool,
    /// Search over the values of a few input bytes ([`crate::DomainSolver`]).
    pub domain: bool,
    /// Gaussian elimination of queries affine over GF(2) ([`crate::LinearSolver`]).
    pub linear: bool,
}

/// A layer list that [`LayerSet::parse`] rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerSetError {
    /// The offending item.
    pub item: String,
}

impl fmt::Display for LayerSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown solver optimization `{}`; valid: {}, all, none (comma-separated; \
             `-name` removes one, e.g. `all,-cex`)",
            self.item,
            LayerSet::NAMES.join(", ")
        )
    }
}

impl std::error::Error for LayerSetError {}

impl LayerSet {
    /// Layer names in the order [`LayerSet::parse`] and `Display` use.
    pub const NAMES: [&'static str; 9] = [
        "rewrite",
        "simplify",
        "ivc",
        "independence",
        "bounds",
        "cex",
        "cache",
        "domain",
        "linear",
    ];

    /// Every layer on.
    pub const fn all() -> LayerSet {
        LayerSet {
            rewrite: true,
            simplify: true,
            ivc: true,
            independence: true,
            cex: true,
            cache: true,
            bounds: true,
            domain: true,
            linear: true,
        }
    }

    /// Every layer off.
    pub const fn none() -> LayerSet {
        LayerSet {
            rewrite: false,
            simplify: false,
            ivc: false,
            independence: false,
            cex: false,
            cache: false,
            bounds: false,
            domain: false,
            linear: false,
        }
    }

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "rewrite" => &mut self.rewrite,
            "simplify" => &mut self.simplify,
            "ivc" => &mut self.ivc,
            "independence" => &mut self.independence,
            "cex" => &mut self.cex,
            "cache" => &mut self.cache,
            "bounds" => &mut self.bounds,
            "domain" => &mut self.domain,
            "linear" => &mut self.linear,
            _ => return None,
        })
    }

    /// Whether the layer called `name` (one of [`LayerSet::NAMES`]) is on.
    pub fn get(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        copy.flag(name).map(|b| *b)
    }

    /// Parses a comma-separated list, left to right from "nothing on":
    /// `all` turns every layer on, `none` every layer off, a name turns
    /// that layer on and `-name` turns it off (`"independence,cex,cache"`,
    /// `"none"`, `"all"`, `"all,-cex"`). Items are trimmed; case matters.
    /// An empty list or unknown name is an error listing the valid names.
    pub fn parse(s: &str) -> Result<LayerSet, LayerSetError> {
        let mut set = LayerSet::none();
        let mut any = false;
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            any = true;
            match item {
                "all" => set = LayerSet::all(),
                "none" => set = LayerSet::none(),
                _ => {
                    let (name, on) = match item.strip_prefix('-') {
                        Some(n) => (n, false),
                        None => (item, true),
                    };
                    match set.flag(name) {
                        Some(f) => *f = on,
                        None => {
                            return Err(LayerSetError {
                                item: item.to_string(),
                            })
                        }
                    }
                }
            }
        }
        if !any {
            return Err(LayerSetError {
                item: s.to_string(),
            });
        }
        Ok(set)
    }
}

impl Default for LayerSet {
    /// Every layer on.
    fn default() -> Self {
        LayerSet::all()
    }
}

impl FromStr for LayerSet {
    type Err = LayerSetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        LayerSet::parse(s)
    }
}

impl fmt::Display for LayerSet {
    /// The enabled names, comma-separated, or `none`; parses back to the
    /// same set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on: Vec<&str> = LayerSet::NAMES
            .iter()
            .copied()
            .filter(|n| self.get(n) == Some(true))
            .collect();
        if on.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&on.join(","))
        }
    }
}

/// Stacks the enabled solver layers of `layers` on `backend`:
/// independence → bounds → cex → cache → domain → linear → `backend` (outermost
/// first). With no solver layer enabled this is `backend` itself.
pub fn build_chain(layers: &LayerSet, backend: Box<dyn Solver>) -> Box<dyn Solver> {
    let mut s = backend;
    if layers.linear {
        s = Box::new(LinearSolver::new(s));
    }
    if layers.domain {
        s = Box::new(DomainSolver::new(s));
    }
    if layers.cache {
        s = Box::new(CachingSolver::new(s));
    }
    if layers.cex {
        s = Box::new(CexCachingSolver::new(s));
    }
    if layers.bounds {
        s = Box::new(BoundsSolver::new(s));
    }
    if layers.independence {
        s = Box::new(IndependentSolver::new(s));
    }
    s
}
