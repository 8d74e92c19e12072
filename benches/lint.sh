#!/usr/bin/env bash
# `marque lint` on a real codebase against a real design system, timed
# beside ripgrep searching the same tree for hex colours (`just bench-lint`).
#
# The codebase: primer/css (MIT, GitHub's CSS framework, SCSS) at a pinned
# commit, copied COPIES times (default 8) into one tree so the files lint
# reads hold over 100,000 lines. The brand: GitHub Primer from npm
# dtcg-examples 1.1.3 (MIT), as a brand folder. Both under target/.
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${COPIES:-8}"
runs="${RUNS:-5}"
root=target/bench-lint
commit=0875df4f25373511874f5bfcd117a1bc2006762f
mkdir -p "$root"
if [ ! -d "$root/primer-css" ]; then
  git init -q "$root/primer-css"
  # PRIMER_CSS_MIRROR: a local clone or bare mirror to fetch the pinned
  # commit from, where github.com cannot be reached.
  src="${PRIMER_CSS_MIRROR:-https://github.com/primer/css}"
  git -C "$root/primer-css" fetch -q --depth 1 "$src" "$commit"
  git -C "$root/primer-css" checkout -q FETCH_HEAD
fi
corpus=target/dtcg-examples-1.1.3/package
if [ ! -f "$corpus/github-primer.resolver.json" ]; then
  mkdir -p target/dtcg-examples-1.1.3
  python3 - target/dtcg-examples-1.1.3 <<'PY'
import io, sys, tarfile, urllib.request
url = "https://registry.npmjs.org/dtcg-examples/-/dtcg-examples-1.1.3.tgz"
data = urllib.request.urlopen(url, timeout=60).read()
tarfile.open(fileobj=io.BytesIO(data)).extractall(sys.argv[1], filter="data")
PY
fi
brand="$root/content/github-primer"
rm -rf "$brand" && mkdir -p "$brand"
cp "$corpus/github-primer.resolver.json" "$brand/tokens.resolver.json"
cp -r "$corpus/github-primer" "$brand/"
echo '{"name": "GitHub Primer", "summary": "Primer, from dtcg-examples.", "version": "0.1.0", "updated": "2026-11-20"}' > "$brand/brand.json"
tree="$root/tree"
rm -rf "$tree" && mkdir -p "$tree"
for i in $(seq 1 "$copies"); do
  mkdir -p "$tree/copy$i" && cp -r "$root/primer-css/src" "$root/primer-css/docs" "$tree/copy$i/" 2>/dev/null || true
done
# The same files for both tools: only what lint reads, node_modules and
# the like left out by a .ignore both honour.
printf 'node_modules/\n*.min.*\n' > "$tree/.ignore"
# An empty tree: what reading and indexing the brand costs alone.
empty="$root/empty"
mkdir -p "$empty"
# Lint keeps its index of the brand in the user's cache folder: here, one
# of the bench's own, emptied before each cold run.
cache="$PWD/$root/cache"
cargo build --release --bin marque -q
bin="${CARGO_TARGET_DIR:-target}/release/marque"
XDG_CACHE_HOME="$cache" python3 - "$bin" "$brand" "$tree" "$runs" "$empty" "$cache" <<'PY'
import json, os, resource, shutil, subprocess, sys, time
bin, brand, tree, runs, empty, cache = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
exts = (".css", ".scss", ".sass", ".less", ".html", ".htm", ".vue", ".svelte", ".js", ".mjs", ".cjs",
        ".ts", ".jsx", ".tsx", ".swift", ".kt", ".xml")
lines = files = 0
for d, dirs, names in os.walk(tree):
    dirs[:] = [x for x in dirs if x != "node_modules" and not x.startswith(".")]
    for n in names:
        if n.endswith(exts) and ".min." not in n:
            files += 1
            with open(os.path.join(d, n), "rb") as f:
                lines += f.read().count(b"\n")
def cold():
    shutil.rmtree(cache, ignore_errors=True)
def median(cmd, before_each=None):
    # Wall time, and CPU time (user and system) from the OS's accounting of
    # the finished child: steadier on a shared machine. getrusage counts in
    # microseconds (os.times counts 10 ms clock ticks, too coarse for a
    # 20 ms command). Each tool writes to /dev/null, as hyperfine has it;
    # one more run, not timed, keeps the output.
    times, cpus = [], []
    if before_each is None:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(runs):
        if before_each:
            before_each()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if before_each:
        before_each()
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    times.sort()
    cpus.sort()
    return times[len(times) // 2], cpus[len(cpus) // 2], out.stdout
lint = [bin, "lint", tree, "--brand", brand, "--format", "json"]
lint_s, lint_cpu, out = median(lint, cold)
brand_s, brand_cpu, _ = median([bin, "lint", empty, "--brand", brand, "--format", "json"], cold)
# Warm: the brand's index read from the cache (each command runs once
# first, unmeasured, to fill it).
warm_s, warm_cpu, warm_out = median(lint)
wbrand_s, wbrand_cpu, _ = median([bin, "lint", empty, "--brand", brand, "--format", "json"])
assert warm_out == out, "a warm run must find what a cold one does"
rg_s, rg_cpu, rg_out = median(["rg", "--count-matches", "-i", r"#[0-9a-f]{3,8}\b",
                       "-g", "*.{css,scss,sass,less,html,htm,vue,svelte,js,mjs,cjs,ts,jsx,tsx,swift,kt,xml}", tree])
codes = {}
for l in out.decode().splitlines():
    c = json.loads(l)["code"]
    codes[c] = codes.get(c, 0) + 1
hex_hits = sum(int(l.rsplit(":", 1)[1]) for l in rg_out.decode().splitlines() if ":" in l)
print(f"{files} files, {lines} lines (primer/css x{len(os.listdir(tree)) - 1})")
print(f"marque lint, cold: {lint_s * 1000:.0f} ms wall, {lint_cpu * 1000:.0f} ms CPU (medians of {runs}), findings {dict(sorted(codes.items()))}")
print(f"  of which the brand (an empty tree): {brand_s * 1000:.0f} ms wall, {brand_cpu * 1000:.0f} ms CPU")
print(f"marque lint, warm (the brand's index cached): {warm_s * 1000:.0f} ms wall, {warm_cpu * 1000:.0f} ms CPU, the same findings")
print(f"  of which the brand (an empty tree): {wbrand_s * 1000:.0f} ms wall, {wbrand_cpu * 1000:.0f} ms CPU")
print(f"rg hex colours: {rg_s * 1000:.0f} ms wall, {rg_cpu * 1000:.0f} ms CPU (medians of {runs}), {hex_hits} matches")
print(f"ratio lint/rg, cold: {lint_s / rg_s:.1f}x wall, {lint_cpu / max(rg_cpu, 1e-3):.1f}x CPU; "
      f"warm: {warm_s / rg_s:.1f}x wall, {warm_cpu / max(rg_cpu, 1e-3):.1f}x CPU; cores: {os.cpu_count()}")
PY
