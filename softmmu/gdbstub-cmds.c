/*
 * gdb packet handlers.  Each handler writes its reply into s->reply; the
 * resume packets instead set s->action and the stop reply is sent when the
 * machine stops (gdbstub.c).  Malformed packets get "E01" (or the empty
 * reply for packets we do not know), never a crash.
 */
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "softmmu/gdbstub-int.h"
#include "softmmu/monitor.h"

#define E_BADARG "E01"
#define E_MEMORY "E14"

NxCpu *gdb_cpu_of_pid(GdbStub *s, unsigned pid)
{
    return pid >= 1 && pid <= s->nr_proc ? s->proc[pid - 1] : NULL;
}

unsigned gdb_pid_of_cpu(GdbStub *s, const NxCpu *cpu)
{
    if (!cpu)
        return 0;
    return cpu->kind == CPU_KIND_SEQ ? cpu->index + 1 : s->m->cfg.nr_seq + cpu->index + 1;
}

unsigned gdb_proc_of(const GdbStub *s, unsigned pid)
{
    if (!s->threads)
        return pid;
    return pid > s->m->cfg.nr_seq ? 2 : 1;
}

void gdb_ptid_append(const GdbStub *s, GString *out, unsigned pid)
{
    unsigned tid = !s->threads ? 1 : pid > s->m->cfg.nr_seq ? pid - s->m->cfg.nr_seq : pid;
    g_string_append_printf(out, "p%x.%x", gdb_proc_of(s, pid), tid);
}

/* The core of thread tid of gdb's process proc (tid 0: its first), or 0. */
static unsigned pid_of_thread(const GdbStub *s, uint64_t proc, uint64_t tid)
{
    if (!s->threads)
        return proc >= 1 && proc <= s->nr_proc ? (unsigned)proc : 0;
    unsigned nseq = s->m->cfg.nr_seq, ntpc = s->nr_proc - nseq;
    if (proc == 1 && tid <= nseq && nseq)
        return tid ? (unsigned)tid : 1;
    if (proc == 2 && tid <= ntpc && ntpc)
        return nseq + (tid ? (unsigned)tid : 1);
    return 0;
}

void gdb_set_attached_proc(GdbStub *s, unsigned proc, bool on)
{
    for (unsigned i = 0; i < s->nr_proc; i++)
        if (gdb_proc_of(s, i + 1) == proc) {
            s->attached[i] = on;
            if (on)
                s->last_state[i] = s->proc[i]->state; /* no stale halt */
        }
}

int gdb_signal_from_host(int host_sig)
{
    switch (host_sig) {
    case SIGILL:
        return GDB_SIGILL;
    case SIGBUS:
        return GDB_SIGBUS;
    case SIGSEGV:
        return GDB_SIGSEGV;
    case SIGINT:
        return GDB_SIGINT;
    default:
        return GDB_SIGTRAP;
    }
}

static bool attached(GdbStub *s, unsigned pid)
{
    return pid >= 1 && pid <= s->nr_proc && s->attached[pid - 1];
}

/* First attached pid (gdb's current process when it does not say). */
static unsigned first_attached(GdbStub *s)
{
    for (unsigned i = 0; i < s->nr_proc; i++)
        if (s->attached[i])
            return i + 1;
    return 0;
}

bool gdb_mem_rw(GdbStub *s, unsigned pid, uint64_t addr, uint8_t *buf, size_t len, bool is_write)
{
    NxCpu *cpu = gdb_cpu_of_pid(s, pid);
    uint64_t bad;
    if (!cpu)
        return false;
    for (size_t done = 0; done < len;) {
        uint64_t pa, room;
        if (!nx_debug_translate(s->m, cpu, addr + done, &pa, &room))
            return false;
        room = MIN(room, len - done);
        /* reads reach device registers too; writes only memory */
        if ((is_write ? as_rw_bytes(s->m->as, pa, buf + done, room, true,
                                    MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad)
                      : as_debug_read(s->m->as, pa, buf + done, room, &bad)) != MEMTX_OK)
            return false;
        done += room;
    }
    return true;
}

/* ---- stop replies ---- */

