/*
 * A minimal PNG writer for viewer screenshots: 8-bit RGB, no interlace,
 * filter 0 on every row, one IDAT chunk compressed with zlib, so no libpng
 * is needed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <zlib.h>

#include "hw/display/viewer-int.h"
#include "nxemu/error.h"
#include "nxemu/file-io.h"

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
    /* Bitwise CRC-32 (PNG's polynomial): a screenshot is rare, no table. */
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

static void put_be32(GByteArray *out, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    g_byte_array_append(out, b, 4);
}

static void put_chunk(GByteArray *out, const char type[4], const uint8_t *data, size_t len)
{
    uint32_t crc;
    put_be32(out, (uint32_t)len);
    g_byte_array_append(out, (const uint8_t *)type, 4);
    if (len) {
        g_byte_array_append(out, data, (guint)len);
    }
    crc = crc_update(0, (const uint8_t *)type, 4);
    crc = crc_update(crc, data, len);
    put_be32(out, crc);
}

/* zlib-compress all of in; NULL + err on failure. */
static GByteArray *deflate_all(const uint8_t *in, size_t len, GError **err)
{
    z_stream z = {0};
    if (deflateInit(&z, 6) != Z_OK) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "zlib: deflateInit failed");
        return NULL;
    }
    GByteArray *out = g_byte_array_new();
    uint8_t buf[65536];
    z.next_in = (Bytef *)(uintptr_t)in;
    int r;
    size_t left = len;
    do {
        /* avail_in is a uInt: feed at most 1 GiB at a time */
        if (z.avail_in == 0 && left) {
            z.avail_in = (uInt)MIN(left, (size_t)1 << 30);
            left -= z.avail_in;
        }
        z.next_out = buf;
        z.avail_out = sizeof(buf);
        r = deflate(&z, left || z.avail_in ? Z_NO_FLUSH : Z_FINISH);
        if (r == Z_STREAM_ERROR) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "zlib: deflate failed");
            g_byte_array_free(out, TRUE);
            deflateEnd(&z);
            return NULL;
        }
        g_byte_array_append(out, buf, (guint)(sizeof(buf) - z.avail_out));
    } while (r != Z_STREAM_END);
    deflateEnd(&z);
    return out;
}

bool viewer_png_write(const char *path, const uint32_t *xrgb, unsigned w, unsigned h, GError **err)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    size_t stride = 1 + (size_t)w * 3;
    uint8_t *raw = g_malloc(stride * h), ihdr[13];
    GByteArray *z, *png;
    GError *zerr = NULL;
    bool ok;

    for (unsigned y = 0; y < h; y++) {
        uint8_t *row = raw + y * stride;
        row[0] = 0; /* filter: none */
        for (unsigned x = 0; x < w; x++) {
            uint32_t c = xrgb[(size_t)y * w + x];
            row[1 + 3 * x] = (uint8_t)(c >> 16);
            row[2 + 3 * x] = (uint8_t)(c >> 8);
            row[3 + 3 * x] = (uint8_t)c;
        }
    }
    z = deflate_all(raw, stride * h, &zerr);
    g_free(raw);
    if (!z) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "screendump: %s: compression failed: %s", path,
                    zerr ? zerr->message : "?");
        g_clear_error(&zerr);
        return false;
    }
    png = g_byte_array_new();
    g_byte_array_append(png, sig, sizeof(sig));
    for (int i = 0; i < 4; i++) {
        ihdr[i] = (uint8_t)(w >> (24 - 8 * i));
        ihdr[4 + i] = (uint8_t)(h >> (24 - 8 * i));
    }
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* colour type: RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* filter method */
    ihdr[12] = 0; /* no interlace */
    put_chunk(png, "IHDR", ihdr, sizeof(ihdr));
    put_chunk(png, "IDAT", z->data, z->len);
    put_chunk(png, "IEND", NULL, 0);
    g_byte_array_free(z, TRUE);

    ok = nx_file_write("screendump", path, png->data, png->len, err);
    g_byte_array_free(png, TRUE);
    return ok;
}
