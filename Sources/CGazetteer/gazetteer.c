#include "onthemap_gazetteer.h"

extern const unsigned char onthemap_gazetteer_start[];
extern const unsigned char onthemap_gazetteer_end[];

const unsigned char *onthemap_gazetteer_bytes(size_t *count) {
    *count = (size_t)(onthemap_gazetteer_end - onthemap_gazetteer_start);
    return onthemap_gazetteer_start;
}
