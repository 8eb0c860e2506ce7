#!/usr/bin/python3
"""Hostile zip seeds for the npz / zip / PyTorch fuzz targets (fuzz/run_fuzzers.sh calls it):
path traversal, absolute and duplicate names, a deflate bomb, unsupported compression methods,
ZIP64 records, data descriptors, non-.npy members. Usage: make_zip_seeds.py OUT_DIR"""
import io
import os
import sys
import warnings
import zipfile

warnings.filterwarnings("ignore", "Duplicate name")  # duplicates are the point

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def npy(shape=(2, 2), descr="<f4", payload=None):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, repr(tuple(shape)))
    header += " " * (-(len(header) + 11) % 64) + "\n"
    n = 1
    for d in shape:
        n *= d
    data = payload if payload is not None else bytes(4 * n)
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + data


def write(name, members, method=zipfile.ZIP_STORED, **kw):
    with zipfile.ZipFile(os.path.join(out, name), "w", compression=method, **kw) as z:
        for member, data in members:
            z.writestr(member, data)


write("traversal.npz", [("../evil.npy", npy())])
write("absolute.npz", [("/etc/evil.npy", npy())])
write("nested_traversal.npz", [("a/../../b.npy", npy())])
write("backslash.npz", [("..\\evil.npy", npy())])
write("duplicate.npz", [("w.npy", npy()), ("w.npy", npy((1,)))])
write("not_npy_member.npz", [("w.npy", npy()), ("readme.txt", b"hello")])
write("empty.npz", [])
write("bomb.npz", [("zeros.npy", npy((1 << 20,), payload=bytes(4 << 20)))], zipfile.ZIP_DEFLATED)
write("bzip2.npz", [("w.npy", npy())], zipfile.ZIP_BZIP2)
write("lzma.npz", [("w.npy", npy())], zipfile.ZIP_LZMA)
write("int64_member.npz", [("i.npy", npy((3,), "<i8", bytes(24)))], zipfile.ZIP_DEFLATED)
# ZIP64 extra fields even for small members.
with zipfile.ZipFile(os.path.join(out, "zip64.npz"), "w") as z:
    with z.open("w.npy", "w", force_zip64=True) as f:
        f.write(npy())
# A non-seekable writer makes zipfile use data descriptors (sizes after the data).
class Unseekable(io.RawIOBase):
    def __init__(self):
        self.buf = bytearray()
    def writable(self):
        return True
    def write(self, b):
        self.buf += b
        return len(b)
s = Unseekable()
with zipfile.ZipFile(s, "w", compression=zipfile.ZIP_DEFLATED) as z:
    z.writestr("w.npy", npy())
open(os.path.join(out, "data_descriptor.npz"), "wb").write(bytes(s.buf))
# PyTorch-shaped archives: a data.pkl record whose pickle is not a state_dict.
write("pt_not_pickle.pt", [("archive/data.pkl", b"not a pickle"), ("archive/version", b"3\n")])
write("pt_missing_record.pt", [("archive/data.pkl", b"\x80\x02}q\x00."), ("archive/version", b"3\n")])

# Pickle seeds (fuzz_pickle, fuzz_pytorch_pickle): the data.pkl of every fixture archive, and
# plain protocol-2 pickles of the containers a checkpoint holds.
import glob
import pickle

pkl = os.path.join(out, "pickle")
os.makedirs(pkl, exist_ok=True)
fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")
for path in glob.glob(os.path.join(fixtures, "*.pt")):
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.endswith("/data.pkl"):
                open(os.path.join(pkl, os.path.basename(path) + ".pkl"), "wb").write(z.read(name))
plain = {"ints": [0, 1, -1, 2**31, 2**63 - 1, -2**63], "floats": (0.5, float("inf")),
         "text": "héllo", "bytes": b"\x00\x01", "none": None, "flags": [True, False],
         "nested": {"a": [[], {}, ()]}}
open(os.path.join(pkl, "plain.pkl"), "wb").write(pickle.dumps(plain, protocol=2))
open(os.path.join(pkl, "shared.pkl"), "wb").write(pickle.dumps([plain["nested"]] * 3, protocol=2))
print("wrote", len(os.listdir(out)), "zip seeds and", len(os.listdir(pkl)), "pickle seeds to", out)