void gdb_stop_reply(GdbStub *s, GString *out, unsigned pid, int sig)
{
    NxCpu *cpu = gdb_cpu_of_pid(s, pid);
    uint8_t buf[8];
    unsigned pcn;
    bool avail;
    g_string_append_printf(out, "T%02x", sig & 0xff);
    if (cpu) {
        s->g_pid = s->c_pid = pid;
        pcn = gdb_tdesc_pc_regnum(cpu->kind);
        unsigned n = gdb_reg_read(cpu, pcn, buf, &avail);
        g_string_append_printf(out, "%02x:", pcn);
        gdb_hex_encode(out, buf, n);
        g_string_append_c(out, ';');
    }
    g_string_append(out, "thread:");
    gdb_ptid_append(s, out, pid);
    g_string_append_c(out, ';');
    NxDebug *d = s->dbg;
    /* a watchpoint is its process's: in the threads model another thread
     * of that process may report it (the one that made the access) */
    if (sig == GDB_SIGTRAP && d->hit_cpu &&
        (gdb_pid_of_cpu(s, d->hit_cpu) == pid ||
         (d->hit != NX_HIT_BREAK &&
          gdb_proc_of(s, gdb_pid_of_cpu(s, d->hit_cpu)) == gdb_proc_of(s, pid)))) {
        switch (d->hit) {
        case NX_HIT_BREAK:
            g_string_append(out, "swbreak:;");
            break;
        case NX_HIT_WATCH:
            g_string_append_printf(out, "watch:%" PRIx64 ";", d->hit_addr);
            break;
        case NX_HIT_RWATCH:
            g_string_append_printf(out, "rwatch:%" PRIx64 ";", d->hit_addr);
            break;
        case NX_HIT_AWATCH:
            g_string_append_printf(out, "awatch:%" PRIx64 ";", d->hit_addr);
            break;
        default:
            break;
        }
    }
}

/* ---- thread ids: "pP.T", "P" (T), "-1", "0" ---- */

/* Returns the core named (0 = any/all), for a whole process its first
 * thread's, or -1 if malformed; a process or thread that does not exist
 * is -2 (an error for H, T, vCont). */
static long parse_ptid(GdbStub *s, const char **p)
{
    uint64_t proc = 0, tid = 0;
    const char *q = *p;
    if (*q == 'p') {
        q++;
        if (q[0] == '-' && q[1] == '1') {
            q += 2;
            proc = 0;
        } else if (!gdb_parse_hex(&q, &proc) || proc > UINT32_MAX) {
            return -1;
        }
        if (*q == '.') {
            q++;
            if (q[0] == '-' && q[1] == '1')
                q += 2;
            else if (!gdb_parse_hex(&q, &tid) || tid > UINT32_MAX)
                return -1;
        }
        *p = q;
        if (!proc)
            return 0;
        unsigned pid = pid_of_thread(s, proc, tid);
        return pid ? (long)pid : -2;
    }
    if (q[0] == '-' && q[1] == '1') {
        *p = q + 2;
        return 0;
    }
    if (!gdb_parse_hex(&q, &tid))
        return -1;
    *p = q;
    return 0; /* a bare thread id names the thread of the current process */
}

/* ---- handlers ---- */

static void h_qsupported(GdbStub *s, const char *args)
{
    g_string_append_printf(s->reply,
                           "PacketSize=%x;qXfer:features:read+;QStartNoAckMode+;multiprocess+;"
                           "swbreak+;hwbreak+;vContSupported+",
                           GDB_PACKET_SIZE);
    if (s->replay.budget) /* re-execution (gdbstub-reverse.c) */
        g_string_append(s->reply, ";ReverseStep+;ReverseContinue+");
}

static void h_qxfer_features(GdbStub *s, const char *args)
{
    /* args: "target.xml:OFF,LEN" */
    const char *colon = strchr(args, ':');
    uint64_t off, len;
    if (!colon) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    if ((size_t)(colon - args) != strlen("target.xml") || strncmp(args, "target.xml", 10)) {
        g_string_append(s->reply, "E00"); /* unknown annex */
        return;
    }
    const char *p = colon + 1;
    if (!gdb_parse_hex(&p, &off) || *p++ != ',' || !gdb_parse_hex(&p, &len) || *p) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    NxCpu *cpu = gdb_cpu_of_pid(s, s->g_pid);
    if (!cpu) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    GString *xml = s->xml[cpu->kind];
    if (!xml) {
        xml = s->xml[cpu->kind] = g_string_new(NULL);
        gdb_tdesc_xml(cpu->kind, xml);
    }
    len = MIN(len, GDB_PACKET_SIZE / 2);
    if (off >= xml->len) {
        g_string_append_c(s->reply, 'l');
        return;
    }
    uint64_t n = MIN(len, xml->len - off);
    g_string_append_c(s->reply, off + n >= xml->len ? 'l' : 'm');
    g_string_append_len(s->reply, xml->str + off, (gssize)n);
}

