/* The simple kernel services (harness/kernel/services.c): pool tracking and
 * its findings, events, spin locks and IRQL, DbgPrint capture with Windows'
 * conversions, the deterministic clock, and a reset that forgets it all. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <pbcheck/wdk/wdm.h>

#include "kernel/services.h"
#include "t.h"

/* A pool tag as drivers write it ('Tag1'), without multi-character
 * constants: its first letter is the first byte in memory. */
#define TAG(a, b, c, d) ((ULONG)(a) | (ULONG)(b) << 8 | (ULONG)(c) << 16 | (ULONG)(d) << 24)

T_TEST(pool_leak_reported_by_tag_and_size)
{
    char first[128];
    pbc_kernel_reset();
    void *kept = ExAllocatePoolWithTag(NonPagedPoolNx, 48, TAG('V', 'i', 'd', '1'));
    void *freed = ExAllocatePool2(POOL_FLAG_NON_PAGED, 16, TAG('V', 'i', 'd', '2'));
    T_CHECK(kept && freed);
    ExFreePoolWithTag(freed, TAG('V', 'i', 'd', '2'));
    T_CHECK(pbc_kernel_take_bad_frees(first, sizeof(first)) == 0);
    T_CHECK(pbc_kernel_take_leaks(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "'Vid1'") && strstr(first, "48 bytes"), "%s", first);
    /* taken: the leak is freed and forgotten */
    T_CHECK(pbc_kernel_take_leaks(first, sizeof(first)) == 0 && first[0] == '\0');
}

T_TEST(pool2_zeroes_unless_uninitialized)
{
    pbc_kernel_reset();
    UCHAR *z = ExAllocatePool2(POOL_FLAG_NON_PAGED, 64, TAG('Z', 'e', 'r', 'o'));
    UCHAR *u = ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_UNINITIALIZED, 64, TAG('U', 'n', 'i', 't'));
    T_CHECK(z && u);
    int zeroed = 1;
    for (int i = 0; z && i < 64; i++)
        zeroed &= z[i] == 0;
    T_CHECK(zeroed);
    T_CHECK(ExAllocatePool2(0, 64, TAG('N', 'o', 'n', 'e')) == NULL);
    ExFreePool(z);
    ExFreePool(u);
    T_CHECK(pbc_kernel_take_leaks(NULL, 0) == 0);
}

T_TEST(double_free_and_unknown_pointer_recorded)
{
    char first[160];
    int local;
    pbc_kernel_reset();
    void *p = ExAllocatePoolWithTag(PagedPool, 8, TAG('D', 'b', 'l', 'F'));
    ExFreePool(p);
    ExFreePool(p);
    ExFreePool(&local);
    ExFreePool(NULL);
    T_CHECK(pbc_kernel_take_bad_frees(first, sizeof(first)) == 3);
    T_CHECK_MSG(strstr(first, "not a live pool block"), "%s", first);
    void *q = ExAllocatePoolWithTag(PagedPool, 8, TAG('R', 'i', 'g', 'h'));
    ExFreePoolWithTag(q, TAG('W', 'r', 'o', 'n'));
    T_CHECK(pbc_kernel_take_bad_frees(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "'Wron'") && strstr(first, "'Righ'"), "%s", first);
    T_CHECK(pbc_kernel_take_leaks(NULL, 0) == 0);
}

