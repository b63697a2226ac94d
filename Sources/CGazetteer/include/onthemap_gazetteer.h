#ifndef ONTHEMAP_GAZETTEER_H
#define ONTHEMAP_GAZETTEER_H

#include <stddef.h>

/// The embedded gazetteer text: its first byte, and its length through `count`.
const unsigned char *onthemap_gazetteer_bytes(size_t *count);

#endif
