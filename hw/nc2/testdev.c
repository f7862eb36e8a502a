/* Test/exit + console device (machine.md §7, §12.11), after QEMU's
 * sifive_test: FINISHER ends the run, CONSOLE prints a byte.  Every other
 * offset or width is reserved (reads 0, writes ignored), so the device
 * accepts all widths and filters here. */
#include <stdio.h>
#include <string.h>

#include "hw/nc2/board.h"
#include "hw/nc2/testdev.h"
#include "nxemu/machine.h"

#define TESTDEV_FINISHER 0x0u
#define TESTDEV_CONSOLE  0x4u

#define FINISHER_PASS 0x5555u
#define FINISHER_FAIL 0x3333u

static MemTxResult testdev_read(void *opaque, uint64_t off, unsigned size, uint64_t *data,
                                MemTxAttrs attrs)
{
    *data = 0;
    return MEMTX_OK;
}

static void testdev_finisher(TestDev *td, uint32_t v)
{
    switch (v & 0xFFFF) {
    case FINISHER_PASS:
        machine_request_exit(td->m, 0);
        break;
    case FINISHER_FAIL: {
        int code = (v >> 16) & 0xFF;
        /* Keep FAIL statuses clear of 0 (pass) and 123+ (limit, deadlock). */
        if (code == 0) {
            code = 1;
        } else if (code > 122) {
            code = 122;
        }
        machine_request_exit(td->m, code);
        break;
    }
    default:
        break;
    }
}

static MemTxResult testdev_write(void *opaque, uint64_t off, unsigned size, uint64_t data,
                                 MemTxAttrs attrs)
{
    TestDev *td = opaque;
    if (off == TESTDEV_FINISHER && size == 4) {
        testdev_finisher(td, (uint32_t)data);
    } else if (off == TESTDEV_CONSOLE && size <= 4) {
        const NxSerial *se = &td->serial;
        if (se->buf)
            g_string_append_c(se->buf, (char)(data & 0xFF));
        else if (!se->off)
            fputc((int)(data & 0xFF), se->file ? se->file : stdout);
    }
    return MEMTX_OK;
}

static const MemoryRegionOps testdev_ops = {
    .read = testdev_read,
    .write = testdev_write,
    .widths = MEM_WALL,
    .unaligned_ok = false,
};

void testdev_init(TestDev *td, Machine *m)
{
    memset(td, 0, sizeof(*td));
    td->m = m;
    mr_init_io(&td->mmio, "test", nc2_memmap[NC2_TEST].size, &testdev_ops, td);
}

void testdev_destroy(TestDev *td)
{
    mr_destroy(&td->mmio);
}