T_TEST(event_set_reset_and_wait)
{
    KEVENT e;
    LARGE_INTEGER zero;
    zero.QuadPart = 0;
    pbc_kernel_reset();
    KeInitializeEvent(&e, NotificationEvent, FALSE);
    T_CHECK(KeReadStateEvent(&e) == 0);
    T_CHECK(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, &zero) == STATUS_TIMEOUT);
    T_CHECK(KeSetEvent(&e, IO_NO_INCREMENT, FALSE) == 0);
    T_CHECK(KeReadStateEvent(&e) == 1);
    T_CHECK(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, NULL) == STATUS_SUCCESS);
    T_CHECK(KeReadStateEvent(&e) == 1); /* a notification event stays set */
    T_CHECK(KeResetEvent(&e) == 1 && KeReadStateEvent(&e) == 0);

    KeInitializeEvent(&e, SynchronizationEvent, TRUE);
    T_CHECK(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, NULL) == STATUS_SUCCESS);
    T_CHECK(KeReadStateEvent(&e) == 0); /* a synchronization event resets */
    T_CHECK(pbc_kernel_take_lock_errors(NULL, 0) == 0);
    /* No timeout on an unsignalled event: it could never end. */
    char first[160];
    T_CHECK(KeWaitForSingleObject(&e, Executive, KernelMode, FALSE, NULL) == STATUS_TIMEOUT);
    T_CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "deadlock"), "%s", first);
}

T_TEST(spin_lock_reacquire_detected)
{
    char first[160];
    KSPIN_LOCK lock;
    KIRQL old;
    pbc_kernel_reset();
    KeInitializeSpinLock(&lock);
    T_CHECK(KeGetCurrentIrql() == PASSIVE_LEVEL);
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    T_CHECK(old == PASSIVE_LEVEL && KeGetCurrentIrql() == DISPATCH_LEVEL);
    KeAcquireSpinLockAtDpcLevel(&lock);
    KeReleaseSpinLockFromDpcLevel(&lock);
    T_CHECK(pbc_kernel_take_lock_errors(NULL, 0) == 0);
    KeAcquireSpinLockAtDpcLevel(&lock);
    KeAcquireSpinLockAtDpcLevel(&lock);
    T_CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "already held"), "%s", first);
    KeReleaseSpinLockFromDpcLevel(&lock);
    KeReleaseSpinLockFromDpcLevel(&lock);
    T_CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "not held"), "%s", first);
    KeLowerIrql(old);
    KeAcquireSpinLockAtDpcLevel(&lock); /* at PASSIVE_LEVEL */
    T_CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "below DISPATCH_LEVEL"), "%s", first);
    T_CHECK(pbc_kernel_take_bugchecks(NULL, 0) == 0);
}

T_TEST(spin_lock_helpers_for_the_shim_track_irql)
{
    char first[160];
    KSPIN_LOCK lock;
    KIRQL old = 0xff;
    pbc_kernel_reset();
    KeInitializeSpinLock(&lock);
    pbc_kernel_acquire_spin_lock(&lock, &old);
    T_CHECK(old == PASSIVE_LEVEL && KeGetCurrentIrql() == DISPATCH_LEVEL && lock != 0);
    KIRQL again;
    pbc_kernel_acquire_spin_lock(&lock, &again);
    T_CHECK(pbc_kernel_take_lock_errors(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "KeAcquireSpinLock") && strstr(first, "already held"), "%s", first);
    pbc_kernel_release_spin_lock(&lock, old);
    T_CHECK(KeGetCurrentIrql() == PASSIVE_LEVEL && lock == 0);
    T_CHECK(pbc_kernel_take_lock_errors(NULL, 0) == 0 && pbc_kernel_take_bugchecks(NULL, 0) == 0);
}

T_TEST(interlocked_list_takes_the_lock)
{
    LIST_ENTRY head, a, b;
    KSPIN_LOCK lock;
    pbc_kernel_reset();
    InitializeListHead(&head);
    KeInitializeSpinLock(&lock);
    T_CHECK(ExInterlockedInsertTailList(&head, &a, &lock) == NULL);
    T_CHECK(ExInterlockedInsertTailList(&head, &b, &lock) == &a);
    T_CHECK(ExInterlockedRemoveHeadList(&head, &lock) == &a);
    T_CHECK(pbc_kernel_take_lock_errors(NULL, 0) == 0);
    lock = 1; /* held by someone else */
    T_CHECK(ExInterlockedRemoveHeadList(&head, &lock) == &b);
    T_CHECK(pbc_kernel_take_lock_errors(NULL, 0) == 1);
    T_CHECK(ExInterlockedRemoveHeadList(&head, &lock) == NULL);
}

