use super::*;

fn sample() -> KTest {
    KTest {
        args: vec!["prog.bc".to_string()],
        sym_argvs: 0,
        sym_argv_len: 0,
        objects: vec![
            KTestObject::new("x", vec![1, 0, 0, 0]),
            KTestObject::new("buf", b"a\0".to_vec()),
        ],
    }
}

/// The bytes of `sample()`, written out by hand.
fn sample_bytes() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(b"KTEST"); // 0: magic
    v.extend_from_slice(&[0, 0, 0, 3]); // 5: version
    v.extend_from_slice(&[0, 0, 0, 1]); // 9: numArgs
    v.extend_from_slice(&[0, 0, 0, 7]); // 13: arg 0 length
    v.extend_from_slice(b"prog.bc"); // 17
    v.extend_from_slice(&[0, 0, 0, 0]); // 24: symArgvs
    v.extend_from_slice(&[0, 0, 0, 0]); // 28: symArgvLen
    v.extend_from_slice(&[0, 0, 0, 2]); // 32: numObjects
    v.extend_from_slice(&[0, 0, 0, 1]); // 36: name length
    v.extend_from_slice(b"x"); // 40
    v.extend_from_slice(&[0, 0, 0, 4]); // 41: size
    v.extend_from_slice(&[1, 0, 0, 0]); // 45
    v.extend_from_slice(&[0, 0, 0, 3]); // 49: name length
    v.extend_from_slice(b"buf"); // 53
    v.extend_from_slice(&[0, 0, 0, 2]); // 56: size
    v.extend_from_slice(b"a\0"); // 60
    assert_eq!(v.len(), 62);
    v
}

#[test]
fn known_bytes() {
    assert_eq!(sample().to_bytes(), sample_bytes());
    assert_eq!(KTest::from_bytes(&sample_bytes()).unwrap(), sample());
}

#[test]
fn empty_test_bytes() {
    let t = KTest::default();
    let expected: Vec<u8> = [
        &b"KTEST"[..],
        &[0, 0, 0, 3],
        &[0, 0, 0, 0],
        &[0, 0, 0, 0],
        &[0, 0, 0, 0],
        &[0, 0, 0, 0],
    ]
    .concat();
    assert_eq!(t.to_bytes(), expected);
    assert_eq!(KTest::from_bytes(&expected).unwrap(), t);
}

#[test]
fn round_trip() {
    let t = KTest {
        args: vec!["a.out".into(), "--sym-arg".into(), "3".into(), "".into()],
        sym_argvs: 2,
        sym_argv_len: 10,
        objects: vec![
            KTestObject::new("", vec![]),
            KTestObject::new("big", (0..=255u8).cycle().take(100_000).collect::<Vec<_>>()),
            KTestObject::new("ünïcödé", vec![0xff; 3]),
        ],
    };
    let bytes = t.to_bytes();
    assert_eq!(KTest::from_bytes(&bytes).unwrap(), t);
    assert_eq!(KTest::from_bytes(&bytes).unwrap().to_bytes(), bytes);
}

#[test]
fn sym_argv_fields_are_big_endian() {
    let t = KTest {
        sym_argvs: 0x0102_0304,
        sym_argv_len: 0x0a0b_0c0d,
        ..KTest::default()
    };
    let b = t.to_bytes();
    assert_eq!(&b[13..17], &[1, 2, 3, 4]);
    assert_eq!(&b[17..21], &[0x0a, 0x0b, 0x0c, 0x0d]);
}

#[test]
fn older_versions_and_legacy_magic() {
    // Version 1 has no symArgvs/symArgvLen.
    let mut v1 = Vec::new();
    v1.extend_from_slice(b"KTEST");
    v1.extend_from_slice(&[0, 0, 0, 1]);
    v1.extend_from_slice(&[0, 0, 0, 0]); // no args
    v1.extend_from_slice(&[0, 0, 0, 1]); // one object
    v1.extend_from_slice(&[0, 0, 0, 1, b'n', 0, 0, 0, 1, 7]);
    let t = KTest::from_bytes(&v1).unwrap();
    assert_eq!(t.objects, vec![KTestObject::new("n", vec![7])]);
    assert_eq!((t.sym_argvs, t.sym_argv_len), (0, 0));

    let mut v2 = sample_bytes();
    v2[8] = 2;
    assert_eq!(KTest::from_bytes(&v2).unwrap(), sample());

    let mut bout = sample_bytes();
    bout[..5].copy_from_slice(b"BOUT\n");
    assert_eq!(KTest::from_bytes(&bout).unwrap(), sample());
}

