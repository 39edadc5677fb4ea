#[test]
#[ignore]
fn dump() {
    let p = std::env::var("DUMP").unwrap();
    let m = symtest_loader::load_bitcode(std::path::Path::new(&p)).unwrap();
    for f in &m.functions {
        println!(
            "fn {} {:?} -> {:?} va={} loc={}",
            f.name,
            f.param_bits,
            f.ret_bits,
            f.is_vararg,
            m.describe_loc(f.loc)
        );
        if let Some(b) = &f.body {
            for (bi, blk) in b.blocks.iter().enumerate() {
                println!("  {}: ({bi})", blk.name);
                for i in b.block_insts(symtest_ir::BlockId(bi as u32)) {
                    println!(
                        "    {:?} = {:?}   @{}:{}",
                        i.dest, i.op, i.loc.line, i.loc.col
                    );
                }
            }
        }
    }
    for g in &m.globals {
        println!("global {:?}", g);
    }
    for (i, c) in m.constants.iter().enumerate() {
        println!("c{i} = {:?}", c);
    }
    println!("files {:?}", m.files);
}

#[test]
#[ignore]
fn flip() {
    let p = std::env::var("DUMP").unwrap();
    let bytes = std::fs::read(&p).unwrap();
    let mut seed = 0x9e3779b97f4a7c15u64;
    let (mut ok, mut err) = (0, 0);
    let n: usize = std::env::var("N").map(|s| s.parse().unwrap()).unwrap_or(200);
    for it in 0..n {
        let mut b = bytes.clone();
        for _ in 0..(1 + it % 4) {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
            let pos = 4 + (seed as usize) % (b.len() - 4);
            b[pos] ^= 1 << ((seed >> 32) % 8);
        }
        eprint!("{it} ");
        match symtest_loader::load_bitcode_bytes(&b, "f.bc") { Ok(_) => ok += 1, Err(e) => { err += 1; assert!(!e.to_string().contains('\n')); } }
    }
    println!("ok {ok} err {err}");
}
