#!/usr/bin/env python3
"""Writes the link order of `onthemap`'s functions and data: what `onthemap status` touches, first.

Usage: client-symbol-order.py CLIENT SOCKET OUTPUT
       client-symbol-order.py --check LIST CLIENT SOCKET

CLIENT is an unstripped build of `onthemap`, SOCKET a running daemon's socket. Runs the status-bar
commands under Valgrind's Lackey, which reports every instruction and data access, maps each address
to the symbol that holds it, and writes the symbols in the order they were first touched. With gdb
installed it also lists the variants of glibc's string functions this CPU runs, which Valgrind's
virtual CPU does not (see cpu_string_functions).

With --check, writes nothing: it says how many of the symbols `status` touches LIST holds, names the
missing ones, and exits 1 when more than a few are missing (the list is stale: regenerate it) or, from
the link map, when more than a few of them were placed after the standard library's code.

The linker moves input sections, not symbols. Our Swift code and the packages' are compiled with one
section per function (`scripts/build-client.sh`), but the prebuilt Swift libraries are not: the
standard library's code is one 1.6 MB section. The link map CLIENT.map (build-client.sh writes it)
tells the script which sections those are (see by_section); --check needs it.

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
import re
import shutil
import subprocess
import sys
import tempfile

# A few names may differ run to run (an error path that a slower machine takes): more is a stale list.
MISSING_ALLOWED = 10
# Names the linker placed after the standard library's code that a few such runs may add; more is a
# layout that splits the start-up code (see by_section).
LATE_ALLOWED = 10

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
    """Sorted (start, end, name, is_code) of every defined symbol; a symbol without a size ends where
    the next begins."""
    listing = subprocess.run(["nm", "--defined-only", "-n", "-S", binary],
                             capture_output=True, text=True, check=True).stdout
    raw = []
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4:
            raw.append((int(fields[0], 16), int(fields[1], 16), fields[3], fields[2] in "tTwW"))
        elif len(fields) == 3:
            raw.append((int(fields[0], 16), 0, fields[2], fields[1] in "tTwW"))
    raw.sort()
    table = []
    for index, (start, size, name, is_code) in enumerate(raw):
        if size == 0:
            following = next((entry[0] for entry in raw[index + 1:] if entry[0] > start), start + 1)
            size = following - start
        table.append((start, start + size, name, is_code))
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
starts = [entry[0] for entry in table]


def holder(address):
    """(name, exact): the symbol whose input section holds `address`, for the linker to place that
    section; exact is False when no symbol holds it and the one before it is named instead."""
    before = bisect.bisect_right(starts, address) - 1
    # Symbols can nest (a section symbol over the functions in it): take the innermost that holds it.
    index = before
    while index >= 0 and address - table[index][0] <= 1 << 20:
        if table[index][0] <= address < table[index][1]:
            return table[index][2], True
        index -= 1
    # Code with no symbol of its own (a closure's destroy function) sits in the section of the function
    # before it; naming that function puts the section in place. Dropping the address left a whole
    # file's code out of the order. Which symbol comes before depends on the layout, so --check
    # leaves these names out. Not for data: what has no symbol there is merged constants (string
    # literals), which no order moves, and the symbol before them is unrelated.
    if before >= 0 and table[before][3] and address - table[before][0] <= 1 << 16:
        return table[before][2], False
    return None, False


# An input section this large is a whole prebuilt library's code (the standard library's 1.6 MB, the
# regex parser's 476 KB): the list cannot pack it, only place it.
WHOLE_LIBRARY = 256 * 1024


def input_sections(link_map):
    """{symbol name: (output section, start, size) of each input section that defines it}, from
    lld's map (-Map). A local name (an outlined copy, a merged thunk) can be defined in many files."""
    header = link_map.readline()
    if "Out" not in header or "In " not in header:
        sys.exit(f"{link_map.name} is not a link map written by lld's -Map")
    out_column, in_column = header.index("Out"), header.index("In ")
    sections = {}
    output, section = "", ("", 0, 0)
    for line in link_map:
        fields = line[:out_column].split()
        if len(fields) != 4:
            continue
        if line[out_column] != " ":
            output = line[out_column:].strip()
        elif len(line) <= in_column:
            continue
        elif line[in_column] != " ":
            section = (output, int(fields[0], 16), int(fields[2], 16))  # an input section; its symbols follow
        else:
            sections.setdefault(line[in_column:].strip(), []).append(section)
    return sections


