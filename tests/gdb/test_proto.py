#!/usr/bin/env python3
"""Protocol-level tests of the gdb stub with our own client (TAP output).

usage: test_proto.py NXEMU

NXEMU is the nxemu binary, run with -gdb as users run it.  The
machine has no image: every core is in RESET, so nothing runs and the
emulator ends (status 0) as soon as gdb lets go.  Expected values come from
the register layout documented in docs/gdb.rst (sequencer: x0..x31 64-bit
mirrors, pc, r0..r63, status, fault_code, fault_info, fault_pc, fault_addr,
retired; TPC: x0..x31, pc, S0..S35, SP0..SP15, I0..I31, AD0..AD7, then
V0..V39 and VP0..VP15 outside 'g').
"""
import os
import socket
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gdbclient import Client, Stub, frame  # noqa: E402
from gdbtap import Cases  # noqa: E402

# These sessions drive the per-core-process model (-gdb DEV,cores=processes,
# docs/gdb.rst): each core its own gdb process, attached one by one.
Stub.CORES = 'processes'

NXEMU = os.path.abspath(sys.argv[1])
# A one-instruction image: HALT (opcode 0xA1, header byte 1 = 0x10, the rest
# zero; sequencer.md §2.1, §8.2) at Neuron 0x1000000, entry of seq0.
IMAGE_DIR = tempfile.mkdtemp(prefix='nxgdbimg')
HALT_IMAGE = os.path.join(IMAGE_DIR, 'halt.bin')
with open(HALT_IMAGE, 'wb') as f:
    f.write(bytes([0xA1, 0x10]) + bytes(62))
MACHINE = ['-machine', 'seq=2,tpc=1',  # pids: 1 seq0, 2 seq1, 3 tpc0
           '-device', 'loader,file=%s,addr=0x1000000,cpu-num=0' % HALT_IMAGE]

# Byte sizes of 'g' computed from the layout above.
SEQ_G_BYTES = 32 * 8 + 8 + 64 * 4 + 3 * 4 + 3 * 8          # 556
TPC_G_BYTES = 32 * 4 + 4 + 36 * 4 + 16 * 1 + 32 * 20 + 8 * 8  # 996
HBM = 0x01000000  # Neuron window 1, identity without a window table = HBM

CASES = Cases()
case = CASES.case


def session(args=(), noack=False):
    st = Stub(NXEMU, MACHINE + list(args))
    c = st.connect()
    if noack:
        assert c.cmd('QStartNoAckMode') == b'OK'
        c.noack = True
    return st, c


def finish(st, c, expect_rc=0):
    c.close()
    rc = st.wait()
    assert rc == expect_rc, 'exit status %s, expected %s; stderr %r' % (rc, expect_rc, st.stderr)
    return rc


def read_xml(c, pid):
    assert c.cmd('Hgp%x.1' % pid) == b'OK'
    data, off = b'', 0
    while True:
        r = c.cmd('qXfer:features:read:target.xml:%x,%x' % (off, 0x100))
        assert r[:1] in (b'm', b'l'), r
        from gdbclient import unescape
        chunk = unescape(r[1:])
        data += chunk
        off += len(chunk)
        if r[:1] == b'l':
            return ET.fromstring(data.decode())


@case
def qsupported_features():
    st, c = session()
    r = c.cmd('qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386').decode()
    feats = r.split(';')
    for f in ('qXfer:features:read+', 'multiprocess+', 'QStartNoAckMode+', 'swbreak+'):
        assert f in feats, (f, r)
    size = [f for f in feats if f.startswith('PacketSize=')]
    assert size and int(size[0].split('=')[1], 16) >= 4096, r
    assert c.cmd('vMustReplyEmpty') == b''
    assert c.cmd('qfThreadInfo') == b'mp1.1', 'only the boot core at connect time'
    assert c.cmd('qsThreadInfo') == b'l'
    assert c.cmd('qC') == b'QCp1.1'
    finish(st, c)