static void h_thread_list(GdbStub *s, bool first)
{
    if (!first) {
        g_string_append_c(s->reply, 'l');
        return;
    }
    g_string_append_c(s->reply, 'm');
    bool any = false;
    for (unsigned i = 0; i < s->nr_proc; i++) {
        if (s->attached[i]) {
            if (any)
                g_string_append_c(s->reply, ',');
            gdb_ptid_append(s, s->reply, i + 1);
            any = true;
        }
    }
    if (!any)
        g_string_assign(s->reply, "l");
}

static void h_extra_info(GdbStub *s, const char *args)
{
    const char *p = args;
    long pid = parse_ptid(s, &p);
    NxCpu *cpu = gdb_cpu_of_pid(s, pid > 0 ? (unsigned)pid : s->g_pid);
    if (pid < 0 || !cpu) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    /* "seq1 BLOCKED sem[2] ge 1 current=0": the core, its state, a wait */
    GString *t = g_string_new(NULL);
    g_string_printf(t, "%s%u %s", cpu->kind == CPU_KIND_SEQ ? "seq" : "tpc", cpu->index,
                    cpu_state_name(cpu->state));
    if (cpu->state == CPU_BLOCKED && cpu->ops->block_info) {
        GString *why = g_string_new(NULL);
        cpu->ops->block_info(cpu, why);
        if (why->len)
            g_string_append_printf(t, " %s",
                                   g_str_has_prefix(why->str, "wait=") ? why->str + 5 : why->str);
        g_string_free(why, TRUE);
    }
    gdb_hex_encode(s->reply, (const uint8_t *)t->str, t->len);
    g_string_free(t, TRUE);
}

static void h_rcmd(GdbStub *s, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    char *cmd = g_malloc0(n / 2 + 1);
    if (!gdb_hex_decode(hex, (uint8_t *)cmd, n / 2) || memchr(cmd, 0, n / 2)) {
        g_free(cmd);
        g_string_append(s->reply, E_BADARG);
        return;
    }
    GString *out = g_string_new(NULL);
    MonAction act = MON_NONE;
    if (!strcmp(g_strstrip(cmd), "info replay")) {
        gdb_snap_info(s, out); /* the stub's, not the machine's */
    } else if (s->threads && !strcmp(cmd, "info cores")) {
        /* the monitor's lines, each core named by its gdb thread */
        for (unsigned i = 0; i < s->nr_proc; i++) {
            NxCpu *c = s->proc[i];
            g_string_append_printf(
                out, "thread %u.%u %s%u state=%s pc=0x%0*" PRIx64 "\n", gdb_proc_of(s, i + 1),
                c->index + 1, c->kind == CPU_KIND_SEQ ? "seq" : "tpc", c->index,
                cpu_state_name(c->state), c->kind == CPU_KIND_SEQ ? 16 : 8, c->ops->get_pc(c));
        }
    } else if (!strcmp(cmd, "last-access")) {
        g_string_append_printf(
            out, "%s\n", s->last_access[0] ? s->last_access : "no watchpoint hit reported yet");
    } else {
        monitor_exec(s->m, s->viewer, cmd, out, &act);
        if (!strcmp(cmd, "help")) /* the stub's own commands */
            g_string_append(out,
                            "info replay               reverse execution: snapshots, last command\n"
                            "last-access               who made the access of the last watchpoint "
                            "hit\n");
    }
    g_free(cmd);
    /* console output: O<hex> packets of bounded size */
    for (size_t off = 0; off < out->len; off += 1024) {
        GString *o = g_string_new("O");
        gdb_hex_encode(o, (const uint8_t *)out->str + off, MIN(1024, out->len - off));
        gdb_send_packet(s, o->str, o->len);
        g_string_free(o, TRUE);
    }
    g_string_free(out, TRUE);
    if (act == MON_QUIT)
        s->action = GDB_ACT_KILL;
    /* stop: the machine is stopped while gdb talks to us; cont is only
     * meaningful to other front ends (gdb resumes with continue) */
    g_string_append(s->reply, "OK");
}