T_TEST(dbgprintex_captured_with_windows_conversions)
{
    static const WCHAR wide[] = {'v', 'c', '4', 0};
    UNICODE_STRING us;
    us.Buffer = (PWCH)wide;
    us.Length = 3 * sizeof(WCHAR);
    us.MaximumLength = sizeof(wide);
    pbc_kernel_reset();
    ULONG u32 = 0xDEADBEEFu;
    ULONG64 u64 = 0x123456789ull;
    DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_ERROR_LEVEL, "fence %lx at %I64x\n", u32, u64);
    DbgPrint("name %ws/%wZ %s %d%%\n", wide, &us, "ok", -5);
    size_t len = 0;
    const char *log = pbc_kernel_log(&len);
    T_CHECK_MSG(strcmp(log, "fence deadbeef at 123456789\nname vc4/vc4 ok -5%\n") == 0, "%s", log);
    T_CHECK(len == strlen(log));
    T_CHECK(pbc_kernel_log_dropped() == 0);
}

T_TEST(dbgprint_log_bounded)
{
    char line[200];
    memset(line, 'x', sizeof(line) - 2);
    line[sizeof(line) - 2] = '\n';
    line[sizeof(line) - 1] = '\0';
    pbc_kernel_reset();
    for (int i = 0; i < 200; i++)
        DbgPrint("%s", line);
    size_t len = 0;
    pbc_kernel_log(&len);
    T_CHECK(len < PBC_KERNEL_LOG_MAX && len % (sizeof(line) - 1) == 0);
    T_CHECK(pbc_kernel_log_dropped() == 200 - len / (sizeof(line) - 1));
}

T_TEST(bugcheck_and_breakpoint_recorded)
{
    char first[160];
    pbc_kernel_reset();
    KeBugCheckEx(VIDEO_TDR_FAILURE, 1, 2, 3, 4);
    DbgBreakPoint();
    T_CHECK(pbc_kernel_take_bugchecks(first, sizeof(first)) == 2);
    T_CHECK_MSG(strstr(first, "0x116"), "%s", first);
    /* A corrupt list is a KERNEL_SECURITY_CHECK_FAILURE, as on Windows. */
    LIST_ENTRY head, a, stray;
    InitializeListHead(&head);
    InsertTailList(&head, &a);
    head.Blink = &stray;
    stray.Flink = &stray;
    InsertTailList(&head, &a);
    T_CHECK(pbc_kernel_take_bugchecks(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "0x139"), "%s", first);
}

T_TEST(stall_and_clock_deterministic_after_reset)
{
    LARGE_INTEGER f, t[3], u[3];
    for (int run = 0; run < 2; run++) {
        LARGE_INTEGER *out = run ? u : t;
        pbc_kernel_reset();
        out[0] = KeQueryPerformanceCounter(&f);
        KeStallExecutionProcessor(10);
        out[1] = KeQueryPerformanceCounter(NULL);
        out[2] = KeQueryPerformanceCounter(NULL);
    }
    T_CHECK(f.QuadPart == 10000000);
    T_CHECK(t[1].QuadPart - t[0].QuadPart >= 100 && t[2].QuadPart > t[1].QuadPart);
    for (int i = 0; i < 3; i++)
        T_CHECK(t[i].QuadPart == u[i].QuadPart);
    T_CHECK(pbc_kernel_stalled_us() == 10);
}

