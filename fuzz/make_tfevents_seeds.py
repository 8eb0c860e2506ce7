#!/usr/bin/env python3
"""Seeds for the TensorBoard event-file reader (issue 29 §3): tests/fixtures/fuzz/tfevents/.

A third, independent writer of the TFRecord framing (pure-Python CRC-32C) and of Event
protobufs: valid files with every scalar encoding, and the hostile cases the issue lists (a
bad data CRC, a bad length CRC, a huge and a negative length, a torn last record, garbage,
an empty file). Run from the repository root; rewrites only its own seeds (seed-*).
"""
import os
import struct

OUT = os.path.join("tests", "fixtures", "fuzz", "tfevents")


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | 0x80 if v else b)
        if not v:
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def ld(field, payload):
    return key(field, 2) + varint(len(payload)) + payload


def event(step, tag, value_fields, wall=1.7e9):
    value = ld(1, tag.encode()) + value_fields
    return key(1, 1) + struct.pack("<d", wall) + key(2, 0) + varint(step) + ld(5, ld(1, value))


def record(data, length=None):
    header = struct.pack("<Q", len(data) if length is None else length)
    return header + struct.pack("<I", masked(header)) + data + struct.pack("<I", masked(data))


def simple(v):
    return key(2, 5) + struct.pack("<f", v)


def tensor(dtype, fields):
    return ld(8, key(1, 0) + varint(dtype) + fields)


VERSION = record(key(1, 1) + struct.pack("<d", 1.7e9) + ld(3, b"brain.Event:2"))
GOOD = VERSION + b"".join(record(event(s, "Loss/train", simple(1.0 / (s + 1)))) for s in range(5))


def seeds():
    bad_data = bytearray(record(event(1, "x", simple(2.0))))
    bad_data[-1] ^= 0x40
    bad_len = bytearray(record(event(1, "x", simple(2.0))))
    bad_len[8] ^= 0x01
    huge = struct.pack("<Q", 1 << 40)
    negative = struct.pack("<q", -1)
    yield "seed-simple-value", GOOD
    yield "seed-float-val-packed", VERSION + record(event(1, "Loss/val", tensor(1, ld(5, struct.pack("<f", 0.5)))))
    yield "seed-double-val", VERSION + record(event(2, "lr", tensor(2, key(6, 1) + struct.pack("<d", 1e-3))))
    yield "seed-tensor-content-float", VERSION + record(event(3, "acc", tensor(1, ld(4, struct.pack("<f", 0.75)))))
    yield "seed-tensor-content-double", VERSION + record(event(4, "bound", tensor(2, ld(4, struct.pack("<d", 12.5)))))
    yield "seed-tensor-content-half", VERSION + record(event(5, "h", tensor(19, ld(4, struct.pack("<H", 0x3C00)))))
    yield "seed-histogram-not-scalar", VERSION + record(event(6, "hist", tensor(2, ld(4, struct.pack("<3d", 1, 2, 3)))))
    yield "seed-bad-data-crc", GOOD + bytes(bad_data) + GOOD[len(VERSION):]
    yield "seed-bad-length-crc", GOOD + bytes(bad_len)
    yield "seed-huge-length", GOOD + huge + struct.pack("<I", masked(huge)) + b"tiny"
    yield "seed-negative-length", GOOD + negative + struct.pack("<I", masked(negative)) + b"tiny"
    yield "seed-torn-last-record", GOOD + record(event(9, "x", simple(3.0)))[:-7]
    yield "seed-torn-header", GOOD + b"\x10\x00\x00"
    yield "seed-garbage", bytes(range(256)) * 4
    yield "seed-empty", b""
    yield "seed-not-an-event", record(b"\xff" * 12) + record(key(5, 2) + varint(1000) + b"ab")


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
