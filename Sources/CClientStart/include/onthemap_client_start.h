#ifndef ONTHEMAP_CLIENT_START_H
#define ONTHEMAP_CLIENT_START_H

/// Nothing to call: linking this target into the static client replaces the Swift runtime's way of
/// finding the command line (see argv.c). Empty in every other build.

#endif
