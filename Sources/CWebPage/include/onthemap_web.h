#ifndef ONTHEMAP_WEB_H
#define ONTHEMAP_WEB_H

#include <stddef.h>

/// One file of the web page, as embedded from web/ (docs/MAP.md, "In a browser").
struct onthemap_web_file {
    /// Its path under web/, such as "js/app.mjs".
    const char *name;
    const unsigned char *bytes;
    size_t count;
};

/// The embedded files, and how many through `count`.
const struct onthemap_web_file *onthemap_web_files(size_t *count);

#endif
