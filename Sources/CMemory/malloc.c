#include "onthemap_memory.h"

#include <pthread.h>
#include <stdlib.h> /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* Blocks at least this large get a mapping of their own, given back whole when freed; smaller ones
 * come from the arenas, which reuse freed memory at once. glibc raises its threshold by itself, to
 * the size of each such block freed and up to 32 MiB; fixed at that, it never moves while the
 * geocoder's index is built (`onthemap_map_large_blocks`). */
static const int arena_threshold = 32 * 1024 * 1024;
static const int mapped_threshold = 128 * 1024;
/* Builds under way; the lock keeps the count and the threshold in step (with only an atomic count, a
 * build ending as another began could leave the 128 KiB threshold set with none under way). */
static int mapping_large_blocks = 0;
static pthread_mutex_t mapping_lock = PTHREAD_MUTEX_INITIALIZER;

void onthemap_tune_malloc(int arenas) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, arenas);
    mallopt(M_MMAP_THRESHOLD, arena_threshold);
    /* Setting one threshold fixes the other at its default, 128 KiB: every large reply freed at the
     * top of the heap was then given back and faulted in again by the next (twice the time for
     * `students {limit: 10000}`). Twice the first, as glibc's moving thresholds would be; what is
     * free is given back when the daemon falls quiet (`onthemap_malloc_trim`). */
    mallopt(M_TRIM_THRESHOLD, 2 * arena_threshold);
#else
    (void)arenas;
#endif
}

void onthemap_map_large_blocks(int on) {
#if defined(__GLIBC__)
    pthread_mutex_lock(&mapping_lock);
    int before = mapping_large_blocks;
    mapping_large_blocks += on ? 1 : -1;
    if ((before == 0) != (mapping_large_blocks == 0))
        mallopt(M_MMAP_THRESHOLD, mapping_large_blocks > 0 ? mapped_threshold : arena_threshold);
    pthread_mutex_unlock(&mapping_lock);
#else
    (void)on;
#endif
}

void onthemap_malloc_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
