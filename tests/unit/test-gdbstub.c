/*
 * gdb stub internals: packet framing (the gdb remote protocol's "$data#cs",
 * '}' escapes with XOR 0x20, acks), the register maps of the target
 * descriptions, and breakpoint/watchpoint state.  Expected bytes are worked
 * out by hand from the protocol rules in the comments.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/debug.h"
#include "softmmu/gdbstub-int.h"

static GdbEvent feed(GdbRx *rx, const char *s, size_t n)
{
    GdbEvent ev = GDB_EV_NONE;
    for (size_t i = 0; i < n; i++) {
        GdbEvent e = gdb_rx_byte(rx, (uint8_t)s[i]);
        if (e != GDB_EV_NONE)
            ev = e;
    }
    return ev;
}

static void test_rx(void)
{
    GdbRx rx;
    gdb_rx_init(&rx);
    /* 'q'+'C' = 0x71 + 0x43 = 0xb4 */
    g_assert_cmpint(feed(&rx, "$qC#b4", 6), ==, GDB_EV_PACKET);
    g_assert_cmpstr(rx.buf->str, ==, "qC");
    g_assert_cmpint(feed(&rx, "$qC#B4", 6), ==, GDB_EV_PACKET); /* upper-case hex */
    g_assert_cmpint(feed(&rx, "$qC#b5", 6), ==, GDB_EV_BADSUM);
    g_assert_cmpint(feed(&rx, "$qC#zz", 6), ==, GDB_EV_BADSUM);
    /* acks and noise between packets are skipped; 0x03 is an interrupt */
    g_assert_cmpint(feed(&rx, "+++xyz", 6), ==, GDB_EV_NONE);
    g_assert_cmpint(gdb_rx_byte(&rx, 0x03), ==, GDB_EV_INTR);
    g_assert_cmpint(gdb_rx_byte(&rx, '-'), ==, GDB_EV_NAK);
    /* a '$' inside a packet restarts it */
    g_assert_cmpint(feed(&rx, "$qX$qC#b4", 9), ==, GDB_EV_PACKET);
    g_assert_cmpstr(rx.buf->str, ==, "qC");
    /* too long: the checksum still decides, then TOOLONG */
    GString *big = g_string_new("$");
    uint8_t sum = 0;
    for (unsigned i = 0; i < GDB_RX_MAX + 10; i++) {
        g_string_append_c(big, 'a');
        sum += 'a';
    }
    g_string_append_printf(big, "#%02x", sum);
    g_assert_cmpint(feed(&rx, big->str, big->len), ==, GDB_EV_TOOLONG);
    g_string_free(big, TRUE);
    g_assert_cmpint(feed(&rx, "$qC#b4", 6), ==, GDB_EV_PACKET);
    gdb_rx_destroy(&rx);
}

static void test_frame_and_escapes(void)
{
    GString *o = g_string_new(NULL);
    gdb_frame(o, "OK", 2); /* 'O'+'K' = 0x4f + 0x4b = 0x9a */
    g_assert_cmpstr(o->str, ==, "$OK#9a");
    g_string_truncate(o, 0);
    /* '#' -> "}\x03", sum = 0x7d + 0x03 = 0x80 */
    gdb_frame(o, "#", 1);
    g_assert_cmpstr(o->str, ==, "$}\x03#80");
    g_string_free(o, TRUE);

    uint8_t b[] = {'a', '}', 0x03, '}', 0x5d, 'z'};
    g_assert_cmpuint(gdb_unescape(b, sizeof(b)), ==, 4);
    g_assert_cmpmem(b, 4, "a#}z", 4);
    uint8_t lone[] = {'a', '}'};
    g_assert_cmpuint(gdb_unescape(lone, 2), ==, SIZE_MAX);
}

static void test_hex(void)
{
    uint8_t out[3];
    g_assert_true(gdb_hex_decode("0aFf10", out, 3));
    g_assert_cmpmem(out, 3, "\x0a\xff\x10", 3);
    g_assert_false(gdb_hex_decode("0g", out, 1));
    g_assert_false(gdb_hex_decode("0", out, 1)); /* short */
    const char *p = "1000000,4";
    uint64_t v;
    g_assert_true(gdb_parse_hex(&p, &v));
    g_assert_cmphex(v, ==, 0x1000000);
    g_assert_cmpstr(p, ==, ",4");
    p = "ffffffffffffffff";
    g_assert_true(gdb_parse_hex(&p, &v));
    g_assert_cmphex(v, ==, UINT64_MAX);
    p = "10000000000000000"; /* 65 bits */
    g_assert_false(gdb_parse_hex(&p, &v));
    p = ",";
    g_assert_false(gdb_parse_hex(&p, &v));
}

