//! Tests of the IR facts.
use super::*;

const IR: &str = r#"
%struct.node = type { i32, ptr }

define dso_local i32 @sum(ptr noundef %n) #0 {
entry:
  %n.addr = alloca ptr, align 8
  store ptr %n, ptr %n.addr, align 8
  %0 = load ptr, ptr %n.addr, align 8
  %tobool = icmp ne ptr %0, null
  %1 = load ptr, ptr %n.addr, align 8
  %next = getelementptr inbounds %struct.node, ptr %1, i32 0, i32 1
  %2 = load ptr, ptr %next, align 8
  %cmp = icmp eq ptr %2, null
  ret i32 0
}

define dso_local void @drop(ptr noundef %p, ptr noundef %q) #0 {
entry:
  %p.addr = alloca ptr, align 8
  store ptr %p, ptr %p.addr, align 8
  %0 = load ptr, ptr %p.addr, align 8
  call void @free(ptr noundef %0)
  ret void
}

define dso_local void @outer(ptr noundef %a, ptr noundef %b) #0 {
entry:
  %a.addr = alloca ptr, align 8
  %b.addr = alloca ptr, align 8
  store ptr %a, ptr %a.addr, align 8
  store ptr %b, ptr %b.addr, align 8
  %0 = load ptr, ptr %b.addr, align 8
  %1 = load ptr, ptr %a.addr, align 8
  %call = call i32 @sum(ptr noundef %0)
  call void @drop(ptr noundef %1, ptr noundef null)
  ret void
}

define dso_local void @hooked(ptr noundef %h) #0 {
entry:
  %h.addr = alloca ptr, align 8
  store ptr %h, ptr %h.addr, align 8
  %0 = load ptr, ptr @dealloc, align 8
  %1 = load ptr, ptr %h.addr, align 8
  call void %0(ptr noundef %1)
  ret void
}

define dso_local void @checked(ptr noundef %d) #0 {
entry:
  %d.addr = alloca ptr, align 8
  store ptr %d, ptr %d.addr, align 8
  %0 = load ptr, ptr %d.addr, align 8
  %tobool = icmp ne ptr %0, null
  br i1 %tobool, label %cond.true, label %cond.false

cond.true:                                        ; preds = %entry
  br label %cond.end

cond.false:                                       ; preds = %entry
  call void @__assert_fail(ptr noundef @.str, ptr noundef @.str.1, i32 noundef 3, ptr noundef @__func__.checked) #2
  unreachable

cond.end:                                         ; preds = %cond.true
  ret void
}

define dso_local i32 @numbered(ptr noundef %0) #0 !dbg !1 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
#dbg_declare(ptr %2, !2512, !DIExpression(), !2513)
  %3 = load ptr, ptr %2, align 8, !dbg !2516
  %4 = icmp ne ptr %3, null, !dbg !2516
  br i1 %4, label %6, label %5, !dbg !2516

5:                                                ; preds = %1
  call void @__assert_fail(ptr noundef @.str.12, ptr noundef @.src, i32 noundef 690, ptr noundef @f) #14, !dbg !2516
  unreachable, !dbg !2516

6:                                                ; preds = %1
  ret i32 0
}

declare void @free(ptr noundef)
"#;

/// A default symbol version's name, an alias of its implementation
/// (`scale` of `scale_v2`), is a function of the library with its
/// implementation's facts; an alias of a variable is a global.
#[test]
fn an_alias_is_the_function_it_names() {
    let ir = format!(
        "{IR}@version = global i32 2\n@sum_v2 = alias i8, ptr @sum\n\
         @drop_alias = dso_local alias void (ptr, ptr), ptr @drop\n\
         @current = alias i8, ptr @version\n"
    );
    let f = analyse(&ir);
    assert!(f.defined.contains("sum_v2") && f.defined.contains("drop_alias"));
    assert!(!f.globals.contains("sum_v2"));
    assert!(f.globals.contains("current"));
    assert!(f.nullable_params.contains(&("sum_v2".into(), 0)));
    assert!(f.freed_params.contains(&("drop_alias".into(), 0)));
    assert!(f.frees.contains("drop_alias"));
    assert_eq!(f.reach(["sum_v2"]), f.reach(["sum"]) + 1);
}