#[test]
fn bad_magic() {
    let mut b = sample_bytes();
    b[0] = b'X';
    match KTest::from_bytes(&b) {
        Err(KTestError::BadMagic { found }) => assert_eq!(found, b"XTEST"),
        other => panic!("{other:?}"),
    }
    // Short and not a prefix of the magic: still a magic problem.
    assert!(matches!(
        KTest::from_bytes(b"ab"),
        Err(KTestError::BadMagic { .. })
    ));
    let msg = KTest::from_bytes(&b).unwrap_err().to_string();
    assert_eq!(
        msg,
        "not a .ktest file: magic at offset 0 is b'XTEST', expected b'KTEST'"
    );
}

#[test]
fn unsupported_versions() {
    for version in [0u32, 4, 0xffff_ffff] {
        let mut b = sample_bytes();
        b[5..9].copy_from_slice(&version.to_be_bytes());
        match KTest::from_bytes(&b) {
            Err(KTestError::UnsupportedVersion { version: v, offset }) => {
                assert_eq!((v, offset), (version, 5))
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn every_truncation_is_a_truncated_error() {
    let full = sample_bytes();
    // (cut length, what, offset of the field that is cut)
    let expect = |cut: usize| -> (&'static str, usize) {
        match cut {
            0..=4 => ("magic", 0),
            5..=8 => ("version", 5),
            9..=12 => ("argument count", 9),
            13..=16 => ("length of argument 0", 13),
            17..=23 => ("argument 0", 17),
            24..=27 => ("sym-argvs", 24),
            28..=31 => ("sym-argv-len", 28),
            32..=35 => ("object count", 32),
            36..=39 => ("length of name of object 0", 36),
            40 => ("name of object 0", 40),
            41..=44 => ("length of bytes of object 0 ('x')", 41),
            45..=48 => ("bytes of object 0 ('x')", 45),
            49..=52 => ("length of name of object 1", 49),
            53..=55 => ("name of object 1", 53),
            56..=59 => ("length of bytes of object 1 ('buf')", 56),
            60..=61 => ("bytes of object 1 ('buf')", 60),
            _ => unreachable!(),
        }
    };
    for cut in 0..full.len() {
        match KTest::from_bytes(&full[..cut]) {
            Err(KTestError::Truncated {
                what,
                offset,
                needed,
                available,
            }) => {
                let (w, o) = expect(cut);
                assert_eq!((what.as_str(), offset), (w, o), "cut at {cut}");
                assert_eq!(available, cut - o, "cut at {cut}");
                assert!(needed > available as u64);
            }
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
}

#[test]
fn huge_lengths_do_not_allocate() {
    let mut b = sample_bytes();
    b[41..45].copy_from_slice(&[0xff, 0xff, 0xff, 0xff]);
    match KTest::from_bytes(&b) {
        Err(KTestError::Truncated { offset, needed, .. }) => {
            assert_eq!(offset, 45);
            assert_eq!(needed, 0xffff_ffff);
        }
        other => panic!("{other:?}"),
    }
    // An absurd object count fails on the first missing object.
    let mut b = sample_bytes();
    b[32..36].copy_from_slice(&[0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(
        KTest::from_bytes(&b),
        Err(KTestError::Truncated { offset: 62, .. })
    ));
}

#[test]
fn invalid_utf8() {
    let mut b = sample_bytes();
    b[54] = 0xff; // second byte of "buf"
    match KTest::from_bytes(&b) {
        Err(KTestError::InvalidUtf8 { what, offset }) => {
            assert_eq!(what, "name of object 1");
            assert_eq!(offset, 54);
        }
        other => panic!("{other:?}"),
    }
    let mut b = sample_bytes();
    b[17] = 0x80;
    assert!(matches!(
        KTest::from_bytes(&b),
        Err(KTestError::InvalidUtf8 { offset: 17, .. })
    ));
}

#[test]
fn trailing_bytes() {
    let mut b = sample_bytes();
    b.extend_from_slice(&[0, 0]);
    match KTest::from_bytes(&b) {
        Err(KTestError::TrailingBytes { offset, count }) => assert_eq!((offset, count), (62, 2)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn error_messages_name_offsets() {
    let e = KTest::from_bytes(&sample_bytes()[..50]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "truncated .ktest: length of name of object 1 at offset 49 needs 4 bytes but only 1 remain"
    );
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "symtest-ktest-{tag}-{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn write_and_read_files() {
    let d = temp_dir("rw");
    let p = d.join("test000001.ktest");
    sample().write_to(&p).unwrap();
    assert_eq!(fs::read(&p).unwrap(), sample_bytes());
    assert_eq!(KTest::read_from(&p).unwrap(), sample());
    // Overwrite in place; no temporary file is left behind.
    let mut t = sample();
    t.objects.pop();
    t.write_to(&p).unwrap();
    assert_eq!(KTest::read_from(&p).unwrap(), t);
    let names: Vec<_> = fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["test000001.ktest".to_string()]);
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn io_errors() {
    let d = temp_dir("io");
    let missing = d.join("no-such-dir").join("t.ktest");
    assert!(matches!(
        sample().write_to(&missing),
        Err(KTestError::Io { .. })
    ));
    let e = KTest::read_from(d.join("absent.ktest")).unwrap_err();
    assert!(matches!(e, KTestError::Io { .. }));
    assert!(e.to_string().contains("absent.ktest"), "{e}");
    // A corrupt file read from disk reports the parse error.
    let p = d.join("bad.ktest");
    fs::write(&p, b"KTEST\0\0").unwrap();
    assert!(matches!(
        KTest::read_from(&p),
        Err(KTestError::Truncated { offset: 5, .. })
    ));
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn render_like_ktest_tool() {
    let t = KTest {
        args: vec!["get_sign.bc".into()],
        sym_argvs: 0,
        sym_argv_len: 0,
        objects: vec![
            KTestObject::new("a", vec![0, 0, 0, 0x80]),
            KTestObject::new("buf", b"hi\n\x00\xff'".to_vec()),
            KTestObject::new("c", vec![0xfe]),
            KTestObject::new("s", vec![0x01, 0x80]),
            KTestObject::new("q", (0..8).map(|_| 0xff).collect::<Vec<u8>>()),
        ],
    };
    let expected = "\
args       : ['get_sign.bc']
num objects: 5
object 0: name: 'a'
object 0: size: 4
object 0: data: b'\\x00\\x00\\x00\\x80'
object 0: hex : 0x00000080
object 0: int : -2147483648
object 0: uint: 2147483648
object 0: text: ....
object 1: name: 'buf'
object 1: size: 6
object 1: data: b\"hi\\n\\x00\\xff'\"
object 1: hex : 0x68690a00ff27
object 1: text: hi...'
object 2: name: 'c'
object 2: size: 1
object 2: data: b'\\xfe'
object 2: hex : 0xfe
object 2: int : -2
object 2: uint: 254
object 2: text: .
object 3: name: 's'
object 3: size: 2
object 3: data: b'\\x01\\x80'
object 3: hex : 0x0180
object 3: int : -32767
object 3: uint: 32769
object 3: text: ..
object 4: name: 'q'
object 4: size: 8
object 4: data: b'\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff'
object 4: hex : 0xffffffffffffffff
object 4: int : -1
object 4: uint: 18446744073709551615
object 4: text: ........
";
    assert_eq!(t.render(), expected);
}

#[test]
fn render_pads_indices_and_handles_empty() {
    let t = KTest {
        args: vec![],
        objects: (0..11)
            .map(|i| KTestObject::new(format!("o{i}"), vec![]))
            .collect(),
        ..KTest::default()
    };
    let r = t.render();
    assert!(r.starts_with("args       : []\nnum objects: 11\nobject  0: name: 'o0'\n"));
    assert!(r.contains("object  0: data: b''\nobject  0: hex : 0x\nobject  0: text: \n"));
    assert!(r.contains("object 10: name: 'o10'\n"));
    assert_eq!(
        KTest::default().render(),
        "args       : []\nnum objects: 0\n"
    );
}

#[test]
fn python_reprs() {
    assert_eq!(py_bytes_repr(b""), "b''");
    assert_eq!(py_bytes_repr(b"a'b"), "b\"a'b\"");
    assert_eq!(py_bytes_repr(b"a'b\""), "b'a\\'b\"'");
    assert_eq!(py_bytes_repr(b"\\\t\r\x7f"), "b'\\\\\\t\\r\\x7f'");
    assert_eq!(py_str_repr("it's"), "\"it's\"");
    assert_eq!(py_str_repr("a\u{1}b"), "'a\\x01b'");
    let t = KTest {
        args: vec!["x".into(), "it's".into()],
        ..KTest::default()
    };
    assert!(t.render().starts_with("args       : ['x', \"it's\"]\n"));
}
