#ifndef ONTHEMAP_MALLOC_H
#define ONTHEMAP_MALLOC_H

/// glibc's allocator controls, which Swift's Glibc module does not export.
void onthemap_limit_malloc_arenas(int arenas);
void onthemap_malloc_trim(void);

#endif