static void test_reg_maps(void)
{
    GdbReg r;
    /* sequencer: x5 mirrors r5 (64 bit), r5 is gdb 38, pc is 32 */
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 5, &r));
    g_assert_true(r.kind == GDB_REG_MIRROR && r.core_reg == GDB_SEQ_R0 + 5 && r.bytes == 8);
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 38, &r));
    g_assert_true(r.kind == GDB_REG_PLAIN && r.core_reg == 5 && r.bytes == 4);
    /* x1 (ra) is the link pair R62/R63, x2 (sp) reads 0 */
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 1, &r));
    g_assert_true(r.kind == GDB_REG_PAIR && r.core_reg == GDB_SEQ_R0 + 62 && r.bytes == 8);
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 2, &r) && r.kind == GDB_REG_ZERO);
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 32, &r) && r.core_reg == GDB_SEQ_PC);
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 102, &r) && r.core_reg == GDB_SEQ_RETIRED);
    /* f0..f31 (103..134): present for gdb's flen check, no value, not in g */
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 103, &r) && r.kind == GDB_REG_ABSENT &&
                  r.bytes == 4);
    g_assert_true(gdb_tdesc_reg(CPU_KIND_SEQ, 134, &r) && r.kind == GDB_REG_ABSENT);
    g_assert_false(gdb_tdesc_reg(CPU_KIND_SEQ, 135, &r));
    g_assert_cmpuint(gdb_tdesc_g_count(CPU_KIND_SEQ), ==, 103);
    /* TPC: V0 = 125 (256 bytes), VP15 = 180, g stops before V0 */
    g_assert_true(gdb_tdesc_reg(CPU_KIND_TPC, 125, &r) && r.core_reg == GDB_TPC_V &&
                  r.bytes == 256);
    g_assert_true(gdb_tdesc_reg(CPU_KIND_TPC, 180, &r) && r.core_reg == GDB_TPC_VP + 15);
    g_assert_false(gdb_tdesc_reg(CPU_KIND_TPC, 181, &r));
    g_assert_cmpuint(gdb_tdesc_g_count(CPU_KIND_TPC), ==, 125);
    g_assert_true(gdb_tdesc_reg(CPU_KIND_TPC, 85 + 31, &r) && r.core_reg == GDB_TPC_I + 31 &&
                  r.bytes == 20);
}

static void test_breakpoints(void)
{
    Machine m = {0};
    NxCpu a = {.kind = CPU_KIND_SEQ, .index = 0}, b = {.kind = CPU_KIND_SEQ, .index = 1};
    NxDebug *d = nx_debug_new(&m);
    m.debug = d;
    g_assert_false(nx_debug_should_stop(&m, &a, 0x1000040));
    nx_debug_bp_insert(d, &a, 0x1000040);
    nx_debug_bp_insert(d, &a, 0x1000040); /* twice: one breakpoint */
    g_assert_cmpuint(d->bps->len, ==, 1);
    /* per core: b does not stop */
    g_assert_false(nx_debug_should_stop(&m, &b, 0x1000040));
    g_assert_false(nx_debug_should_stop(&m, &a, 0x1000000));
    g_assert_true(nx_debug_should_stop(&m, &a, 0x1000040));
    g_assert_true(m.stop);
    g_assert_cmpint(m.stop_reason, ==, STOP_DEBUG);
    g_assert_true(d->hit == NX_HIT_BREAK && d->hit_cpu == &a);
    /* resuming at the breakpoint executes it once, then it hits again */
    nx_debug_clear_hit(d);
    d->skip_cpu = &a;
    d->skip_pc = 0x1000040;
    g_assert_false(nx_debug_should_stop(&m, &a, 0x1000040));
    g_assert_true(nx_debug_should_stop(&m, &a, 0x1000040));
    g_assert_true(nx_debug_bp_remove(d, &a, 0x1000040));
    g_assert_false(d->armed);
    g_assert_false(nx_debug_should_stop(&m, &a, 0x1000040));
    /* no debugger: never */
    m.debug = NULL;
    g_assert_false(nx_debug_should_stop(&m, &a, 0x1000040));
    nx_debug_free(d);
}

static void test_watch_check(void)
{
    Machine m = {0};
    NxCpu a = {.kind = CPU_KIND_SEQ};
    MemoryRegion root;
    mr_init_container(&root, "root", 1ull << 32);
    m.as = as_new("pa", &root);
    NxDebug *d = nx_debug_new(&m);
    m.debug = d;
    g_assert_false(nx_debug_watch_hit(&m, &a, 0x2000, 4, true));
    /* write watch on [0x2000, 0x2004) */
    g_assert_true(nx_debug_wp_insert(d, &a, NX_HIT_WATCH, 0x2000, 0x2000, 4));
    g_assert_false(nx_debug_watch_hit(&m, &a, 0x2000, 4, false)); /* a read */
    g_assert_false(nx_debug_watch_hit(&m, &a, 0x2004, 4, true));  /* next word */
    g_assert_false(nx_debug_watch_hit(&m, &a, 0x1ffc, 4, true));  /* previous word */
    g_assert_true(nx_debug_watch_hit(&m, &a, 0x2003, 1, true));   /* last byte */
    g_assert_true(d->hit == NX_HIT_WATCH && d->hit_addr == 0x2000 && d->hit_precise);
    g_assert_true(nx_debug_wp_remove(d, &a, NX_HIT_WATCH, 0x2000, 4));
    g_assert_cmpuint(d->wps->len, ==, 0);
    g_assert_false(nx_debug_wp_insert(d, &a, NX_HIT_AWATCH, 0, UINT64_MAX, 2)); /* wraps */
    nx_debug_free(d);
    as_free(m.as);
    mr_destroy(&root);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gdbstub/rx", test_rx);
    g_test_add_func("/gdbstub/frame-escapes", test_frame_and_escapes);
    g_test_add_func("/gdbstub/hex", test_hex);
    g_test_add_func("/gdbstub/reg-maps", test_reg_maps);
    g_test_add_func("/gdbstub/breakpoints", test_breakpoints);
    g_test_add_func("/gdbstub/watch-check", test_watch_check);
    return g_test_run();
}
