"""`baraha proxy-config`: the proxy in front of N processes (`baraha serve --shard K/N`).

The proxy sends a table's requests to the process that keeps it, by the first letter of
the code (webapp/tables/shards.py, copied here as a static map): `/t/CODE/...` and
`/api/tables/CODE/...` by their path, `/socket.io/?code=CODE` by its query (the page
sends it). Everything else (the home page, new tables, static files, lessons) goes to any
process. Around that, what the processes cannot do for themselves:
- websockets upgraded through the proxy;
- upstream keep-alive that ends BELOW gunicorn's (webapp/serve.py KEEPALIVE): a connection
  the process closed while the proxy sent on it would answer that request 502;
- per client address, at the edge: connections (32, the server's own bound before it
  stood behind a proxy) and requests (30 a second in bursts of 200: the app's RATE_LIMIT);
- X-Forwarded-For (the phone's address, set, never appended to what a phone sent) and
  X-Forwarded-Proto, which `baraha serve --proxies 1` trusts.
nginx's is a site for its http {} block (Debian: /etc/nginx/sites-enabled/); HAProxy's a
whole configuration.
"""
from __future__ import annotations

from .serve import KEEPALIVE
from .tables.shards import MOST, letters

IDLE = KEEPALIVE - 1            # seconds an idle upstream connection is kept: below gunicorn's
CONNECTIONS = 32                # per client address, at once
RATE, BURST = 30, 200           # requests per client address: a second, and a burst
BURST_SECONDS = 7               # HAProxy counts a window: BURST in it (the app's too)
TUNNEL_SECONDS = 75             # a websocket with no frame for this long is closed (pings: 25 s)


class ConfigError(ValueError):
    pass


def _check(shards: int, ports: str, listen: str) -> tuple[list[int], str]:
    if not 1 <= shards <= MOST:
        raise ConfigError(f"--shards must be 1 to {MOST}, not {shards}")
    try:
        found = [int(p) for p in ports.split(",")]
    except ValueError:
        raise ConfigError(f"--ports {ports!r}: give the processes' ports as numbers, comma "
                          "separated, like 8001,8002") from None
    if len(found) != shards:
        raise ConfigError(f"--ports names {len(found)} port(s) for {shards} processes: one each, "
                          "process 0 first")
    if any(not 1 <= p <= 65535 for p in found) or len(set(found)) != len(found):
        raise ConfigError(f"--ports {ports!r}: each a different port, 1 to 65535")
    listen = listen.strip()
    port = listen.rsplit(":", 1)[-1]
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(f"--listen {listen!r}: a port, or ADDRESS:PORT")
    return found, listen


def _head(shards: int, ports: list[int], what: str) -> str:
    return (f"# Baraha behind {what}: {shards} process{'es' if shards > 1 else ''}, each table "
            f"kept by the one its code's\n"
            f"# first letter maps to (the letter at place i of the codes' alphabet belongs to\n"
            f"# process i mod {shards}). Made by: baraha proxy-config --shards {shards} "
            f"--ports {','.join(map(str, ports))}\n"
            f"# Start each process as: baraha serve --shard K/{shards} --port PORT_K --proxies 1 "
            f"--host 127.0.0.1 --db FILE_K\n")


