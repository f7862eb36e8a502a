"""A small gdb remote-protocol client for the stub tests (standard library only)."""
import os
import shutil
import socket
import subprocess
import tempfile
import time


def checksum(data: bytes) -> bytes:
    return b'%02x' % (sum(data) & 0xff)


def frame(data: bytes) -> bytes:
    return b'$' + data + b'#' + checksum(data)


def escape(data: bytes) -> bytes:
    out = bytearray()
    for c in data:
        if c in b'#$}*':
            out += bytes([0x7d, c ^ 0x20])
        else:
            out.append(c)
    return bytes(out)


def unescape(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(data):
        if data[i] == 0x7d:
            out.append(data[i + 1] ^ 0x20)
            i += 2
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


class ProtocolError(Exception):
    pass


class Client:
    def __init__(self, sock, timeout=20):
        self.sock = sock
        self.sock.settimeout(timeout)
        self.buf = b''
        self.noack = False
        self.console = []  # O packet texts

    # -- raw I/O --
    def send_raw(self, data: bytes):
        self.sock.sendall(data)

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ProtocolError('connection closed by the stub')
        self.buf += chunk

    def read_byte(self) -> int:
        while not self.buf:
            self._fill()
        c = self.buf[0]
        self.buf = self.buf[1:]
        return c

    def read_packet(self) -> bytes:
        """One packet from the stub, checksum verified (raw, still escaped)."""
        while True:
            c = self.read_byte()
            if c == ord('$'):
                break
            if c in (ord('+'), ord('-')):
                continue
            raise ProtocolError('unexpected byte %r outside a packet' % bytes([c]))
        while b'#' not in self.buf or len(self.buf) < self.buf.index(b'#') + 3:
            self._fill()
        i = self.buf.index(b'#')
        data, cs = self.buf[:i], self.buf[i + 1:i + 3]
        self.buf = self.buf[i + 3:]
        if checksum(data) != cs:
            raise ProtocolError('bad checksum from stub: %r #%r' % (data[:60], cs))
        if not self.noack:
            try:
                self.send_raw(b'+')
            except OSError:
                pass  # the stub may end right after its last reply
        return data

    def expect_ack(self):
        c = self.read_byte()
        if c != ord('+'):
            raise ProtocolError('expected +, got %r' % bytes([c]))

    # -- packets --
    def send(self, data: bytes):
        self.send_raw(frame(data))
        if not self.noack:
            self.expect_ack()

    def reply(self) -> bytes:
        """The next reply; O console packets are collected on the way."""
        while True:
            p = self.read_packet()
            if p.startswith(b'O') and p != b'OK' and len(p) > 1 and all(
                    chr(c) in '0123456789abcdef' for c in p[1:]):
                self.console.append(bytes.fromhex(p[1:].decode()).decode(errors='replace'))
                continue
            return p

    def cmd(self, data) -> bytes:
        if isinstance(data, str):
            data = data.encode()
        self.send(data)
        return self.reply()

    def monitor(self, text: str) -> str:
        self.console = []
        r = self.cmd(b'qRcmd,' + text.encode().hex().encode())
        if r != b'OK':
            raise ProtocolError('monitor %r: %r' % (text, r))
        return ''.join(self.console)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Stub:
    """nxemu (or nxemu-tpc-run) listening on a fresh unix socket.  CORES
    (None: the stub's default, the threads model) is added to the device
    as ',cores=CORES' (docs/gdb.rst, "How the cores appear in gdb")."""

    CORES = None

    def __init__(self, binary, args=(), dev=None, start_stopped=True, cores=None):
        self.dir = tempfile.mkdtemp(prefix='nxgdb')
        self.path = os.path.join(self.dir, 'gdb.sock')
        self.dev = dev or ('unix:' + self.path)
        cores = cores or self.CORES
        if cores:
            self.dev += ',cores=' + cores
        argv = [binary, '-gdb', self.dev] + (['-S'] if start_stopped else []) + list(args)
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.stdout = self.stderr = b''

    def wait_listening(self, timeout=10):
        if not self.dev.startswith('unix:'):
            return
        end = time.time() + timeout
        while not os.path.exists(self.path):
            if self.proc.poll() is not None or time.time() > end:
                raise ProtocolError('stub did not listen: rc=%s %s' % (
                    self.proc.poll(), self.proc.stderr.read().decode(errors='replace')))
            time.sleep(0.01)

    def connect(self) -> Client:
        self.wait_listening()
        if self.dev.startswith('unix:'):
            end = time.time() + 10
            while True:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    s.connect(self.path)  # the file exists from bind(), before listen()
                    break
                except (ConnectionRefusedError, FileNotFoundError):
                    s.close()
                    if time.time() > end or self.proc.poll() is not None:
                        raise
                    time.sleep(0.01)
        else:
            host, port = self.dev[4:].split(',')[0].rsplit(':', 1)
            end = time.time() + 10
            while True:
                try:
                    s = socket.create_connection((host or '127.0.0.1', int(port)))
                    break
                except OSError:
                    if time.time() > end or self.proc.poll() is not None:
                        raise
                    time.sleep(0.02)
        return Client(s)

    def wait(self, timeout=20):
        try:
            self.stdout, self.stderr = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.stdout, self.stderr = self.proc.communicate()
            raise ProtocolError('stub hung (killed after %ss)' % timeout)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()
        shutil.rmtree(self.dir, ignore_errors=True)


def gdb_batch(gdb, stub, cmds, files=(), timeout=60):
    """Run stock gdb in batch mode (no init file, files as its program file)
    with the -ex commands cmds against the listening stub, then wait for the
    stub; returns (gdb's stdout and stderr, the stub's exit status).  A gdb
    still running after timeout seconds is a hang: AssertionError."""
    argv = [gdb, '-nx', '-batch'] + list(files)
    for c in cmds:
        argv += ['-ex', c]
    try:
        p = subprocess.run(argv, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        stub.kill()
        raise AssertionError('gdb hung')
    rc = stub.wait(timeout=30)
    return p.stdout.decode(errors='replace') + p.stderr.decode(errors='replace'), rc
