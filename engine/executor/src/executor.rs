//! The executor: shared run context (module, expression pool, solver, coverage,
//! searcher) and start-up (globals, constants, the initial state).

use crate::config::Config;
use crate::coverage::Coverage;
use crate::memory::object::MemoryObject;
use crate::memory::{
    AddressSpace, EngineObject, Label, ObjKind, ObjectState, GLOBAL_BASE, REDZONE,
};
use crate::ptree::PTree;
use crate::query::SolverHandle;
use crate::rng::Rng;
use crate::search::{self, Searcher};
use crate::state::{Frame, State, StateId};
use crate::stats::Stats;
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use crate::{EventSink, ExecError};
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Instant;
use symtest_expr::{BinOp, Bits, CmpOp, ExprPool};
use symtest_ir::{BlockId, ConstId, ConstOp, Constant, FuncId, Loc, Module};

/// Functions get fake, distinct addresses here so pointers to them can be stored,
/// compared and called through.
pub const FUNCTION_BASE: u64 = 0x0000_0100_0000_0000;

pub struct Executor<'m> {
    pub(crate) module: &'m Module,
    pub(crate) config: Config,
    pub(crate) pool: ExprPool,
    pub(crate) solver: SolverHandle,
    pub(crate) consts: Vec<Value>,
    pub(crate) global_addrs: Vec<u64>,
    pub(crate) coverage: Coverage,
    pub(crate) stats: Stats,
    /// Forks made in library code per program call site (function, call
    /// instruction): `Config::library_forks`.
    pub(crate) library_site_forks: FxHashMap<(FuncId, u32), u64>,
    pub(crate) rng: Rng,
    pub(crate) states: FxHashMap<StateId, State>,
    pub(crate) searcher: Box<dyn Searcher>,
    pub(crate) ptree: PTree,
    pub(crate) next_state_id: StateId,
    /// (kind, file, line) of errors already written as tests, and for an
    /// error in library code the program's call (function, instruction) it
    /// happened under.
    pub(crate) emitted_errors: FxHashSet<ErrorPlace>,
    /// Set when the run must stop (`--exit-on-error`), with the halt reason.
    pub(crate) halt_requested: Option<String>,
    pub(crate) warned: FxHashSet<String>,
    pub(crate) sink: &'m mut dyn EventSink,
    pub(crate) started: Instant,
    /// When `--max-time` ends the run (set when it starts).
    pub(crate) deadline: Option<Instant>,
    /// The states the run starts with: the one under `Config::argv`, then
    /// one per argv of the seeds that have their own (`Config::seed_args`).
    pub(crate) initial: Vec<State>,
    /// Special handler per function, resolved once.
    pub(crate) specials: Vec<Option<crate::special::Special>>,
    /// `<math.h>` function per function computed as an expression, resolved once.
    pub(crate) libm: Vec<Option<crate::inst::libm::LibmFn>>,
    /// String comparison per function computed as an expression, resolved once.
    pub(crate) strcmp_fns: Vec<Option<crate::inst::strcmp::StrCmpFn>>,
    /// Per function: does it call UBSan's shift handler (compiled with
    /// `-fsanitize=shift`, so its shifts are checked already)?
    pub(crate) ubsan_shift_checked: Vec<bool>,
    /// The address space as loaded (globals), shared by every state until
    /// written: what memory accounting does not charge to states.
    pub(crate) image: Option<AddressSpace>,
    pub(crate) rss: crate::rss::RssSampler,
    /// Where states are suspended at the memory cap, and those on disk.
    pub(crate) store: Option<crate::suspend::store::Store>,
    pub(crate) suspended: Vec<crate::suspend::Batch>,
    /// States in `suspended`.
    pub(crate) suspended_count: usize,
    /// The start image's pieces that suspended states refer to by number.
    pub(crate) image_pieces: Option<std::rc::Rc<crate::suspend::wire::Image>>,
    pub(crate) cap: crate::memory_cap::CapState,
    /// For each symbolic pointer a GEP made: the address its base pointer had
    /// (the object it was derived from), or [`AMBIGUOUS_ORIGIN`] when GEPs
    /// from different bases made the same expression.
    pub(crate) gep_origins: FxHashMap<symtest_expr::ExprId, crate::inst::memory_ops::Origin>,
    /// Directed exploration: the target lines and their distances.
    pub(crate) targets: Option<crate::targets::Targets>,
    /// Per seed, its values bound to the arrays the paths following it made.
    pub(crate) seed_models: Vec<std::rc::Rc<symtest_expr::Assignment>>,
    /// Per seed, the arrays it was extended with (objects it lacked): `None`
    /// for a seed that may not be extended.
    pub(crate) seed_extended: Vec<Option<Vec<symtest_expr::ArrayId>>>,
    /// Seeds from this index on are option seeds (`Config::option_seeds`).
    pub(crate) first_option_seed: usize,
    /// Per seed, whether a path carrying it ended (`Stats::seeds_ended`).
    pub(crate) seed_done: Vec<bool>,
    /// What the run saw at the program's branches (why code stays uncovered).
    pub(crate) why: crate::why::WhyLog,
    /// State merging at loop heads (`Config::merge_loops`).
    pub(crate) merge: crate::merge::MergeCtl,
}

