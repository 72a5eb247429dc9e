/*
 * The Landlock layer, where namespaces are not offered (an old kernel,
 * user namespaces forbidden, or PBC_SANDBOX_NO_NS=1 for tests): the
 * process may still read everything, but write, create, remove, rename
 * or truncate only beneath its scratch folder (and the shared one). Where
 * the kernel's Landlock knows them it also gets no TCP, no ioctl on a
 * device it opens (a terminal it found by path), no abstract socket and
 * no signal to a process outside its domain (pbcheck).
 *
 * The rights past the first version are given by number: the kernel's
 * headers here may be older than the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/layers.h"

#define LL_TRUNCATE (1ull << 14)  /* version 3 */
#define LL_IOCTL_DEV (1ull << 15) /* version 5 */
#define LL_NET_TCP 3ull           /* bind and connect, version 4 */
#define LL_SCOPES 3ull            /* abstract sockets and signals, version 6 */

struct ll_ruleset {
    uint64_t fs, net, scoped;
};

int pbc_sandbox_landlock(const char *scratch, const char *shared)
{
#ifdef SYS_landlock_create_ruleset
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 0)
        return errno == ENOSYS || errno == EOPNOTSUPP ? 1 : -1;
    struct ll_ruleset rs = {
        .fs = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
              LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
              LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
              LANDLOCK_ACCESS_FS_MAKE_SYM,
    };
    size_t size = sizeof(rs.fs);
    if (abi >= 2)
        rs.fs |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        rs.fs |= LL_TRUNCATE;
    if (abi >= 4) {
        rs.net = LL_NET_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 5)
        rs.fs |= LL_IOCTL_DEV;
    if (abi >= 6) {
        rs.scoped = LL_SCOPES;
        size = sizeof(rs);
    }
    int fd = (int)syscall(SYS_landlock_create_ruleset, &rs, size, 0);
    if (fd < 0)
        return -1;
    const char *writable[] = {scratch, shared};
    for (unsigned i = 0; i < 2; i++) {
        if (!writable[i])
            continue;
        struct landlock_path_beneath_attr rule = {.allowed_access = rs.fs & ~LL_IOCTL_DEV};
        rule.parent_fd = open(writable[i], O_PATH | O_CLOEXEC | O_DIRECTORY);
        if (rule.parent_fd < 0 || syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0)) {
            close(fd);
            return -1;
        }
        close(rule.parent_fd);
    }
    int rc = syscall(SYS_landlock_restrict_self, fd, 0) ? -1 : 0;
    close(fd);
    return rc;
#else
    (void)scratch, (void)shared;
    return 1;
#endif
}
