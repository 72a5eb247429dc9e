#!/bin/bash -eu
# ClusterFuzzLite calls this inside the Dockerfile's image; the real work,
# shared with OSS-Fuzz, is in fuzz/oss-fuzz-build.sh.
"$SRC/pbcheck/fuzz/oss-fuzz-build.sh"
