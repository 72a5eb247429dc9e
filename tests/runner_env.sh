# Sourced by the package tests: a fuzz binary as a ClusterFuzzLite runner
# image starts it, with none of the build image's packages.
#
# runner_libs BINARY: prints the libraries ldd says BINARY needs, one name a
# line, that a runner image does not have (anything beyond libc, libm,
# libdl, libpthread, librt, libstdc++, libgcc_s and the loader); nothing
# when it needs none of them.
runner_libs() {
    ldd "$1" 2>/dev/null | awk '{print $1}' | sed 's|.*/||' |
        grep -Ev '^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|lib(c|m|dl|pthread|rt|stdc\+\+|gcc_s)\.so\.[0-9]+)$'
}

# runner_run BINARY ARGS...: runs BINARY with ARGS in a mount namespace where
# the system's library folder holds only what runner_libs allows (copies of
# the host's libc and friends), so a library the build image had and the
# runner lacks cannot load. Returns the binary's exit status, or 125 when
# this machine cannot make the namespace (unshare -rm).
runner_run() {
    local libdir=/usr/lib/x86_64-linux-gnu min
    min=$(mktemp -d)
    for lib in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libstdc++.so.6 libgcc_s.so.1 \
        ld-linux-x86-64.so.2; do
        [ -e "$libdir/$lib" ] && cp -L "$libdir/$lib" "$min/"
    done
    if ! unshare -rm true 2>/dev/null; then
        rm -rf "$min"
        return 125
    fi
    # shellcheck disable=SC2016
    env -i PATH=/usr/bin:/bin unshare -rm sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' \
        "$min" "$libdir" "$@"
    local rc=$?
    rm -rf "$min"
    return $rc
}
