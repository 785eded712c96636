# Sourced (POSIX sh) by package.json's scripts and by .ci/run: makes `node` on PATH one
# that package.json's `engines` (>=22) accepts. A machine whose Node is older (the
# machines here have Node 20) gets one from the npm registry's `node` package, which
# carries the binaries for Linux and macOS, x64 and arm64: installed once per exact
# version into a cache outside the clone, reused after, and named in one line on stderr.
#
#   . ./.ci/node.sh            in a script: a supported Node first on PATH
#   qsfilter_node_bin 26       the directory of the newest Node 26 (installed when missing)

QSFILTER_NODE_MIN=22
QSFILTER_NODE_FALLBACK=24
QSFILTER_NODE_CACHE="${QSFILTER_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/qsfilter/node}"

# The major of the first `node` on PATH, or 0 when there is none.
qsfilter_node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# The directory holding the newest cached or published release of major $1.
qsfilter_node_bin() {
  _major=$1
  # The newest release of the major. npm lists versions in no useful order (24.9.0
  # after 24.21.0); with the registry out of reach, the newest one cached serves.
  _version=$(npm view "node@$_major" version --json 2>/dev/null | node -e '
    const key = (v) => v.split(".").map(Number);
    const newer = (a, b) => { const [x, y] = [key(a), key(b)]; return x[1] - y[1] || x[2] - y[2]; };
    let text = ""; process.stdin.on("data", (d) => (text += d)).on("end", () => {
      try { console.log([].concat(JSON.parse(text)).sort(newer).pop()); } catch { console.log(""); }
    });')
  if [ -z "$_version" ]; then
    _version=$(ls "$QSFILTER_NODE_CACHE" 2>/dev/null | grep "^$_major\." | sort -t. -k2,2n -k3,3n | tail -n 1)
  fi
  if [ -z "$_version" ]; then
    echo "qsfilter: cannot find a release of Node $_major (npm view node@$_major failed, and none is cached in $QSFILTER_NODE_CACHE)" >&2
    return 1
  fi
  _dir="$QSFILTER_NODE_CACHE/$_version"
  if [ ! -x "$_dir/node_modules/.bin/node" ]; then
    rm -rf "$_dir.tmp"
    mkdir -p "$QSFILTER_NODE_CACHE"
    npm install --prefix "$_dir.tmp" --no-audit --no-fund --no-save --loglevel=error "node@$_version" >&2 || return 1
    rm -rf "$_dir"
    mv "$_dir.tmp" "$_dir"
  fi
  echo "$_dir/node_modules/.bin"
}

if [ "$(qsfilter_node_major)" -lt "$QSFILTER_NODE_MIN" ]; then
  _old=$(node --version 2>/dev/null || echo none)
  _bin=$(qsfilter_node_bin "$QSFILTER_NODE_FALLBACK") || exit 1
  PATH="$_bin:$PATH"
  export PATH
  echo "qsfilter: this machine's Node ($_old) is older than package.json's engines (>=$QSFILTER_NODE_MIN): running under Node $(node --version) from the npm registry's node package ($_bin)." >&2
fi
