"""A process's memory as `systemctl status` shows a unit's: what its control group is charged.

systemd reads `memory.current` of the unit's cgroup (cgroup v2), or `memory.usage_in_bytes` of its
memory controller (v1). That counts the process's own memory and also the page cache it brought in
first: pages of its executable read after a reboot, and files it wrote. RSS counts only what is
mapped now, so the two differ; users see the first.

`UnitCgroup(name)` makes a cgroup of that name (root needed), `command(argv)` runs argv inside it
from its first instruction, `usage()` and `breakdown()` read it. Without a writable memory
controller, `available()` says why.
"""
import os
import shutil
import time

V2_ROOT = "/sys/fs/cgroup"
V1_ROOT = "/sys/fs/cgroup/memory"


def _v2_has_memory():
    try:
        return "memory" in open(os.path.join(V2_ROOT, "cgroup.controllers")).read().split()
    except OSError:
        return False


def available():
    """None when a unit's memory can be measured here, else why not."""
    if os.geteuid() != 0:
        return "needs root to make a cgroup"
    if not (_v2_has_memory() or os.path.isdir(V1_ROOT)):
        return "no cgroup memory controller is mounted"
    try:
        UnitCgroup("onthemap-bench-probe").remove()
    except OSError as error:
        return f"cannot make a cgroup here ({error})"
    return None


class UnitCgroup:
    def __init__(self, name):
        self.v2 = _v2_has_memory()
        root = V2_ROOT if self.v2 else V1_ROOT
        if self.v2:
            # The root's children get the memory controller only when the root hands it down.
            with open(os.path.join(V2_ROOT, "cgroup.subtree_control"), "w") as f:
                f.write("+memory")
        self.path = os.path.join(root, name)
        self.remove()
        os.mkdir(self.path)

    def command(self, argv):
        """argv, started in this cgroup: a shell moves itself in, then execs argv."""
        return ["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', self.path, *argv]

    def usage(self):
        """Bytes charged, as systemd reads them."""
        name = "memory.current" if self.v2 else "memory.usage_in_bytes"
        return int(open(os.path.join(self.path, name)).read())

    def breakdown(self):
        """(anonymous, page cache) bytes charged."""
        stat = {}
        for line in open(os.path.join(self.path, "memory.stat")):
            key, value = line.split()
            stat[key] = int(value)
        if self.v2:
            return stat.get("anon", 0), stat.get("file", 0)
        return stat.get("rss", 0), stat.get("cache", 0)

    def remove(self):
        if not os.path.isdir(self.path):
            return
        for _ in range(50):
            try:
                os.rmdir(self.path)
                return
            except OSError:
                time.sleep(0.1)  # its last process is still exiting


def read_ahead_file(path):
    """The sysfs file holding the read-ahead (KiB) of the block device `path` lives on, or None.

    The kernel reads that much around each page a program faults in from its executable, and the
    unit is charged for all of it: 128 KiB is the kernel's default; some virtual disks use more."""
    device = os.stat(path).st_dev
    block = f"/sys/dev/block/{os.major(device)}:{os.minor(device)}"
    for candidate in (f"{block}/queue/read_ahead_kb", f"{block}/../queue/read_ahead_kb"):
        if os.path.exists(candidate):
            return os.path.realpath(candidate)
    return None


def uncached_copy(source, destination):
    """A copy of an executable that is not in the page cache, as after a reboot: its pages are read,
    and charged, by the process that first runs it."""
    shutil.copy2(source, destination)
    with open(destination, "rb") as f:
        os.fsync(f.fileno())
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    return destination
