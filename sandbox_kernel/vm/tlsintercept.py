"""TLS termination for the hosts that get a secret: a per-kernel CA the guest trusts, leaf
certificates made on demand, and a TLS server over a guest connection.

Only connections to a secret's hosts are terminated (everything else stays an end-to-end
tunnel). The CA is made when the VM starts, lives in this process only (its key is never
written anywhere: certificates reach OpenSSL through an anonymous memfd) and is
name-constrained to the secret's hosts, so even its key could sign nothing else. The
proxy's own connection upstream verifies the real server's certificate as any client does.
"""
from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
from typing import Awaitable, Callable

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from ..netpolicy import AllowRule

VALIDITY = datetime.timedelta(days=30)
ALPN = ["http/1.1"]  # the proxy parses HTTP/1.x requests to put secrets in: no h2


def _pem_context(cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> ssl.SSLContext:
    """A TLS server context for ``cert``; the key goes to OpenSSL through a memfd, never a file."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(ALPN)
    pem = cert.public_bytes(serialization.Encoding.PEM) + key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    fd = os.memfd_create("sandbox-egress-cert", os.MFD_CLOEXEC)
    try:
        os.write(fd, pem)
        context.load_cert_chain(f"/proc/self/fd/{fd}")
    finally:
        os.close(fd)
    return context


def _constraints(rules: list[AllowRule]) -> x509.NameConstraints:
    """Permit exactly the secret hosts: their DNS names (and subdomains) and their addresses;
    a kind of name none of them uses is excluded entirely."""
    dns = sorted({r.host.removeprefix("*.") for r in rules if r.address is None})
    addresses = sorted({str(r.address) for r in rules if r.address is not None})
    permitted: list[x509.GeneralName] = [x509.DNSName(name) for name in dns]
    permitted += [x509.IPAddress(ipaddress.ip_network(a)) for a in addresses]
    excluded: list[x509.GeneralName] = []
    if not dns:
        permitted.append(x509.DNSName("invalid"))  # RFC 6761: no real name is under .invalid
    if not addresses:
        excluded = [x509.IPAddress(ipaddress.ip_network("0.0.0.0/0")), x509.IPAddress(ipaddress.ip_network("::/0"))]
    return x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=excluded or None)


class KernelCA:
    """This kernel's interception CA (made once per engine, kept in memory)."""

    def __init__(self, rules: list[AllowRule]) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.leaf_key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        self.not_before = now - datetime.timedelta(hours=1)
        name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "sandbox_kernel"),
                          x509.NameAttribute(NameOID.COMMON_NAME, f"sandbox egress CA (kernel pid {os.getpid()})")])
        public = self.key.public_key()
        self.cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(public)
                     .serial_number(x509.random_serial_number())
                     .not_valid_before(self.not_before).not_valid_after(now + VALIDITY)
                     .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                     .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False,
                                                  key_encipherment=False, data_encipherment=False,
                                                  key_agreement=False, key_cert_sign=True, crl_sign=True,
                                                  encipher_only=False, decipher_only=False), critical=True)
                     .add_extension(_constraints(rules), critical=True)
                     .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
                     .sign(self.key, hashes.SHA256()))
        self._contexts: dict[str, ssl.SSLContext] = {}

    @property
    def pem(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.PEM)

    def server_context(self, host: str) -> ssl.SSLContext:
        """The TLS server context that presents a certificate for ``host`` to the guest."""
        host = host.lower().rstrip(".")
        context = self._contexts.get(host)
        if context is None:
            context = self._contexts[host] = _pem_context(self._leaf(host), self.leaf_key)
        return context

    def _leaf(self, host: str) -> x509.Certificate:
        try:  # an address gets an empty subject: OpenSSL checks a CN against the DNS constraints
            san: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host.strip("[]")))
            subject = x509.Name([])
        except ValueError:
            san = x509.DNSName(host)
            subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host[:64])])
        now = datetime.datetime.now(datetime.timezone.utc)
        ca_public = self.key.public_key()
        return (x509.CertificateBuilder()
                .subject_name(subject)
                .issuer_name(self.cert.subject).public_key(self.leaf_key.public_key())
                .serial_number(x509.random_serial_number())
                .not_valid_before(self.not_before).not_valid_after(now + VALIDITY)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.SubjectAlternativeName([san]), critical=not subject)
                .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
                .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_public), critical=False)
                .sign(self.key, hashes.SHA256()))


