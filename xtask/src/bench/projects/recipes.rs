//! The eight Debian source packages of `cargo xtask bench projects` and how
//! each is built: configured as its `debian/rules` does (or, where Debian's
//! packaging is not on the mirror, as the project's README says), built with
//! its own build, unmodified.

/// A harness target the benchmark adds for a library `init` lists.
pub struct Harness {
    /// The target's name.
    pub name: &'static str,
    /// What `library` names (relative to the tree: an archive, a `.la`, a
    /// shared library).
    pub library: &'static str,
    /// The harness, in `tests/bench/projects/`.
    pub source: &'static str,
    /// Include directories (relative to the tree).
    pub include: &'static [&'static str],
}

pub struct Recipe<'a> {
    pub name: &'a str,
    /// The Debian source package and version (bookworm).
    pub package: &'a str,
    pub version: &'a str,
    /// The directory `apt-get source` unpacks, and a file that proves it.
    pub unpacked: &'a str,
    pub marker: &'a str,
    /// Debian's packaging of this version is not on the mirror (its
    /// `.debian.tar.xz` answers 404): the upstream tarball alone
    /// (`apt-get source --tar-only`), built as its README says.
    pub upstream_only: bool,
    /// Where the configuration comes from.
    pub how: &'a str,
    /// `DEB_BUILD_MAINT_OPTIONS` of its rules: CFLAGS, CPPFLAGS and LDFLAGS
    /// are `dpkg-buildflags`'s under it, in the environment of every step.
    pub maint_options: &'a str,
    /// Shell commands that configure the tree before the build (`{tree}` is
    /// the tree's absolute path).
    pub prepare: &'a str,
    /// The build command `init --from-build` captures (`{tree}` as above).
    pub build: &'a [&'a str],
    pub harnesses: &'a [Harness],
    /// Outputs the build makes that are not programs for its users
    /// (generators it runs, tests, examples): `init` must leave them out.
    pub not_programs: &'a [&'a str],
}

const SQLITE_CFLAGS: &str = "-O2 -fno-strict-aliasing -DSQLITE_SECURE_DELETE \
    -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS \
    -DSQLITE_ENABLE_RTREE=1 -DSQLITE_SOUNDEX=1 -DSQLITE_ENABLE_UNLOCK_NOTIFY \
    -DSQLITE_OMIT_LOOKASIDE=1 -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ALLOW_ROWID_IN_VIEW \
    -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT=1 -DSQLITE_ENABLE_LOAD_EXTENSION -DSQLITE_ENABLE_JSON1 \
    -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_FTS3_TOKENIZER=1 \
    -DSQLITE_USE_URI=1 -DSQLITE_MAX_SCHEMA_RETRY=25 -DSQLITE_ENABLE_PREUPDATE_HOOK \
    -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_STMTVTAB -DSQLITE_MAX_VARIABLE_NUMBER=250000";

pub fn all() -> Vec<Recipe<'static>> {
    vec![
        toybox(),
        lua5_4(),
        jq(),
        sqlite3(),
        zlib(),
        gawk(),
        cjson(),
        libyaml(),
    ]
}

/// How toybox is built.
fn toybox() -> Recipe<'static> {
    Recipe {
        name: "toybox",
        package: "toybox",
        version: "0.8.9+dfsg-1",
        unpacked: "toybox-0.8.9",
        marker: "scripts/make.sh",
        upstream_only: true,
        how: "its own shell-script build as the README says: `make defconfig`, `make` \
              (Debian's packaging of 0.8.9+dfsg-1 is not on the mirror)",
        maint_options: "",
        prepare: "make defconfig",
        build: &["make"],
        harnesses: &[],
        not_programs: &[
            "generated/unstripped/mkflags",
            "generated/unstripped/mktags",
            "generated/unstripped/config2help",
        ],
    }
}

