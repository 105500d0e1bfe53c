#!/usr/bin/env bash
# usage: check_links.sh
# The documentation stands on its own (a clone is all a user has): every
# relative link in the repository's Markdown files resolves to a file or
# folder inside the clone, and no text sends the reader to the directory
# beside it (../shared, where the project's working notes once lived), and
# every source path the text names (docs/soc.md, rtl/mem/ktpu_dram.sv, ...:
# a top folder of the tree, a file with a source or document extension)
# exists. Links to web pages (http, https) and anchors (#...) are not
# checked; build/ paths are made by the build and not checked either.
set -u
root=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
cd "$root" || exit 1
bad=0 links=0
while IFS= read -r f; do
  # [text](target) and [text](target "title"), one per match
  while IFS= read -r target; do
    target=${target%% *}; target=${target%%#*}
    case $target in http://*|https://*|mailto:*|'') continue ;; esac
    links=$((links + 1))
    dest=$(realpath -m "$(dirname "$f")/$target")
    case $dest in
      "$root"/*) [ -e "$dest" ] || { echo "FAIL: $f: link to $target: no such file in the repository"; bad=$((bad + 1)); } ;;
      *) echo "FAIL: $f: link to $target leaves the repository"; bad=$((bad + 1)) ;;
    esac
  done < <(grep -oE '\]\([^)]+\)' "$f" | sed -E 's/^\]\((.*)\)$/\1/')
  while IFS= read -r p; do
    case ${p##*.} in md|c|h|cpp|sv|v|sh|mk|S|ld|def|tcl|xdc|py|csv|json|f) ;; *) continue ;; esac
    links=$((links + 1))
    [ -e "$p" ] || { echo "FAIL: $f: names $p: no such file in the repository"; bad=$((bad + 1)); }
  done < <(grep -oE '(^|[^A-Za-z0-9_./-])(docs|firmware|sim|rtl|tests|scripts|fpga|linker|data)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$f" |
           sed -E 's/^[^a-z]//' | sort -u)
  if grep -n '\.\./shared' "$f" >/dev/null; then
    echo "FAIL: $f: refers to ../shared, outside the repository: $(grep -n '\.\./shared' "$f" | head -n 1)"; bad=$((bad + 1))
  fi
done < <(git ls-files '*.md' 2>/dev/null || find . -name '*.md' -not -path './build/*')
echo "docs links: $links links and named paths checked, $bad outside the repository or missing"
[ $bad -eq 0 ]
