/*
 * The capability layer: no capability in any set, and no way back.
 *
 * In its user namespace the contained process starts with every
 * capability of that namespace (and root with every one of the host's
 * without one): the bounding set is emptied (so no execve gives any
 * back), the ambient set cleared, and the effective, permitted and
 * inheritable sets zeroed. An ordinary user without namespaces has no
 * capability to lose and may not change the bounding set; no_new_privs
 * (after it) then keeps set-user-ID and file capabilities from giving any.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/layers.h"

int pbc_sandbox_drop_caps(void)
{
    for (int cap = 0; cap < 64; cap++) {
        int held = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
        if (held < 0)
            break; /* past the kernel's last capability */
        if (held && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EPERM)
            return -1;
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
        return -1;
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct caps[2];
    memset(caps, 0, sizeof(caps));
    if (syscall(SYS_capset, &head, caps) || syscall(SYS_capget, &head, caps))
        return -1;
    for (int i = 0; i < 2; i++)
        if (caps[i].effective || caps[i].permitted || caps[i].inheritable) {
            errno = EPERM;
            return -1;
        }
    return 0;
}

int pbc_sandbox_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ? -1 : 0; }
