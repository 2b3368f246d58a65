"""`read_sentencepiece` reads the usual piece in place; what it gives must be what a plain
field-by-field protobuf parse gives, on the package's model and on pieces of other shapes."""

from __future__ import annotations

import struct

import pytest

from paperatlas.embed import use as U


def _plain_parse(data: bytes) -> tuple[list[tuple[str, float]], bytes]:
    top = U._fields(data)
    pieces = []
    for raw in top.get(1, []):
        piece = U._fields(raw)
        score = struct.unpack("<f", piece[2][0])[0] if 2 in piece else 0.0
        pieces.append((piece[1][0].decode("utf-8"), float(score)))
    charsmap = U._fields(top[3][0]).get(2, [b""])[0] if 3 in top else b""
    return pieces, charsmap


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


@pytest.mark.slow  # parses the multilingual model's whole vocabulary twice
def test_same_pieces_as_a_plain_parse_of_the_package_model():
    path, _ = U.package_resources()
    with open(path, "rb") as fh:
        want = _plain_parse(fh.read())
    got = U.read_sentencepiece(path)
    assert len(got[0]) == 128_000 and got[0][:3] == [("<unk>", 0.0), ("<s>", 0.0), ("</s>", 0.0)]
    assert got == want


def test_pieces_of_other_shapes(tmp_path):
    score = b"\x15" + struct.pack("<f", -2.5)
    pieces = [
        _field(1, "\u2581the".encode()) + score,  # the usual shape
        _field(1, "\u2581type".encode()) + score + b"\x18\x02",  # with a type
        _field(1, b"noscore"),  # score left at its default
        _field(1, ("\u2581" + "x" * 200).encode()) + score,  # text of 128 bytes or more
        b"\x18\x03" + _field(1, b"typefirst") + score,  # fields in another order
        _field(1, "\u4e2d\u6587".encode()) + score,
    ]
    charsmap = b"\x00\x01charsmap"
    data = b"".join(_field(1, p) for p in pieces) + _field(2, b"\x08\x01") + _field(3, _field(2, charsmap))
    path = tmp_path / "sp.model"
    path.write_bytes(data)
    got = U.read_sentencepiece(str(path))
    assert got == _plain_parse(data)
    assert [p for p, _ in got[0]][2:4] == ["noscore", "\u2581" + "x" * 200]
    assert got[0][2][1] == 0.0 and got[0][0][1] == -2.5 and got[1] == charsmap
