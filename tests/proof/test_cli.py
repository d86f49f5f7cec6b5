"""CLI mistakes get one line that names the problem: a port outside
1-65535 once printed a traceback, a missing certificate "cannot read None", and an address
this machine does not have advice about ports."""
from __future__ import annotations

import pytest

from webapp.__main__ import main


def one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "abc", "80.5"])
def test_a_port_outside_the_range(capsys, tmp_path, port):
    assert main(["serve", "--port", port, "--db", str(tmp_path / "b.sqlite3")]) == 2
    err = one_line(capsys)
    assert err.startswith("baraha serve: --port:") and "1 to 65535" in err


def test_a_missing_certificate_or_key_is_named(capsys, tmp_path):
    cert, key = tmp_path / "mine.pem", tmp_path / "mine-key.pem"
    args = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "b.sqlite3"),
            "--cert", str(cert), "--key", str(key)]
    assert main(args) == 1
    assert one_line(capsys) == f"baraha serve: the certificate file {cert} does not exist"
    cert.write_text("-----BEGIN CERTIFICATE-----\n")
    assert main(args) == 1
    assert one_line(capsys) == f"baraha serve: the key file {key} does not exist"


@pytest.mark.parametrize("tls, words", [
    (["--cert", "c.pem"], "--cert and --key go together: give both"),
    (["--key", "k.pem"], "--cert and --key go together: give both"),
    (["--https", "--cert", "c.pem", "--key", "k.pem"],
     "choose either --https (a certificate made here) or --cert/--key (your own), not both")])
def test_https_options_that_do_not_go_together(capsys, tmp_path, tls, words):
    assert main(["serve", "--host", "127.0.0.1", "--port", "0",
                 "--db", str(tmp_path / "b.sqlite3"), *tls]) == 1
    assert one_line(capsys) == f"baraha serve: {words}"


@pytest.mark.parametrize("host", ["192.0.2.77", "203.0.113.5", "nosuch.invalid"])
def test_an_address_this_machine_does_not_have(capsys, tmp_path, host):
    assert main(["serve", "--host", host, "--port", "0", "--db", str(tmp_path / "b.sqlite3")]) == 2
    err = one_line(capsys)
    assert f"{host} is not an address of this computer" in err and "port" not in err