@case
def target_descriptions_per_process():
    st, c = session()
    seq = read_xml(c, 1)
    assert seq.find('architecture').text == 'riscv:rv64'
    assert seq.find('osabi').text == 'none'
    regs = [r for f in seq.findall('feature') for r in f.findall('reg')]
    names = [r.get('name') for r in regs]
    assert names[:33] == ['x%d' % i for i in range(32)] + ['pc']
    assert names[33:97] == ['r%d' % i for i in range(64)]
    assert names[97:103] == ['status', 'fault_code', 'fault_info', 'fault_pc', 'fault_addr',
                             'retired'], names[97:]
    # the FPU gdb requires for a sequencer ELF's e_flags (single-float ABI)
    assert names[103:] == ['f%d' % i for i in range(32)], names[103:]
    fpu = seq.findall('feature')[-1]
    assert fpu.get('name') == 'org.gnu.gdb.riscv.fpu'
    assert {r.get('bitsize') for r in fpu.findall('reg')} == {'32'}
    assert [int(r.get('regnum')) for r in regs] == list(range(len(regs)))
    assert seq.find('feature').get('name') == 'org.gnu.gdb.riscv.cpu'
    tpc = read_xml(c, 3)
    assert tpc.find('architecture').text == 'riscv:rv32'
    regs = [r for f in tpc.findall('feature') for r in f.findall('reg')]
    names = [r.get('name') for r in regs]
    assert names[33:69] == ['S%d' % i for i in range(36)]
    assert names[69:85] == ['SP%d' % i for i in range(16)]
    assert names[85:117] == ['I%d' % i for i in range(32)]
    assert names[117:125] == ['AD%d' % i for i in range(8)]
    assert names[125:165] == ['V%d' % i for i in range(40)]
    assert names[165:] == ['VP%d' % i for i in range(16)]
    v0 = regs[125]
    assert v0.get('bitsize') == '2048'
    union = [u for f in tpc.findall('feature') for u in f.findall('union')
             if u.get('id') == v0.get('type')][0]
    assert [f.get('name') for f in union.findall('field')] == ['f32', 'bf16', 'i32', 'i16', 'i8']
    # a lowercase s0..s11 would be hidden by RISC-V ABI names: none present
    assert not any(n in names for n in ('s0', 'sp', 'ra', 'a0', 'fp'))
    finish(st, c)


@case
def registers_g_p_P():
    st, c = session()
    g = c.cmd('g')
    assert len(g) == 2 * SEQ_G_BYTES, len(g)
    # r5 is gdb register 33 + 5; x5 (register 5) mirrors it zero-extended
    assert c.cmd('P26=07000000') == b'OK'
    assert c.cmd('p26') == b'07000000'
    assert c.cmd('p5') == b'0700000000000000'
    # a 64-bit write to x6 keeps the low 32 bits in r6
    assert c.cmd('P6=efbeadde11223344') == b'OK'
    assert c.cmd('p27') == b'efbeadde'
    assert c.cmd('p6') == b'efbeadde00000000'
    # pc is register 32 (64 bit)
    assert c.cmd('P20=4000000100000000') == b'OK'
    assert c.cmd('p20') == b'4000000100000000'
    # read-only: status (97 = 0x61) cannot be written; unknown numbers fail
    assert c.cmd('P61=01000000').startswith(b'E')
    # x1 (ra) is the call link R63:R62, x2 (sp) reads 0 and cannot be set
    assert c.cmd('P5f=40000001') == b'OK'      # r62 = 95 = 0x5f
    assert c.cmd('P60=02000000') == b'OK'      # r63
    assert c.cmd('p1') == b'4000000102000000'
    assert c.cmd('P1=c000000100000000') == b'OK'
    assert c.cmd('p5f') == b'c0000001' and c.cmd('p60') == b'00000000'
    assert c.cmd('P22=05000000') == b'OK'      # r2 = 5 ...
    assert c.cmd('p2') == b'0000000000000000'  # ... is not sp
    assert c.cmd('P2=0800000000000000').startswith(b'E')
    # f0..f31 (103..134) exist (gdb's flen check) but have no value
    assert c.cmd('p67') == b'x' * 8
    assert c.cmd('p86') == b'x' * 8
    assert c.cmd('P67=00000000').startswith(b'E')
    assert c.cmd('p87').startswith(b'E')       # 135: one past f31
    assert c.cmd('pffffffffff').startswith(b'E')
    # G with the g image written back changes nothing
    g = c.cmd('g')
    assert c.cmd(b'G' + g) == b'OK'
    assert c.cmd('g') == g
    assert c.cmd(b'G' + g[:-2]).startswith(b'E'), 'short G must be refused'
    # TPC process: smaller g, vector registers on demand (2048 bits)
    assert c.cmd('Hgp3.1') == b'OK'
    assert len(c.cmd('g')) == 2 * TPC_G_BYTES
    v3 = bytes(range(256))
    assert c.cmd(b'P80=' + v3.hex().encode()) == b'OK'   # V3 = 125 + 3 = 0x80
    assert c.cmd('p80') == v3.hex().encode()
    assert c.cmd('P23=2a000000') == b'OK'                # S2 = register 33 + 2
    assert c.cmd('p2') == b'00000000'                    # x2 (sp) is not S2
    assert c.cmd('P24=2b000000') == b'OK'                # S3
    assert c.cmd('p3') == b'2b000000'                    # x3 mirrors S3
    assert c.cmd('Hgp1.1') == b'OK'
    assert c.cmd('P20=0000000100000000') == b'OK'        # back to the HALT
    finish(st, c)


