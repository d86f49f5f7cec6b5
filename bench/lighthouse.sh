#!/usr/bin/env bash
# Lighthouse 12.2.3 (mobile: its default emulated phone and throttling) on the home page and
# on a table page, against `baraha serve` on 127.0.0.1, with Debian's Chromium. Prints one
# JSON object: the machine, and each page's performance, accessibility and best-practices
# scores (goal: 0.95 or more each) with the audits that lost points.
#
#   bash bench/lighthouse.sh            (installs lighthouse with npm on first use, into
#                                        $LIGHTHOUSE_DIR, default /tmp/baraha-lighthouse)
# Needs Node 20 and npm (Lighthouse 13 wants Node 22), /usr/bin/chromium, python with baraha.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
LH_DIR=${LIGHTHOUSE_DIR:-/tmp/baraha-lighthouse}
LH="$LH_DIR/node_modules/.bin/lighthouse"
if [ ! -x "$LH" ]; then
  mkdir -p "$LH_DIR"
  npm install --prefix "$LH_DIR" --no-audit --no-fund --silent -E lighthouse@12.2.3 >&2
fi

WORK=$(mktemp -d)
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
XDG_DATA_HOME="$WORK/data" "$PY" -m webapp serve --host 127.0.0.1 --port "$PORT" \
  --db "$WORK/baraha.sqlite3" >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do
  curl -fsS -o /dev/null "$BASE/ping" 2>/dev/null && break
  sleep 0.1
done

# A Tong-its table with two bots; seat 0 is ours (its cookie goes with every request).
CODE=$(curl -fsS -H 'Content-Type: application/json' \
  -d '{"game": "tongits", "players": 3, "bots": {"1": "normal", "2": "normal"}}' \
  "$BASE/api/tables" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["code"])')
TOKEN=$(curl -fsS -H 'Content-Type: application/json' -d '{"name": "Ana"}' \
  "$BASE/api/tables/$CODE/seats" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["token"])')

FLAGS="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic"
run() {   # name url [extra lighthouse args...]
  local name=$1 url=$2; shift 2
  CHROME_PATH=/usr/bin/chromium "$LH" "$url" --quiet --output=json \
    --output-path="$WORK/$name.json" --chrome-flags="$FLAGS" \
    --only-categories=performance,accessibility,best-practices "$@" >&2
}
run home "$BASE/"
run table "$BASE/t/$CODE" --extra-headers="{\"Cookie\": \"baraha_$CODE=$TOKEN\"}"

"$PY" - "$WORK" <<'PY'
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from bench.machine import machine

out = {"benchmark": "lighthouse 12.2.3 mobile", "machine": machine(), "goal": 0.95}
for name in ("home", "table"):
    r = json.loads((Path(sys.argv[1]) / f"{name}.json").read_text())
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
print(json.dumps(out, indent=1))
PY
