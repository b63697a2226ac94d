#ifndef ONTHEMAP_CSYSTEMD_SHIM_H
#define ONTHEMAP_CSYSTEMD_SHIM_H

#include <systemd/sd-daemon.h>
#include <sys/types.h>

/* Glibc hides `struct ucred` behind _GNU_SOURCE, which Swift's Glibc module does not define:
   a mirror with the same layout, for SO_PEERCRED. */
struct onthemap_ucred {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

#endif
