#include "onthemap_memory.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void onthemap_limit_malloc_arenas(int arenas) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, arenas);
    /* Blocks of 128 KiB and more each get a mapping of their own, given back whole when freed.
     * glibc's default raises that threshold to the size of each such block freed (up to 32 MiB),
     * after which the geocoder's index (arrays of MiBs, built and dropped again) came from the
     * arenas, where small blocks allocated meanwhile pinned ~7 MiB of it after it was dropped. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#else
    (void)arenas;
#endif
}

void onthemap_malloc_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
