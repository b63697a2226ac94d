#ifndef ONTHEMAP_FOLDING_H
#define ONTHEMAP_FOLDING_H

#include <stddef.h>

/// The embedded fold table's text: its first byte, and its length through `count`.
const unsigned char *onthemap_folding_bytes(size_t *count);

#endif
