/*
 * san_options.c - linked into the sanitizer build of a whole-program
 * benchmark target by `cargo xtask bench`.  `cargo symtest replay --native`
 * runs programs with an empty environment (as symtest's POSIX environment
 * does), so the sanitizers' options are compiled in instead of read from
 * ASAN_OPTIONS / UBSAN_OPTIONS: no leak checking (the utilities exit with
 * memory still allocated), a stack trace with every UBSan report so
 * that its line in the program can be found, and an allocation above the
 * engine's limit (1024 MiB, `exec --max-alloc-size`) returning NULL.
 */
const char *__asan_default_options(void) {
  return "detect_leaks=0:handle_abort=1:allocator_may_return_null=1:"
         "max_allocation_size_mb=1024:strict_memcmp=0";
}

const char *__ubsan_default_options(void) { return "print_stacktrace=1"; }
