//! Integration tests of the loader: C fixtures are compiled with clang-19 into a
//! temporary directory and loaded (no bitcode is checked in).

mod calls;
mod common;
mod errors;
mod globals;
mod misc;
mod optimized;
mod smoke;
mod structors;