/// How lua5.4 is built.
fn lua5_4() -> Recipe<'static> {
    Recipe {
        name: "lua5.4",
        package: "lua5.4",
        version: "5.4.4-3+deb12u1",
        unpacked: "lua5.4-5.4.4",
        marker: "src/lua.c",
        upstream_only: false,
        how: "debian/rules: its libtool built by autoreconf in debian/libtool, then \
              `make linux-readline LIBTOOL=... CC='x86_64-linux-gnu-gcc -std=gnu99'`",
        maint_options: "",
        prepare: "mkdir -p debian/libtool && cp debian/configure.ac debian/libtool/ && \
                  (cd debian/libtool && LIBTOOLIZE='libtoolize -i' autoreconf -f -i && ./configure) && \
                  printf '#ifndef _LUA_DEB_MULTIARCH_\\n#define _LUA_DEB_MULTIARCH_\\n\
                  #define DEB_HOST_MULTIARCH \"x86_64-linux-gnu\"\\n#endif\\n' \
                  > src/lua5.4-deb-multiarch.h",
        build: &[
            "make",
            "linux-readline",
            "LIBTOOL={tree}/debian/libtool/libtool",
            "CC=x86_64-linux-gnu-gcc -std=gnu99",
            "CXX=x86_64-linux-gnu-g++",
            "DEB_HOST_MULTIARCH=x86_64-linux-gnu",
        ],
        harnesses: &[Harness {
            name: "lua-load",
            library: "src/liblua5.4.la",
            source: "lua_harness.c",
            include: &["src"],
        }],
        not_programs: &[],
    }
}

/// How jq is built.
fn jq() -> Recipe<'static> {
    Recipe {
        name: "jq",
        package: "jq",
        version: "1.6-2.1+deb12u2",
        unpacked: "jq-1.6",
        marker: "src/main.c",
        upstream_only: false,
        how: "debian/rules: dh_autoreconf, `./configure --disable-static` (with oniguruma), make",
        maint_options: "hardening=+all",
        prepare: "autoreconf -fi && ./configure --prefix=/usr --disable-static",
        build: &["make", "-j2"],
        harnesses: &[Harness {
            name: "jq-parse",
            library: "libjq.la",
            source: "jq_harness.c",
            include: &["src"],
        }],
        not_programs: &[],
    }
}

/// How sqlite3 is built.
fn sqlite3() -> Recipe<'static> {
    Recipe {
        name: "sqlite3",
        package: "sqlite3",
        version: "3.40.1-2+deb12u2",
        unpacked: "sqlite3-3.40.1",
        marker: "src/shell.c.in",
        upstream_only: false,
        how: "debian/rules: its CFLAGS, dh_autoreconf and `./configure --enable-threadsafe \
              --enable-load-extension --enable-json --enable-fts4 --enable-fts5 \
              --disable-amalgamation --with-tcl`, make",
        maint_options: "hardening=+all future=+lfs",
        prepare: "export CFLAGS=\"$CFLAGS $SQLITE_CFLAGS\" LDFLAGS=\"$LDFLAGS -Wl,--as-needed\" && \
                  autoreconf -fi && ./configure --prefix=/usr --mandir=/usr/share/man --build x86_64-linux-gnu \
                  --with-tcl=/usr/lib/x86_64-linux-gnu/tcl8.6 --enable-threadsafe \
                  --enable-load-extension --enable-json --enable-fts4 --enable-fts5 \
                  --disable-amalgamation --libdir=/usr/lib/x86_64-linux-gnu \
                  --libexecdir=/usr/lib/x86_64-linux-gnu/sqlite3 \
                  TCLLIBDIR=/usr/lib/tcltk/sqlite3 SHELL=/bin/sh",
        build: &["make", "-j2"],
        harnesses: &[Harness {
            name: "sqlite3-complete",
            library: "libsqlite3.la",
            source: "sqlite3_harness.c",
            include: &["."],
        }],
        not_programs: &["lemon", "mkkeywordhash", "mksourceid"],
    }
}

