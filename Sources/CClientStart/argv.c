#include "onthemap_client_start.h"

#include <limits.h> /* defines __GLIBC__ on glibc */

/*
 * How the static `onthemap` finds its command line, instead of the Swift runtime's way.
 *
 * The runtime's CommandLine.cpp finds argv on Linux with a global constructor that reads
 * /proc/self/maps line by line (fopen, fgets, sscanf) to learn where the stack is, then walks back
 * from `environ`. It runs before `main` in every process that links it, whether or not it asks for
 * its arguments: for `onthemap status` it was a fifth of the instructions the whole process ran
 * (56,000 of 264,000 under Callgrind), five system calls and a heap page.
 *
 * glibc hands argc and argv to every `.init_array` function, in static programs too, so keeping
 * them costs two stores. Defining the two functions CommandLine.cpp exports means the linker never
 * takes that file out of libswiftCore.a, and its constructor is not linked at all. If a toolchain
 * ever needs another symbol from that file, the link fails with "duplicate symbol" rather than
 * silently running both.
 *
 * Only the static client defines them (scripts/build-client.sh passes ONTHEMAP_STATIC_CLIENT), and
 * only on glibc: with the shared libswiftCore.so they are the library's own, and the file here is empty.
 * Tests/OnTheMapCLITests/ClientStartTests.swift checks the built client never opens /proc/self/maps
 * and still sees its arguments.
 */
#if defined(ONTHEMAP_STATIC_CLIENT) && defined(__GLIBC__)

/* musl calls `.init_array` functions with no arguments: this way of keeping argv is glibc's. */
static char *noArguments[] = {0};
static char **startArgv;
static int startArgc;
static char **overrideArgv;
static int overrideArgc;

static void keepCommandLine(int argc, char **argv, char **envp) {
    (void)envp;
    startArgc = argc;
    startArgv = argv;
}

__attribute__((section(".init_array"), used))
static void (*const keepCommandLineEntry)(int, char **, char **) = keepCommandLine;

/* The runtime's contract (CommandLine.cpp): the override wins; never NULL (an empty argv before
 * glibc has called keepCommandLine); the result lives as long as the process. */
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (overrideArgv) {
        *outArgLen = overrideArgc;
        return overrideArgv;
    }
    if (!startArgv) {
        *outArgLen = 0;
        return noArguments;
    }
    *outArgLen = startArgc;
    return startArgv;
}

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overrideArgv = argv;
    overrideArgc = argc;
}

#endif
