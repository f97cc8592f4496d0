#!/bin/sh
# Points extension.toml's grammar at this checkout (its folder and HEAD
# commit), for "zed: install dev extension" on editors/zed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
commit=$(git -C "$root" rev-parse HEAD)
sed -i.bak \
  -e "s|^repository = \"file://.*\"|repository = \"file://$root\"|" \
  -e "s|^commit = \".*\"|commit = \"$commit\"|" \
  "$here/extension.toml"
rm -f "$here/extension.toml.bak"
echo "extension.toml: grammar from file://$root at $commit"
