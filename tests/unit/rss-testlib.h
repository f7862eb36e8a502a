/*
 * The test process's resident set (VmRSS of /proc/self/status), for tests
 * that assert an operation commits no host memory.
 */
#ifndef NXEMU_TESTS_RSS_TESTLIB_H
#define NXEMU_TESTS_RSS_TESTLIB_H

#include <stdio.h>

#include <glib.h>

static inline long vm_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    g_assert_nonnull(f);
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    }
    fclose(f);
    g_assert_cmpint(kib, >=, 0);
    return kib;
}

#endif
