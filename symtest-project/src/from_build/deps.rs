//! The project's libraries a library of the same build needs: a loader
//! module calls its host library's functions, `libpcreposix` calls
//! `libpcre`'s. A library's module and its native builds take them as the
//! build's own links did.
//!
//! A shared library's link names them (`libpixbufloader-bmp.so` is linked
//! with `libgdk_pixbuf-2.0.so`). A static library records no link: the
//! shared library of the same name says it (libtool makes both), else the
//! links of the build that use it do, by the project's libraries that follow
//! it on their command lines (`pcregrep: libpcreposix.a libpcre.a`), which is
//! where a linker resolves what it leaves undefined.

use crate::capture::assemble::{Manifest, Output};

fn is_library(o: &Output) -> bool {
    matches!(o.kind, "static-library" | "shared-library")
}

/// The project's libraries `lib` needs, itself left out, in link order and
/// each once: those its own link names, then (transitively) what each of
/// those needs in turn.
pub(super) fn library_dependencies<'m>(m: &'m Manifest, lib: &Output) -> Vec<&'m Output> {
    let mut out: Vec<&'m Output> = Vec::new();
    let mut todo: Vec<&'m Output> = direct(m, lib);
    todo.reverse();
    while let Some(d) = todo.pop() {
        if d.output == lib.output || out.iter().any(|o| o.output == d.output) {
            continue;
        }
        out.push(d);
        let mut next = direct(m, d);
        next.reverse();
        todo.extend(next);
    }
    out
}

/// The project's libraries `output` links (its link's inputs that are
/// libraries of the build), in order.
fn linked_by<'m>(m: &'m Manifest, output: &Output) -> Vec<&'m Output> {
    output
        .inputs
        .iter()
        .filter_map(|i| m.outputs.iter().find(|o| &o.output == i && is_library(o)))
        .collect()
}

/// Whether shared library `lib` holds the members of static library `a`
/// (a Meson library's `--whole-archive`d helper, members its linker took):
/// `a` is part of it, not a library it needs.
fn holds(lib: &Output, a: &Output) -> bool {
    a.kind == "static-library"
        && !a.objects.is_empty()
        && a.objects
            .iter()
            .all(|x| lib.from_libraries.contains(x) || lib.objects.contains(x))
}

/// What `lib` itself needs of the project's libraries: its link's, its
/// shared twin's, or what follows it on the links that use it.
fn direct<'m>(m: &'m Manifest, lib: &Output) -> Vec<&'m Output> {
    if lib.kind != "static-library" {
        return linked_by(m, lib)
            .into_iter()
            .filter(|a| !holds(lib, a))
            .collect();
    }
    let mine = stem(&lib.output);
    if let Some(twin) = m
        .outputs
        .iter()
        .find(|o| o.kind == "shared-library" && stem(&o.output) == mine)
    {
        return linked_by(m, twin)
            .into_iter()
            .filter(|o| stem(&o.output) != mine && !holds(twin, o))
            .collect();
    }
    let mut out: Vec<&'m Output> = Vec::new();
    for user in m.outputs.iter().filter(|o| o.kind != "static-library") {
        let libs = linked_by(m, user);
        let Some(at) = libs.iter().position(|o| o.output == lib.output) else {
            continue;
        };
        for o in &libs[at + 1..] {
            if stem(&o.output) != mine && !out.iter().any(|x| x.output == o.output) {
                out.push(o);
            }
        }
    }
    out
}

/// A library's name without its directory and suffix (`libxml2` of
/// `.libs/libxml2.so.2.9.14` and of `libxml2.a`).
pub(super) fn stem(p: &str) -> String {
    let name = p.rsplit('/').next().unwrap_or(p);
    let end = name
        .find(".so")
        .or_else(|| name.rfind(".a"))
        .unwrap_or(name.len());
    name[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lib(path: &str, kind: &'static str, inputs: &[&str]) -> Output {
        Output {
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            objects: inputs
                .iter()
                .filter(|s| s.ends_with(".o"))
                .map(|s| s.to_string())
                .collect(),
            ..Output::new(path.into(), kind)
        }
    }

    fn manifest(outputs: Vec<Output>) -> Manifest {
        Manifest {
            version: 1,
            root: "/r".into(),
            build: Vec::new(),
            recorded_now: 0,
            links_reused: 0,
            outputs,
            left_out: Vec::new(),
            compiles: Vec::new(),
            dropped_flags: Default::default(),
            warnings: Vec::new(),
        }
    }

    fn names(v: Vec<&Output>) -> Vec<&str> {
        v.into_iter().map(|o| o.output.as_str()).collect()
    }

    #[test]
    fn a_static_library_needs_what_follows_it_on_the_links_that_use_it() {
        let m = manifest(vec![
            lib("libposix.a", "static-library", &["posix.o"]),
            lib("libcore.a", "static-library", &["core.o"]),
            lib("libutil.a", "static-library", &["util.o"]),
            Output {
                // The members the executable took from the archives.
                from_libraries: vec!["posix.o".into(), "core.o".into()],
                ..lib("grep", "executable", &["grep.o", "libposix.a", "libcore.a"])
            },
            lib(
                "test",
                "executable",
                &["libutil.a", "libposix.a", "libcore.a"],
            ),
        ]);
        assert_eq!(
            names(library_dependencies(&m, &m.outputs[0])),
            ["libcore.a"]
        );
        assert_eq!(
            names(library_dependencies(&m, &m.outputs[2])),
            ["libposix.a", "libcore.a"]
        );
        assert!(library_dependencies(&m, &m.outputs[1]).is_empty());
    }

    #[test]
    fn a_shared_library_needs_what_its_link_names_and_what_those_need() {
        let m = manifest(vec![
            lib("libbase.so.1", "shared-library", &["base.o"]),
            lib(
                "libhost.so.1",
                "shared-library",
                &["host.o", "libbase.so.1"],
            ),
            lib("loader.so", "shared-library", &["loader.o", "libhost.so.1"]),
            // Its static twin says nothing; the shared one does.
            lib("libhost.a", "static-library", &["host.o"]),
        ]);
        assert_eq!(
            names(library_dependencies(&m, &m.outputs[2])),
            ["libhost.so.1", "libbase.so.1"]
        );
        assert_eq!(
            names(library_dependencies(&m, &m.outputs[3])),
            ["libbase.so.1"]
        );
    }

    #[test]
    fn a_helper_archive_linked_whole_into_the_library_is_not_a_dependency() {
        let helper = lib("libhelper.a", "static-library", &["helper.o"]);
        let mut shared = lib("libmain.so", "shared-library", &["main.o", "libhelper.a"]);
        shared.from_libraries = vec!["helper.o".into()];
        let m = manifest(vec![helper, shared]);
        assert!(library_dependencies(&m, &m.outputs[1]).is_empty());
    }
}
