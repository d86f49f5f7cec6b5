"""Certificates for `baraha serve --https`: a local certificate authority, made once, and a
server certificate for this computer's addresses, signed by it.

Each phone trusts the authority once (its certificate is served at /ca.crt, and /help/https
shows how); the server certificate can then change, when the computer gets another LAN
address, without asking the phones again.

Files, in data_dir()/tls (folder mode 0700, keys 0600):
  ca.pem, ca-key.pem            the authority: 10 years, EC P-256, kept and reused
  server.pem, server-key.pem    this server: 397 days, remade when its names change

The authority is name-constrained to private and loopback addresses and local names
(.local, .lan, .home.arpa, ...): a phone that trusts it would refuse it for any public
site, so even a stolen ca-key.pem could not be used to impersonate a bank.
"""
from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from .network import lan_addresses

CA_DAYS = 3650
SERVER_DAYS = 397           # within every browser's limit (Apple's: 825, public CAs': 398)
RENEW_DAYS = 30             # remake the server certificate when it has less left than this

# What the authority may ever sign for (a name constraint every browser enforces): loopback,
# private addresses and the home network's own suffixes. Never a bare hostname: with the
# hostname "dev" it could sign for all of *.dev.
PERMITTED_IPS = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8",
                 "::1/128", "fc00::/7")
PERMITTED_DNS = ("localhost", "local", "home.arpa", "lan")


@dataclass(frozen=True)
class Files:
    cert: Path          # the server's certificate (PEM)
    key: Path           # its private key (PEM, mode 0600)
    ca: Path            # the authority's certificate, the one the phones trust (PEM)


class TLSError(Exception):
    """A certificate cannot be made or used; the message says why in plain words."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _write(path: Path, data: bytes, private: bool) -> None:
    """Write whole or not at all; a private key is never readable by others, not even briefly."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    if private:
        os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _hostname_label() -> str | None:
    """This computer's own name, if it is a single label (like 'laptop'): phones may reach
    it as 'laptop.local' (mDNS)."""
    name = socket.gethostname().split(".")[0].lower()
    return name if name and name.replace("-", "").isalnum() and not name.isdigit() else None


def _narrow(ca: x509.Certificate) -> bool:
    """The authority may sign only for the names above, nothing wider."""
    try:
        nc = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return False
    allowed = {ipaddress.ip_network(n) for n in PERMITTED_IPS} | set(PERMITTED_DNS)
    return all((g.value in allowed) for g in nc.permitted_subtrees or ())


