//! What the native builds of a project's code link beyond its objects.
//!
//! A library that versions its symbols (`__attribute__((symver("scale@@V_2")))`
//! on `scale_v2`, a version script), as libnuma does: GCC's object defines the
//! public name `scale` only as a default version, which clang-19 ignores. The
//! module and the native builds still give `scale` to the code that calls it.
//!
//! A shared library linked without the system library it calls (readline's
//! shared link names no `-ltinfo`): its pkg-config file says it needs it.

use crate::support::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const SCALE_H: &str = "/* Version 2 of scale takes a divisor. */\nint scale(int x, int k);\n";

const LIB_C: &str = r#"#include "scale.h"

/* Version 1, for programs linked before version 2: doubles. */
__attribute__((symver("scale@V_1"))) int scale_v1(int x) { return x * 2; }

/* Version 2, the default: x / k, -1 for k == 0 (but not INT_MIN / -1). */
__attribute__((symver("scale@@V_2"))) int scale_v2(int x, int k) {
  if (k == 0)
    return -1;
  return x / k;
}
"#;

const MAIN_C: &str = r#"#include <stdio.h>
#include "scale.h"

int main(void) {
  int v[2];
  if (fread(v, sizeof v, 1, stdin) != 1)
    return 2;
  printf("%d\n", scale(v[0], v[1]));
  return 0;
}
"#;

const MAKEFILE: &str = "all: prog\n\
lib.o: lib.c scale.h\n\t$(CC) -O2 -fPIC -c lib.c -o $@\n\
libscale.so: lib.o vers.map\n\t$(CC) -shared -Wl,--version-script=vers.map -o $@ lib.o\n\
main.o: main.c scale.h\n\t$(CC) -O2 -c main.c -o $@\n\
prog: main.o libscale.so\n\t$(CC) -o $@ main.o -L. -Wl,-rpath,'$$ORIGIN' -lscale\n\
install: prog libscale.so\n\
\tinstall -D -m 755 prog $(DESTDIR)/usr/bin/prog\n\
\tinstall -D -m 644 libscale.so $(DESTDIR)/usr/lib/libscale.so\n\
\tinstall -D -m 644 scale.h $(DESTDIR)/usr/include/scale.h\n";

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

