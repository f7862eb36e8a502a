/*
 * gdb remote serial protocol framing: "$data#cs", acks, 0x03, '}' escapes.
 * A byte-at-a-time state machine, so a connection can drop at any byte and
 * garbage between packets is skipped without losing sync.
 */
#include "softmmu/gdbstub-int.h"

void gdb_rx_init(GdbRx *rx)
{
    rx->st = GDB_RX_IDLE;
    rx->buf = g_string_sized_new(256);
    rx->sum = 0;
    rx->overflow = false;
    rx->bad_digit = false;
}

void gdb_rx_destroy(GdbRx *rx)
{
    if (rx->buf)
        g_string_free(rx->buf, TRUE);
    rx->buf = NULL;
}

static int hexval(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

GdbEvent gdb_rx_byte(GdbRx *rx, uint8_t c)
{
    int v;

    switch (rx->st) {
    case GDB_RX_IDLE:
        if (c == '$') {
            g_string_truncate(rx->buf, 0);
            rx->sum = 0;
            rx->overflow = false;
            rx->bad_digit = false;
            rx->st = GDB_RX_DATA;
        } else if (c == 0x03) {
            return GDB_EV_INTR;
        } else if (c == '-') {
            return GDB_EV_NAK;
        }
        /* '+' and noise between packets are ignored */
        return GDB_EV_NONE;
    case GDB_RX_DATA:
        if (c == '#') {
            rx->st = GDB_RX_CSUM1;
        } else if (c == '$') {
            /* gdb gave up on the previous packet and starts over */
            g_string_truncate(rx->buf, 0);
            rx->sum = 0;
            rx->overflow = false;
        } else {
            rx->sum += c;
            if (rx->buf->len < GDB_RX_MAX)
                g_string_append_c(rx->buf, (char)c);
            else
                rx->overflow = true;
        }
        return GDB_EV_NONE;
    case GDB_RX_CSUM1:
        v = hexval(c);
        rx->bad_digit = v < 0;
        rx->want = (uint8_t)((v < 0 ? 0 : v) << 4);
        rx->st = GDB_RX_CSUM2;
        return GDB_EV_NONE;
    case GDB_RX_CSUM2:
        v = hexval(c);
        rx->st = GDB_RX_IDLE;
        if (v < 0 || rx->bad_digit)
            return GDB_EV_BADSUM;
        rx->want |= (uint8_t)v;
        if (rx->want != rx->sum)
            return GDB_EV_BADSUM;
        return rx->overflow ? GDB_EV_TOOLONG : GDB_EV_PACKET;
    }
    return GDB_EV_NONE;
}

void gdb_frame(GString *out, const char *data, size_t len)
{
    uint8_t sum = 0;
    g_string_append_c(out, '$');
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)data[i];
        /* '*' would be read as run-length encoding by gdb */
        if (c == '$' || c == '#' || c == '}' || c == '*') {
            g_string_append_c(out, '}');
            sum += '}';
            c ^= 0x20;
        }
        g_string_append_c(out, (char)c);
        sum += c;
    }
    g_string_append_printf(out, "#%02x", sum);
}

size_t gdb_unescape(uint8_t *buf, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '}') {
            if (++i == len)
                return SIZE_MAX;
            buf[o++] = buf[i] ^ 0x20;
        } else {
            buf[o++] = buf[i];
        }
    }
    return o;
}

void gdb_hex_encode(GString *out, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        g_string_append_c(out, digits[p[i] >> 4]);
        g_string_append_c(out, digits[p[i] & 15]);
    }
}

bool gdb_hex_decode(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hexval((uint8_t)hex[2 * i]);
        int lo = hi < 0 ? -1 : hexval((uint8_t)hex[2 * i + 1]);
        if (lo < 0)
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

bool gdb_parse_hex(const char **p, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;
    int d;
    unsigned n = 0;
    while ((d = hexval((uint8_t)*s)) >= 0) {
        if (x >> 60)
            return false; /* more than 64 bits */
        x = x << 4 | (unsigned)d;
        s++;
        n++;
    }
    if (!n)
        return false;
    *v = x;
    *p = s;
    return true;
}