static void h_query(GdbStub *s, char *pkt)
{
    if (g_str_has_prefix(pkt, "qSupported")) {
        h_qsupported(s, pkt + 10);
    } else if (g_str_has_prefix(pkt, "qXfer:features:read:")) {
        h_qxfer_features(s, pkt + strlen("qXfer:features:read:"));
    } else if (!strcmp(pkt, "qC")) {
        g_string_append(s->reply, "QC");
        gdb_ptid_append(s, s->reply, s->c_pid ? s->c_pid : 1);
    } else if (g_str_has_prefix(pkt, "qAttached")) {
        g_string_append(s->reply, "1");
    } else if (!strcmp(pkt, "qfThreadInfo")) {
        h_thread_list(s, true);
    } else if (!strcmp(pkt, "qsThreadInfo")) {
        h_thread_list(s, false);
    } else if (g_str_has_prefix(pkt, "qThreadExtraInfo,")) {
        h_extra_info(s, pkt + strlen("qThreadExtraInfo,"));
    } else if (g_str_has_prefix(pkt, "qRcmd,")) {
        h_rcmd(s, pkt + 6);
    } else if (g_str_has_prefix(pkt, "qSymbol")) {
        g_string_append(s->reply, "OK");
    }
    /* anything else: empty reply = not supported */
}

static NxCpu *g_cpu(GdbStub *s)
{
    return gdb_cpu_of_pid(s, s->g_pid);
}

static void h_read_all_regs(GdbStub *s)
{
    NxCpu *cpu = g_cpu(s);
    uint8_t buf[256];
    bool avail;
    if (!cpu) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    s->sel_pid = s->g_pid;
    for (unsigned n = 0; n < gdb_tdesc_g_count(cpu->kind); n++) {
        GdbReg r;
        gdb_tdesc_reg(cpu->kind, n, &r);
        if (!gdb_reg_read(cpu, n, buf, &avail))
            memset(buf, 0, r.bytes);
        if (avail)
            gdb_hex_encode(s->reply, buf, r.bytes);
        else
            for (unsigned i = 0; i < 2 * r.bytes; i++)
                g_string_append_c(s->reply, 'x');
    }
}

static void h_write_all_regs(GdbStub *s, const char *hex)
{
    NxCpu *cpu = g_cpu(s);
    uint8_t buf[256];
    size_t left = strlen(hex);
    if (!cpu) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    /* validate the whole packet first: nothing is written from a bad one */
    size_t need = 0;
    for (unsigned n = 0; n < gdb_tdesc_g_count(cpu->kind); n++) {
        GdbReg r;
        gdb_tdesc_reg(cpu->kind, n, &r);
        need += 2 * r.bytes;
    }
    if (left != need) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    for (unsigned n = 0; n < gdb_tdesc_g_count(cpu->kind); n++) {
        GdbReg r;
        gdb_tdesc_reg(cpu->kind, n, &r);
        if (!gdb_hex_decode(hex, buf, r.bytes)) {
            g_string_append(s->reply, E_BADARG);
            return;
        }
        hex += 2 * r.bytes;
    }
    hex -= need;
    for (unsigned n = 0; n < gdb_tdesc_g_count(cpu->kind); n++) {
        GdbReg r;
        gdb_tdesc_reg(cpu->kind, n, &r);
        gdb_hex_decode(hex, buf, r.bytes);
        /* read-only registers (status, fault_*) silently keep their value */
        gdb_reg_write(cpu, n, buf, r.bytes);
        hex += 2 * r.bytes;
    }
    gdb_reverse_note_change(s, "a register write");
    g_string_append(s->reply, "OK");
}

static void h_read_reg(GdbStub *s, const char *args)
{
    NxCpu *cpu = g_cpu(s);
    uint64_t n;
    uint8_t buf[256];
    unsigned got;
    bool avail;
    if (!cpu || !gdb_parse_hex(&args, &n) || *args || n > UINT32_MAX ||
        !(got = gdb_reg_read(cpu, (unsigned)n, buf, &avail))) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    if (!avail) {
        /* gdb shows <unavailable> */
        for (unsigned i = 0; i < 2 * got; i++)
            g_string_append_c(s->reply, 'x');
        return;
    }
    gdb_hex_encode(s->reply, buf, got);
}

