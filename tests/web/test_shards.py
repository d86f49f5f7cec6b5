"""One process of several (`baraha serve --shard K/N`), as the proxy and a phone see it.

- The code map, for every N from 1 to 8: `baraha proxy-config` prints a map (nginx's and
  HAProxy's alike) that gives each letter of the codes' alphabet to exactly one process,
  nginx and HAProxy accept the configuration, and the codes each process makes are the
  ones the map sends to it.
- A process loads, from a file that holds tables of both, only its own.
- A process keeps the seat cookies of tables it does not hold (another process's), and
  tidies its own as before; the home page offers them; a typed code of another process
  goes to that table's page (which the proxy sends there).
- A request or a socket for another process's table is refused with words that name it.
- `--proxies 1`: the caps per address count the phone (X-Forwarded-For), not the proxy.
- Mistakes on the command line (serve, proxy-config, announce) get one line that names them.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import socketio

from tests.servers import InProcess
from webapp.__main__ import main
from webapp.tables import Tables
from webapp.tables.shards import CODE_ALPHABET, parse
from webapp.tables.store import Store


def printed(capsys, *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def nginx_map(site: str) -> dict[str, int]:
    """letter -> process, as the printed nginx site routes it."""
    out = {}
    for letters, k in re.findall(r"~\*\^\[([A-Z0-9]+)\]\s+baraha_(\d+);", site):
        for ch in letters:
            assert ch not in out, f"{ch} goes to two processes"
            out[ch] = int(k)
    return out


def haproxy_map(cfg: str) -> dict[str, int]:
    out = {}
    for k, letters in re.findall(r"use_backend baraha_(\d+) if \{ var\(txn\.code\) -m reg -i "
                                 r"\^\[([A-Z0-9]+)\] \}", cfg):
        for ch in letters:
            assert ch not in out, f"{ch} goes to two processes"
            out[ch] = int(k)
    return out


@pytest.mark.parametrize("n", range(1, 9))
def test_the_code_map_for_every_number_of_processes(capsys, tmp_path, n):
    ports = ",".join(str(8001 + k) for k in range(n))
    site = printed(capsys, "proxy-config", "--shards", str(n), "--ports", ports,
                   "--listen", "127.0.0.1:8080")
    cfg = printed(capsys, "proxy-config", "--shards", str(n), "--ports", ports,
                  "--listen", "127.0.0.1:8080", "--haproxy")
    routes = nginx_map(site)
    assert set(routes) == set(CODE_ALPHABET)            # every letter, once
    assert set(routes.values()) == set(range(n))        # every process has letters
    assert haproxy_map(cfg) == routes
    for k in range(n):
        assert f"upstream baraha_{k} {{\n    server 127.0.0.1:{8001 + k};" in site
        assert f"backend baraha_{k}\n    http-reuse safe\n    server p{k} 127.0.0.1:{8001 + k}\n" in cfg
    # What each process makes is what the map sends it.
    for k in range(n):
        tables = Tables(Store(str(tmp_path / f"{k}-of-{n}.sqlite3")), shard=parse(f"{k}/{n}"),
                        per_client=None)
        try:
            codes = [tables.create("tonk", 2).code for _ in range(30)]
        finally:
            tables.close()
        assert {routes[c[0]] for c in codes} == {k}, codes
        if n > 1 and len(routes) // n >= 3:     # a few letters of its own: all of them come up
            assert len({c[0] for c in codes}) >= 2
    # Both programs take the configuration as printed.
    conf = tmp_path / "nginx.conf"
    (tmp_path / "site.conf").write_text(site)
    conf.write_text(f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{ include {tmp_path}/site.conf; }}\n")
    checked = subprocess.run(["nginx", "-t", "-c", str(conf), "-p", str(tmp_path), "-e",
                              str(tmp_path / "error.log")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    (tmp_path / "haproxy.cfg").write_text(cfg)
    checked = subprocess.run(["haproxy", "-c", "-f", str(tmp_path / "haproxy.cfg")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_proxy_keeps_connections_for_less_than_gunicorn(capsys):
    """A connection gunicorn closed (after its keep-alive, webapp/serve.py) while nginx sent
    a request on it answers 502: nginx must let it go first."""
    from webapp.serve import KEEPALIVE
    site = printed(capsys, "proxy-config", "--shards", "2", "--ports", "8001,8002")
    idle = [int(s) for s in re.findall(r"keepalive_timeout (\d+)s;", site)]
    assert len(idle) == 3 and max(idle) < KEEPALIVE
    for line in ("proxy_set_header X-Forwarded-For $remote_addr;", "proxy_set_header Upgrade "
                 "$http_upgrade;", "limit_req zone=baraha_requests", "limit_conn baraha_connections"):
        assert line in site
    cfg = printed(capsys, "proxy-config", "--shards", "2", "--ports", "8001,8002", "--haproxy")
    assert int(re.search(r"timeout http-keep-alive (\d+)s", cfg)[1]) < KEEPALIVE


@pytest.mark.parametrize("args, words", [
    (["--shards", "0", "--ports", "8001"], "--shards must be 1 to 31, not 0"),
    (["--shards", "2", "--ports", "8001"], "--ports names 1 port(s) for 2 processes"),
    (["--shards", "2", "--ports", "8001,x"], "give the processes' ports as numbers"),
    (["--shards", "2", "--ports", "8001,8001"], "each a different port"),
    (["--shards", "1", "--ports", "8001", "--listen", "nginx"], "--listen 'nginx': a port"),
])
def test_proxy_config_mistakes_are_named(capsys, args, words):
    assert main(["proxy-config", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("baraha proxy-config: ") and words in err and "\n" not in err


@pytest.mark.parametrize("shard, words", [
    ("2/2", "K counts from 0 and must be below N: 0 to 1, not 2"),
    ("0/0", "N must be 1 to 31"),
    ("0/32", "N must be 1 to 31"),
    ("1", "'1' is not K/N"),
    ("a/b", "'a/b' is not K/N"),
])
def test_a_shard_that_cannot_be(capsys, tmp_path, shard, words):
    assert main(["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "b.sqlite3"),
                 "--shard", shard]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"baraha serve: --shard: {err.split('--shard: ', 1)[1]}" and words in err


@pytest.mark.parametrize("url, words", [
    ("http://127.0.0.1:6379", "is not a Redis URL"),
    ("redis://127.0.0.1:notaport/0", "is not a Redis URL"),
    ("redis://127.0.0.1:6379/zero", "the part after the port is the database's number"),
])
def test_a_message_queue_that_cannot_be(capsys, tmp_path, url, words):
    assert main(["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "b.sqlite3"),
                 "--message-queue", url]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("baraha serve: --message-queue: ") and words in err and "\n" not in err


# ---- one process of two, in this process -------------------------------------------------

def code_of(shard: int, rest: str = "AAA") -> str:
    """A code process `shard` of two makes (its first letter is one of that process's)."""
    return CODE_ALPHABET[shard] + rest


@pytest.fixture
def first(make_app):
    """Process 0 of 2, behind one proxy."""
    return make_app(SHARD=parse("0/2"), PROXIES=1)


def test_it_makes_only_its_own_codes_and_refuses_another_s_by_name(first):
    client = first.test_client()
    codes = [client.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
             for _ in range(12)]
    assert all(CODE_ALPHABET.index(c[0]) % 2 == 0 for c in codes), codes
    theirs = code_of(1)
    r = client.get(f"/api/tables/{theirs}")
    assert r.status_code == 404
    assert r.json["error"].startswith(f"table {theirs} is not kept by this process (0/2")
    assert client.get(f"/t/{theirs}").status_code == 404    # a page: "no such table", for people
    # A code no process makes is simply not there.
    r = client.get("/api/tables/0OIL")
    assert r.status_code == 404 and r.json["error"] == "there is no table 0OIL"


def test_seat_cookies_of_another_process_s_tables_are_kept(first):
    client = first.test_client()
    mine = client.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
    client.post(f"/api/tables/{mine}/seats", json={"name": "Ana"})
    theirs, gone = code_of(1, "BCD"), code_of(0, "BCD")     # gone: of process 0, not there
    client.set_cookie(f"baraha_{theirs}", "a-token-of-the-other-process")
    client.set_cookie(f"baraha_{gone}", "a-token-of-a-table-that-left")
    for _ in range(4):
        r = client.get("/")
        assert r.status_code == 200
        dropped = [c for c in r.headers.getlist("Set-Cookie") if "=;" in c or "Max-Age=0" in c]
        assert not any(c.startswith(f"baraha_{theirs}=") for c in dropped), dropped
        assert client.get_cookie(f"baraha_{theirs}").value == "a-token-of-the-other-process"
        assert client.get_cookie(f"baraha_{mine}") is not None
    assert client.get_cookie(f"baraha_{gone}") is None      # its own are tidied as before
    # The home page offers both tables; the other's code typed in goes to its page.
    home = client.get("/").get_data(as_text=True)
    assert f"/t/{theirs}" in home and f"/t/{mine}" in home
    r = client.get(f"/join?code={theirs.lower()}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/t/{theirs}")


def test_it_loads_only_its_own_tables(make_app):
    """A file that holds tables of both letters (one process's, later split in two): each
    process plays its own from it, and not the other's."""
    alone = make_app().test_client()
    codes = {}
    while len(codes) < 2:
        code = alone.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
        codes.setdefault(CODE_ALPHABET.index(code[0]) % 2, code)
    for k in (0, 1):
        client = make_app(SHARD=parse(f"{k}/2")).test_client()
        assert client.get(f"/api/tables/{codes[k]}/hands").status_code == 401   # here: a seat's
        r = client.get(f"/api/tables/{codes[1 - k]}/hands")
        assert r.status_code == 404 and "is not kept by this process" in r.json["error"]


def test_the_caps_per_address_count_the_phone_behind_the_proxy(make_app):
    behind = make_app(SHARD=parse("0/2"), PROXIES=1, TABLES_PER_CLIENT=1).test_client()
    direct = make_app(DATABASE=":memory:", TABLES_PER_CLIENT=1).test_client()

    def make(client, phone):
        return client.post("/api/tables", json={"game": "tonk", "players": 2},
                           headers={"X-Forwarded-For": phone}).status_code

    assert [make(behind, "192.168.1.20"), make(behind, "192.168.1.21"),
            make(behind, "192.168.1.20")] == [201, 201, 429]
    # Without --proxies the header is anyone's to write: not believed.
    assert [make(direct, "192.168.1.20"), make(direct, "192.168.1.21")] == [201, 429]


@pytest.mark.usefixtures("websocket_close_read_as_http")   # tests/conftest.py
def test_a_socket_for_another_process_s_table_is_refused_with_its_name(first):
    with InProcess(first) as live:
        said = []
        for query in (f"?code={code_of(1)}", ""):
            client = socketio.Client(reconnection=False)
            client.on("connect_error", lambda data: said.append(data))
            with pytest.raises(socketio.exceptions.ConnectionError):
                client.connect(live.base + "/" + query, auth={"token": "no-such-token"},
                               transports=["websocket"], wait_timeout=10)
            client.disconnect()
    theirs, unnamed = (d["message"] for d in said)
    assert theirs.startswith(f"table {code_of(1)} is not kept by this process (0/2")
    assert "/socket.io/?code=" in theirs
    assert "connect with ?code=CODE" in unnamed


def test_one_process_alone_makes_every_code_and_keeps_every_cookie(make_app):
    client = make_app().test_client()
    firsts = {client.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"][0]
              for _ in range(40)}
    assert len(firsts) > 12      # of 31 letters: a second process's too
    client.set_cookie(f"baraha_{code_of(1, 'XYZ')}", "a-token-of-a-table-that-left")
    client.get("/")
    assert client.get_cookie(f"baraha_{code_of(1, 'XYZ')}") is None   # tidied, as always



@pytest.mark.parametrize("args, status, words", [
    (["  \t "], 2, "the message is empty"),
    (["x" * 141], 2, "the message has 141 characters; a phone shows 140 at most"),
    (["Dinner", "--fil", "\u200b"], 2, "the Filipino message is empty"),
    (["Dinner", "--message-queue", "amqp://127.0.0.1/"], 2, "is not a Redis URL"),
])
def test_announce_mistakes_are_named(capsys, args, status, words):
    assert main(["announce", *args]) == status
    err = capsys.readouterr().err.strip()
    assert err.startswith("baraha announce: ") and words in err and "\n" not in err


def test_announce_says_when_the_queue_does_not_answer(capsys):
    from tests.servers import free_port
    url = f"redis://127.0.0.1:{free_port()}/0"      # nothing listens there
    assert main(["announce", "Dinner", "--message-queue", url]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"baraha announce: the message queue {url} does not answer") \
        and "is redis-server running" in err and "\n" not in err
