/*
 * The timeline (`-trace-json FILE`): Chrome trace-event JSON, the format
 * chrome://tracing and ui.perfetto.dev open.  Events are streamed to the
 * file as they happen, so a long run costs disk, not memory.  Timestamps
 * ("ts", "dur") are virtual cycles; viewers label them microseconds.
 */
#include <inttypes.h>

#include "nxemu/error.h"
#include "nxemu/file-io.h"
#include "softmmu/trace-int.h"

bool tl_open(NxTrace *t, const char *path, GError **err)
{
    t->tl_out = nx_output_open("-trace-json", path, err);
    if (!t->tl_out) {
        return false;
    }
    t->tl = nx_output_stream(t->tl_out);
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"nxemu\","
          "\"time_unit\":\"virtual cycles\"},\n\"traceEvents\":[",
          t->tl);
    t->tl_first = true;
    return true;
}

bool tl_close(NxTrace *t, GError **err)
{
    if (!t->tl_out)
        return true;
    fputs("\n]}\n", t->tl);
    t->tl = NULL;
    NxOutput *o = t->tl_out;
    t->tl_out = NULL;
    return nx_output_commit(o, err);
}

void tl_discard(NxTrace *t)
{
    nx_output_discard(t->tl_out);
    t->tl_out = NULL;
    t->tl = NULL;
}

void tl_json_str(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            g_string_append_printf(out, "\\%c", c);
        else if (c < 0x20)
            g_string_append_printf(out, "\\u%04x", c);
        else
            g_string_append_c(out, (char)c);
    }
    g_string_append_c(out, '"');
}

static void tl_event(NxTrace *t, const char *ph, int pid, unsigned tid, const char *name,
                     uint64_t ts, const uint64_t *dur, const char *args)
{
    GString *n = g_string_new(NULL);
    tl_json_str(n, name);
    fprintf(t->tl, "%s{\"name\":%s,\"ph\":\"%s\",\"pid\":%d,\"tid\":%u,\"ts\":%" PRIu64,
            t->tl_first ? "\n" : ",\n", n->str, ph, pid, tid, ts);
    if (dur)
        fprintf(t->tl, ",\"dur\":%" PRIu64, *dur);
    else
        fputs(",\"s\":\"t\"", t->tl);
    if (args)
        fprintf(t->tl, ",\"args\":{%s}", args);
    fputc('}', t->tl);
    t->tl_first = false;
    g_string_free(n, TRUE);
}

void tl_span(NxTrace *t, int pid, unsigned tid, const char *name, uint64_t ts, uint64_t dur,
             const char *args)
{
    if (t->tl)
        tl_event(t, "X", pid, tid, name, ts, &dur, args);
}

void tl_instant(NxTrace *t, int pid, unsigned tid, const char *name, uint64_t ts, const char *args)
{
    if (t->tl)
        tl_event(t, "i", pid, tid, name, ts, NULL, args);
}

void tl_counter(NxTrace *t, int pid, const char *name, uint64_t ts, uint64_t value)
{
    if (t->tl) {
        fprintf(t->tl,
                "%s{\"name\":\"%s\",\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"ts\":%" PRIu64
                ",\"args\":{\"value\":%" PRIu64 "}}",
                t->tl_first ? "\n" : ",\n", name, pid, ts, value);
        t->tl_first = false;
    }
}