static void h_write_reg(GdbStub *s, const char *args)
{
    NxCpu *cpu = g_cpu(s);
    uint64_t n;
    uint8_t buf[256];
    GdbReg r;
    if (!cpu || !gdb_parse_hex(&args, &n) || *args++ != '=' || n > UINT32_MAX ||
        !gdb_tdesc_reg(cpu->kind, (unsigned)n, &r) || strlen(args) != 2 * r.bytes ||
        !gdb_hex_decode(args, buf, r.bytes) || !gdb_reg_write(cpu, (unsigned)n, buf, r.bytes)) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    gdb_reverse_note_change(s, "a register write");
    g_string_append(s->reply, "OK");
}

/* "ADDR,LEN" then *end points after LEN */
static bool parse_addr_len(const char **p, uint64_t *addr, uint64_t *len)
{
    return gdb_parse_hex(p, addr) && *(*p)++ == ',' && gdb_parse_hex(p, len);
}

static void h_read_mem(GdbStub *s, const char *args)
{
    uint64_t addr, len;
    if (!parse_addr_len(&args, &addr, &len) || *args) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    len = MIN(len, GDB_PACKET_SIZE / 2 - 16);
    uint8_t *buf = g_malloc(len ? len : 1);
    size_t got = len;
    if (!gdb_mem_rw(s, s->g_pid, addr, buf, len, false)) {
        /* a partial read is allowed: the readable prefix */
        got = 0;
        while (got < len && gdb_mem_rw(s, s->g_pid, addr + got, buf + got, 1, false))
            got++;
    }
    if (len && !got)
        g_string_append(s->reply, E_MEMORY);
    else
        gdb_hex_encode(s->reply, buf, got);
    g_free(buf);
}

static void h_write_mem(GdbStub *s, char *args, size_t pktlen, bool binary)
{
    uint64_t addr, len;
    const char *p = args;
    if (!parse_addr_len(&p, &addr, &len) || *p != ':' || len > GDB_PACKET_SIZE) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    p++;
    size_t avail = pktlen - (size_t)(p - args);
    uint8_t *buf = g_malloc(len ? len : 1);
    bool ok;
    if (binary) {
        size_t n = gdb_unescape((uint8_t *)p, avail);
        ok = n == len;
        if (ok)
            memcpy(buf, p, len);
    } else {
        ok = avail == 2 * len && gdb_hex_decode(p, buf, len);
    }
    if (!ok)
        g_string_append(s->reply, E_BADARG);
    else if (len && !gdb_mem_rw(s, s->g_pid, addr, buf, len, true))
        g_string_append(s->reply, E_MEMORY);
    else {
        if (len)
            gdb_reverse_note_change(s, "a memory write");
        g_string_append(s->reply, "OK");
    }
    g_free(buf);
}

static void h_breakpoint(GdbStub *s, const char *pkt, bool insert)
{
    /* Z type,addr,kind[;cond...]: the kind (RISC-V 2/4) is ignored */
    uint64_t type, addr, kind;
    const char *p = pkt + 1;
    NxCpu *cpu = g_cpu(s);
    if (!gdb_parse_hex(&p, &type) || *p++ != ',' || !parse_addr_len(&p, &addr, &kind) ||
        (*p && *p != ';') || !cpu) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    bool ok;
    unsigned proc = gdb_proc_of(s, s->g_pid);
    switch (type) {
    case 0:
    case 1:
        /* a breakpoint is its process's: every thread (core) stops at it */
        ok = true;
        for (unsigned i = 0; i < s->nr_proc; i++) {
            NxCpu *c = s->proc[i];
            if (gdb_proc_of(s, i + 1) != proc)
                continue;
            if (insert)
                ok = nx_debug_bp_insert(s->dbg, c, addr) && ok;
            else
                nx_debug_bp_remove(s->dbg, c, addr);
        }
        g_string_append(s->reply, ok || !insert ? "OK" : E_BADARG);
        return;
    case 2:
    case 3:
    case 4: {
        NxDebugHit t = type == 2 ? NX_HIT_WATCH : type == 3 ? NX_HIT_RWATCH : NX_HIT_AWATCH;
        uint64_t pa, room;
        if (!insert) {
            for (unsigned i = 0; i < s->nr_proc; i++)
                if (gdb_proc_of(s, i + 1) == proc)
                    nx_debug_wp_remove(s->dbg, s->proc[i], t, addr, kind);
            g_string_append(s->reply, "OK");
            return;
        }
        /* a watched range must translate in one piece; the own NX block
         * (window 0) is registers the core reaches without the memory API,
         * so no access hook would see them */
        if (!kind || (cpu->kind == CPU_KIND_SEQ && addr >> 24 == 0) ||
            !nx_debug_translate(s->m, cpu, addr, &pa, &room) || room < kind ||
            !nx_debug_wp_insert(s->dbg, cpu, t, addr, pa, kind)) {
            g_string_append(s->reply, E_BADARG);
            return;
        }
        /* the process's other threads watch the same address, each through
         * its own translation, so that an access stops the core that makes
         * it before the access (a core whose translation does not cover it,
         * a TPC without kernel, leaves it to the access hook) */
        for (unsigned i = 0; i < s->nr_proc; i++) {
            NxCpu *c = s->proc[i];
            if (c != cpu && gdb_proc_of(s, i + 1) == proc &&
                nx_debug_translate(s->m, c, addr, &pa, &room) && room >= kind)
                nx_debug_wp_insert(s->dbg, c, t, addr, pa, kind);
        }
        g_string_append(s->reply, "OK");
        return;
    }
    default:
        return; /* empty: unsupported type */
    }
}

