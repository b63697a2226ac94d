// Embeds gazetteer.tsv (built by scripts/build-gazetteer.py) in read-only data, so the daemon needs no
// data file at run time and the kernel pages the text in from the executable only when it is read.
// The path resolves through the target's header search path ("."), set in Package.swift.
// A section of its own, not .rodata: the linker (gold) makes .rodata writable when any input's is, and
// scripts/binary-sizes.py reads the data's size from the section.
    .section .onthemap.gazetteer,"a",@progbits
    .global onthemap_gazetteer_start
    .global onthemap_gazetteer_end
    .balign 4096
onthemap_gazetteer_start:
    .incbin "gazetteer.tsv"
onthemap_gazetteer_end:
    .byte 0
    .section .note.GNU-stack,"",@progbits
