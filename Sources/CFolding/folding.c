// Embeds folding.tsv (built by scripts/build-gazetteer.py, beside the gazetteer) with C23's #embed,
// as CGazetteer embeds its text: the fold table alone (22 KB), for programs that search names and
// places without the gazetteer's 10 MB (the onthemap client), and for the gazetteer itself.
#include "onthemap_folding.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char folding[] = {
#embed "folding.tsv"
};

const unsigned char *onthemap_folding_bytes(size_t *count) {
    *count = sizeof folding;
    return folding;
}
