//! End-to-end tests of the real `cargo-symtest` binary: one test binary, modules by concern.

mod bad_input;
mod capture;
mod corpus;
mod determinism;
mod hardening;
mod ir_completeness;
mod klee_compat;
mod limits;
mod native_replay;
mod posix;
mod project;
mod solver_layers;
mod support;
mod whole_programs;
