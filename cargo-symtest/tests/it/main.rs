//! End-to-end tests of the real `cargo-symtest` binary: one test binary, modules by concern.

mod bad_input;
mod build_targets;
mod capture;
mod corpus;
mod determinism;
mod fidelity;
mod fuzz;
mod gate;
mod hardening;
mod honest;
mod host_files;
mod ir_completeness;
mod klee_compat;
mod limits;
mod linked;
mod loading;
mod native_replay;
mod option_seeds;
mod posix;
mod project;
mod project_paths;
mod project_runs;
mod solver_layers;
mod support;
mod whole_programs;
mod why;