/*
 * vCont;ACTION[:TID];...  Every process has one thread, so the actions
 * reduce to: the first 's' names the core to step; a 'c' without a thread
 * id, or for a whole process (pP.-1), lets the whole machine run (gdb's
 * default); 'c' only for threads (pP.T, what scheduler-locking sends) runs
 * those cores and holds the others; 't' (stop) leaves a core stopped, and
 * a vCont of 't' only is answered at once with a T00 stop reply.
 */
static void h_vcont(GdbStub *s, const char *p)
{
    unsigned step_pid = 0, cont_pid = 0, stop_pid = 0;
    bool any = false, whole = false, res_all = false, cont = false;
    unsigned first_pid = 0;
    bool *set = g_new0(bool, s->nr_proc ? s->nr_proc : 1);
    while (*p == ';') {
        char a = *++p;
        if (a != 'c' && a != 'C' && a != 's' && a != 'S' && a != 't') {
            g_string_append(s->reply, E_BADARG);
            g_free(set);
            return;
        }
        p++;
        if (a == 'C' || a == 'S') {
            uint64_t sig; /* signals are not delivered to cores: ignored */
            if (!gdb_parse_hex(&p, &sig)) {
                g_string_append(s->reply, E_BADARG);
                g_free(set);
                return;
            }
        }
        long pid = 0;
        bool one_thread = false;
        if (*p == ':') {
            p++;
            const char *id = p;
            pid = parse_ptid(s, &p);
            if (pid < 0) {
                g_string_append(s->reply, E_BADARG);
                g_free(set);
                return;
            }
            /* pP.T with T not -1: that thread, not the whole process */
            const char *dot = memchr(id, '.', (size_t)(p - id));
            one_thread = pid > 0 && dot && dot[1] != '-';
        }
        if (a != 't') {
            if (pid > 0 && gdb_cpu_of_pid(s, (unsigned)pid)) {
                if (!first_pid)
                    first_pid = (unsigned)pid;
            } else if (pid == 0) {
                res_all = true;
            }
        }
        if (a == 'c' || a == 'C')
            cont = true;
        if ((a == 's' || a == 'S') && !step_pid)
            step_pid = pid > 0 ? (unsigned)pid : s->c_pid;
        if (a == 'c' || a == 'C') {
            if (!cont_pid)
                cont_pid = pid > 0 ? (unsigned)pid : s->c_pid;
            if (one_thread && gdb_cpu_of_pid(s, (unsigned)pid)) {
                set[pid - 1] = true;
            } else {
                whole = true;
            }
        }
        if (a == 't' && !stop_pid)
            stop_pid = pid > 0 ? (unsigned)pid : s->c_pid;
        any = true;
    }
    if (*p || !any) {
        g_string_append(s->reply, E_BADARG);
        g_free(set);
        return;
    }
    if (step_pid) {
        if (!gdb_cpu_of_pid(s, step_pid)) {
            g_string_append(s->reply, E_BADARG);
            g_free(set);
            return;
        }
        /* A step moves one core; one that has to run the machine (a
         * waiting instruction) runs all of it, locked or not: gdb steps
         * over a breakpoint with this very packet, and a wait on another
         * core would never end. */
        s->action = GDB_ACT_STEP;
        s->step_pid = step_pid;
        s->locked = false;
    } else if (cont_pid) {
        s->action = GDB_ACT_CONT;
        s->cont_pid = gdb_cpu_of_pid(s, cont_pid) ? cont_pid : s->c_pid;
        s->locked = !whole;
        memcpy(s->run_set, set, s->nr_proc * sizeof(bool));
    } else {
        /* 't' only: the machine is stopped already (all-stop) */
        gdb_stop_reply(s, s->reply, gdb_cpu_of_pid(s, stop_pid) ? stop_pid : s->c_pid, 0);
    }
    if (s->action == GDB_ACT_STEP && !cont) {
        memset(s->resumed, 0, s->nr_proc * sizeof(bool));
        s->resumed[step_pid - 1] = true;
    } else if (s->action != GDB_ACT_NONE) {
        /* gdb's current inferior: the first process named */
        gdb_resume_all(s, res_all ? 0 : first_pid);
    }
    g_free(set);
}

