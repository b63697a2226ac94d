// Embeds world.bin (built by scripts/build-world-map.py) in read-only data: the daemon reads the map
// straight from the executable's pages, so it costs no anonymous memory and is paged in only when
// drawn. The path resolves through the target's header search path ("."), set in Package.swift.
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
    .section .note.GNU-stack,"",@progbits