def nginx(shards: int, ports: str, listen: str = "80") -> str:
    found, listen = _check(shards, ports, listen)
    out = [_head(shards, found, "nginx"),
           "# For nginx's http {} block (Debian: /etc/nginx/sites-enabled/baraha).\n"]
    keep = (f"    keepalive 32;\n"
            f"    keepalive_timeout {IDLE}s;    # below gunicorn's {KEEPALIVE} s, or a reused "
            f"connection answers 502\n")
    for k, port in enumerate(found):
        out.append(f"upstream baraha_{k} {{\n    server 127.0.0.1:{port};\n{keep}}}\n")
    every = "".join(f"    server 127.0.0.1:{p};\n" for p in found)
    out.append(f"upstream baraha_any {{\n{every}{keep}}}\n\n")
    out.append("# The table's code: in the path of pages and the API, in ?code= for Socket.IO.\n"
               "map $uri $baraha_code {\n"
               "    ~^/(?:t|api/tables)/(?<baraha_path_code>[^/]+)  $baraha_path_code;\n"
               "    ~^/socket\\.io/                                  $arg_code;\n"
               "    default                                         \"\";\n"
               "}\n")
    out.append("# Its first letter names the process that keeps it; anything else goes to any.\n"
               "map $baraha_code $baraha_upstream {\n")
    for k in range(shards):
        out.append(f"    ~*^[{letters(k, shards)}]  baraha_{k};\n")
    out.append("    default  baraha_any;\n}\n")
    out.append("map $http_upgrade $baraha_connection {\n    default  upgrade;\n"
               "    \"\"       \"\";\n}\n")
    out.append("limit_req_zone  $binary_remote_addr zone=baraha_requests:10m "
               f"rate={RATE}r/s;\n"
               "limit_conn_zone $binary_remote_addr zone=baraha_connections:10m;\n\n")
    out.append(f"server {{\n    listen {listen};\n    server_name _;\n"
               f"    limit_req zone=baraha_requests burst={BURST} nodelay;\n"
               f"    limit_conn baraha_connections {CONNECTIONS};\n"
               "    limit_req_status 429;\n    limit_conn_status 429;\n\n"
               "    location / {\n"
               "        proxy_pass http://$baraha_upstream;\n"
               "        # A process that is down: what any process may answer (a new table, the\n"
               "        # home page) goes to the next, a POST too; a table's own has nowhere else.\n"
               "        proxy_next_upstream error timeout non_idempotent;\n"
               "        proxy_http_version 1.1;\n"
               "        proxy_set_header Host $http_host;\n"
               "        proxy_set_header X-Forwarded-For $remote_addr;\n"
               "        proxy_set_header X-Forwarded-Proto $scheme;\n"
               "        proxy_set_header Upgrade $http_upgrade;\n"
               "        proxy_set_header Connection $baraha_connection;\n"
               f"        proxy_read_timeout {TUNNEL_SECONDS}s;\n"
               f"        proxy_send_timeout {TUNNEL_SECONDS}s;\n"
               "    }\n}\n")
    return "".join(out)


def haproxy(shards: int, ports: str, listen: str = "80") -> str:
    found, listen = _check(shards, ports, listen)
    bind = listen if ":" in listen else f":{listen}"
    out = [_head(shards, found, "HAProxy"),
           "# A whole configuration (Debian: /etc/haproxy/haproxy.cfg).\n",
           "global\n    maxconn 8000    # phones at once: a websocket and a request or two each\n\n",
           "defaults\n    mode http\n    timeout connect 5s\n"
           f"    timeout client {TUNNEL_SECONDS}s\n    timeout server {TUNNEL_SECONDS}s\n"
           f"    timeout tunnel {TUNNEL_SECONDS}s\n"
           f"    timeout http-request {KEEPALIVE}s\n"
           f"    timeout http-keep-alive {IDLE}s\n"
           "    # A kept connection gunicorn closed as a request went out on it (its keep-alive\n"
           f"    # is {KEEPALIVE} s): the request was never read, so it is sent again.\n"
           "    retry-on conn-failure empty-response\n    retries 2\n"
           "    # A process that is down: what any process may answer goes to the next.\n"
           "    option redispatch 1\n\n",
           f"frontend baraha\n    bind {bind}\n"
           f"    stick-table type ip size 100k expire 30s store conn_cur,"
           f"http_req_rate({BURST_SECONDS}s)\n"
           "    http-request track-sc0 src\n"
           f"    http-request deny deny_status 429 if {{ sc_conn_cur(0) gt {CONNECTIONS} }}\n"
           f"    http-request deny deny_status 429 if {{ sc_http_req_rate(0) gt {BURST} }}\n"
           "    http-request set-header X-Forwarded-For %[src]\n"
           "    http-request set-header X-Forwarded-Proto https if { ssl_fc }\n"
           "    http-request set-header X-Forwarded-Proto http if !{ ssl_fc }\n"
           "    # The table's code: in the path of pages and the API, in ?code= for Socket.IO.\n"
           "    http-request set-var(txn.code) path,field(3,/) if { path_beg /t/ }\n"
           "    http-request set-var(txn.code) path,field(4,/) if { path_beg /api/tables/ }\n"
           "    http-request set-var(txn.code) url_param(code) if { path_beg /socket.io/ }\n"]
    for k in range(shards):
        out.append(f"    use_backend baraha_{k} if {{ var(txn.code) -m reg -i ^[{letters(k, shards)}] }}\n")
    out.append("    default_backend baraha_any\n\n")
    for k, port in enumerate(found):
        out.append(f"backend baraha_{k}\n    http-reuse safe\n    server p{k} 127.0.0.1:{port}\n\n")
    out.append("backend baraha_any\n    balance roundrobin\n    http-reuse safe\n")
    out.extend(f"    server p{k} 127.0.0.1:{port}\n" for k, port in enumerate(found))
    return "".join(out)
