/*
 * Monitor commands.  They only read machine state (except stop/cont/quit,
 * which the caller carries out), so they are safe at any stop.
 */
#include <inttypes.h>
#include <string.h>

#include "nxemu/viewer.h"
#include "nxemu/board-if.h"
#include "nxemu/debug.h"
#include "nxemu/seq-port.h"
#include "softmmu/monitor.h"

#define MON_DUMP_MAX 4096u /* bytes per x/xp command */

static const char help_text[] =
    "help                      this text\n"
    "info cores                every core: gdb pid, name, state, pc\n"
    "info registers CORE       register dump of CORE (seq<N> or tpc<N>)\n"
    "info mtree                the physical address map\n"
    "info tlb seq<N>           window TLB of a sequencer and its statistics\n"
    "info semaphores           semaphores and events\n"
    "info dma                  DMA engines: queued requests, completions\n"
    "info tpc [tpc<N>]         TPC launch state\n"
    "x CORE ADDR [LEN]         memory as CORE sees it (Neuron address / kernel offset)\n"
    "xp ADDR [LEN]             physical memory\n"
    "disas CORE ADDR [COUNT]   disassemble: one line 'ADDR LEN TEXT' per instruction\n"
    "catch [KIND]              stop at a machine event; KIND: tpc-launch, tpc-end, dma,\n"
    "                          sem N VALUE; 'catch' lists, 'catch off [KIND]' removes\n"
    "screendump FILE.png       write what the viewer window shows (-display sdl)\n"
    "stop | cont | quit        stop the machine, resume it, end nxemu\n";

NxCpu *monitor_parse_core(Machine *m, const char *name)
{
    char *end;
    unsigned long n;
    if (!name)
        return NULL;
    if (g_str_has_prefix(name, "seq") && g_ascii_isdigit(name[3])) {
        n = strtoul(name + 3, &end, 10);
        return *end == 0 && n < m->cfg.nr_seq && m->seq ? m->seq[n] : NULL;
    }
    if (g_str_has_prefix(name, "tpc") && g_ascii_isdigit(name[3])) {
        n = strtoul(name + 3, &end, 10);
        return *end == 0 && n < m->cfg.nr_tpc && m->tpc ? m->tpc[n] : NULL;
    }
    return NULL;
}

static bool parse_num(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s)
        return false;
    *v = g_ascii_strtoull(s, &end, 0);
    return *end == 0;
}

static bool bad(GString *out, const char *fmt, const char *arg)
{
    g_string_append_printf(out, fmt, arg ? arg : "");
    g_string_append_c(out, '\n');
    return false;
}

static NxCpu *need_core(Machine *m, const char *name, GString *out)
{
    NxCpu *cpu = monitor_parse_core(m, name);
    if (!cpu)
        bad(out, name ? "monitor: no core '%s' (seq<N> or tpc<N>)" : "monitor: name a core%s",
            name);
    return cpu;
}

static void info_cores(Machine *m, GString *out)
{
    unsigned pid = 1;
    for (unsigned i = 0; i < m->cfg.nr_seq; i++, pid++) {
        NxCpu *c = m->seq[i];
        g_string_append_printf(out, "pid %u seq%u state=%s pc=0x%016" PRIx64 "\n", pid, i,
                               cpu_state_name(c->state), c->ops->get_pc(c));
    }
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++, pid++) {
        NxCpu *c = m->tpc[t];
        g_string_append_printf(out, "pid %u tpc%u state=%s pc=0x%08" PRIx64 "\n", pid, t,
                               cpu_state_name(c->state), c->ops->get_pc(c));
    }
}

static bool info_tlb(Machine *m, const char *name, GString *out)
{
    NxCpu *cpu = need_core(m, name, out);
    if (!cpu)
        return false;
    if (cpu->kind != CPU_KIND_SEQ)
        return bad(out, "monitor: info tlb: %s is not a sequencer", name);
    board_info_tlb(m, cpu->index, out);
    return true;
}

static bool info_tpc(Machine *m, const char *name, GString *out)
{
    if (name) {
        NxCpu *cpu = need_core(m, name, out);
        if (!cpu)
            return false;
        if (cpu->kind != CPU_KIND_TPC)
            return bad(out, "monitor: info tpc: %s is not a TPC", name);
        board_info_tpc(m, cpu->index, out);
        return true;
    }
    if (!m->cfg.nr_tpc)
        g_string_append(out, "no TPC\n");
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++)
        board_info_tpc(m, t, out);
    return true;
}

