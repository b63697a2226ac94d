// Embeds gazetteer.tsv (built by scripts/build-gazetteer.py) with C23's #embed, in read-only data, so
// the daemon needs no data file at run time and the kernel pages the text in from the executable only
// when it is read. #embed, not the assembler's .incbin: the compiler lists the file among the object's
// dependencies, so a regenerated gazetteer rebuilds it. The path resolves through the target's header
// search path ("."), set in Package.swift.
// A section of its own, not .rodata: the linker (gold) makes .rodata writable when any input's is, and
// scripts/binary-sizes.py reads the data's size from the section.
#include "onthemap_gazetteer.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

__attribute__((section(".onthemap.gazetteer"), aligned(4096)))
static const unsigned char gazetteer[] = {
#embed "gazetteer.tsv"
};

const unsigned char *onthemap_gazetteer_bytes(size_t *count) {
    *count = sizeof gazetteer;
    return gazetteer;
}