def whole_library(name, sections):
    """Whether a section too large to pack defines `name`."""
    return any(size >= WHOLE_LIBRARY for _, _, size in sections.get(name, []))


def placed_after_library(names, sections):
    """The names in `.text` the linker could have packed that it placed after the standard library's
    code (the largest section holding one of `names`): each is a page fault the order was meant to
    save."""
    def code(name):
        return [(start, size) for output, start, size in sections.get(name, []) if output == ".text"]
    largest = max(((size, start) for name in names for start, size in code(name)), default=None)
    if largest is None or largest[0] < WHOLE_LIBRARY:
        return []
    library = largest[1]
    return [name for name in names if code(name) and not whole_library(name, sections)
            and min(start for start, _ in code(name)) > library]


def by_section(listed_order, sections):
    """The names, those in whole-library sections moved to the end, so that every section the
    linker can pack sits together before the standard library's code instead of on both sides of it
    (the linker puts a section where its first name is listed). A name defined more than once with one of its definitions in such a section is dropped:
    the linker would move every file's definition (`$sSqwxx`, an Optional's destroy function, pulled
    the regex parser's and string processing's code, 864 KB, into the start-up region)."""
    dropped = {name for name in listed_order if whole_library(name, sections) and len(sections[name]) > 1}
    kept = [name for name in listed_order if name not in dropped]
    return ([name for name in kept if not whole_library(name, sections)]
            + [name for name in kept if whole_library(name, sections)])


# glibc's static start-up gives the vDSO a link map and looks its functions up (`setup_vdso` and
# `setup_vdso_pointers` in `_dl_non_dynamic_init`). Valgrind gives the client no vDSO, so the trace
# never sees this code; it cost a page fault at the far end of `.text`.
VDSO_SETUP = ["_dl_new_object", "_dl_add_to_namespace_list", "_dl_setup_hash", "_dl_lookup_symbol_x", "do_lookup_x"]


def vdso_setup(listed_order):
    """The order with VDSO_SETUP's names (those the binary has) after `_dl_non_dynamic_init`."""
    defined = {name for _, _, name, _ in table}
    missing = [name for name in VDSO_SETUP if name in defined and name not in listed_order]
    if "_dl_non_dynamic_init" not in listed_order:
        return listed_order + missing
    after = listed_order.index("_dl_non_dynamic_init") + 1
    return listed_order[:after] + missing + listed_order[after:]


