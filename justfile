# Everyday recipes. Plain cargo works too: see README.md.

# Serve the bundled content on http://127.0.0.1:8080 with hot reload.
run:
    cargo run --release

# Run every test.
test:
    cargo test

# Format, lint and test, as CI does.
check:
    bash .ci/run

# Validate the bundled content.
check-content:
    cargo run --release -- check content

# Write the static site to ./site.
build-site:
    cargo run --release -- build content --out site

# Benchmarks: hot reload (save-to-served, rebuilds, load during reloads) and the prompt demo.
bench:
    cargo bench

bench-reload:
    cargo bench --bench reload

bench-demo:
    cargo bench --bench demo

# Fuzz the content pipeline for SECONDS (default five minutes); failing inputs go to target/fuzz/.
fuzz seconds="300":
    cargo bench --bench fuzz -- --seconds {{seconds}}