/* Detach gdb's process of core pid: all its threads. */
static void detach_pid(GdbStub *s, unsigned pid)
{
    unsigned proc = gdb_proc_of(s, pid);
    for (unsigned i = 0; i < s->nr_proc; i++)
        if (gdb_proc_of(s, i + 1) == proc)
            nx_debug_clear(s->dbg, s->proc[i]);
    gdb_set_attached_proc(s, proc, false);
    if (gdb_proc_of(s, s->g_pid) == proc)
        s->g_pid = first_attached(s) ? first_attached(s) : pid;
    if (gdb_proc_of(s, s->c_pid) == proc)
        s->c_pid = first_attached(s) ? first_attached(s) : pid;
    if (!first_attached(s))
        s->action = GDB_ACT_DETACH_ALL;
}

static void h_v(GdbStub *s, char *pkt)
{
    if (!strcmp(pkt, "vCont?")) {
        g_string_append(s->reply, "vCont;c;C;s;S;t");
    } else if (g_str_has_prefix(pkt, "vCont;")) {
        h_vcont(s, pkt + 5);
    } else if (g_str_has_prefix(pkt, "vAttach;")) {
        const char *p = pkt + 8;
        uint64_t proc;
        unsigned pid;
        if (!gdb_parse_hex(&p, &proc) || *p || !(pid = pid_of_thread(s, proc, 0))) {
            g_string_append(s->reply, E_BADARG);
            return;
        }
        gdb_set_attached_proc(s, (unsigned)proc, true);
        if (proc == 1)
            s->quiet1 = false; /* gdb's attach ends inferior 1's quiet state */
        gdb_stop_reply(s, s->reply, pid, GDB_SIGTRAP);
    } else if (g_str_has_prefix(pkt, "vKill;")) {
        /* The machine never runs again.  Killing the last attached process
         * ends the emulator once the OK is sent, as QEMU does; with others
         * attached their next resume reports them killed. */
        const char *p = pkt + 6;
        uint64_t proc;
        if (!gdb_parse_hex(&p, &proc) || *p) {
            g_string_append(s->reply, E_BADARG);
            return;
        }
        s->killed = true;
        unsigned pid = pid_of_thread(s, proc, 0);
        if (pid) {
            for (unsigned i = 0; i < s->nr_proc; i++)
                if (gdb_proc_of(s, i + 1) == proc)
                    nx_debug_clear(s->dbg, s->proc[i]);
            gdb_set_attached_proc(s, (unsigned)proc, false);
        }
        /* extended-remote: gdb stays and may `run` again (vRun); nxemu ends
         * when it leaves */
        if (!first_attached(s) && !s->extended)
            s->action = GDB_ACT_KILL;
        g_string_append(s->reply, "OK");
    } else if (!strcmp(pkt, "vRun") || g_str_has_prefix(pkt, "vRun;")) {
        /* the program name and arguments gdb may add are nxemu's command
         * line already: ignored */
        s->action = GDB_ACT_RUN;
    } else if (!strcmp(pkt, "vMustReplyEmpty")) {
        /* empty */
    }
    /* vFile, vStopped, ...: unsupported (empty) */
}

static void h_set_thread(GdbStub *s, const char *pkt)
{
    const char *p = pkt + 2;
    long pid;
    if ((pkt[1] != 'g' && pkt[1] != 'c') || (pid = parse_ptid(s, &p)) < 0 || *p) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    if (pid > 0) {
        if (!gdb_cpu_of_pid(s, (unsigned)pid)) {
            g_string_append(s->reply, E_BADARG);
            return;
        }
        if (pkt[1] == 'g')
            s->g_pid = (unsigned)pid;
        else
            s->c_pid = (unsigned)pid;
    } else if (pkt[1] == 'c' && s->sel_pid && attached(s, s->sel_pid)) {
        /* Hc0 / Hc-1 (any or every thread: gdb resumes all of them, as
         * with schedule-multiple, before bs/bc/s/c): the thread a reverse
         * step or a plain s moves is the one the user selected, whose
         * registers gdb read last */
        s->c_pid = s->sel_pid;
    }
    g_string_append(s->reply, "OK");
}