T_TEST(reset_forgets_everything)
{
    KSPIN_LOCK lock = 1;
    KIRQL old;
    ExAllocatePoolWithTag(NonPagedPool, 32, TAG('L', 'e', 'a', 'k'));
    ExFreePool(&lock);
    KeAcquireSpinLockAtDpcLevel(&lock);
    KeBugCheck(0x1);
    KeRaiseIrql(HIGH_LEVEL, &old);
    KeStallExecutionProcessor(5);
    DbgPrint("something\n");
    pbc_kernel_reset();
    size_t len = 1;
    T_CHECK(pbc_kernel_log(&len)[0] == '\0' && len == 0);
    T_CHECK(pbc_kernel_take_leaks(NULL, 0) == 0);
    T_CHECK(pbc_kernel_take_bad_frees(NULL, 0) == 0);
    T_CHECK(pbc_kernel_take_lock_errors(NULL, 0) == 0);
    T_CHECK(pbc_kernel_take_bugchecks(NULL, 0) == 0);
    T_CHECK(KeGetCurrentIrql() == PASSIVE_LEVEL);
    T_CHECK(pbc_kernel_stalled_us() == 0);
    T_CHECK(KeQueryPerformanceCounter(NULL).QuadPart == 1);
}

T_TEST(rtl_compare_memory_counts_the_equal_prefix)
{
    const char a[] = "paging", b[] = "pagers";
    T_CHECK(RtlCompareMemory(a, b, 6) == 3);
    T_CHECK(RtlCompareMemory(a, a, 6) == 6);
    T_CHECK(RtlEqualMemory(a, b, 3) && !RtlEqualMemory(a, b, 4));
}

/* ---- DPCs, system threads, handles and device properties ---- */

static int dpc_runs;
static KIRQL dpc_irql;

static VOID count_dpc(PKDPC Dpc, PVOID Context, PVOID Arg1, PVOID Arg2)
{
    (void)Dpc;
    (void)Arg2;
    dpc_runs += (int)(ULONG_PTR)Context;
    dpc_irql = KeGetCurrentIrql();
    T_CHECK(Arg1 == &dpc_runs);
}

T_TEST(dpc_runs_at_dispatch_level_once_the_irql_allows)
{
    pbc_kernel_reset();
    KDPC dpc;
    KIRQL old;
    dpc_runs = 0;
    KeInitializeDpc(&dpc, count_dpc, (PVOID)(ULONG_PTR)1);
    KeRaiseIrql(HIGH_LEVEL, &old); /* as an interrupt routine queues it */
    T_CHECK(KeInsertQueueDpc(&dpc, &dpc_runs, NULL) == TRUE);
    T_CHECK(KeInsertQueueDpc(&dpc, &dpc_runs, NULL) == FALSE); /* already queued */
    T_CHECK(dpc_runs == 0);
    KeLowerIrql(old);
    T_CHECK(dpc_runs == 1 && dpc_irql == DISPATCH_LEVEL && KeGetCurrentIrql() == PASSIVE_LEVEL);
    T_CHECK(KeInsertQueueDpc(&dpc, &dpc_runs, NULL) == TRUE && dpc_runs == 2); /* at PASSIVE_LEVEL: at once */
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    KeInsertQueueDpc(&dpc, &dpc_runs, NULL);
    T_CHECK(KeRemoveQueueDpc(&dpc) == TRUE && KeRemoveQueueDpc(&dpc) == FALSE);
    KeLowerIrql(old);
    T_CHECK(dpc_runs == 2 && pbc_kernel_take_bugchecks(NULL, 0) == 0);
}

typedef struct thread_job {
    KEVENT go, done;
    int steps;
} thread_job;

static VOID job_thread(PVOID Context)
{
    thread_job *job = Context;
    KeWaitForSingleObject(&job->go, Executive, KernelMode, FALSE, NULL);
    job->steps++;
    KeSetEvent(&job->done, IO_NO_INCREMENT, FALSE);
    /* returning ends the thread, as PsTerminateSystemThread would */
}

