/* symtest's OpenMP runtime library for serial OpenMP (omp.h): code built
 * with -fopenmp runs with its `#pragma omp` ignored, on one thread, so each
 * routine answers as a runtime whose only thread is thread 0 of a team of 1,
 * outside any parallel region. The settings a program may read back (dynamic,
 * nested, schedule, active levels, default device) are kept; the number of
 * threads stays 1. A lock records whether it is held: setting a held simple
 * lock (a deadlock on one thread) or releasing a lock not held aborts.
 * The same file is part of the engine's runtime (with the POSIX model) and
 * is linked into every native build of such code, instead of libgomp. */
#include <stdlib.h>
#include <time.h>
#include "omp.h"

static int dynamic_threads;
static int nested;
static omp_sched_t schedule_kind = omp_sched_static;
static int schedule_chunk;
static int max_active_levels = 1;
static int default_device;

void omp_set_num_threads(int num_threads) { (void)num_threads; }
int omp_get_num_threads(void) { return 1; }
int omp_get_max_threads(void) { return 1; }
int omp_get_thread_num(void) { return 0; }
int omp_get_num_procs(void) { return 1; }
int omp_in_parallel(void) { return 0; }
void omp_set_dynamic(int d) { dynamic_threads = d != 0; }
int omp_get_dynamic(void) { return dynamic_threads; }
int omp_get_cancellation(void) { return 0; }
void omp_set_nested(int n) { nested = n != 0; }
int omp_get_nested(void) { return nested; }

void omp_set_schedule(omp_sched_t kind, int chunk_size)
{
	schedule_kind = kind;
	schedule_chunk = chunk_size;
}

void omp_get_schedule(omp_sched_t *kind, int *chunk_size)
{
	*kind = schedule_kind;
	*chunk_size = schedule_chunk;
}

int omp_get_thread_limit(void) { return 1; }

void omp_set_max_active_levels(int max_levels)
{
	if (max_levels >= 0)
		max_active_levels = max_levels;
}

int omp_get_max_active_levels(void) { return max_active_levels; }
int omp_get_level(void) { return 0; }
int omp_get_ancestor_thread_num(int level) { return level == 0 ? 0 : -1; }
int omp_get_team_size(int level) { return level == 0 ? 1 : -1; }
int omp_get_active_level(void) { return 0; }
int omp_in_final(void) { return 0; }
omp_proc_bind_t omp_get_proc_bind(void) { return omp_proc_bind_false; }
int omp_get_num_places(void) { return 0; }
int omp_get_place_num_procs(int place_num) { (void)place_num; return 0; }
void omp_get_place_proc_ids(int place_num, int *ids) { (void)place_num; (void)ids; }
int omp_get_place_num(void) { return -1; }
int omp_get_partition_num_places(void) { return 0; }
void omp_get_partition_place_nums(int *place_nums) { (void)place_nums; }
int omp_get_max_task_priority(void) { return 0; }

void omp_set_default_device(int device_num) { default_device = device_num; }
int omp_get_default_device(void) { return default_device; }
int omp_get_num_devices(void) { return 0; }
int omp_get_num_teams(void) { return 1; }
int omp_get_team_num(void) { return 0; }
int omp_is_initial_device(void) { return 1; }
/* The host, numbered as OpenMP 4.5 numbers it: after the (no) devices. */
int omp_get_initial_device(void) { return 0; }

void omp_init_lock(omp_lock_t *lock) { lock->locked = 0; }

void omp_init_lock_with_hint(omp_lock_t *lock, omp_lock_hint_t hint)
{
	(void)hint;
	lock->locked = 0;
}

void omp_destroy_lock(omp_lock_t *lock) { lock->locked = 0; }

void omp_set_lock(omp_lock_t *lock)
{
	/* The only thread holds it: it would wait forever. */
	if (lock->locked)
		abort();
	lock->locked = 1;
}

void omp_unset_lock(omp_lock_t *lock)
{
	if (!lock->locked)
		abort();
	lock->locked = 0;
}

int omp_test_lock(omp_lock_t *lock)
{
	if (lock->locked)
		return 0;
	lock->locked = 1;
	return 1;
}

void omp_init_nest_lock(omp_nest_lock_t *lock) { lock->count = 0; }

void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_lock_hint_t hint)
{
	(void)hint;
	lock->count = 0;
}

void omp_destroy_nest_lock(omp_nest_lock_t *lock) { lock->count = 0; }

/* The only thread owns every nestable lock it sets. */
void omp_set_nest_lock(omp_nest_lock_t *lock) { lock->count++; }

void omp_unset_nest_lock(omp_nest_lock_t *lock)
{
	if (lock->count <= 0)
		abort();
	lock->count--;
}

int omp_test_nest_lock(omp_nest_lock_t *lock) { return ++lock->count; }

/* The wall clock, as the rest of the program sees it (the model's fixed
 * time under the engine and in the native builds: time does not pass). */
double omp_get_wtime(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double omp_get_wtick(void) { return 1e-9; }