@case
def memory_m_M_X():
    st, c = session()
    a = HBM + 0x100
    assert c.cmd('M%x,4:11223344' % a) == b'OK'
    assert c.cmd('m%x,4' % a) == b'11223344'
    # binary X data with every byte that needs escaping
    data = bytes([0x23, 0x24, 0x7d, 0x2a, 0x00, 0xff, 0x03, 0x41])
    from gdbclient import escape
    assert c.cmd(b'X%x,%x:' % (a, len(data)) + escape(data)) == b'OK'
    assert c.cmd('m%x,%x' % (a, len(data))) == data.hex().encode()
    assert c.cmd('X%x,0:' % a) == b'OK'                 # gdb's X probe
    # window 0 is not memory (gdb probes m0,2 at every stop)
    assert c.cmd('m0,2') == b'E14'
    assert c.cmd('M0,1:00') == b'E14'
    # a read running off the end of memory returns the readable prefix
    end = 0x40000000  # default HBM is 1 GiB
    r = c.cmd('m%x,8' % (end - 4))
    assert len(r) == 8, r
    # lengths that do not match the data are refused, memory unchanged
    assert c.cmd('M%x,4:1122' % a).startswith(b'E')
    assert c.cmd(b'X%x,4:ab' % a).startswith(b'E')
    assert c.cmd('m%x,2' % a) == b'2324'
    finish(st, c)


@case
def malformed_packets_never_crash():
    st, c = session()
    bad = ['m', 'mzz,4', 'm1000000', 'm1000000,', 'M1000000,4', 'P', 'Pzz=1', 'P26=zz000000',
           'p', 'pq', 'Z0', 'Z0,zz,4', 'z2,1000000', 'Hgpzz', 'Hx1', 'Hgp99.1',
           'qXfer:features:read:target.xml', 'qXfer:features:read:target.xml:zz,10',
           'vCont;x', 'vCont;s:pzz', 'vAttach;zz', 'vAttach;63', 'qRcmd,6', 'qRcmd,zz',
           'G00', 'gg', 'D;zz', 'D;5', 'T', 'Tpzz.1', 'X1000000,4', 'mffffffffffffffffff,1',
           ]
    for p in bad:
        r = c.cmd(p)
        assert r.startswith(b'E') or r == b'', (p, r)
    assert c.cmd('qXfer:features:read:other.xml:0,10') == b'E00'
    assert c.cmd('Z9,0,0') == b'', 'unknown breakpoint type: unsupported'
    assert c.cmd('qNoSuchThing') == b''
    assert c.cmd('\x00abc').startswith(b'E')
    assert c.cmd('?').startswith(b'T05'), 'still serving after all that'
    finish(st, c)


