/*
 * A builder shaped like a Windows driver whose paging work is done by its
 * own system thread: ExWorker's draining worker (targets/examples/
 * example_worker, EXWK_DRAIN) with its work handed to a thread the adapter
 * starts, not to the harness's queue. create_adapter (StartDevice) creates
 * the thread and its events; SubmitCommand records the work (ExWorker's
 * call to queue_cpu_work lands in this file's queue) and sets the work
 * event; the thread, woken, copies with the CPU through MDL views and the
 * segment views the adapter mapped, then writes the count of work done to
 * a completion register, the fence SubmitCommand queued after the wake
 * completing behind it. destroy_adapter (StopDevice) stops the thread and
 * waits for it. With EXWK_BUG_IGNORE_TRANSFER_OFFSET the thread's copies
 * forget TransferOffset (PB-DIVERGE).
 */
#define EXWK_DRAIN 1
#define EXWK_VARIANT_SYMBOL ext_kthread_exwk
#define PBC_TARGET_NAME "ext-kthread"

#include <pbcheck/target.h>
#include <pbcheck/wdk/ntddk.h>

#include "../../targets/examples/example_worker/exwk_isa.c"
#include "../../targets/examples/example_worker/exwk_ddi.c"

#define KT_QUEUE 8192u /* more than the operations one paging buffer can carry (4,096 a scenario) */
#define KT_DONE_REGISTER 0x40u /* byte offset of the completion register */

/* One adapter at a time: a run creates and destroys it. */
static struct {
    pbc_host host; /* the model's, but work is queued here */
    KEVENT work, stop;
    PVOID thread;
    struct {
        void (*fn)(void *arg);
        void *arg;
    } queue[KT_QUEUE];
    ULONG head, tail; /* the thread takes from head, SubmitCommand adds at tail */
    PUCHAR regs; /* the register file, mapped at start */
    ULONG regs_size;
    volatile ULONG *done;
    ULONG done_count;
} kt;

/* From SubmitCommand: the work is the thread's, woken now. */
static void kt_queue_work(void *ctx, void (*fn)(void *arg), void *arg)
{
    (void)ctx;
    NT_ASSERT(kt.tail - kt.head < KT_QUEUE);
    kt.queue[kt.tail % KT_QUEUE].fn = fn;
    kt.queue[kt.tail % KT_QUEUE].arg = arg;
    kt.tail++;
    KeSetEvent(&kt.work, IO_NO_INCREMENT, FALSE);
}

static VOID kt_main(PVOID context)
{
    (void)context;
    PVOID objects[2] = {&kt.stop, &kt.work};
    for (;;) {
        NTSTATUS st = KeWaitForMultipleObjects(2, objects, WaitAny, Executive, KernelMode, FALSE, NULL, NULL);
        if (st != STATUS_WAIT_1)
            return; /* stopped */
        while (kt.head != kt.tail) {
            ULONG at = kt.head++ % KT_QUEUE;
            kt.queue[at].fn(kt.queue[at].arg);
            kt.done_count++;
        }
        if (kt.done)
            WRITE_REGISTER_ULONG(kt.done, kt.done_count);
    }
}

static NTSTATUS kt_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    kt.host = *info->host;
    kt.host.queue_cpu_work = kt_queue_work;
    pbc_adapter_info mine = *info;
    mine.host = &kt.host;
    NTSTATUS status = ext_kthread_exwk.create_adapter(&mine, adapter);
    if (!NT_SUCCESS(status))
        return status;
    kt.head = kt.tail = kt.done_count = 0;
    PHYSICAL_ADDRESS regs;
    regs.QuadPart = (LONGLONG)info->mmio_physical;
    kt.regs_size = info->mmio_size;
    kt.regs = info->mmio_size > KT_DONE_REGISTER ? MmMapIoSpace(regs, info->mmio_size, MmNonCached) : NULL;
    kt.done = kt.regs ? (volatile ULONG *)(kt.regs + KT_DONE_REGISTER) : NULL;
    KeInitializeEvent(&kt.work, SynchronizationEvent, FALSE);
    KeInitializeEvent(&kt.stop, NotificationEvent, FALSE);
    OBJECT_ATTRIBUTES attributes;
    InitializeObjectAttributes(&attributes, NULL, OBJ_KERNEL_HANDLE, NULL, NULL);
    HANDLE handle;
    status = PsCreateSystemThread(&handle, THREAD_ALL_ACCESS, &attributes, NULL, NULL, kt_main, NULL);
    if (!NT_SUCCESS(status))
        return status;
    status = ObReferenceObjectByHandle(handle, THREAD_ALL_ACCESS, *PsThreadType, KernelMode, &kt.thread, NULL);
    ZwClose(handle);
    return status;
}

static void kt_destroy_adapter(HANDLE adapter)
{
    KeSetEvent(&kt.stop, IO_NO_INCREMENT, FALSE);
    KeWaitForSingleObject(kt.thread, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(kt.thread);
    kt.thread = NULL;
    if (kt.regs)
        MmUnmapIoSpace(kt.regs, kt.regs_size);
    kt.regs = NULL;
    kt.done = NULL;
    ext_kthread_exwk.destroy_adapter(adapter);
}

static pbc_target kt_table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    kt_table = ext_kthread_exwk;
    kt_table.name = "ext-kthread";
    kt_table.summary = "ExWorker's draining worker as the adapter's own system thread";
    kt_table.create_adapter = kt_create_adapter;
    kt_table.destroy_adapter = kt_destroy_adapter;
    return &kt_table;
}
