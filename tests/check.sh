# Sourced by the test scripts: `check NAME COMMAND...` runs COMMAND and
# counts a pass, or prints "FAIL NAME" and counts a failure; `finish`
# prints the tally and fails when anything did.
passes=0 fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL $name"; fails=$((fails + 1)); fi
}
finish() {
    echo "$passes passed, $fails failed"
    [ "$fails" -eq 0 ]
}
