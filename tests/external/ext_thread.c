/*
 * The reference builder with a worker thread, as a Windows 10 driver starts
 * one from StartDevice: create_adapter starts it (PsCreateSystemThread, an
 * event, a reference to the thread object), and the thread waits for its
 * stop event. With EXT_THREAD_STOP, destroy_adapter signals the event and
 * waits for the thread to end, as a StopDevice does; without it the thread
 * is left running when the run ends, which pbcheck must end and report.
 */
#include <pbcheck/target.h>
#include <pbcheck/wdk/ntddk.h>

#include "ref_builder.h"

#ifndef EXT_THREAD_STOP
#error "EXT_THREAD_STOP selects whether the adapter stops its thread"
#endif

/* One adapter at a time: a run creates and destroys it. */
static struct {
    KEVENT stop;
    PVOID thread;
    volatile LONG started;
} worker;

static VOID worker_main(PVOID context)
{
    (void)context;
    worker.started = 1;
    KeWaitForSingleObject(&worker.stop, Executive, KernelMode, FALSE, NULL);
}

static NTSTATUS thread_create_adapter(const pbc_adapter_info *info, HANDLE *adapter)
{
    NTSTATUS status = pbc_target_reference.create_adapter(info, adapter);
    if (!NT_SUCCESS(status))
        return status;
    KeInitializeEvent(&worker.stop, NotificationEvent, FALSE);
    OBJECT_ATTRIBUTES attributes;
    InitializeObjectAttributes(&attributes, NULL, OBJ_KERNEL_HANDLE, NULL, NULL);
    HANDLE handle;
    status = PsCreateSystemThread(&handle, THREAD_ALL_ACCESS, &attributes, NULL, NULL, worker_main, NULL);
    if (!NT_SUCCESS(status))
        return status;
    status = ObReferenceObjectByHandle(handle, THREAD_ALL_ACCESS, *PsThreadType, KernelMode, &worker.thread, NULL);
    ZwClose(handle);
    return status;
}

static void thread_destroy_adapter(HANDLE adapter)
{
#if EXT_THREAD_STOP
    KeSetEvent(&worker.stop, IO_NO_INCREMENT, FALSE);
    KeWaitForSingleObject(worker.thread, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(worker.thread);
#endif
    worker.thread = NULL;
    pbc_target_reference.destroy_adapter(adapter);
}

static pbc_target table;

__attribute__((visibility("default"))) const pbc_target *pbc_target_get(void)
{
    table = pbc_target_reference;
    table.name = EXT_THREAD_STOP ? "ext-thread-stopped" : "ext-thread-left-running";
    table.summary = "the reference with a worker thread started with the adapter";
    table.create_adapter = thread_create_adapter;
    table.destroy_adapter = thread_destroy_adapter;
    return &table;
}