@case
def bad_checksum_is_nacked():
    st, c = session()
    c.send_raw(b'$qC#00')
    assert c.read_byte() == ord('-')
    c.send_raw(b'$qC#zz')
    assert c.read_byte() == ord('-')
    assert c.cmd('qC') == b'QCp1.1'
    # noise between packets and stray acks are skipped
    c.send_raw(b'+++garbage')
    assert c.cmd('qC') == b'QCp1.1'
    # a '-' asks for the last packet again
    c.send_raw(b'-')
    assert c.read_packet() == b'QCp1.1'
    finish(st, c)


@case
def oversized_packet_is_refused():
    st, c = session()
    big = b'M1000000,100000:' + b'00' * 0x100000
    c.send(big)
    assert c.reply() == b'E01'
    assert c.cmd('qC') == b'QCp1.1'
    finish(st, c)


@case
def no_ack_mode():
    st, c = session()
    assert c.cmd('QStartNoAckMode') == b'OK'
    c.noack = True
    c.send_raw(frame(b'qC'))
    # the reply comes without a '+' first
    assert c.read_byte() == ord('$')
    c.buf = b'$' + c.buf
    assert c.read_packet() == b'QCp1.1'
    assert c.cmd('m%x,4' % (HBM + 0x1000)) == b'00000000'
    finish(st, c)


@case
def multiprocess_attach_and_detach():
    st, c = session()
    r = c.cmd('vAttach;3')
    assert r.startswith(b'T05') and b'thread:p3.1;' in r, r
    assert c.cmd('qfThreadInfo') == b'mp1.1,p3.1'
    assert c.cmd('Tp3.1') == b'OK'
    assert c.cmd('Tp2.1').startswith(b'E'), 'pid 2 is not attached'
    assert c.cmd('D;3') == b'OK'
    assert c.cmd('qfThreadInfo') == b'mp1.1'
    # the connection stays while a process remains attached
    assert c.cmd('qC') == b'QCp1.1'
    assert c.cmd('D;1') == b'OK'
    rc = st.wait()
    assert rc == 0
    c.close()


@case
def monitor_commands():
    st, c = session()
    out = c.monitor('help')
    for word in ('info registers', 'info mtree', 'info tlb', 'info semaphores', 'info dma',
                 'info tpc', 'xp', 'stop', 'cont', 'quit'):
        assert word in out, word
    out = c.monitor('info cores')
    assert out.splitlines()[0] == 'pid 1 seq0 state=RUNNING pc=0x0000000001000000', out
    assert out.splitlines()[1].startswith('pid 2 seq1 state=RESET'), out
    assert 'pid 3 tpc0' in out
    assert c.monitor('info registers seq1').startswith('core=1 ')
    assert '0x0000000000000000-0x000000003fffffff ram   hbm' in c.monitor('info mtree')
    assert 'hits=' in c.monitor('info tlb seq0')
    assert 'sem[  0]' in c.monitor('info semaphores')
    assert 'engines' in c.monitor('info dma')
    assert 'tpc0' in c.monitor('info tpc')
    assert c.cmd('M%x,4:deadbeef' % HBM) == b'OK'
    assert 'de ad be ef' in c.monitor('xp 0x%x 4' % HBM)
    assert 'de ad be ef' in c.monitor('x seq0 0x%x 4' % HBM)
    assert 'no core' in c.monitor('info registers seq7')
    assert 'unknown command' in c.monitor('frobnicate')
    assert 'cannot access' in c.monitor('xp 0x100000000 4')
    assert 'cannot access' in c.monitor('x seq0 0x10 4')  # window 0
    # quit ends the emulator
    c.send(b'qRcmd,' + b'quit'.hex().encode())
    c.reply()
    assert st.wait() == 0
    c.close()


