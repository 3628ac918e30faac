#!/usr/bin/env bash
# A newcomer's first hour, timed: clone COMMIT of this repository into a fresh folder
# beside it (so ../shared, the corpus, is beside the clone too, as in CI), run one of the
# README's two set-up commands as written, and print its wall time; each command gets
# its own fresh clone, as the README promises.
#
#   bench/fresh_clone.sh [COMMIT ...]      # default: HEAD; several commits run one after another
#
# The commands are read from the README itself (the two indented lines under "Set up
# and run"), so what is timed is what a newcomer types. pip's download cache is the
# machine's, as on a newcomer's second try. The clones are removed after, their logs kept.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
parent="$(dirname "$repo")"
logs="$(mktemp -d /tmp/fresh-clone-logs-XXXX)"
commits=("$@")
[ ${#commits[@]} -eq 0 ] && commits=(HEAD)

printf '%-10s %-8s %9s %5s  %s\n' commit command seconds exit "last line of its output"
for commit in "${commits[@]}"; do
  sha="$(git -C "$repo" rev-parse --short "$commit")"
  for i in 1 2; do
    dir="$(mktemp -d "$parent/fresh-clone-$sha-$i-XXXX")"
    git clone -q "$repo" "$dir" && git -C "$dir" checkout -q "$sha"
    # the README's set-up commands: the indented lines of its "Set up and run" section
    mapfile -t cmds < <(awk '/^## Set up and run/{on=1; next} /^## /{on=0} on && /^    [^ ]/{sub(/^    /, ""); print}' "$dir/README.md")
    if [ ${#cmds[@]} -ne 2 ]; then echo "README at $sha does not give exactly two set-up commands" >&2; exit 2; fi
    log="$logs/$sha-command$i.log"
    start=$(date +%s%N)
    set +e
    (cd "$dir" && env -u VIRTUAL_ENV bash -c "${cmds[$((i - 1))]}") >"$log" 2>&1
    rc=$?
    set -e
    end=$(date +%s%N)
    printf '%-10s %-8s %9s %5s  %s\n' "$sha" "$i" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')" "$rc" \
      "$(grep -v '^\s*$' "$log" | tail -n 1 | cut -c1-100)"
    rm -rf "$dir"
  done
done
echo "logs: $logs" >&2
