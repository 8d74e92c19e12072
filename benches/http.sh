#!/usr/bin/env bash
# marque against nginx on the same bytes (nginx serves `marque build` output
# with gzip_static), same machine, same load, alternated: requests/s and p99
# per surface for identity, gzip, br and 304, and marque's ratio to nginx.
# Then marque's RSS with 10,000 idle keep-alive connections.
#
#   just bench-http [ROUNDS] [SECONDS]      (builds release first)
#   benches/http.sh MARQUE_BIN CONTENT_DIR [ROUNDS] [SECONDS]
#
# Needs wrk; without nginx (Debian nginx-light) only marque is measured, with
# a note. Environment: CONN (connections, 64), WRK_THREADS (2), SRV_CPUS and
# LOAD_CPUS (taskset lists to pin the servers and wrk on a many-core machine).
set -u
M=$1; CONTENT=$2; ROUNDS=${3:-2}; SECS=${4:-8}
CONN=${CONN:-64}; WT=${WRK_THREADS:-2}; MP=18100; NP=18200
PIN_SRV=(); [ -n "${SRV_CPUS:-}" ] && PIN_SRV=(taskset -c "$SRV_CPUS")
PIN_LOAD=(); [ -n "${LOAD_CPUS:-}" ] && PIN_LOAD=(taskset -c "$LOAD_CPUS")
command -v wrk >/dev/null || { echo "bench-http needs wrk (Debian: apt-get install wrk)"; exit 1; }
W=$(mktemp -d); trap 'kill $MPID 2>/dev/null; [ -f "$W/nginx.pid" ] && kill "$(cat "$W/nginx.pid")" 2>/dev/null; sleep 0.3; rm -rf "$W"' EXIT
"$M" build "$CONTENT" --out "$W/site" --public-url "http://127.0.0.1:$MP" >/dev/null 2>&1
NGINX=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if [ -n "$NGINX" ]; then
  mkdir -p "$W/tmp"
  cat > "$W/nginx.conf" <<CONF
worker_processes ${NGINX_WORKERS:-auto}; pid $W/nginx.pid; error_log $W/error.log; daemon on;
events { worker_connections 16384; }
http { access_log off; sendfile on; tcp_nopush on; open_file_cache max=1000 inactive=60s; etag on;
  client_body_temp_path $W/tmp/b; proxy_temp_path $W/tmp/p; fastcgi_temp_path $W/tmp/f; uwsgi_temp_path $W/tmp/u; scgi_temp_path $W/tmp/s;
  types { application/json json; text/css css; text/markdown md; text/plain txt; text/javascript js; }
  server { listen 127.0.0.1:$NP backlog=4096; root $W/site; gzip_static on; gzip_vary on;
    add_header Cache-Control "public, max-age=60"; add_header Access-Control-Allow-Origin "*"; } }
CONF
  "${PIN_SRV[@]}" "$NGINX" -p "$W" -c "$W/nginx.conf" 2>/dev/null || { echo "nginx did not start:"; cat "$W/error.log"; NGINX=; }
else
  echo "note: nginx is not installed (Debian: nginx-light); measuring marque alone"
fi
ulimit -n 65536 2>/dev/null || true
"${PIN_SRV[@]}" "$M" serve --content "$CONTENT" --listen 127.0.0.1:$MP --no-watch --max-connections 100000 >"$W/marque.log" 2>&1 & MPID=$!
for _ in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$MP/readyz && break; sleep 0.1; done

run() { # url [header] -> "req/s p99"
  "${PIN_LOAD[@]}" wrk -t"$WT" -c"$CONN" -d"${SECS}s" --latency ${2:+-H "$2"} "$1" 2>/dev/null |
    awk '/Requests\/sec/ {r=$2} /^ +99%/ {p=$2} END {print (r ? r : "-"), (p ? p : "-")}'
}
etag() { curl -s -o /dev/null -D - "$1" | awk -F': ' 'tolower($1)=="etag" {print $2}' | tr -d '\r'; }
echo "cores=$(nproc) conns=$CONN wrk_threads=$WT seconds=$SECS rounds=$ROUNDS${SRV_CPUS:+ server_cpus=$SRV_CPUS}${LOAD_CPUS:+ load_cpus=$LOAD_CPUS}"
printf "%-26s %12s %9s %12s %9s %7s\n" case "marque r/s" p99 "nginx r/s" p99 ratio
for case in "spec.json|" "spec.json|gzip" "spec.json|br" "spec.json|304" "tokens.css|gzip" "tokens.css|br" "spec.md|gzip"; do
  f=${case%%|*}; c=${case#*|}
  mu=http://127.0.0.1:$MP/brand/northwind/$f; nu=http://127.0.0.1:$NP/brand/northwind/$f
  case $c in
    "") hm=; hn= ;;
    304) hm="If-None-Match: $(etag "$mu")"; hn="If-None-Match: $(etag "$nu")" ;;
    *) hm="Accept-Encoding: $c"; hn="Accept-Encoding: $c" ;;
  esac
  for _ in $(seq "$ROUNDS"); do
    read -r mr mp <<<"$(run "$mu" "$hm")"
    if [ -n "$NGINX" ] && [ "$c" != br ]; then read -r nr np <<<"$(run "$nu" "$hn")"; else nr=-; np=-; fi
    ratio=$(awk -v m="$mr" -v n="$nr" 'BEGIN { if (n+0 > 0) printf "%.2f", m/n; else print "-" }')
    printf "%-26s %12s %9s %12s %9s %7s\n" "$f ${c:-identity}" "$mr" "$mp" "$nr" "$np" "$ratio"
  done
done
[ -n "$NGINX" ] && echo "(nginx-light has no brotli module: br is measured for marque only)"

# Idle keep-alive connections: each sends one request, reads the answer and stays open.
IDLE=${IDLE:-10000}
python3 - "$MP" "$IDLE" "$MPID" <<'PY'
import asyncio, sys
port, n, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
async def one(held):
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    await w.drain()
    await r.readuntil(b"\r\n\r\n")
    held.append(w)
async def main():
    before = rss()
    held = []
    for i in range(0, n, 500):
        await asyncio.gather(*(one(held) for _ in range(min(500, n - i))), return_exceptions=True)
    await asyncio.sleep(1)
    after = rss()
    print(f"marque RSS: {before:.1f} MiB idle; {after:.1f} MiB with {len(held)} idle keep-alive connections "
          f"({(after - before) * 1024 / max(len(held), 1):.1f} KiB each)")
asyncio.run(main())
PY
