#!/usr/bin/env python3
"""Writes the link order of `onthemap`'s functions and data: what `onthemap status` touches, first.

Usage: client-symbol-order.py CLIENT SOCKET OUTPUT
       client-symbol-order.py --check LIST CLIENT SOCKET

CLIENT is an unstripped build of `onthemap`, SOCKET a running daemon's socket. Runs the status-bar
commands under Valgrind's Lackey, which reports every instruction and data access, maps each address
to the symbol that holds it, and writes the symbols in the order they were first touched.

With --check, writes nothing: it says how many of the symbols `status` touches LIST holds, names the
missing ones, and exits 1 when more than a few are missing (the list is stale: regenerate it).

Why: `onthemap status` runs for about a millisecond, and over a third of that went to page faults. The
kernel maps a program's file in 64 KiB steps on first touch, and the code start-up needs was spread
over 6 MB of a 10 MB text segment. Linked in this order (`scripts/build-client.sh`, lld's
`--symbol-ordering-file`) it sits together and far fewer pages fault. Symbols that later change name
are ignored by the linker, so an old list costs speed, never correctness. It did cost speed: 55 of
the 1,140 symbols `status` touched had changed name since the list was written (a new argument to
the socket lookup, a new reply field), and the client took 1.23x the C client's time instead of
1.14x, with 88 page faults instead of 82. `make test` runs --check on the client it builds.
"""
import bisect
import subprocess
import sys
import tempfile

# A few names may differ run to run (an error path that a slower machine takes): more is a stale list.
MISSING_ALLOWED = 10

arguments = sys.argv[1:]
check_list = None
if arguments[:1] == ["--check"]:
    check_list, arguments = arguments[1], arguments[2:]
    client, socket_path = arguments[:2]
else:
    client, socket_path, output = arguments[:3]

# What status bars and scripts run every few seconds, the offline case included.
RUNS = [
    ["status", "--socket", socket_path],
    ["status", "--format", "waybar", "--socket", socket_path],
    ["status", "--json", "--socket", socket_path],
    ["status", "--format", "i3blocks", "--socket", socket_path + ".absent"],
    ["status", "--socket", socket_path + ".absent"],
]


def symbol_table(binary):
    """Sorted (start, end, name) of every defined symbol; a symbol without a size ends where the next begins."""
    listing = subprocess.run(["nm", "--defined-only", "-n", "-S", binary], capture_output=True, text=True, check=True).stdout
    raw = []
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4:
            raw.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
        elif len(fields) == 3:
            raw.append((int(fields[0], 16), 0, fields[2]))
    raw.sort()
    table = []
    for index, (start, size, name) in enumerate(raw):
        if size == 0:
            following = next((s for s, _, _ in raw[index + 1:] if s > start), start + 1)
            size = following - start
        table.append((start, start + size, name))
    return table


def touched_addresses(arguments):
    """Instruction and data addresses in the order Lackey saw them, each once."""
    with tempfile.NamedTemporaryFile(suffix=".lackey") as trace:
        run = subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={trace.name}", client, *arguments],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The offline runs exit 2 (no daemon); a crash under Valgrind would leave a partial trace.
        if run.returncode not in (0, 2):
            sys.exit(f"{' '.join(arguments)} under Valgrind exited {run.returncode}")
        seen = set()
        for line in open(trace.name, errors="replace"):
            if line.startswith("=="):
                continue
            address = int(line[3:].split(",", 1)[0], 16)
            if address not in seen:
                seen.add(address)
                yield address


table = symbol_table(client)
starts = [start for start, _, _ in table]
ordered, listed = [], set()
for arguments in RUNS:
    for address in touched_addresses(arguments):
        index = bisect.bisect_right(starts, address) - 1
        # Symbols can nest (a section symbol over the functions in it): take the innermost that holds it.
        while index >= 0 and not (table[index][0] <= address < table[index][1]):
            index -= 1
            if index >= 0 and address - table[index][0] > 1 << 20:
                index = -1
        if index < 0:
            continue
        name = table[index][2]
        if name not in listed:
            listed.add(name)
            ordered.append(name)

if check_list is not None:
    committed = set(open(check_list).read().split())
    missing = [name for name in ordered if name not in committed]
    # A trace that came back nearly empty checks nothing.
    if len(ordered) < len(committed) * 0.8:
        sys.exit(f"only {len(ordered)} symbols touched, against {len(committed)} in {check_list}: the trace failed")
    print(f"{len(ordered) - len(missing)} of the {len(ordered)} symbols `onthemap status` touches are in {check_list}")
    for name in missing[:20]:
        print(f"  missing: {name}")
    if len(missing) > MISSING_ALLOWED:
        print(f"{len(missing)} missing (at most {MISSING_ALLOWED} allowed): the list is stale; regenerate it with\n"
              f"  scripts/client-symbol-order.py CLIENT SOCKET {check_list}", file=sys.stderr)
        sys.exit(1)
    sys.exit(0)

with open(output, "w") as file:
    file.write("".join(name + "\n" for name in ordered))
print(f"{len(ordered)} symbols written to {output}", file=sys.stderr)