def ensure_ca(folder: Path) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """The authority in `folder`, made on first use and reused after that."""
    cert_path, key_path = folder / "ca.pem", folder / "ca-key.pem"
    if cert_path.exists() and key_path.exists():
        try:
            cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
            key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        except (ValueError, TypeError) as e:
            raise TLSError(f"{cert_path} or {key_path} is damaged ({e}); remove both to make "
                           "a new authority (every phone then has to trust the new one)") from e
        if cert.not_valid_after_utc > _now() + dt.timedelta(days=RENEW_DAYS) \
                and _narrow(cert):
            return cert, key
        # An authority about to expire, or one made before its names were narrowed (it may
        # sign for a bare hostname's whole domain), is replaced; phones trust the new one.
    folder.mkdir(parents=True, exist_ok=True)
    try:
        os.chmod(folder, 0o700)
    except OSError:
        pass
    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname() or "this computer"
    common = f"Baraha local authority ({host})"[:64]
    name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Baraha"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])
    dns = list(PERMITTED_DNS)
    constraints = x509.NameConstraints(
        permitted_subtrees=[x509.IPAddress(ipaddress.ip_network(n)) for n in PERMITTED_IPS]
        + [x509.DNSName(d) for d in dns],
        excluded_subtrees=None)
    now = _now()
    cert = (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                         key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, key_cert_sign=True, crl_sign=True,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(constraints, critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .sign(key, hashes.SHA256()))
    _write(key_path, _key_pem(key), private=True)
    _write(cert_path, cert.public_bytes(serialization.Encoding.PEM), private=False)
    return cert, key


def wanted_names(hosts=(), lan=None) -> list[str]:
    """The names the server certificate must carry: localhost, 127.0.0.1, this computer's
    LAN addresses and name, and `hosts` (extra names or addresses, e.g. from --tls-host)."""
    names = ["localhost", "127.0.0.1"]
    label = _hostname_label()
    if label:
        names.append(f"{label}.local")       # never the bare name: the authority may not
    names += list(lan_addresses() if lan is None else lan)
    names += list(hosts)
    out: list[str] = []
    for n in names:
        n = n.strip().lower().strip("[]")
        if n and n not in out:
            out.append(n)
    return out


def _general_names(names) -> list[x509.GeneralName]:
    out: list[x509.GeneralName] = []
    for n in names:
        try:
            out.append(x509.IPAddress(ipaddress.ip_address(n)))
        except ValueError:
            out.append(x509.DNSName(n))
    return out


def names_of(cert: x509.Certificate) -> set[str]:
    """The DNS names and addresses a certificate is good for (its subject alternative names)."""
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return set()
    return ({d.lower() for d in san.get_values_for_type(x509.DNSName)}
            | {str(ip) for ip in san.get_values_for_type(x509.IPAddress)})


def _ca_names_allow(ca: x509.Certificate, name: str) -> bool:
    """The authority was made with the hostname of its day: a renamed computer's new bare
    name is not among its permitted names, so it is left out of the server certificate."""
    try:
        nc = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return True
    try:
        ip = ipaddress.ip_address(name)
        return any(isinstance(g, x509.IPAddress) and ip in g.value for g in nc.permitted_subtrees)
    except ValueError:
        return any(isinstance(g, x509.DNSName) and (name == g.value or name.endswith("." + g.value))
                   for g in nc.permitted_subtrees)


def _local(name: str) -> bool:
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return any(name == d or name.endswith("." + d) for d in PERMITTED_DNS)
    return any(ip in ipaddress.ip_network(n) for n in PERMITTED_IPS)


def _refuse(name: str):
    raise TLSError(f"{name} is not a local name or a private address: the generated "
                   "certificate only covers home-network names (like laptop.local or "
                   "192.168.1.20). For another name use your own certificate "
                   "(--cert FILE --key FILE).")


def ensure(folder: Path, hosts=(), lan=None) -> Files:
    """The authority (made once) and a server certificate covering `wanted_names(hosts)`,
    remade when those names change, when it nears its end, or when the authority changed."""
    folder = Path(folder)
    hosts = [h.strip().lower().strip("[]") for h in hosts]
    for h in hosts:             # checked before anything is made, and again with the authority
        if not _local(h):
            _refuse(h)
    ca_cert, ca_key = ensure_ca(folder)
    for h in hosts:
        if not _ca_names_allow(ca_cert, h):
            _refuse(h)
    names = [n for n in wanted_names(hosts, lan) if _ca_names_allow(ca_cert, n)]
    cert_path, key_path = folder / "server.pem", folder / "server-key.pem"
    if _still_good(cert_path, key_path, ca_cert, names):
        return Files(cert_path, key_path, folder / "ca.pem")
    key = ec.generate_private_key(ec.SECP256R1())
    now = _now()
    first = next((n for n in names if n not in ("localhost", "127.0.0.1")), names[0])
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Baraha"),
                                     x509.NameAttribute(NameOID.COMMON_NAME, first[:64])]))
            .issuer_name(ca_cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=SERVER_DAYS))
            .add_extension(x509.SubjectAlternativeName(_general_names(names)), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                         key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, key_cert_sign=False, crl_sign=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    _write(key_path, _key_pem(key), private=True)
    _write(cert_path, cert.public_bytes(serialization.Encoding.PEM), private=False)
    return Files(cert_path, key_path, folder / "ca.pem")


def _still_good(cert_path: Path, key_path: Path, ca: x509.Certificate, names) -> bool:
    if not (cert_path.exists() and key_path.exists()):
        return False
    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):     # damaged, or another authority
        return False
    same_key = (key.public_key().public_bytes(serialization.Encoding.DER,
                                              serialization.PublicFormat.SubjectPublicKeyInfo)
                == cert.public_key().public_bytes(serialization.Encoding.DER,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo))
    return (same_key and names_of(cert) == set(names)
            and cert.not_valid_after_utc > _now() + dt.timedelta(days=RENEW_DAYS))


def ca_der(path) -> bytes:
    """The authority's certificate alone, in DER (what phones install): parsed and written
    out again, so nothing but the public certificate can ever leave, whatever the file holds."""
    cert = x509.load_pem_x509_certificate(Path(path).read_bytes())
    return cert.public_bytes(serialization.Encoding.DER)


def fingerprint(path) -> str:
    """SHA-256 fingerprint as phones show it (AB:CD:...), to compare before trusting."""
    cert = x509.load_pem_x509_certificate(Path(path).read_bytes())
    return ":".join(f"{b:02X}" for b in cert.fingerprint(hashes.SHA256()))


def check_pair(cert: str, key: str) -> None:
    """Fail early, in plain words, if a certificate and key (PEM files) cannot serve HTTPS."""
    import ssl

    for what, path in (("certificate", cert), ("key", key)):
        # load_cert_chain's own error names no file ("cannot read None").
        if not os.path.isfile(path):
            raise TLSError(f"the {what} file {path} does not exist")
        if not os.access(path, os.R_OK):
            raise TLSError(f"the {what} file {path} cannot be read (permissions)")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.load_cert_chain(cert, key)
    except FileNotFoundError as e:
        raise TLSError(f"cannot read {e.filename or cert}") from e
    except (ssl.SSLError, OSError) as e:
        raise TLSError(f"cannot use the certificate {cert} with the key {key}: {e}") from e
