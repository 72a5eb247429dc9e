# Sourced by the test scripts: `check NAME COMMAND...` runs COMMAND and
# counts a pass, or prints "FAIL NAME" and counts a failure; `finish`
# prints the tally and fails when anything did.
passes=0 fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL $name"; fails=$((fails + 1)); fi
}
# The quick suite's cases the attack and hostile builders need: each of
# them misbehaves on every Fill (most attack at a process's first one),
# and discards pass. A narrowed run that fails is NOT CONFORMANT all the
# same; one that does not is at best INCOMPLETE (certify --cases).
fill_cases='fill/*,discard/*'
finish() {
    echo "$passes passed, $fails failed"
    [ "$fails" -eq 0 ]
}
