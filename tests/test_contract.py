"""The contract: generated code is fresh, every element is commented, the docs cover it all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from google.protobuf import descriptor_pb2
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto" / "kibitz" / "v1" / "engine.proto"

# Paths in FileDescriptorProto's SourceCodeInfo: 4 = message_type, 2 = field, 3 = nested
# message, 4 = nested enum (in a message), 5 = enum, 2 = enum value, 6 = service, 2 = method.
MESSAGE, FIELD, NESTED, ENUM_IN_MESSAGE, ENUM_VALUE, SERVICE, METHOD = 4, 2, 3, 4, 2, 6, 2


def test_generated_code_is_fresh(tmp_path):
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_proto.py"), str(tmp_path)], check=True
    )
    fresh = sorted((tmp_path / "kibitz" / "v1").glob("*_pb2*"))
    assert fresh, "generator wrote nothing"
    for path in fresh:
        committed = ROOT / "kibitz" / "v1" / path.name
        assert committed.read_bytes() == path.read_bytes(), (
            f"{committed} is stale: run `python scripts/gen_proto.py`"
        )


def _descriptor(tmp_path) -> descriptor_pb2.FileDescriptorProto:
    out = tmp_path / "set.pb"
    code = protoc.main(
        [
            "protoc",
            f"-I{ROOT / 'proto'}",
            "--include_source_info",
            f"--descriptor_set_out={out}",
            "kibitz/v1/engine.proto",
        ]
    )
    assert code == 0
    descriptor_set = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    return descriptor_set.file[0]


def _elements(file: descriptor_pb2.FileDescriptorProto):
    """Yield (name, source path) of every service, method, message, field and enum value."""

    def message(msg, path, prefix):
        yield prefix + msg.name, path
        for j, field in enumerate(msg.field):
            if not msg.options.map_entry:
                yield f"{prefix}{msg.name}.{field.name}", (*path, FIELD, j)
        for j, nested in enumerate(msg.nested_type):
            if not nested.options.map_entry:
                yield from message(nested, (*path, NESTED, j), f"{prefix}{msg.name}.")
        for j, enum in enumerate(msg.enum_type):
            yield f"{prefix}{msg.name}.{enum.name}", (*path, ENUM_IN_MESSAGE, j)
            for k, value in enumerate(enum.value):
                yield f"{msg.name}.{value.name}", (*path, ENUM_IN_MESSAGE, j, ENUM_VALUE, k)

    for i, service in enumerate(file.service):
        yield service.name, (SERVICE, i)
        for j, method in enumerate(service.method):
            yield f"{service.name}.{method.name}", (SERVICE, i, METHOD, j)
    for i, msg in enumerate(file.message_type):
        yield from message(msg, (MESSAGE, i), "")


def test_every_element_has_a_comment(tmp_path):
    file = _descriptor(tmp_path)
    commented = {
        tuple(location.path)
        for location in file.source_code_info.location
        if location.leading_comments.strip() or location.trailing_comments.strip()
    }
    missing = [name for name, path in _elements(file) if path not in commented]
    assert not missing, f"elements without a comment in {PROTO.name}: {missing}"


def test_protocol_reference_covers_every_rpc_and_message(tmp_path):
    file = _descriptor(tmp_path)
    doc = (ROOT / "docs" / "protocol.md").read_text()
    names = [m.name for m in file.service[0].method] + [m.name for m in file.message_type]
    missing = [name for name in names if f"`{name}`" not in doc]
    assert not missing, f"docs/protocol.md does not mention: {missing}"


def test_protocol_reference_covers_every_field(tmp_path):
    file = _descriptor(tmp_path)
    doc = (ROOT / "docs" / "protocol.md").read_text()
    missing = [
        f"{msg.name}.{field.name}"
        for msg in file.message_type
        for field in msg.field
        if f"`{field.name}`" not in doc and f"`{msg.name}.{field.name}`" not in doc
    ]
    assert not missing, f"docs/protocol.md does not mention these fields: {missing}"


def test_deprecated_fields_say_so_and_name_their_replacement(tmp_path):
    file = _descriptor(tmp_path)
    doc = (ROOT / "docs" / "protocol.md").read_text()
    comments = {tuple(loc.path): loc.leading_comments for loc in file.source_code_info.location}
    deprecated = [
        (f"{msg.name}.{field.name}", comments.get((MESSAGE, i, FIELD, j), ""))
        for i, msg in enumerate(file.message_type)
        for j, field in enumerate(msg.field)
        if field.options.deprecated
    ]
    assert deprecated, "no deprecated field: the check below checks nothing"
    for name, comment in deprecated:
        assert "Deprecated" in comment, f"{name}: its comment does not say it is deprecated"
        assert f"`{name}`" in doc, f"docs/protocol.md does not list the deprecated {name}"


def test_v1_only_grows(tmp_path):
    """Every field of tests/data/kibitz_v1_fields.txt (the contract as it was) keeps its
    name, number and type: v1 is additive (a new field: add its line there)."""
    file = _descriptor(tmp_path)
    now = {
        f"{prefix}{msg.name}.{field.name}": _shape(field)
        for prefix, msg in _messages(file.message_type)
        for field in msg.field
    }
    pinned = (ROOT / "tests" / "data" / "kibitz_v1_fields.txt").read_text().splitlines()
    for line in pinned:
        name, _, shape = line.partition(" ")
        assert now.get(name) == shape, f"{name} was `{shape}`, is now `{now.get(name)}`"
    assert sorted(now) == sorted(line.split(" ", 1)[0] for line in pinned), (
        "new fields: add them to tests/data/kibitz_v1_fields.txt"
    )


def _messages(messages, prefix=""):
    for msg in messages:
        yield prefix, msg
        yield from _messages(msg.nested_type, f"{prefix}{msg.name}.")


def _shape(field: descriptor_pb2.FieldDescriptorProto) -> str:
    """A field's number, cardinality and type, e.g. `3 repeated string`, `1 optional uint32`
    (explicit presence), `3 singular .kibitz.v1.Score`."""
    if field.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED:
        label = "repeated"
    else:
        label = "optional" if field.proto3_optional else "singular"
    kind = descriptor_pb2.FieldDescriptorProto.Type.Name(field.type).removeprefix("TYPE_")
    return f"{field.number} {label} {field.type_name or kind.lower()}"