T_TEST(system_thread_runs_while_the_ddi_thread_waits)
{
    pbc_kernel_reset();
    thread_job job = {.steps = 0};
    KeInitializeEvent(&job.go, NotificationEvent, FALSE);
    KeInitializeEvent(&job.done, SynchronizationEvent, FALSE);
    pbc_kernel_enter();
    HANDLE h = NULL;
    PVOID thread = NULL;
    T_CHECK(PsCreateSystemThread(&h, THREAD_ALL_ACCESS, NULL, NULL, NULL, job_thread, &job) == STATUS_SUCCESS);
    T_CHECK(ObReferenceObjectByHandle(h, SYNCHRONIZE, *PsThreadType, KernelMode, &thread, NULL) == STATUS_SUCCESS);
    /* One CPU: the thread cannot have run while this thread held it. */
    T_CHECK(job.steps == 0);
    KeSetEvent(&job.go, IO_NO_INCREMENT, FALSE);
    T_CHECK(KeWaitForSingleObject(&job.done, Executive, KernelMode, FALSE, NULL) == STATUS_SUCCESS);
    T_CHECK(job.steps == 1);
    T_CHECK(KeWaitForSingleObject(thread, Executive, KernelMode, FALSE, NULL) == STATUS_SUCCESS); /* it ended */
    ObDereferenceObject(thread);
    T_CHECK(ZwClose(h) == STATUS_SUCCESS);
    pbc_kernel_leave();
    T_CHECK(pbc_kernel_take_threads(NULL, 0) == 0 && pbc_kernel_take_lock_errors(NULL, 0) == 0);
}

static void count_wake(void *ctx) { ++*(int *)ctx; }

/* Between DDI calls the CPU is the harness's: a woken thread waits for a
 * yield (the paging engine's turn) and runs then, until it waits again;
 * the wake is announced on the DDI thread. */
T_TEST(system_thread_runs_when_the_cpu_is_yielded)
{
    pbc_kernel_reset();
    thread_job job = {.steps = 0};
    KeInitializeEvent(&job.go, NotificationEvent, FALSE);
    KeInitializeEvent(&job.done, SynchronizationEvent, FALSE);
    HANDLE h = NULL;
    int wakes = 0;
    T_CHECK(PsCreateSystemThread(&h, THREAD_ALL_ACCESS, NULL, NULL, NULL, job_thread, &job) == STATUS_SUCCESS);
    pbc_kernel_yield(); /* it starts and waits for go */
    T_CHECK(job.steps == 0);
    pbc_kernel_on_wake(count_wake, &wakes);
    pbc_kernel_enter();
    KeSetEvent(&job.go, IO_NO_INCREMENT, FALSE);
    pbc_kernel_leave();
    pbc_kernel_on_wake(NULL, NULL);
    T_CHECK(wakes == 1);
    nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL); /* outside the driver: it must not run */
    T_CHECK(job.steps == 0);
    pbc_kernel_yield();
    T_CHECK(job.steps == 1 && KeReadStateEvent(&job.done) == 1);
    T_CHECK(ZwClose(h) == STATUS_SUCCESS);
    T_CHECK(pbc_kernel_take_threads(NULL, 0) == 0);
}

T_TEST(thread_misuse_is_recorded)
{
    char first[200];
    pbc_kernel_reset();
    thread_job job = {.steps = 0};
    KeInitializeEvent(&job.go, NotificationEvent, TRUE);
    KeInitializeEvent(&job.done, SynchronizationEvent, FALSE);
    HANDLE h = NULL;
    T_CHECK(PsCreateSystemThread(&h, THREAD_ALL_ACCESS, NULL, NULL, NULL, job_thread, &job) == STATUS_SUCCESS);
    T_CHECK(KeWaitForSingleObject(&job.done, Executive, KernelMode, FALSE, NULL) == STATUS_SUCCESS);
    /* Not a system thread: PsTerminateSystemThread returns, recorded. */
    T_CHECK(PsTerminateSystemThread(STATUS_SUCCESS) == STATUS_INVALID_PARAMETER);
    T_CHECK_MSG(pbc_kernel_take_bugchecks(first, sizeof(first)) == 1 && strstr(first, "PsTerminateSystemThread"),
                "%s", first);
    PVOID object = NULL;
    T_CHECK(ObReferenceObjectByHandle(h, SYNCHRONIZE, NULL, KernelMode, &object, NULL) == STATUS_SUCCESS);
    T_CHECK(ObReferenceObjectByHandle(&job, SYNCHRONIZE, *PsThreadType, KernelMode, &object, NULL) ==
            STATUS_INVALID_HANDLE);
    T_CHECK(ZwClose(h) == STATUS_SUCCESS && ZwClose(h) == STATUS_INVALID_HANDLE);
    T_CHECK_MSG(pbc_kernel_take_bad_frees(first, sizeof(first)) == 1 && strstr(first, "ZwClose"), "%s", first);
    /* The reference taken above was never dropped: the end of the run says so. */
    T_CHECK(pbc_kernel_take_threads(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "ObDereferenceObject") != NULL, "%s", first);
}