/// `init --from-build` makes a program and a library target of the build;
/// the capture records `lib.o`'s default version; both targets find the
/// division overflow in `scale_v2` through `scale` and confirm it natively
/// (no target fails to build natively, no disagreement), and both emitted
/// suites build and pass without their bug tests.
#[test]
fn a_default_symbol_version_is_defined_for_its_callers() {
    let dir = scratch("symbol-versions");
    for (name, text) in [
        ("scale.h", SCALE_H),
        ("lib.c", LIB_C),
        ("main.c", MAIN_C),
        ("Makefile", MAKEFILE),
        (
            "vers.map",
            "V_1 { global: scale; local: *; };\nV_2 { global: scale; } V_1;\n",
        ),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let config = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(
        config.contains("binary = \"prog\"") && config.contains("library = \"libscale.so\""),
        "{config}"
    );
    // The program reads two numbers from its standard input.
    let config: String = config
        .lines()
        .map(|l| {
            if l.starts_with("args = ") {
                "args = [\"--sym-stdin\", \"8\"]\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(dir.join("symtest.toml"), config).unwrap();
    let o = symtest_in(&dir, &["--max-time", "20"]);
    assert!(o.status.success(), "{}", shown(&o));
    let capture = std::fs::read_dir(dir.join("symtest-out/.build/capture"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let m = read_json(&capture.join("manifest.json"));
    let lib = m["compiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["object"] == "lib.o")
        .unwrap_or_else(|| panic!("{m:#}"));
    assert_eq!(
        lib["versions"],
        serde_json::json!([{"name": "scale", "target": "scale_v2"}]),
        "{lib:#}"
    );
    let all = read_json(&dir.join("symtest-out/summary.json"));
    for name in ["prog", "scale"] {
        let r = all["targets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{all:#}"));
        assert_eq!(r["status"], "ok", "{r:#}");
        assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
        assert_eq!(r["unconfirmed"], serde_json::json!([]), "{r:#}");
        assert!(
            r["bugs"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| b["kind"] == "overflow"
                    && b["function"] == "scale_v2"
                    && b["file"] == "lib.c"
                    && b["line"] == 10),
            "{r:#}"
        );
        let o = Command::new("make")
            .arg("test-no-bugs")
            .current_dir(dir.join("tests/symtest").join(name))
            .output()
            .unwrap();
        assert!(o.status.success(), "{name}: {}", shown(&o));
    }
}

const CUBE_C: &str = r#"#include <math.h>
#include "cube.h"

int cube_side(int volume) {
  if (volume < 0)
    return -1;
  int side = (int)cbrt((double)volume);
  /* cbrt may round up past the exact root. */
  while (side > 0 && side * side * side > volume)
    side--;
  return side;
}
"#;

const CUBE_PC: &str = "prefix=/usr\nlibdir=${prefix}/lib\nincludedir=${prefix}/include\n\n\
Name: cube\nDescription: sides of cubes\nVersion: 1.0\n\
Libs: -L${libdir} -lcube\nLibs.private: -lm\nCflags: -I${includedir}\n";

const CUBE_MAKEFILE: &str = "all: libcube.so\n\
cube.o: cube.c cube.h\n\t$(CC) -O2 -fPIC -c cube.c -o $@\n\
libcube.so: cube.o\n\t$(CC) -shared -o $@ cube.o\n\
install: libcube.so\n\
\tinstall -D -m 644 libcube.so $(DESTDIR)/usr/lib/libcube.so\n\
\tinstall -D -m 644 cube.h $(DESTDIR)/usr/include/cube.h\n\
\tinstall -D -m 644 cube.pc $(DESTDIR)/usr/lib/pkgconfig/cube.pc\n";

/// The library target of a shared library linked without `-lm` (which its
/// `cbrt` needs, at `-O0`, from glibc's libm) builds natively all the same:
/// its `cube.pc` names `-lm`, which the suite links; the target is `ok`, its
/// tests replay with no disagreement and the suite passes.
#[test]
fn a_library_target_links_what_its_pkg_config_file_names() {
    let dir = scratch("library-pkg-config");
    for (name, text) in [
        (
            "cube.h",
            "/* The side of a cube of `volume` units, rounded down; -1 for a negative volume. */\n\
             int cube_side(int volume);\n",
        ),
        ("cube.c", CUBE_C),
        ("cube.pc", CUBE_PC),
        ("Makefile", CUBE_MAKEFILE),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let o = symtest_in(&dir, &["init", "--from-build", "--", "make"]);
    assert!(o.status.success(), "{}", shown(&o));
    let config = std::fs::read_to_string(dir.join("symtest.toml")).unwrap();
    assert!(config.contains("library = \"libcube.so\""), "{config}");
    let o = symtest_in(&dir, &["--max-time", "15"]);
    assert!(o.status.success(), "{}", shown(&o));
    let all = read_json(&dir.join("symtest-out/summary.json"));
    let r = &all["targets"][0];
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["native_disagreements"], serde_json::json!([]), "{r:#}");
    assert_eq!(r["unconfirmed"], serde_json::json!([]), "{r:#}");
    let suite = dir.join("tests/symtest/cube");
    let makefile = std::fs::read_to_string(suite.join("Makefile")).unwrap();
    assert!(
        makefile
            .lines()
            .any(|l| l.starts_with("CODE_LINK := ") && l.ends_with(" -lm")),
        "{makefile}"
    );
    let o = Command::new("make")
        .arg("test")
        .current_dir(&suite)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", shown(&o));
}
