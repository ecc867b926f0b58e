"""A Mosquitto of the test's own on loopback (Debian's ``mosquitto``, installed by ``make
test``), started and stopped (and restarted) like the real one."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA of the test's own and a server certificate it signed for 127.0.0.1."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "test club CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(1)
          .not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(2)
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


class Mosquitto:
    """A broker on 127.0.0.1 that a test may stop and start again (its data kept); with
    ``tls``, it takes only TLS with a login (``url`` carries both, ``ca`` the CA's file);
    ``nodelay``: it sends each message at once (``set_tcp_nodelay``, off by default)."""

    def __init__(self, folder: Path, tls: bool = False, nodelay: bool = False) -> None:
        self.port = _free_port()
        self.folder = folder
        self.tls = tls
        self.config = folder / "mosquitto.conf"
        self.ca: Path | None = None
        text = (f"user {getpass.getuser()}\nlistener {self.port} 127.0.0.1\n"
                f"persistence true\npersistence_location {folder}/\n"
                f"log_dest file {folder}/mosquitto.log\n"
                + ("set_tcp_nodelay true\n" if nodelay else ""))
        if tls:
            self.ca, cert, key = _certificates(folder)
            passwords = folder / "passwords"
            subprocess.run([shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd",
                            "-b", "-c", str(passwords), "anna", "s3cret:pw"], check=True)
            text += (f"allow_anonymous false\npassword_file {passwords}\n"
                     f"cafile {self.ca}\ncertfile {cert}\nkeyfile {key}\n")
        else:
            text += "allow_anonymous true\n"
        self.config.write_text(text)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if self.tls:
            return f"mqtts://anna:s3cret%3Apw@127.0.0.1:{self.port}"
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert Path(MOSQUITTO).exists(), "Debian's mosquitto is needed: apt-get install mosquitto"
        with (self.folder / "mosquitto.err").open("ab") as err:  # its warnings, kept aside
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stderr=err)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def kill(self) -> None:
        """Gone at once, as at a power cut: nothing saved since its last save (SIGKILL)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    broker = Mosquitto(tmp_path)
    broker.start()
    yield broker
    broker.stop()