static void hexdump(GString *out, uint64_t addr, const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i += 16) {
        g_string_append_printf(out, "0x%016" PRIx64 ":", addr + i);
        for (uint64_t j = i; j < i + 16 && j < n; j++)
            g_string_append_printf(out, " %02x", p[j]);
        g_string_append_c(out, '\n');
    }
}

static bool dump_mem(Machine *m, NxCpu *cpu, const char *a, const char *l, GString *out)
{
    uint64_t addr, len = 64, bad_at;
    if (!parse_num(a, &addr))
        return bad(out, "monitor: bad address '%s'", a);
    if (l && (!parse_num(l, &len) || len == 0 || len > MON_DUMP_MAX))
        return bad(out, "monitor: bad length '%s' (1..4096)", l);
    uint8_t *buf = g_malloc(len);
    bool ok = true;
    for (uint64_t done = 0; ok && done < len;) {
        uint64_t pa = addr + done, room = len - done;
        if (cpu && !nx_debug_translate(m, cpu, addr + done, &pa, &room)) {
            ok = false;
            bad_at = addr + done;
            break;
        }
        room = MIN(room, len - done);
        if (as_debug_read(m->as, pa, buf + done, room, &bad_at) != MEMTX_OK) {
            ok = false;
            bad_at = addr + done + (bad_at - pa);
            break;
        }
        done += room;
    }
    if (ok)
        hexdump(out, addr, buf, len);
    else
        g_string_append_printf(out, "monitor: cannot access memory at 0x%016" PRIx64 "\n", bad_at);
    g_free(buf);
    return ok;
}

static bool disas(Machine *m, char **argv, unsigned argc, GString *out)
{
    uint64_t addr, count = 1;
    NxCpu *cpu = need_core(m, argc > 1 ? argv[1] : NULL, out);
    if (!cpu)
        return false;
    if (!parse_num(argc > 2 ? argv[2] : NULL, &addr))
        return bad(out, "monitor: disas: bad address '%s'", argc > 2 ? argv[2] : "");
    if (argc > 3 && (!parse_num(argv[3], &count) || count == 0 || count > 256))
        return bad(out, "monitor: disas: bad count '%s' (1..256)", argv[3]);
    if (!cpu->ops->disas)
        return bad(out, "monitor: disas: no disassembler for %s", argv[1]);
    GString *text = g_string_new(NULL);
    for (uint64_t i = 0; i < count; i++) {
        g_string_truncate(text, 0);
        unsigned n = cpu->ops->disas(cpu, addr, text);
        if (!n) {
            g_string_append_printf(out, "0x%016" PRIx64 " 0 <cannot access memory>\n", addr);
            break;
        }
        g_string_append_printf(out, "0x%016" PRIx64 " %u %s\n", addr, n, text->str);
        addr += n;
    }
    g_string_free(text, TRUE);
    return true;
}

static const struct {
    const char *name;
    NxCatch kind;
} catch_kinds[] = {
    {"tpc-launch", NX_CATCH_TPC_LAUNCH},
    {"tpc-end", NX_CATCH_TPC_END},
    {"dma", NX_CATCH_DMA},
    {"sem", NX_CATCH_SEM},
};

static int catch_kind(const char *name)
{
    for (unsigned i = 0; name && i < G_N_ELEMENTS(catch_kinds); i++)
        if (!strcmp(name, catch_kinds[i].name))
            return (int)catch_kinds[i].kind;
    return -1;
}