/// Where an error was: (kind, file, line) and, in library code, the
/// program's call it happened under (function, instruction).
pub(crate) type ErrorPlace = (ErrorKind, String, u32, Option<(FuncId, u32)>);

/// A pointer expression GEPs derived from more than one base address.
pub(crate) const AMBIGUOUS_ORIGIN: u64 = u64::MAX;

/// The time limit of one query: `--max-solver-time` (none without it), but
/// at most a tenth of `--max-time` (at least 1 s), so a few queries the solver cannot answer do
/// not take the whole run (shorter still where queries already gave up, see
/// [`crate::query::query_limit`]).
fn initial_query_limit(config: &Config) -> Option<std::time::Duration> {
    let tenth = config
        .max_time
        .map(|t| (t / 10).max(std::time::Duration::from_secs(1)));
    match (config.max_solver_time, tenth) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, _) => a,
    }
}

/// The function a run starts from (and a crosscheck's second entry),
/// checked to be defined, with the rest of `config` the run needs.
fn entry_of(module: &Module, config: &Config) -> Result<FuncId, ExecError> {
    if config.search.is_empty() {
        return Err(ExecError::BadConfig("no searcher given".into()));
    }
    if config.batch_instructions == 0 {
        return Err(ExecError::BadConfig("batch size must be at least 1".into()));
    }
    let entry = module
        .function_by_name(&config.entry)
        .ok_or_else(|| ExecError::NoEntry(config.entry.clone()))?;
    if module.function(entry).body.is_none() {
        return Err(ExecError::EntryNotDefined(config.entry.clone()));
    }
    if let Some((second, _)) = &config.crosscheck {
        let f = module
            .function_by_name(second)
            .ok_or_else(|| ExecError::NoEntry(second.clone()))?;
        if module.function(f).body.is_none() {
            return Err(ExecError::EntryNotDefined(second.clone()));
        }
    }
    Ok(entry)
}

/// Adds the option seeds (`Config::option_seeds`) after the given seeds;
/// returns, per seed, whether it may take values for what it lacks (an
/// empty list) or not (`None`): option seeds, all seeds under
/// --allow-seed-extension, and recorded runs (their own argv), whose file
/// metadata the model's assumptions give.
fn add_option_seeds(
    module: &Module,
    config: &mut Config,
) -> Vec<Option<Vec<symtest_expr::ArrayId>>> {
    let given_seeds = config.seeds.len();
    if config.option_seeds {
        let argv = config.argv.get(1..).unwrap_or(&[]);
        let groups = crate::option_seeds::arg_groups(argv);
        let file = crate::option_seeds::first_sym_file(argv);
        let words = crate::option_seeds::option_words(module);
        let seeds = crate::option_seeds::option_seeds(&words, &groups, file.as_deref());
        config.seeds.extend(seeds);
    }
    (0..config.seeds.len())
        .map(|k| {
            let recorded = config.seed_args.get(k).is_some_and(Option::is_some);
            (k >= given_seeds || config.allow_seed_extension || recorded).then(Vec::new)
        })
        .collect()
}