def upstream_context(extra_ca_file: str | None = None) -> ssl.SSLContext:
    """How the proxy verifies real servers: the system's trust store (plus the admin's CAs)."""
    context = ssl.create_default_context()
    if extra_ca_file:
        context.load_verify_locations(cafile=extra_ca_file)
    context.set_alpn_protocols(ALPN)
    return context


class GuestTls:
    """The server side of TLS over a guest connection (``read``/``write``/``close`` of bytes),
    pumped through memory BIOs: the guest's bytes arrive over the agent channel, not a socket."""

    def __init__(self, read: Callable[[], Awaitable[bytes]], write: Callable[[bytes], None],
                 context: ssl.SSLContext) -> None:
        self._read_raw = read
        self._write_raw = write
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self.tls = context.wrap_bio(self._incoming, self._outgoing, server_side=True)

    def _flush(self) -> None:
        data = self._outgoing.read()
        if data:
            self._write_raw(data)

    async def _feed(self) -> bool:
        data = await self._read_raw()
        if not data:
            self._incoming.write_eof()
            return False
        self._incoming.write(data)
        return True

    async def handshake(self) -> None:
        """Raises ssl.SSLError (or ConnectionError when the guest hangs up first)."""
        while True:
            try:
                self.tls.do_handshake()
                self._flush()
                return
            except ssl.SSLWantReadError:
                self._flush()
                if not await self._feed():
                    raise ConnectionError("the guest closed the connection during the TLS handshake")

    async def read(self) -> bytes:
        """Plain bytes from the guest; b'' at the end (clean or not)."""
        while True:
            try:
                return self.tls.read(65536)
            except ssl.SSLWantReadError:
                self._flush()
                if not await self._feed():
                    return b""
            except ssl.SSLError:  # close_notify, truncation or a broken record: the end either way
                return b""

    def write(self, data: bytes) -> None:
        self.tls.write(data)
        self._flush()

    def close(self) -> None:
        try:
            self.tls.unwrap()
        except (ssl.SSLError, ValueError):
            pass
        self._flush()


#: Where the guest's TLS clients look for trust anchors (Debian's bundle; Python, OpenSSL, pip
#: with REQUESTS_CA_BUNDLE, curl, git) and node's extra-CA file.
GUEST_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
GUEST_CA_FILE = "/etc/ssl/certs/sandbox-egress-ca.pem"
GUEST_TRUST_ENV = {"SSL_CERT_FILE": GUEST_CA_BUNDLE, "REQUESTS_CA_BUNDLE": GUEST_CA_BUNDLE,
                   "PIP_CERT": GUEST_CA_BUNDLE, "CURL_CA_BUNDLE": GUEST_CA_BUNDLE,
                   "GIT_SSL_CAINFO": GUEST_CA_BUNDLE, "NODE_EXTRA_CA_CERTS": GUEST_CA_FILE}


async def trust_in_guest(client, pem: bytes) -> None:
    """Add the kernel's CA to the guest's trust store (its root is a tmpfs overlay, so this
    lasts as long as this VM)."""
    try:
        bundle = await client.read_file(GUEST_CA_BUNDLE, limit=16 << 20)
    except OSError:
        bundle = b""
    if pem not in bundle:
        await client.write_file(GUEST_CA_BUNDLE, bundle.rstrip(b"\n") + b"\n" + pem, mode=0o644, parents=True)
    await client.write_file(GUEST_CA_FILE, pem, mode=0o644, parents=True)