def cpu_string_functions(listed_order):
    """The variants of glibc's string functions (memmove, strlen…) this CPU runs, each placed after
    the variant the trace saw. Valgrind's virtual CPU has no AVX-512, so glibc's resolvers pick other
    variants under it (`__strlen_avx2`) than on a machine that has it (`__strlen_evex`): a list
    made of the trace alone leaves the real ones anywhere in `.text`, a page fault each. gdb reads
    what the resolvers wrote into the IRELATIVE slots by the time `main` runs."""
    if shutil.which("gdb") is None:
        print("gdb is not installed: the string functions this CPU picks are not added", file=sys.stderr)
        return listed_order
    relocations = subprocess.run(["readelf", "-rW", client], capture_output=True, text=True, check=True).stdout
    slots = [line.split()[0] for line in relocations.splitlines() if "IRELATIV" in line]
    commands = ["set pagination off", "break main", "run --version >/dev/null"] + [f"x/a 0x{slot}" for slot in slots]
    with tempfile.NamedTemporaryFile("w", suffix=".gdb") as script:
        script.write("\n".join(commands) + "\n")
        script.flush()
        answer = subprocess.run(["gdb", "-q", "-batch", "-nx", "-x", script.name, client],
                                capture_output=True, text=True).stdout
    targets = [int(match, 16) for match in re.findall(r"^0x[0-9a-f]+(?: <[^>]*>)?:\s+(0x[0-9a-f]+)", answer, re.M)]
    if slots and len(targets) != len(slots):
        print(f"gdb read {len(targets)} of {len(slots)} IRELATIVE slots (did it reach main?): "
              "the string functions this CPU picks are not added", file=sys.stderr)
        return listed_order

    def function(variant):  # `__memmove_avx512_unaligned_erms` → `memmove`, as is `memmove` itself
        return re.sub(r"_(sse2|ssse3|sse41|sse42|avx|avx2|avx512|evex|fma|fma3|fma4)(_.*)?$", "", variant).lstrip("_")

    # memcpy's variants are aliases of memmove's: any name at the address may be the one the trace saw.
    aliases = {target: set() for target in targets}
    for start, _, name, _ in table:
        if start in aliases:
            aliases[start].add(function(name))
    result = list(listed_order)
    for target in targets:
        name = holder(target)[0]
        if name is None or name in result:
            continue
        # Placed after the first variant of the same function the trace saw; one it never saw is not
        # run by `status` on any CPU.
        sibling = next((i for i, listed in enumerate(result) if function(listed) in aliases[target]), None)
        if sibling is not None:
            result.insert(sibling + 1, name)
    return result


ordered, listed, held = [], set(), set()
for arguments in RUNS:
    for address in touched_addresses(arguments):
        name, exact = holder(address)
        if name is None:
            continue
        if exact:
            held.add(name)
        if name not in listed:
            listed.add(name)
            ordered.append(name)

try:
    with open(client + ".map") as link_map:
        sections = input_sections(link_map)
except FileNotFoundError:
    if check_list is not None:
        sys.exit(f"no link map at {client}.map: build the client with scripts/build-client.sh, which writes it")
    print(f"no link map at {client}.map (scripts/build-client.sh writes it): "
          "the list is in the order the trace touched, whatever the sections", file=sys.stderr)
    sections = {}
ordered = by_section(vdso_setup(ordered), sections)

if check_list is not None:
    committed = set(open(check_list).read().split())
    checked = [name for name in ordered if name in held]
    missing = [name for name in checked if name not in committed]
    # A trace that came back nearly empty checks nothing.
    if len(checked) < len(committed) * 0.8:
        sys.exit(f"only {len(checked)} symbols touched, against {len(committed)} in {check_list}: the trace failed")
    print(f"{len(checked) - len(missing)} of the {len(checked)} symbols `onthemap status` touches are in {check_list}")
    for name in missing[:20]:
        print(f"  missing: {name}")
    late = placed_after_library([name for name in checked if name in committed], sections)
    print(f"{len(late)} of them placed after the standard library's code")
    for name in late[:20]:
        print(f"  after it: {name}")
    if len(missing) > MISSING_ALLOWED:
        print(f"{len(missing)} missing (at most {MISSING_ALLOWED} allowed): the list is stale; regenerate it with\n"
              f"  scripts/client-symbol-order.py CLIENT SOCKET {check_list}", file=sys.stderr)
    if len(late) > LATE_ALLOWED:
        print(f"{len(late)} placed after the standard library's code (at most {LATE_ALLOWED} allowed): "
              "is the client built by scripts/build-client.sh, with one section per function?", file=sys.stderr)
    sys.exit(1 if len(missing) > MISSING_ALLOWED or len(late) > LATE_ALLOWED else 0)

ordered = cpu_string_functions(ordered)
with open(output, "w") as file:
    file.write("".join(name + "\n" for name in ordered))
print(f"{len(ordered)} symbols written to {output}", file=sys.stderr)