void gdb_handle_packet(GdbStub *s, char *pkt, size_t len)
{
    g_string_truncate(s->reply, 0);
    s->action = GDB_ACT_NONE;
    if (len == 0)
        return;
    /* binary data is only legal in X; elsewhere a NUL ends the text */
    if (pkt[0] != 'X' && memchr(pkt, 0, len)) {
        g_string_append(s->reply, E_BADARG);
        return;
    }
    switch (pkt[0]) {
    case '?':
        if (s->exited)
            g_string_append(s->reply, s->exit_pkt);
        else
            gdb_stop_reply(s, s->reply, s->last_pid ? s->last_pid : s->g_pid,
                           s->last_sig ? s->last_sig : GDB_SIGTRAP);
        break;
    case '!':
        s->extended = true;
        g_string_append(s->reply, "OK");
        break;
    case 'q':
        h_query(s, pkt);
        break;
    case 'Q':
        if (!strcmp(pkt, "QStartNoAckMode"))
            g_string_append(s->reply, "OK"); /* the caller switches after sending */
        break;
    case 'H':
        h_set_thread(s, pkt);
        break;
    case 'T': {
        const char *p = pkt + 1;
        long pid = parse_ptid(s, &p);
        g_string_append(s->reply, pid >= 0 && !*p && (pid == 0 || attached(s, (unsigned)pid))
                                      ? "OK"
                                      : E_BADARG);
        break;
    }
    case 'g':
        if (len == 1)
            h_read_all_regs(s);
        else
            g_string_append(s->reply, E_BADARG);
        break;
    case 'G':
        h_write_all_regs(s, pkt + 1);
        break;
    case 'p':
        h_read_reg(s, pkt + 1);
        break;
    case 'P':
        h_write_reg(s, pkt + 1);
        break;
    case 'm':
        h_read_mem(s, pkt + 1);
        break;
    case 'M':
        h_write_mem(s, pkt + 1, len - 1, false);
        break;
    case 'X':
        h_write_mem(s, pkt + 1, len - 1, true);
        break;
    case 'Z':
    case 'z':
        h_breakpoint(s, pkt, pkt[0] == 'Z');
        break;
    case 'c':
    case 'C':
        /* optional address/signal arguments are ignored */
        s->action = GDB_ACT_CONT;
        s->cont_pid = s->c_pid;
        s->locked = false;
        gdb_resume_all(s, s->c_pid);
        break;
    case 's':
    case 'S':
        s->action = GDB_ACT_STEP;
        s->step_pid = s->c_pid;
        s->locked = false;
        memset(s->resumed, 0, s->nr_proc * sizeof(bool)); /* s resumes no other thread */
        s->resumed[s->c_pid - 1] = true;
        break;
    case 'v':
        h_v(s, pkt);
        break;
    case 'D': {
        uint64_t pid = s->g_pid, proc;
        const char *p = pkt + 1;
        if (*p == ';') {
            p++;
            if (!gdb_parse_hex(&p, &proc) || *p || !(pid = pid_of_thread(s, proc, 0)) ||
                !attached(s, (unsigned)pid)) {
                g_string_append(s->reply, E_BADARG);
                break;
            }
        } else if (*p) {
            g_string_append(s->reply, E_BADARG);
            break;
        }
        if (!attached(s, (unsigned)pid)) {
            s->action = GDB_ACT_DETACH_ALL;
        } else {
            detach_pid(s, (unsigned)pid);
        }
        g_string_append(s->reply, "OK");
        break;
    }
    case 'k':
        s->action = GDB_ACT_KILL;
        break;
    case 'b':
        /* bs / bc: reverse step / continue of the Hc process */
        if (s->replay.budget && (!strcmp(pkt, "bs") || !strcmp(pkt, "bc"))) {
            s->action = GDB_ACT_REVERSE;
            gdb_resume_all(s, 0);
            s->rev_step = pkt[1] == 's';
            s->step_pid = s->c_pid;
        }
        break;
    default:
        break; /* unsupported: empty reply */
    }
}
