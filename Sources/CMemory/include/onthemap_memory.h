#ifndef ONTHEMAP_MEMORY_H
#define ONTHEMAP_MEMORY_H

#include <stddef.h>

/// glibc's allocator controls and its list of loaded objects (<link.h>), which Swift's Glibc
/// module does not export.
/// At most `arenas` arenas, glibc's threshold for mapping a block on its own fixed at 32 MiB, and
/// its threshold for giving back the top of the heap at 64 MiB (both where glibc's own would move).
void onthemap_tune_malloc(int arenas);
/// Between `onthemap_map_large_blocks(1)` and `(0)` (nested calls counted), blocks of 128 KiB or more
/// get mappings of their own, so what is built meanwhile and freed later goes back whole: the
/// geocoder's index (arrays of MiBs) came from the arenas otherwise, where small blocks allocated
/// meanwhile pinned ~7 MiB of it after it was dropped. Only for data built to be dropped: every
/// large block of a reply mapped and unmapped again cost `students {limit: 10000}` twice its time.
void onthemap_map_large_blocks(int on);
void onthemap_malloc_trim(void);

/// Drops this process's mappings of every loaded object's read-only segments (the executable's and
/// each shared library's, not the vDSO) and returns how many bytes they span. The pages stay in the
/// page cache and come back on first touch. Read-only segments hold the file's bytes as they are:
/// relocated data (RELRO) lives in writable segments, which are left alone, and an object whose code
/// the loader relocates (text relocations) is skipped. What the linker put in a writable segment
/// stays mapped: gold puts `.rodata` there when any input's `.rodata` is writable, as some of
/// Foundation's are. Runs under the loader's lock, so no object is loaded or unloaded meanwhile.
/// Probes written into code without ptrace (uprobes: bpftrace, `perf probe -x`) live in private
/// copies of its pages, which this drops.
size_t onthemap_release_readonly_segments(void);

/// Asks the kernel to drop the executable's pages from the page cache; 0 when asked, -1 if the
/// executable could not be opened. Only pages no process maps go: call it after
/// `onthemap_release_readonly_segments`. The page cache a process reads first is charged to its
/// control group, which is the memory `systemctl status` shows for a unit: without this, a daemon
/// started after a reboot was shown with every page of its executable it had ever touched (and the
/// kernel's read-ahead around them), tens of MiB, however little it held.
int onthemap_drop_executable_page_cache(void);

#endif
