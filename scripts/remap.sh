# Sourced by scripts/test.sh and scripts/serve.sh: when the cargo registry's sources are not where
# .cargo/config.toml expects them (CARGO_HOME other than /root/.cargo), the page's panic-location
# strings are shortened all the same, by the same --remap-path-prefix flag for the registry found.
# Cargo appends these flags to the config file's (the last matching prefix wins in rustc).
_remap=""
for _dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  [ -d "$_dir" ] || continue
  case "$_dir" in /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/) continue ;; esac
  _remap="$_remap --remap-path-prefix=$_dir="
done
if [ -n "$_remap" ]; then
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-}$_remap"
fi
unset _remap _dir
