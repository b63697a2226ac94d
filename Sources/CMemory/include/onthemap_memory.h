#ifndef ONTHEMAP_MEMORY_H
#define ONTHEMAP_MEMORY_H

/// glibc's allocator controls (<malloc.h>), which Swift's Glibc module does not export.
/// At most `arenas` arenas, glibc's threshold for mapping a block on its own fixed at 32 MiB, and
/// its threshold for giving back the top of the heap at 64 MiB (both where glibc's own would move).
void onthemap_tune_malloc(int arenas);
/// Gives free memory at the top of the heap and in every arena's free pages back to the kernel.
void onthemap_malloc_trim(void);

#endif
