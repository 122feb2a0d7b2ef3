#!/usr/bin/env python3
"""Makes cuDSS small enough to travel to the GPU machine (64 MiB per call).

libcudss.so from the nvidia-cudss-cu13 wheel is 167 MB, nearly all of it device code for
eight GPU architectures. The GPU machine is an H100 (sm_90): in every fat binary that has
an sm_90 cubin, the payloads of the other entries are zeroed (headers and sizes kept, so
every offset stays valid and the CUDA runtime still sees, and skips, those entries); xz
then compresses the zeros away. The result runs only on sm_90 and is used only to measure
cuDSS there; it is never installed or committed.

usage: prune_cudss.py WHEEL_OR_LIB OUT_DIR   (OUT_DIR/include and OUT_DIR/lib are written)
"""
import os
import shutil
import struct
import sys
import zipfile

FATBIN_MAGIC = 0xBA55ED50
KEEP_ARCH = 90


def fatbins(data):
    pos = 0
    magic = struct.pack('<I', FATBIN_MAGIC)
    while True:
        i = data.find(magic, pos)
        if i < 0:
            return
        version, header = struct.unpack_from('<HH', data, i + 4)
        size, = struct.unpack_from('<Q', data, i + 8)
        if version != 1 or header != 16 or i + 16 + size > len(data):
            pos = i + 4
            continue
        yield i + 16, i + 16 + size
        pos = i + 16 + size


def entries(data, begin, end):
    p = begin
    while p < end:
        kind, _, header = struct.unpack_from('<HHI', data, p)
        payload, = struct.unpack_from('<Q', data, p + 8)
        arch, = struct.unpack_from('<I', data, p + 28)
        yield kind, arch, p + header, payload
        p += header + payload


def prune(lib_bytes):
    data = bytearray(lib_bytes)
    kept = zeroed = 0
    for begin, end in list(fatbins(data)):
        es = list(entries(data, begin, end))
        if not any(kind == 2 and arch == KEEP_ARCH for kind, arch, _, _ in es):
            continue  # no sm_90 cubin here: leave this fat binary whole
        for kind, arch, start, size in es:
            if kind == 2 and arch == KEEP_ARCH:
                kept += size
            else:
                data[start:start + size] = bytes(size)
                zeroed += size
    return bytes(data), kept, zeroed


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(out, 'lib'), exist_ok=True)
    os.makedirs(os.path.join(out, 'include'), exist_ok=True)
    if src.endswith('.whl'):
        with zipfile.ZipFile(src) as z:
            for name in z.namelist():
                base = os.path.basename(name)
                if name.endswith('.h'):
                    with open(os.path.join(out, 'include', base), 'wb') as f:
                        f.write(z.read(name))
                elif base == 'libcudss.so.1':
                    lib = z.read(name)
    else:
        with open(src, 'rb') as f:
            lib = f.read()
    pruned, kept, zeroed = prune(lib)
    path = os.path.join(out, 'lib', 'libcudss.so.1')
    with open(path, 'wb') as f:
        f.write(pruned)
    link = os.path.join(out, 'lib', 'libcudss.so')
    if os.path.lexists(link):
        os.remove(link)
    os.symlink('libcudss.so.1', link)
    print(f'prune_cudss.py: {path}: kept {kept / 1e6:.1f} MB of sm_{KEEP_ARCH} code, zeroed {zeroed / 1e6:.1f} MB')


if __name__ == '__main__':
    main()
