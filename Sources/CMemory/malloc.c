#include "onthemap_memory.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* Blocks at least this large get a mapping of their own, given back whole when freed; smaller ones
 * come from the arenas, which reuse freed memory at once. glibc raises its threshold by itself, to
 * the size of each such block freed and up to 32 MiB: fixed there from the start, a large reply
 * (`students {limit: 10000}`, 2.9 MB) is not mapped and unmapped again each time. */
static const int arena_threshold = 32 * 1024 * 1024;

void onthemap_tune_malloc(int arenas) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, arenas);
    mallopt(M_MMAP_THRESHOLD, arena_threshold);
    /* Setting one threshold fixes the other at its default, 128 KiB: every large reply freed at the
     * top of the heap was then given back and faulted in again by the next (twice the time for
     * `students {limit: 10000}`). Twice the first, as glibc's moving thresholds would be; what is
     * free is given back after bursts and when the geocoder's index is dropped (`onthemap_malloc_trim`). */
    mallopt(M_TRIM_THRESHOLD, 2 * arena_threshold);
#else
    (void)arenas;
#endif
}

void onthemap_malloc_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
