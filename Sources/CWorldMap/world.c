// Embeds world.bin (built by scripts/build-world-map.py) and labels.bin (scripts/build-map-labels.py)
// with C23's #embed, in read-only data: the daemon reads the map straight from the executable's
// pages, so it costs no anonymous memory and is paged in only when drawn. #embed, not the
// assembler's .incbin: the compiler lists the files among the object's dependencies, so new data
// rebuilds it (an .incbin'd file stayed stale after a regeneration). The paths resolve through the
// target's header search path ("."), set in Package.swift.
// A section of its own, not .rodata, so scripts/binary-sizes.py can say what the map adds to the
// daemon.
#include "onthemap_world.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

__attribute__((section(".onthemap.worldmap")))
static const unsigned char world[] = {
#embed "world.bin"
};

__attribute__((section(".onthemap.worldmap")))
static const unsigned char labels[] = {
#embed "labels.bin"
};

const unsigned char *onthemap_world_bytes(size_t *count) {
    *count = sizeof world;
    return world;
}

const unsigned char *onthemap_labels_bytes(size_t *count) {
    *count = sizeof labels;
    return labels;
}
