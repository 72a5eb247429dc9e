#!/usr/bin/env bash
# The regression corpus (corpus/regressions/, docs/triage.md): every file
# is a text scenario with one or more lines
#   # expect: TARGET pass
#   # expect: TARGET fail RULE-or-CLASS
# and must still be judged that way by 'pbcheck run'. 'pbcheck triage
# --promote' writes them; a file with no expectation is an error.
# Usage: regressions_test.sh PBCHECK CORPUS_DIR
set -u
pbcheck=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

files=("$dir"/*.pbs)
check corpus-not-empty [ -e "${files[0]}" ]
for f in "${files[@]}"; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pbs)
    expectations=$(grep -c '^# expect: ' "$f")
    check "$name-has-expectations" [ "$expectations" -gt 0 ]
    while read -r _ _ target verdict rule; do
        "$pbcheck" run "$f" --target "$target" >"$tmp/out" 2>&1
        rc=$?
        if [ "$verdict" = pass ]; then
            check "$name-$target-passes" [ $rc -eq 0 ]
        else
            check "$name-$target-fails" [ $rc -eq 1 ]
            check "$name-$target-rule-$rule" grep -q "^FAIL .* $rule\$" "$tmp/out"
        fi
    done < <(grep '^# expect: ' "$f")
done
finish
