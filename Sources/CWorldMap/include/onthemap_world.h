#ifndef ONTHEMAP_WORLD_H
#define ONTHEMAP_WORLD_H

#include <stddef.h>

/// The embedded world map (see docs/MAP.md): its first byte, and its length through `count`.
const unsigned char *onthemap_world_bytes(size_t *count);

/// The embedded place names for the map (see docs/MAP.md), likewise.
const unsigned char *onthemap_labels_bytes(size_t *count);

#endif
