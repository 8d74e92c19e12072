# Everyday recipes. Plain cargo works too: see README.md.

# List the recipes.
default:
    @just --list

# Serve the bundled content on http://127.0.0.1:8080 with hot reload.
run:
    cargo run --release

# Run every test.
test:
    cargo test

# Format the code.
fmt:
    cargo fmt

# Format check, lints, the docs, the minimum Rust version and every test, as CI does (installs nothing).
check:
    cargo fmt --all -- --check
    cargo clippy --all-targets --locked -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked
    python3 .ci/msrv
    cargo test --locked

# SIGTERM under load, on the real binary: requests in flight at the signal, failed, refused, and when it exited.
shutdown-figure:
    cargo test --test it shutdown:: -- --nocapture

# Install what the tests need beyond Rust (Chromium, the llms.txt parser), as CI does.
ci-deps:
    bash .ci/deps

# Review golden snapshots after an intended output change: writes them anew, then shows the diff.
snap:
    INSTA_UPDATE=always cargo test --test it surfaces:: git::the_documents
    git diff --stat -- tests/it/snapshots

# Validate the bundled content.
check-content:
    cargo run --release -- check content

# Write the static site to ./site.
build-site:
    cargo run --release -- build content --out site

# Benchmarks: hot reload (save-to-served, rebuilds, load during reloads) and the prompt demo.
bench:
    cargo bench --bench reload
    cargo bench --bench demo

bench-reload:
    cargo bench --bench reload

bench-corpus:
    bash .ci/deps
    cargo bench --bench corpus

# `marque lint` on primer/css (x8, over 100,000 lines) against GitHub Primer, beside rg for hex colours.
bench-lint:
    bash benches/lint.sh

bench-demo:
    cargo bench --bench demo

# A Tokens Studio sync of about 2,000 tokens and 12 themes: `marque check` time and save-to-served.
bench-tokens-studio:
    cargo bench --bench tokens_studio

# N brands (default 1,000): time to ready cold and warm, save-to-served, check, build, memory.
bench-scale brands="1000":
    cargo bench --bench scale -- --brands {{brands}}

# marque against nginx on the same bytes (wrk): req/s and p99 per surface and coding, the ratio, RSS with 10,000 idle connections.
bench-http rounds="2" seconds="8":
    command -v wrk >/dev/null && [ -x /usr/sbin/nginx ] || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk nginx-light)
    cargo build --release
    bash benches/http.sh target/release/marque content {{rounds}} {{seconds}}

# Fuzz the content pipeline for SECONDS (default five minutes); failing inputs go to target/fuzz/.
fuzz seconds="300":
    cargo bench --bench fuzz -- --seconds {{seconds}}

# Contract test: Schemathesis against /openapi.json of a running marque (EXAMPLES cases per operation, SEED), plus the validator; the report goes to target/tmp/schemathesis.txt.
contract examples="200" seed="20261122":
    bash .ci/deps
    MARQUE_CONTRACT_EXAMPLES={{examples}} MARQUE_CONTRACT_SEED={{seed}} cargo test --test it contract:: -- --nocapture