@case
def kill_ends_emulator():
    st, c = session()
    assert c.cmd('vKill;1') == b'OK'
    # plain remote: killing the last attached process ends the emulator (as
    # QEMU does), with gdb still connected, without running the image
    # (which would otherwise execute its HALT)
    assert st.wait() == 0
    c.close()
    assert st.stdout == b'' and st.stderr == b''
    # extended-remote: the run is over, but nxemu waits for gdb to leave or
    # to run again (vRun); leaving ends it the same way
    st, c = session()
    assert c.cmd('!') == b'OK'
    assert c.cmd('vKill;1') == b'OK'
    assert c.cmd('qfThreadInfo') == b'l'
    assert c.cmd('vCont;c').startswith(b'X09'), 'nothing runs after the kill'
    finish(st, c)
    assert st.stdout == b'' and st.stderr == b''
    # with another process attached the machine stays stopped; resuming the
    # survivor reports it killed, and the emulator ends when gdb lets go
    st, c = session()
    assert c.cmd('!') == b'OK'
    assert c.cmd('vAttach;2').startswith(b'T05')
    assert c.cmd('vKill;1') == b'OK'
    assert c.cmd('qfThreadInfo') == b'mp2.1'
    c.send(b'vCont;c')
    assert c.reply() == b'X09;process:2'
    c.close()
    assert st.wait() == 0
    assert st.stdout == b'' and st.stderr == b''
    st, c = session()
    c.send(b'k')  # no reply to k
    assert st.wait() == 0
    c.close()


@case
def halt_then_exit():
    st, c = session()
    # seq0 executes HALT: it stops with a console line, pc = HALT + 64
    c.console = []
    c.send(b'vCont;c')
    r = c.reply()
    assert r.startswith(b'T05'), r
    assert b'20:4000000100000000;' in r, r
    assert any('seq0 halted' in t for t in c.console), c.console
    # the run has ended (nothing else runs): the next resume reports the exit
    c.send(b'vCont;c')
    assert c.reply() == b'W00;process:1'
    assert c.cmd('?') == b'W00;process:1'
    finish(st, c)


@case
def two_cores_halting_in_one_round_are_both_reported():
    # seq0 and seq1 both execute a HALT in the first round (which also ends
    # the run): the first stop names seq0, the next continue seq1, then the
    # exits come
    st, c = session(['-device', 'loader,file=%s,addr=0x1100000,cpu-num=1' % HALT_IMAGE])
    assert c.cmd('vAttach;2').startswith(b'T05')
    c.console = []
    c.send(b'vCont;c')
    r = c.reply()
    assert r.startswith(b'T05') and b'thread:p1.1;' in r, r
    assert any('seq0 halted' in t for t in c.console), c.console
    c.console = []
    c.send(b'vCont;c')
    r = c.reply()
    assert r.startswith(b'T05') and b'thread:p2.1;' in r, r
    assert any('seq1 halted' in t for t in c.console), c.console
    assert c.cmd('p20') == b'4000100100000000', 'seq1 after its HALT'
    c.send(b'vCont;c')
    assert c.reply().startswith(b'W00;process:'), 'then the end'
    finish(st, c)


@case
def limit_end_is_an_exit_with_status_123():
    # -icount-limit 0: nothing executes; the run ends with status 123 and the
    # limit line of machine.md §9.3, shown in gdb before the exit
    st, c = session(['-icount-limit', '0'])
    c.console = []
    c.send(b'vCont;c')
    assert c.reply() == b'W7b;process:1'
    # the limit line, then where the core was (one console chunk)
    assert any(x.startswith('nxemu: limit: icount=0 vtime=0\nnxemu:   core=0 pc=0x')
               for x in c.console), c.console
    c.close()
    assert st.wait() == 123
    assert b'nxemu: limit: icount=0 vtime=0' in st.stderr


@case
def single_step_executes_one_instruction():
    st, c = session()
    assert c.cmd('p20') == b'0000000100000000'   # pc = entry 0x1000000
    c.send(b'vCont;s:p1.1')
    r = c.reply()
    assert r.startswith(b'T05') and b'thread:p1.1;' in r, r
    assert c.cmd('p20') == b'4000000100000000'
    assert c.cmd('p66') == b'0100000000000000'   # retired (102 = 0x66) = 1
    finish(st, c)