/* Threads of this process, from /proc/self/status. */
static int process_threads(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    int n = -1;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

T_TEST(system_thread_left_running_is_ended_at_the_run_end)
{
    char first[200];
    pbc_kernel_reset();
    int before = process_threads();
    thread_job job = {.steps = 0};
    KeInitializeEvent(&job.go, NotificationEvent, FALSE); /* never signalled */
    KeInitializeEvent(&job.done, SynchronizationEvent, FALSE);
    HANDLE h = NULL;
    T_CHECK(PsCreateSystemThread(&h, THREAD_ALL_ACCESS, NULL, NULL, NULL, job_thread, &job) == STATUS_SUCCESS);
    T_CHECK(ZwClose(h) == STATUS_SUCCESS);
    T_CHECK(process_threads() == before + 1);
    T_CHECK(pbc_kernel_take_threads(first, sizeof(first)) == 1);
    T_CHECK_MSG(strstr(first, "still running when the run ended") != NULL, "%s", first);
    /* Ended at its wait and joined: nothing left, and it did no more work. */
    T_CHECK(process_threads() == before && job.steps == 0);
}

T_TEST(wait_alone_is_a_deadlock_at_once)
{
    pbc_kernel_reset();
    KEVENT never;
    KeInitializeEvent(&never, NotificationEvent, FALSE);
    PVOID both[2] = {&never, &never};
    T_CHECK(KeWaitForMultipleObjects(2, both, WaitAll, Executive, KernelMode, FALSE, NULL, NULL) == STATUS_TIMEOUT);
    T_CHECK(pbc_kernel_take_lock_errors(NULL, 0) == 1);
    KeSetEvent(&never, IO_NO_INCREMENT, FALSE);
    T_CHECK(KeWaitForMultipleObjects(2, both, WaitAny, Executive, KernelMode, FALSE, NULL, NULL) == STATUS_WAIT_0);
}

T_TEST(device_property_as_windows_returns_it)
{
    char pdo;
    WCHAR text[64];
    ULONG need = 0, bus = 7;
    T_CHECK(IoGetDeviceProperty((PDEVICE_OBJECT)(void *)&pdo, DevicePropertyClassName, 4, text, &need) ==
            STATUS_BUFFER_TOO_SMALL);
    T_CHECK(need == 8 * sizeof(WCHAR)); /* "Display" and its NUL */
    T_CHECK(IoGetDeviceProperty((PDEVICE_OBJECT)(void *)&pdo, DevicePropertyClassName, sizeof(text), text, &need) ==
            STATUS_SUCCESS);
    T_CHECK(text[0] == 'D' && text[6] == 'y' && text[7] == 0);
    T_CHECK(IoGetDeviceProperty((PDEVICE_OBJECT)(void *)&pdo, DevicePropertyBusNumber, sizeof(bus), &bus, &need) ==
            STATUS_SUCCESS && bus == 0 && need == sizeof(ULONG));
    T_CHECK(IoGetDeviceProperty((PDEVICE_OBJECT)(void *)&pdo, DevicePropertyBootConfiguration, sizeof(text), text,
                                &need) == STATUS_INVALID_PARAMETER_2);
}

T_MAIN()
