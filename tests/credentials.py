"""Credentials made at test time: self-signed TLS certificates and token files."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

TOKENS = {
    "alice": "alice-0123456789abcdef",
    "bob": "bob-0123456789abcdef",
    "carol": "carol-0123456789abcdef",
    "dave": "dave-0123456789abcdef",
    "erin": "erin-0123456789abcdef",
    "frank": "frank-0123456789abcdef",
}
"""Token name -> token, as `token_file` writes them."""


@dataclass(frozen=True)
class Certificate:
    cert: Path
    """The PEM certificate: the server's --tls-cert, and (self-signed) the clients' --tls-ca."""
    key: Path
    """Its PEM private key: the server's --tls-key."""


def self_signed(directory: Path, name: str = "server") -> Certificate:
    """A self-signed certificate for localhost and 127.0.0.1 (subject alternative names
    DNS:localhost and IP:127.0.0.1), valid from an hour ago for a day."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"kibitz test {name}")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert = directory / f"{name}.pem"
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file = directory / f"{name}.key"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return Certificate(cert, key_file)


def token_file(directory: Path, tokens: dict[str, str] = TOKENS) -> Path:
    """A `kibitz serve --auth-tokens` file: one `NAME TOKEN` line each, with a comment."""
    path = directory / "tokens.txt"
    lines = ["# name token", *(f"{name} {token}" for name, token in tokens.items())]
    path.write_text("\n".join(lines) + "\n")
    return path