impl<'m> Executor<'m> {
    pub fn new(
        module: &'m Module,
        config: Config,
        solver: Box<dyn symtest_solver::Solver>,
        sink: &'m mut dyn EventSink,
    ) -> Result<Executor<'m>, ExecError> {
        let entry = entry_of(module, &config)?;
        let mut config = config;
        let given_seeds = config.seeds.len();
        let seed_extended = add_option_seeds(module, &mut config);
        let mut solver = SolverHandle::new(solver);
        solver.set_timeout(initial_query_limit(&config));
        let mut pool = ExprPool::new();
        pool.set_simplify(config.rewrite_expressions);
        let mut ex = Executor {
            module,
            pool,
            solver,
            consts: Vec::new(),
            global_addrs: Vec::new(),
            coverage: Coverage::new(module, config.coverage_files.as_deref()),
            stats: Stats::default(),
            library_site_forks: FxHashMap::default(),
            rng: Rng::new(config.seed),
            states: FxHashMap::default(),
            searcher: search::build(&config.search),
            ptree: PTree::default(),
            next_state_id: 0,
            emitted_errors: FxHashSet::default(),
            halt_requested: None,
            warned: FxHashSet::default(),
            sink,
            started: Instant::now(),
            deadline: None,
            initial: Vec::new(),
            specials: crate::special::table(module, &config),
            libm: crate::inst::libm::table(module),
            strcmp_fns: crate::inst::strcmp::table(module),
            ubsan_shift_checked: crate::inst::arith::ubsan_shift_checked(module),
            image: None,
            rss: crate::rss::RssSampler::default(),
            store: config
                .suspend_dir
                .as_deref()
                .map(|d| crate::suspend::store::Store::new(d, config.max_suspend_disk_mb << 20)),
            suspended: Vec::new(),
            suspended_count: 0,
            image_pieces: None,
            cap: Default::default(),
            gep_origins: FxHashMap::default(),
            targets: None,
            seed_models: (0..config.seeds.len())
                .map(|_| std::rc::Rc::new(symtest_expr::Assignment::new()))
                .collect(),
            seed_extended,
            first_option_seed: given_seeds,
            seed_done: vec![false; config.seeds.len()],
            why: Default::default(),
            merge: Default::default(),
            config,
        };
        ex.stats.option_seeds = (ex.config.seeds.len() - given_seeds) as u64;
        ex.prepare(entry)?;
        Ok(ex)
    }

    /// Loop merging, target lines, the memory image of the globals and the
    /// initial states from `entry`.
    fn prepare(&mut self, entry: FuncId) -> Result<(), ExecError> {
        let module = self.module;
        if self.config.merge_loops {
            let coverage = &self.coverage;
            self.merge = crate::merge::MergeCtl::new(module, |f| coverage.is_program_function(f));
        }
        self.targets =
            crate::targets::Targets::new(module, &self.coverage, &self.config.target_lines);
        let mut memory = AddressSpace::default();
        self.place_globals(&mut memory);
        self.eval_constants();
        self.init_globals(&mut memory);
        self.image = Some(memory.clone());
        self.initial = self.initial_states(memory, entry);
        self.check_cap_at_start()
    }

    pub(crate) fn warn_once(&mut self, message: String) {
        if self.warned.insert(message.clone()) {
            self.sink.event(crate::Event::Warning(&message));
        }
    }

    fn place_globals(&mut self, memory: &mut AddressSpace) {
        let mut next = GLOBAL_BASE;
        for g in &self.module.globals {
            let align = (g.align as u64).clamp(16, 4096);
            let base = next.div_ceil(align) * align;
            next = (base + g.size.max(1) + REDZONE).div_ceil(16) * 16;
            self.global_addrs.push(base);
        }
        memory.set_next_dynamic(next);
    }

    fn init_globals(&mut self, memory: &mut AddressSpace) {
        let module = self.module;
        for (i, g) in module.globals.iter().enumerate() {
            let base = self.global_addrs[i];
            let mut contents = ObjectState::new(g.size as usize);
            match &g.init {
                Some(init) => {
                    let mut bytes = init.bytes.clone();
                    bytes.resize(g.size as usize, 0);
                    contents = ObjectState::with_bytes(bytes);
                    for (off, c, n) in &init.relocs {
                        let v = self.consts[c.0 as usize].clone();
                        let v = Ops::resize(&mut self.pool, &v, n * 8);
                        if (*off as usize) + (*n as usize) <= g.size as usize {
                            contents.write(&mut self.pool, *off as usize, *n as usize, &v);
                        }
                    }
                }
                None => {
                    // Without a libc, native calls (--external-calls all)
                    // receive the host's streams for these.
                    let stream = ["stdin", "stdout", "stderr"]
                        .iter()
                        .position(|n| *n == symtest_ir::plain_name(&g.name))
                        .filter(|_| self.config.external_calls_all && g.size == 8);
                    if let Some(k) = stream {
                        let v = crate::special_native::STDIO_SENTINEL + k as u64;
                        contents.write(&mut self.pool, 0, 8, &Value::from_u64(64, v));
                    }
                    if !g.extern_weak && !is_known_external_global(symtest_ir::plain_name(&g.name))
                    {
                        self.warn_once(format!(
                            "global `{}` has no definition in the program; it starts zero-filled",
                            g.name
                        ));
                    }
                }
            }
            contents.read_only = g.is_const;
            let id = symtest_ir::GlobalId(i as u32);
            let object = MemoryObject {
                base,
                size: g.size,
                kind: ObjKind::Global(id),
                label: Label::Global(id),
                alloc_loc: g.loc,
            };
            memory.insert_at(object, contents);
        }
    }

    fn eval_constants(&mut self) {
        let n = self.module.constants.len();
        let mut done: Vec<Option<Value>> = vec![None; n];
        for i in 0..n {
            self.eval_constant(ConstId(i as u32), &mut done);
        }
        self.consts = done
            .into_iter()
            .map(|v| v.expect("every constant evaluated"))
            .collect();
    }

    fn eval_constant(&mut self, id: ConstId, done: &mut Vec<Option<Value>>) -> Value {
        if let Some(v) = &done[id.0 as usize] {
            return v.clone();
        }
        let module = self.module;
        let v = match module.constant(id) {
            Constant::Int(b) => Value::Concrete(b.clone()),
            Constant::Undef { bits } => Value::Concrete(Bits::zero((*bits).max(1))),
            Constant::GlobalAddr { global, offset } => {
                // A weak reference nothing defines is null, as the linker resolves it.
                let g = module.global(*global);
                let base = if g.extern_weak && g.init.is_none() {
                    0
                } else {
                    self.global_addrs[global.0 as usize]
                };
                Value::from_u64(64, base.wrapping_add(*offset as u64))
            }
            Constant::FuncAddr(f) => {
                let func = module.function(*f);
                let undefined_weak = func.extern_weak
                    && func.body.is_none()
                    && self.specials[f.0 as usize].is_none();
                Value::from_u64(
                    64,
                    if undefined_weak {
                        0
                    } else {
                        function_address(*f)
                    },
                )
            }
            Constant::Aggregate { bits, pieces } => {
                let mut acc = Value::Concrete(Bits::zero((*bits).max(1)));
                for (off, c) in pieces {
                    let p = self.eval_constant(*c, done);
                    acc = Ops::insert(&mut self.pool, &acc, &p, *off);
                }
                acc
            }
            Constant::Expr { op, args, bits } => {
                let vals: Vec<Value> = args.iter().map(|a| self.eval_constant(*a, done)).collect();
                self.eval_const_expr(*op, &vals, *bits)
            }
        };
        done[id.0 as usize] = Some(v.clone());
        v
    }

    fn eval_const_expr(&mut self, op: ConstOp, vals: &[Value], bits: u32) -> Value {
        let pool = &mut self.pool;
        match op {
            ConstOp::Bin(b) => {
                let b = crate::inst::arith::bin_op(b);
                let x = Ops::resize(pool, &vals[0], bits);
                let y = Ops::resize(pool, &vals[1], bits);
                Ops::bin(pool, b, &x, &y)
            }
            ConstOp::ICmp(p) => crate::inst::arith::icmp(pool, p, &vals[0], &vals[1]),
            ConstOp::Trunc | ConstOp::ZExt => Ops::resize(pool, &vals[0], bits),
            ConstOp::SExt => Ops::sresize(pool, &vals[0], bits),
        }
    }

    /// The state under `Config::argv` following the seeds without their own
    /// argv, then one state per distinct argv of the others, following those.
    fn initial_states(&mut self, memory: AddressSpace, entry: FuncId) -> Vec<State> {
        let n = self.config.seeds.len() as u32;
        let own = |k: u32| self.config.seed_args.get(k as usize).cloned().flatten();
        let mut groups: Vec<(Vec<String>, Vec<u32>)> = Vec::new();
        let mut plain = Vec::new();
        for k in 0..n {
            match own(k) {
                None => plain.push(k),
                Some(a) => match groups.iter_mut().find(|(g, _)| *g == a) {
                    Some((_, ks)) => ks.push(k),
                    None => groups.push((a, vec![k])),
                },
            }
        }
        let argv = self.config.argv.clone();
        let mut states = vec![self.initial_state(memory.clone(), entry, &argv, plain)];
        for (argv, seeds) in groups {
            let mut st = self.initial_state(memory.clone(), entry, &argv, seeds);
            st.argv = Some(std::rc::Rc::new(argv));
            states.push(st);
        }
        states
    }

    fn initial_state(
        &mut self,
        mut memory: AddressSpace,
        entry: FuncId,
        argv: &[String],
        seeds: Vec<u32>,
    ) -> State {
        let frame = self.entry_frame(&mut memory, entry, argv);
        let id = self.next_state_id;
        self.next_state_id += 1;
        let mut st = State {
            id,
            stack: vec![std::rc::Rc::new(frame)],
            constraints: Default::default(),
            equalities: Default::default(),
            preferences: Default::default(),
            memory,
            symbolics: Default::default(),
            model: None,
            depth: 0,
            instructions: 0,
            last_new_cover: 0,
            last_new_cover_global: 0,
            library_site: None,
            pending_cover: None,
            seeds: std::rc::Rc::new(seeds),
            query_cost_us: 0,
            forks: 0,
            ptree_node: 0,
            jmp_targets: Vec::new(),
            stdout: Default::default(),
            forking_disabled: false,
            aliases: Vec::new(),
            errno_obj: None,
            error_suffix: None,
            terminated: Vec::new(),
            cross: None,
            argv: None,
            strays: Default::default(),
        };
        st.ptree_node = self.ptree.attach(id);
        st
    }

    /// The frame that starts `entry`: `main(argc, argv, envp)` with `argv`
    /// and the engine's environment made in `memory`.
    pub(crate) fn entry_frame(
        &mut self,
        memory: &mut AddressSpace,
        entry: FuncId,
        argv: &[String],
    ) -> Frame {
        let module = self.module;
        let f = module.function(entry);
        let body = f.body.as_ref().expect("checked defined");
        let mut regs = crate::regs::Regs::new(body.num_regs as usize);
        let envp_base = self.install_environment(memory);
        if !f.param_bits.is_empty() {
            let argc = argv.len() as u64;
            let mut ptrs = Vec::new();
            for (i, a) in argv.iter().enumerate() {
                let mut bytes = a.as_bytes().to_vec();
                bytes.push(0);
                let obj = memory.allocate(
                    bytes.len() as u64,
                    16,
                    ObjKind::Engine,
                    Label::Argv(i as u32),
                    Loc::default(),
                );
                let c = memory.contents_mut(obj.base).expect("just allocated");
                *c = ObjectState::with_bytes(bytes);
                ptrs.push(obj.base);
            }
            let arr = memory.allocate(
                (argc + 1) * 8,
                16,
                ObjKind::Engine,
                Label::Engine(EngineObject::Argv),
                Loc::default(),
            );
            let mut bytes = Vec::new();
            for p in ptrs.iter().chain(std::iter::once(&0)) {
                bytes.extend_from_slice(&p.to_le_bytes());
            }
            *memory.contents_mut(arr.base).expect("just allocated") =
                ObjectState::with_bytes(bytes);
            let vals = [argc, arr.base, envp_base];
            for (i, bits) in f.param_bits.iter().enumerate().take(3) {
                regs.set(i, crate::state::Slot::of(Value::from_u64(*bits, vals[i])));
            }
            for (i, bits) in f.param_bits.iter().enumerate().skip(3) {
                regs.set(i, crate::state::Slot::of(Value::from_u64(*bits, 0)));
            }
        }
        Frame {
            func: entry,
            regs,
            block: BlockId(0),
            prev_block: None,
            pc: 0,
            cur: 0,
            ret_dest: None,
            allocas: Vec::new(),
            varargs: None,
        }
    }

    /// The function at a fake function address, if it is one.
    pub(crate) fn function_at(&self, addr: u64) -> Option<FuncId> {
        if addr < FUNCTION_BASE || !(addr - FUNCTION_BASE).is_multiple_of(16) {
            return None;
        }
        let i = (addr - FUNCTION_BASE) / 16;
        (i < self.module.functions.len() as u64).then_some(FuncId(i as u32))
    }

    /// Is `cond` (width 1) the constant true?
    pub(crate) fn is_true_const(&self, v: &Value) -> Option<bool> {
        v.as_concrete().map(|b| b.is_true())
    }

    pub(crate) fn eq_value(&mut self, a: &Value, b: &Value) -> Value {
        Ops::cmp(&mut self.pool, CmpOp::Eq, a, b)
    }

    pub(crate) fn add_value(&mut self, a: &Value, b: &Value) -> Value {
        Ops::bin(&mut self.pool, BinOp::Add, a, b)
    }
}

pub fn function_address(f: FuncId) -> u64 {
    FUNCTION_BASE + 16 * f.0 as u64
}

/// Globals a libc provides that harness programs commonly name.
fn is_known_external_global(name: &str) -> bool {
    matches!(
        name,
        "stdin" | "stdout" | "stderr" | "errno" | "environ" | "optarg" | "optind"
    )
}