/// How zlib is built.
fn zlib() -> Recipe<'static> {
    Recipe {
        name: "zlib",
        package: "zlib",
        version: "1:1.2.13.dfsg-1",
        unpacked: "zlib-1.2.13.dfsg",
        marker: "inflate.c",
        upstream_only: false,
        how: "debian/rules: its CFLAGS, `uname=GNU ./configure --shared`, make \
              (static and shared library)",
        maint_options: "",
        prepare: "CFLAGS=\"$CFLAGS $CPPFLAGS -Wall -D_REENTRANT -O3 -DUNALIGNED_OK\" AR=ar \
                  CC=x86_64-linux-gnu-gcc uname=GNU ./configure --shared --prefix=/usr \
                  --libdir=/usr/lib/x86_64-linux-gnu",
        build: &["make", "-j2"],
        harnesses: &[Harness {
            name: "zlib-inflate",
            library: "libz.a",
            source: "zlib_harness.c",
            include: &["."],
        }],
        not_programs: &[
            "example",
            "minigzip",
            "example64",
            "minigzip64",
            "examplesh",
            "minigzipsh",
        ],
    }
}

/// How gawk is built.
fn gawk() -> Recipe<'static> {
    Recipe {
        name: "gawk",
        package: "gawk",
        version: "1:5.2.1-2",
        unpacked: "gawk-5.2.1",
        marker: "awkgram.y",
        upstream_only: false,
        how: "debian/rules: `./configure --disable-rpath`, the documentation's sources \
              touched to 2000 (as the rules do: Debian's source has no gawktexi.in), make",
        maint_options: "",
        prepare: "./configure --prefix=/usr --disable-rpath && touch --date='Jan 01 2000' \
                  doc/gawktexi.in doc/sidebar.awk doc/gawk.texi doc/gawk.info \
                  doc/gawkinet.texi doc/gawkinet.info doc/gawkworkflow.texi \
                  doc/gawkworkflow.info doc/pm-gawk.texi doc/pm-gawk.info",
        build: &["make", "-j2"],
        harnesses: &[],
        not_programs: &[],
    }
}

/// How cjson is built.
fn cjson() -> Recipe<'static> {
    Recipe {
        name: "cjson",
        package: "cjson",
        version: "1.7.15-1+deb12u4",
        unpacked: "cjson-1.7.15",
        marker: "cJSON.c",
        upstream_only: false,
        how: "debian/rules: dh's CMake build (`cmake -DCMAKE_BUILD_TYPE=None ...`, then \
              `cmake --build`), configured within the captured command so that CMake \
              records the compiler the capture interposes",
        maint_options: "hardening=+all",
        prepare: "",
        build: &[
            "sh",
            "-c",
            "cmake -S . -B obj-x86_64-linux-gnu -DCMAKE_INSTALL_PREFIX=/usr \
             -DCMAKE_BUILD_TYPE=None -DCMAKE_INSTALL_SYSCONFDIR=/etc \
             -DCMAKE_INSTALL_LOCALSTATEDIR=/var -DCMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu \
             && cmake --build obj-x86_64-linux-gnu -j2",
        ],
        harnesses: &[Harness {
            name: "cjson-parse",
            library: "obj-x86_64-linux-gnu/libcjson.so",
            source: "cjson_harness.c",
            include: &["."],
        }],
        not_programs: &["obj-x86_64-linux-gnu/cJSON_test"],
    }
}

/// How libyaml is built.
fn libyaml() -> Recipe<'static> {
    Recipe {
        name: "libyaml",
        package: "libyaml",
        version: "0.2.5-1",
        unpacked: "libyaml-0.2.5",
        marker: "src/parser.c",
        upstream_only: false,
        how: "debian/rules: dh_autoreconf, `./configure`, make (autotools, libtool)",
        maint_options: "hardening=+all",
        prepare: "autoreconf -fi && ./configure --prefix=/usr",
        build: &["make", "-j2"],
        harnesses: &[Harness {
            name: "yaml-parse",
            library: "src/libyaml.la",
            source: "yaml_harness.c",
            include: &["include"],
        }],
        not_programs: &[],
    }
}

/// The extra CFLAGS of sqlite3's rules.
pub fn sqlite_cflags() -> &'static str {
    SQLITE_CFLAGS
}