#[test]
fn nulls_and_frees_through_slots_fields_and_calls() {
    let f = analyse(IR);
    assert_eq!(
        f.defined.iter().map(String::as_str).collect::<Vec<_>>(),
        ["checked", "drop", "hooked", "numbered", "outer", "sum"]
    );
    assert!(f.nullable_params.contains(&("sum".into(), 0)));
    assert!(f.nullable_params.contains(&("outer".into(), 1)));
    assert!(!f.nullable_params.contains(&("outer".into(), 0)));
    assert!(f.nullable_fields.contains(&("struct.node".into(), 1)));
    assert!(f.freed_params.contains(&("drop".into(), 0)));
    assert!(f.freed_params.contains(&("outer".into(), 0)));
    assert!(!f.freed_params.contains(&("outer".into(), 1)));
    assert!(f.freed_params.contains(&("hooked".into(), 0)));
    assert!(!f.nullable_params.contains(&("checked".into(), 0)));
    assert!(!f.nullable_params.contains(&("numbered".into(), 0)));
    let node = std::collections::BTreeSet::from(["struct.node".to_string()]);
    assert_eq!(f.views.get(&("sum".into(), 0)), Some(&node));
    assert_eq!(f.views.get(&("outer".into(), 1)), Some(&node));
    assert!(f.frees.contains("outer") && f.frees.contains("drop") && !f.frees.contains("sum"));
    // `outer` runs its 9 instructions, `sum`'s 9 and `drop`'s 5.
    assert_eq!(f.reach(["outer"]), 23);
    assert_eq!(f.reach(["sum", "drop"]), 14);
}

const SETTERS: &str = r#"
%struct.reader = type { i32, %struct.anon }
%struct.anon = type { ptr, i64 }

define dso_local void @set_input(ptr noundef %0, ptr noundef %1, i64 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i64, align 8
  store ptr %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store i64 %2, ptr %6, align 8
  %7 = load ptr, ptr %5, align 8
  %8 = load ptr, ptr %4, align 8
  %9 = getelementptr inbounds %struct.reader, ptr %8, i32 0, i32 1
  %10 = getelementptr inbounds %struct.anon, ptr %9, i32 0, i32 0
  store ptr %7, ptr %10, align 8
  %11 = load i64, ptr %6, align 8
  %12 = load ptr, ptr %4, align 8
  %13 = getelementptr inbounds %struct.reader, ptr %12, i32 0, i32 1
  %14 = getelementptr inbounds %struct.anon, ptr %13, i32 0, i32 1
  store i64 %11, ptr %14, align 8
  ret void
}

define dso_local void @set_through(ptr noundef %r, ptr noundef %b) #0 {
entry:
  %r.addr = alloca ptr, align 8
  %b.addr = alloca ptr, align 8
  store ptr %r, ptr %r.addr, align 8
  store ptr %b, ptr %b.addr, align 8
  %0 = load ptr, ptr %r.addr, align 8
  %1 = load ptr, ptr %b.addr, align 8
  call void @set_input(ptr noundef %0, ptr noundef %1, i64 noundef 4)
  ret void
}

define dso_local void @fill(ptr noundef %r, ptr noundef %doc) #0 {
entry:
  %r.addr = alloca ptr, align 8
  %doc.addr = alloca ptr, align 8
  store ptr %r, ptr %r.addr, align 8
  store ptr %doc, ptr %doc.addr, align 8
  %0 = load ptr, ptr %doc.addr, align 8
  %1 = load ptr, ptr %r.addr, align 8
  %2 = getelementptr inbounds %struct.reader, ptr %1, i32 0, i32 1
  %3 = getelementptr inbounds %struct.anon, ptr %2, i32 0, i32 0
  store ptr %0, ptr %3, align 8
  %4 = load ptr, ptr %doc.addr, align 8
  %5 = getelementptr inbounds i8, ptr %4, i64 8
  store i32 0, ptr %5, align 4
  ret void
}

define dso_local i32 @read_one(ptr noundef %r, ptr noundef %out) #0 {
entry:
  %r.addr = alloca ptr, align 8
  %out.addr = alloca ptr, align 8
  store ptr %r, ptr %r.addr, align 8
  store ptr %out, ptr %out.addr, align 8
  %0 = load ptr, ptr %r.addr, align 8
  %f = getelementptr inbounds %struct.reader, ptr %0, i32 0, i32 0
  %1 = load i32, ptr %f, align 8
  %2 = load ptr, ptr %out.addr, align 8
  store i32 %1, ptr %2, align 4
  ret i32 0
}
"#;

#[test]
fn pointers_kept_in_another_parameter_make_setters() {
    let f = analyse(SETTERS);
    let stores: Vec<(&str, usize, usize)> = f
        .stores
        .iter()
        .map(|(n, i, j)| (n.as_str(), *i, *j))
        .collect();
    // `buf` kept in the reader (a field of a field), directly and
    // through the helper; the length is no pointer, a value written
    // through an out-parameter is not a parameter kept, and `fill`
    // writes through the `doc` it keeps (an out-parameter, no setter).
    assert_eq!(stores, [("set_input", 1, 0), ("set_through", 1, 0)]);
}

