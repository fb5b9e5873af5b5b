# Thin wrappers over `cargo xtask`, which holds the real logic (and needs no `just`).

# The main job: set up, build, run on the bundled devnet.
demo:
    cargo xtask demo

# Every check CI runs: fmt, clippy, all tests.
test:
    cargo xtask test

# Install what a fresh machine lacks (libclang, a C++ compiler, rustfmt, clippy).
setup:
    cargo xtask setup

# Run one fuzz target for a number of seconds, e.g. `just fuzz avm_tx 120`.
fuzz target secs="60":
    cargo xtask fuzz {{target}} {{secs}}

# Criterion benchmarks (release build).
bench *args:
    cargo xtask bench {{args}}

# node-rpc driven by the real npm clients (docs/interop.md); needs node and npm.
interop *args:
    cargo xtask interop {{args}}