@case
def stop_selects_the_stopped_core():
    # gdb takes thread:pP.T of a stop reply as the stub's current thread and
    # sends no Hg for it: p/P/g/m/Z then name the stopped core, and so do
    # qC and a plain 's' (Hc), as after QEMU's gdb_set_stop_cpu.
    st, c = session()
    assert c.cmd('vAttach;2').startswith(b'T05')
    assert c.cmd('Hgp2.1') == b'OK' and c.cmd('Hcp2.1') == b'OK'
    r = c.cmd('vCont;s:p1.1')
    assert b'thread:p1.1;' in r, r
    assert c.cmd('p20') == b'4000000100000000', 'pc of seq0 (after the step), not seq1'
    assert c.cmd('qC') == b'QCp1.1'
    assert c.cmd('P21=05000000') == b'OK'              # r0 = register 33
    assert c.cmd('Hgp2.1') == b'OK'
    assert c.cmd('p21') == b'00000000', 'the write went to seq0'
    # '?' reports (and selects) the last stop
    r = c.cmd('?')
    assert b'thread:p1.1;' in r, r
    assert c.cmd('p21') == b'05000000'
    # Hc alone decides what a plain 's' steps
    assert c.cmd('Hgp1.1') == b'OK' and c.cmd('Hcp2.1') == b'OK'
    assert c.cmd('qC') == b'QCp2.1'
    r = c.cmd('s')
    assert b'thread:p2.1;' in r, r
    finish(st, c)


@case
def interrupt_while_stopped_gets_a_stop_reply():
    # a 0x03 that reaches the stub while the machine is stopped (it crossed
    # a stop reply) still gets one: gdb waits for it
    st, c = session()
    c.send_raw(b'\x03')
    r = c.reply()
    assert r.startswith(b'T02') and b'thread:p1.1;' in r, r
    assert c.cmd('qC') == b'QCp1.1', 'still serving'
    finish(st, c)


@case
def second_gdb_is_refused_with_a_message():
    st, c = session()
    c2 = st.connect()
    c2.sock.settimeout(10)
    c2.send_raw(b'+' + frame(b'qSupported:multiprocess+'))
    r = c2.reply()
    assert r.startswith(b'E.') and b'another gdb' in r, r
    try:
        closed = c2.sock.recv(100) == b''
    except OSError:
        closed = True
    assert closed, 'the second connection is closed'
    c2.close()
    assert c.cmd('qC') == b'QCp1.1', 'the first gdb is still served'
    finish(st, c)
    assert b'refused a second connection' in st.stderr, st.stderr


@case
def attach_again_after_detaching_the_last_process():
    # extended-remote: gdb stays connected after the last detach; the
    # machine runs on (seq0 executes its HALT, the run ends) and gdb can
    # attach again and sees the end
    st, c = session()
    assert c.cmd('!') == b'OK'
    assert c.cmd('D;1') == b'OK'
    time.sleep(0.2)
    r = c.cmd('vAttach;1')
    assert r.startswith(b'T05') and b'thread:p1.1;' in r, r
    assert c.cmd('p20') == b'4000000100000000', 'the HALT ran while detached'
    c.send(b'vCont;c')
    assert c.reply() == b'W00;process:1'
    finish(st, c)


@case
def disconnect_at_any_point():
    script = (frame(b'qSupported:multiprocess+') + frame(b'Hgp1.1') + frame(b'g') +
              frame(b'X1000100,4:' + b'}\x03}\x04ab') + frame(b'm1000100,4'))
    for cut in range(0, len(script), 7):
        st = Stub(NXEMU, MACHINE)
        st.wait_listening()
        s = st.connect().sock
        s.sendall(script[:cut])
        time.sleep(0.01)
        s.close()
        rc = st.wait(timeout=20)
        assert rc == 0, 'cut at %d: status %s %r' % (cut, rc, st.stderr)


@case
def tcp_listener_on_localhost():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        port = probe.getsockname()[1]
    st = Stub(NXEMU, MACHINE, dev='tcp::%d' % port)
    c = st.connect()
    assert c.sock.getpeername()[0] == '127.0.0.1'
    assert c.cmd('qC') == b'QCp1.1'
    finish(st, c)


@case
def bad_device_is_a_usage_error():
    st = Stub(NXEMU, MACHINE, dev='serial:/dev/null')
    rc = st.wait()
    err = st.stderr.decode().strip().splitlines()
    assert rc == 125, rc
    assert len(err) == 1 and err[0].startswith('nxemu: -gdb serial:/dev/null:'), err


def main():
    return CASES.run(cleanup=IMAGE_DIR)


if __name__ == '__main__':
    sys.exit(main())
