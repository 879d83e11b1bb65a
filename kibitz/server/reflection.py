"""Server reflection in both versions clients ask for: `grpc.reflection.v1` (grpcurl and
`buf curl` try it first) and `grpc.reflection.v1alpha` (older clients).

grpcio-reflection ships only v1alpha. v1 is the same protocol under a new package name
(the same messages, fields and numbers), so one servicer answers both, and the v1
descriptors (for a client that describes the reflection service itself) are v1alpha's
renamed.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
V1ALPHA_SERVICE_NAME: str = reflection.SERVICE_NAME
_V1_FILE = "grpc/reflection/v1/reflection.proto"
_V1_METHOD = "ServerReflectionInfo"


def enable(service_names: Iterable[str], server: grpc.aio.Server) -> None:
    """Serve reflection (v1 and v1alpha) on `server`, listing `service_names` and both
    reflection services."""
    _add_v1_descriptors(descriptor_pool.Default())
    names = (*service_names, V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME)
    servicer = reflection.aio.ReflectionServicer(names)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(V1_SERVICE_NAME, {_V1_METHOD: v1}),)
    )


def _add_v1_descriptors(pool: descriptor_pool.DescriptorPool) -> None:
    """Add grpc/reflection/v1/reflection.proto to `pool` (v1alpha's, renamed), unless
    something has already added the v1 service."""
    try:
        pool.FindServiceByName(V1_SERVICE_NAME)
        return
    except KeyError:
        pass
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    old, new = f".{file.package}.", ".grpc.reflection.v1."
    file.name = _V1_FILE
    file.package = "grpc.reflection.v1"
    file.ClearField("options")
    for message in file.message_type:
        for field in message.field:
            if field.HasField("type_name"):
                field.type_name = field.type_name.replace(old, new)
    for service in file.service:
        for method in service.method:
            method.input_type = method.input_type.replace(old, new)
            method.output_type = method.output_type.replace(old, new)
    pool.AddSerializedFile(file.SerializeToString())
