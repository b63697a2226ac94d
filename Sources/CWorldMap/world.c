#include "onthemap_world.h"

extern const unsigned char onthemap_world_start[];
extern const unsigned char onthemap_world_end[];
extern const unsigned char onthemap_labels_start[];
extern const unsigned char onthemap_labels_end[];

const unsigned char *onthemap_world_bytes(size_t *count) {
    *count = (size_t)(onthemap_world_end - onthemap_world_start);
    return onthemap_world_start;
}

const unsigned char *onthemap_labels_bytes(size_t *count) {
    *count = (size_t)(onthemap_labels_end - onthemap_labels_start);
    return onthemap_labels_start;
}