/// `tail - head` and `tail < end` of an anonymous structure's fields
/// (clang's `-O0` IR of `struct holder { int n; struct { struct item
/// *start, *end, *head, *tail; } q; struct item *other; }`): the pairs
/// point into one array; `other == q.start` compares two structures'
/// fields for equality, which C defines for any two pointers.
#[test]
fn fields_subtracted_or_ordered_point_into_one_array() {
    let ir = r#"
%struct.holder = type { i32, %struct.anon, ptr }
%struct.anon = type { ptr, ptr, ptr, ptr }
define dso_local i64 @span(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds %struct.holder, ptr %3, i32 0, i32 1
  %5 = getelementptr inbounds %struct.anon, ptr %4, i32 0, i32 3
  %6 = load ptr, ptr %5, align 8
  %7 = load ptr, ptr %2, align 8
  %8 = getelementptr inbounds %struct.holder, ptr %7, i32 0, i32 1
  %9 = getelementptr inbounds %struct.anon, ptr %8, i32 0, i32 2
  %10 = load ptr, ptr %9, align 8
  %11 = ptrtoint ptr %6 to i64
  %12 = ptrtoint ptr %10 to i64
  %13 = sub i64 %11, %12
  %14 = sdiv exact i64 %13, 4
  ret i64 %14
}
define dso_local i32 @room(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds %struct.holder, ptr %3, i32 0, i32 1
  %5 = getelementptr inbounds %struct.anon, ptr %4, i32 0, i32 3
  %6 = load ptr, ptr %5, align 8
  %7 = load ptr, ptr %2, align 8
  %8 = getelementptr inbounds %struct.holder, ptr %7, i32 0, i32 1
  %9 = getelementptr inbounds %struct.anon, ptr %8, i32 0, i32 1
  %10 = load ptr, ptr %9, align 8
  %11 = icmp ult ptr %6, %10
  %12 = zext i1 %11 to i32
  ret i32 %12
}
define dso_local i32 @same(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds %struct.holder, ptr %3, i32 0, i32 2
  %5 = load ptr, ptr %4, align 8
  %6 = load ptr, ptr %2, align 8
  %7 = getelementptr inbounds %struct.holder, ptr %6, i32 0, i32 1
  %8 = getelementptr inbounds %struct.anon, ptr %7, i32 0, i32 0
  %9 = load ptr, ptr %8, align 8
  %10 = icmp eq ptr %5, %9
  %11 = zext i1 %10 to i32
  ret i32 %11
}
"#;
    let f = analyse(ir);
    let ranged: Vec<(&str, usize, usize)> = f
        .ranged_fields
        .iter()
        .map(|(s, a, b)| (s.as_str(), *a, *b))
        .collect();
    assert_eq!(ranged, [("struct.anon", 1, 3), ("struct.anon", 2, 3)]);
    assert!(f.is_ranged("struct.anon", 2) && !f.is_ranged("struct.anon", 0));
    assert_eq!(
        f.struct_fields.get("struct.holder").map(Vec::as_slice),
        Some(&["i32".to_string(), "%struct.anon".into(), "ptr".into()][..])
    );
    // The header's anonymous record inside `struct holder` (its second
    // field) is the IR's `struct.anon`.
    let mut api = crate::library::ast::Api::default();
    let rec = |within| crate::library::ast::Record {
        spelled: String::new(),
        union: false,
        fields: vec![],
        within,
    };
    api.records.insert("struct holder".into(), rec(None));
    api.records.insert(
        "struct (unnamed struct at q.h:2:29)".into(),
        rec(Some(("struct holder".into(), 1))),
    );
    assert_eq!(
        f.ir_name(&api, "struct (unnamed struct at q.h:2:29)")
            .as_deref(),
        Some("struct.anon")
    );
    assert_eq!(
        f.ir_name(&api, "struct holder").as_deref(),
        Some("struct.holder")
    );
}

/// A pointer a callback returned (`call ptr %4(i32 0)`), kept in a local and
/// compared with NULL: callbacks of one argument may return NULL. An `i32`
/// result compared with 0 is not a pointer's.
#[test]
fn a_callback_result_compared_with_null() {
    let ir = r#"
define dso_local i64 @count(ptr noundef %0, ptr noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %6 = load ptr, ptr %3, align 8
  %7 = call ptr %6(i32 noundef 0)
  store ptr %7, ptr %5, align 8
  %8 = load ptr, ptr %5, align 8
  %9 = icmp ne ptr %8, null
  %10 = load ptr, ptr %4, align 8
  %11 = call i32 %10(i32 noundef 1, i32 noundef 2)
  %12 = icmp ne i32 %11, 0
  ret i64 0
}
"#;
    let f = analyse(ir);
    assert_eq!(f.nullable_results.iter().copied().collect::<Vec<_>>(), [1]);
    assert!(returns_pointer("call noalias ptr @f(i32 1)"));
    assert!(!returns_pointer("call void %5(ptr %6)"));
    assert!(!returns_pointer("call i32 %5(ptr %6)"));
}
