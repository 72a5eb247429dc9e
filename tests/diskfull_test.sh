#!/usr/bin/env bash
# certify on a full disk: a write error anywhere (the journal as cases are
# judged, the reports at the end) stops the run with one line and exit 2,
# and no verdict line is printed that the files do not hold. The disk is a
# small tmpfs: sizes where the journal itself fills it, and where the
# journal fits and report.json does not. Skipped (77) where no tmpfs can be
# mounted (not root, no mount namespace).
# Usage: diskfull_test.sh PBCHECK
set -u
pbcheck=$1
tmp=$(mktemp -d)
cleanup() {
    for d in "$tmp"/full-*; do umount "$d" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/check.sh"
mkdir "$tmp/probe"
if ! mount -t tmpfs -o size=64k tmpfs "$tmp/probe" 2>"$tmp/why"; then
    echo "skipped: cannot mount a tmpfs for a full disk here: $(head -1 "$tmp/why")"
    exit 77
fi
umount "$tmp/probe"
for size in 96k 400k; do
    disk=$tmp/full-$size
    mkdir "$disk"
    mount -t tmpfs -o "size=$size" tmpfs "$disk"
    "$pbcheck" certify --quick --target reference --out "$disk/out" >"$tmp/$size.out" 2>"$tmp/$size.err"
    rc=$?
    check "$size-exit-2" [ $rc -eq 2 ]
    check "$size-no-verdict-line" sh -c "! grep -q '^verdict:' '$tmp/$size.out'"
    check "$size-no-report-line" sh -c "! grep -q '^report:' '$tmp/$size.out'"
    check "$size-one-error-line" [ "$(wc -l <"$tmp/$size.err")" -eq 1 ]
    check "$size-says-no-space" grep -q 'No space left on device' "$tmp/$size.err"
done
# 96k: the journal fills the disk and stops the run before the suite ends.
check journal-full-stops-early sh -c "! grep -q 'report.json' '$tmp/96k.err'"
check journal-full-names-journal grep -q 'journal.jsonl' "$tmp/96k.err"
finish
