#define _GNU_SOURCE
#include "onthemap_memory.h"

#include <fcntl.h>
#include <unistd.h>

int onthemap_drop_executable_page_cache(void) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    /* The kernel drops only clean pages that no process maps: this process's own mapped pages,
     * and any another process runs, stay. */
    int result = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
    return result == 0 ? 0 : -1;
}
