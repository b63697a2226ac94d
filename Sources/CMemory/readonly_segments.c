#define _GNU_SOURCE
#include "onthemap_memory.h"

#include <link.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

struct release_state {
    uintptr_t vdso;
    uintptr_t page;
    size_t released;
};

/* Whether the loader writes relocations into the object's code (text relocations): then its
 * read-only segments hold more than the file's bytes. Toolchains today produce none. */
static int has_text_relocations(const struct dl_phdr_info *info) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + segment->p_vaddr); entry->d_tag != DT_NULL;
             entry++) {
            if (entry->d_tag == DT_TEXTREL || (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL))) return 1;
        }
    }
    return 0;
}

static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    struct release_state *state = data;
    (void)size;
    /* The vDSO is the kernel's own mapping, not a file: left as it is. */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && state->vdso >= start && state->vdso < start + segment->p_memsz) return 0;
    }
    if (has_text_relocations(info)) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W)) continue;
        /* Whole pages inside the segment's file bytes only: a page it shares with another segment
         * is not its to drop, and past p_filesz the loader zeroed what the file holds. */
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + state->page - 1) & ~(state->page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_filesz) & ~(state->page - 1);
        if (end > start && madvise((void *)start, end - start, MADV_DONTNEED) == 0) state->released += end - start;
    }
    return 0;
}

size_t onthemap_release_readonly_segments(void) {
    struct release_state state = {
        .vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR), .page = (uintptr_t)sysconf(_SC_PAGESIZE), .released = 0};
    dl_iterate_phdr(release_object, &state);
    return state.released;
}
