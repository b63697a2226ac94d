// Embeds world.bin (built by scripts/build-world-map.py) and labels.bin (scripts/build-map-labels.py)
// in read-only data: the daemon reads the map straight from the executable's pages, so it costs no
// anonymous memory and is paged in only when drawn. The paths resolve through the target's header
// search path ("."), set in Package.swift.
// A section of its own, not .rodata: the linker (gold) makes .rodata writable when any input's is,
// and only read-only segments are released when the daemon is quiet (MemoryTrimmer).
    .section .onthemap.worldmap,"a",@progbits
    .global onthemap_world_start
    .global onthemap_world_end
    .balign 4096
onthemap_world_start:
    .incbin "world.bin"
onthemap_world_end:
    .byte 0
    .global onthemap_labels_start
    .global onthemap_labels_end
    .balign 8
onthemap_labels_start:
    .incbin "labels.bin"
onthemap_labels_end:
    .byte 0
    .section .note.GNU-stack,"",@progbits
