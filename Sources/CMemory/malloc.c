#include "onthemap_memory.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void onthemap_limit_malloc_arenas(int arenas) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, arenas);
#else
    (void)arenas;
#endif
}

void onthemap_malloc_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
