#!/usr/bin/env bash
# Lighthouse 12.2.3 (mobile: its default emulated phone and throttling) on the home page and
# on a table page, against `baraha serve` on 127.0.0.1, with Debian's Chromium. Prints one
# JSON object: the machine, and each page's performance, accessibility and best-practices
# scores (goal: 0.95 or more each) with the audits that lost points, and the lines of the
# server's log that say an error.
#
#   bash bench/lighthouse.sh            (both pages)
#   bash bench/lighthouse.sh table      (one page: the smallest run)
#
# Each page is audited by bench/lighthouse/run.mjs (Lighthouse's Node API; the table page
# with its seat's cookie in the browser). Lighthouse and puppeteer-core are pinned in
# bench/lighthouse/package-lock.json and installed there with `npm ci --prefix
# bench/lighthouse` (the README's test command and .ci/run do it; so does this script, the
# first time). Needs Node 20 and npm (Lighthouse 13 wants Node 22), /usr/bin/chromium,
# python with baraha.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
if [ ! -d bench/lighthouse/node_modules/lighthouse ]; then
  npm ci --prefix bench/lighthouse --no-audit --no-fund --silent >&2
fi
PAGES=${*:-home table}
for name in $PAGES; do
  case "$name" in home|table) ;; *) echo "bench/lighthouse.sh: no page '$name' (home, table)" >&2; exit 2;; esac
done

WORK=$(mktemp -d)
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
XDG_DATA_HOME="$WORK/data" "$PY" -m webapp serve --host 127.0.0.1 --port "$PORT" \
  --db "$WORK/baraha.sqlite3" >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill -INT "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 600); do         # its worker has made the app (a minute at most)
  curl -fsS --max-time 5 -o /dev/null "$BASE/ping" 2>/dev/null && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
  sleep 0.1
done

# A Tong-its table with two bots; seat 0 is ours (its cookie goes with every request).
CODE=$(curl -fsS -H 'Content-Type: application/json' \
  -d '{"game": "tongits", "players": 3, "bots": {"1": "normal", "2": "normal"}}' \
  "$BASE/api/tables" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["code"])')
TOKEN=$(curl -fsS -H 'Content-Type: application/json' -d '{"name": "Ana"}' \
  "$BASE/api/tables/$CODE/seats" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["token"])')

for name in $PAGES; do     # bench/lighthouse/run.mjs: Lighthouse's Node API in Chromium
  case "$name" in
    home) node bench/lighthouse/run.mjs "$BASE/" "$WORK/home.json" ;;
    table) node bench/lighthouse/run.mjs "$BASE/t/$CODE" "$WORK/table.json" "baraha_$CODE=$TOKEN" ;;
  esac
done

"$PY" - "$WORK" $PAGES <<'PY'
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from bench.loadserver import errors_in
from bench.machine import machine

work = Path(sys.argv[1])
out = {"benchmark": "lighthouse 12.2.3 mobile", "machine": machine(), "goal": 0.95}
for name in sys.argv[2:]:
    r = json.loads((work / f"{name}.json").read_text())
    scores = {k: c["score"] for k, c in r["categories"].items()}
    lost = sorted({a["id"] for c in r["categories"].values() for a in c["auditRefs"]
                   if a.get("weight") and (r["audits"][a["id"]].get("score") or 0) < 1
                   and r["audits"][a["id"]].get("scoreDisplayMode") in ("binary", "numeric")})
    metrics = {k: round(r["audits"][k]["numericValue"]) for k in
               ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
                "speed-index") if k in r["audits"]}
    metrics["cumulative-layout-shift"] = round(r["audits"]["cumulative-layout-shift"]["numericValue"], 3)
    errors = [f'{i.get("source")}: {i.get("description", "")[:160]} ({i.get("sourceLocation", {}).get("url") or i.get("url", "")})'
              for i in (r["audits"]["errors-in-console"].get("details") or {}).get("items", [])]
    out[name] = {"url": r["finalDisplayedUrl"], "scores": scores, "metrics_ms": metrics,
                 "audits_below_full_score": lost, "console_errors": errors,
                 "ok": all(v is not None and v >= 0.95 for v in scores.values())}
out["server_log_errors"] = errors_in((work / "server.log").read_text(errors="replace"))[:20]
print(json.dumps(out, indent=1))
PY