/* catch, catch KIND, catch sem N VALUE, catch off [KIND] (docs/gdb.rst) */
static bool catch_cmd(Machine *m, char **args, unsigned argc, GString *out)
{
    NxDebug *d = m->debug;
    if (!d)
        return bad(out, "monitor: catch: no debugger attached%s", NULL);
    const char *c1 = argc > 1 ? args[1] : NULL;
    if (c1 && !strcmp(c1, "off")) {
        int k = argc > 2 ? catch_kind(args[2]) : 0;
        if (k < 0)
            return bad(out, "monitor: catch off: unknown kind '%s' (try 'help')", args[2]);
        d->catch_mask &= k ? ~(uint32_t)k : 0;
    } else if (c1) {
        int k = catch_kind(c1);
        uint64_t n, v;
        if (k < 0)
            return bad(out, "monitor: catch: unknown kind '%s' (try 'help')", c1);
        if (k == NX_CATCH_SEM) {
            if (argc != 4 || !parse_num(args[2], &n) || n >= SEQ_NR_SEMAPHORES ||
                !parse_num(args[3], &v) || v > UINT32_MAX) {
                char lim[16];
                g_snprintf(lim, sizeof(lim), "%u", SEQ_NR_SEMAPHORES);
                return bad(out, "monitor: catch sem: give N VALUE (N below %s, a 32-bit VALUE)",
                           lim);
            }
            d->catch_sem = (unsigned)n;
            d->catch_value = (uint32_t)v;
        } else if (argc != 2) {
            return bad(out, "monitor: catch %s takes no arguments", c1);
        }
        d->catch_mask |= (uint32_t)k;
    }
    g_string_append(out, "catching:");
    if (!d->catch_mask)
        g_string_append(out, " nothing");
    for (unsigned i = 0; i < G_N_ELEMENTS(catch_kinds); i++) {
        if (!(d->catch_mask & catch_kinds[i].kind))
            continue;
        if (catch_kinds[i].kind == NX_CATCH_SEM)
            g_string_append_printf(out, " sem[%u]=%" PRIu32, d->catch_sem, d->catch_value);
        else
            g_string_append_printf(out, " %s", catch_kinds[i].name);
    }
    g_string_append_c(out, '\n');
    return true;
}

bool monitor_exec(Machine *m, Viewer *viewer, const char *line, GString *out, MonAction *act)
{
    char **argv = g_strsplit_set(line, " \t", -1);
    char *args[8] = {0};
    unsigned argc = 0;
    bool ok = true;
    NxCpu *cpu;

    *act = MON_NONE;
    for (unsigned i = 0; argv[i]; i++)
        if (argv[i][0] && argc < G_N_ELEMENTS(args))
            args[argc++] = argv[i];
    const char *c0 = args[0], *c1 = args[1], *c2 = args[2];

    if (!c0 || !strcmp(c0, "help")) {
        g_string_append(out, help_text);
    } else if (!strcmp(c0, "info") && !c1) {
        ok = bad(out, "monitor: info: name an item (try 'help')%s", NULL);
    } else if (!strcmp(c0, "info")) {
        if (!strcmp(c1, "cores")) {
            info_cores(m, out);
        } else if (!strcmp(c1, "registers")) {
            cpu = need_core(m, c2, out);
            if ((ok = cpu != NULL))
                cpu->ops->dump(cpu, out);
        } else if (!strcmp(c1, "mtree")) {
            as_dump_flat(m->as, out);
        } else if (!strcmp(c1, "tlb")) {
            ok = info_tlb(m, c2, out);
        } else if (!strcmp(c1, "semaphores")) {
            board_info_semaphores(m, out);
        } else if (!strcmp(c1, "dma")) {
            board_info_dma(m, out);
        } else if (!strcmp(c1, "tpc")) {
            ok = info_tpc(m, c2, out);
        } else {
            ok = bad(out, "monitor: unknown info item '%s' (try 'help')", c1);
        }
    } else if (!strcmp(c0, "x")) {
        cpu = need_core(m, c1, out);
        ok = cpu && dump_mem(m, cpu, c2, args[3], out);
    } else if (!strcmp(c0, "xp")) {
        ok = dump_mem(m, NULL, c1, c2, out);
    } else if (!strcmp(c0, "disas")) {
        ok = disas(m, args, argc, out);
    } else if (!strcmp(c0, "catch")) {
        ok = catch_cmd(m, args, argc, out);
    } else if (!strcmp(c0, "screendump")) {
        GError *e = NULL;
        if (!c1) {
            ok = bad(out, "monitor: screendump: name a FILE.png%s", NULL);
        } else if (!viewer) {
            ok = bad(out, "monitor: screendump: no display (start nxemu with -display sdl)%s", NULL);
        } else if (!(ok = viewer_screendump(viewer, c1, &e))) {
            g_string_append_printf(out, "monitor: %s\n", e->message);
            g_error_free(e);
        }
    } else if (!strcmp(c0, "stop")) {
        *act = MON_STOP;
    } else if (!strcmp(c0, "cont")) {
        *act = MON_CONT;
    } else if (!strcmp(c0, "quit")) {
        *act = MON_QUIT;
    } else {
        ok = bad(out, "monitor: unknown command '%s' (try 'help')", c0);
    }
    g_strfreev(argv);
    return ok;
}
