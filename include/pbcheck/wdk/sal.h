/*
 * sal.h — Microsoft's source annotations (SAL 2 and the older __in forms)
 * and the driver annotations of driverspecs.h, all empty: they only feed
 * static analysis on Windows. Each is defined only if a driver's own
 * header has not defined it already.
 */
#ifndef PBCHECK_WDK_SAL_H
#define PBCHECK_WDK_SAL_H

/* ---- Parameters ---- */
#ifndef _In_
#define _In_
#endif
#ifndef _Out_
#define _Out_
#endif
#ifndef _Inout_
#define _Inout_
#endif
#ifndef _In_opt_
#define _In_opt_
#endif
#ifndef _Out_opt_
#define _Out_opt_
#endif
#ifndef _Inout_opt_
#define _Inout_opt_
#endif
#ifndef _In_z_
#define _In_z_
#endif
#ifndef _In_opt_z_
#define _In_opt_z_
#endif
#ifndef _Outptr_
#define _Outptr_
#endif
#ifndef _Outptr_opt_
#define _Outptr_opt_
#endif
#ifndef _Outptr_result_maybenull_
#define _Outptr_result_maybenull_
#endif
#ifndef _Reserved_
#define _Reserved_
#endif
#ifndef _Printf_format_string_
#define _Printf_format_string_
#endif
#ifndef _Null_terminated_
#define _Null_terminated_
#endif
#ifndef _NullNull_terminated_
#define _NullNull_terminated_
#endif
#ifndef _Field_size_
#define _Field_size_(n)
#endif
#ifndef _Field_size_bytes_
#define _Field_size_bytes_(n)
#endif
#ifndef _Field_size_opt_
#define _Field_size_opt_(n)
#endif
#ifndef _Field_size_bytes_part_
#define _Field_size_bytes_part_(n, m)
#endif
#ifndef _Field_range_
#define _Field_range_(lo, hi)
#endif
#ifndef _In_reads_
#define _In_reads_(n)
#endif
#ifndef _In_reads_opt_
#define _In_reads_opt_(n)
#endif
#ifndef _In_reads_bytes_
#define _In_reads_bytes_(n)
#endif
#ifndef _In_reads_bytes_opt_
#define _In_reads_bytes_opt_(n)
#endif
#ifndef _In_range_
#define _In_range_(lo, hi)
#endif
#ifndef _Out_writes_
#define _Out_writes_(n)
#endif
#ifndef _Out_writes_opt_
#define _Out_writes_opt_(n)
#endif
#ifndef _Out_writes_bytes_
#define _Out_writes_bytes_(n)
#endif
#ifndef _Out_writes_bytes_opt_
#define _Out_writes_bytes_opt_(n)
#endif
#ifndef _Out_writes_bytes_all_
#define _Out_writes_bytes_all_(n)
#endif
#ifndef _Out_writes_to_
#define _Out_writes_to_(n, m)
#endif
#ifndef _Out_writes_bytes_to_
#define _Out_writes_bytes_to_(n, m)
#endif
#ifndef _Inout_updates_
#define _Inout_updates_(n)
#endif
#ifndef _Inout_updates_bytes_
#define _Inout_updates_bytes_(n)
#endif
#ifndef _Deref_out_range_
#define _Deref_out_range_(lo, hi)
#endif

/* ---- Functions and results ---- */
#ifndef _Use_decl_annotations_
#define _Use_decl_annotations_
#endif
#ifndef _Must_inspect_result_
#define _Must_inspect_result_
#endif
#ifndef _Check_return_
#define _Check_return_
#endif
#ifndef _Ret_maybenull_
#define _Ret_maybenull_
#endif
#ifndef _Ret_notnull_
#define _Ret_notnull_
#endif
#ifndef _Post_writable_byte_size_
#define _Post_writable_byte_size_(n)
#endif
#ifndef _Success_
#define _Success_(x)
#endif
#ifndef _Return_type_success_
#define _Return_type_success_(x)
#endif
#ifndef _When_
#define _When_(a, b)
#endif
#ifndef _At_
#define _At_(a, b)
#endif
#ifndef _Pre_
#define _Pre_
#endif
#ifndef _Post_
#define _Post_
#endif
#ifndef _Pre_satisfies_
#define _Pre_satisfies_(x)
#endif
#ifndef _Post_satisfies_
#define _Post_satisfies_(x)
#endif
#ifndef _Analysis_assume_
#define _Analysis_assume_(x)
#endif
#ifndef _Analysis_mode_
#define _Analysis_mode_(x)
#endif
#ifndef _Function_class_
#define _Function_class_(x)
#endif
#ifndef _Literal_
#define _Literal_
#endif
#ifndef _Notliteral_
#define _Notliteral_
#endif
#ifndef _Interlocked_operand_
#define _Interlocked_operand_
#endif

/* ---- Locks ---- */
#ifndef _Requires_lock_held_
#define _Requires_lock_held_(x)
#endif
#ifndef _Requires_lock_not_held_
#define _Requires_lock_not_held_(x)
#endif
#ifndef _Acquires_lock_
#define _Acquires_lock_(x)
#endif
#ifndef _Releases_lock_
#define _Releases_lock_(x)
#endif
#ifndef _Acquires_exclusive_lock_
#define _Acquires_exclusive_lock_(x)
#endif
#ifndef _Releases_exclusive_lock_
#define _Releases_exclusive_lock_(x)
#endif
#ifndef _Guarded_by_
#define _Guarded_by_(x)
#endif
#ifndef _Has_lock_kind_
#define _Has_lock_kind_(x)
#endif

/* ---- Driver annotations (driverspecs.h) ---- */
#ifndef _IRQL_requires_
#define _IRQL_requires_(x)
#endif
#ifndef _IRQL_requires_max_
#define _IRQL_requires_max_(x)
#endif
#ifndef _IRQL_requires_min_
#define _IRQL_requires_min_(x)
#endif
#ifndef _IRQL_raises_
#define _IRQL_raises_(x)
#endif
#ifndef _IRQL_saves_
#define _IRQL_saves_
#endif
#ifndef _IRQL_restores_
#define _IRQL_restores_
#endif
#ifndef _IRQL_saves_global_
#define _IRQL_saves_global_(kind, param)
#endif
#ifndef _IRQL_restores_global_
#define _IRQL_restores_global_(kind, param)
#endif
#ifndef _IRQL_requires_same_
#define _IRQL_requires_same_
#endif
#ifndef _IRQL_always_function_min_
#define _IRQL_always_function_min_(x)
#endif
#ifndef _IRQL_always_function_max_
#define _IRQL_always_function_max_(x)
#endif
#ifndef _Dispatch_type_
#define _Dispatch_type_(x)
#endif
#ifndef _Kernel_requires_resource_held_
#define _Kernel_requires_resource_held_(x)
#endif
#ifndef _Kernel_requires_resource_not_held_
#define _Kernel_requires_resource_not_held_(x)
#endif
#ifndef _Kernel_acquires_resource_
#define _Kernel_acquires_resource_(x)
#endif
#ifndef _Kernel_releases_resource_
#define _Kernel_releases_resource_(x)
#endif
#ifndef _Kernel_float_saved_
#define _Kernel_float_saved_
#endif
#ifndef _Kernel_float_restored_
#define _Kernel_float_restored_
#endif
#ifndef _Kernel_float_used_
#define _Kernel_float_used_
#endif
#ifndef _Kernel_clear_do_init_
#define _Kernel_clear_do_init_(x)
#endif
#ifndef _Drv_aliasesMem_
#define _Drv_aliasesMem_
#endif
#ifndef _Drv_freesMem_
#define _Drv_freesMem_(kind)
#endif
#ifndef _Drv_allocatesMem_
#define _Drv_allocatesMem_(kind)
#endif
#ifndef _Post_maybenull_
#define _Post_maybenull_
#endif
#ifndef _Frees_ptr_
#define _Frees_ptr_
#endif
#ifndef _Frees_ptr_opt_
#define _Frees_ptr_opt_
#endif
#ifndef _Pre_notnull_
#define _Pre_notnull_
#endif
#ifndef _Pre_defensive_
#define _Pre_defensive_
#endif

/* ---- The older annotations (__in, __drv_*) ---- */
#ifndef __in
#define __in
#endif
#ifndef __out
#define __out
#endif
#ifndef __inout
#define __inout
#endif
#ifndef __in_opt
#define __in_opt
#endif
#ifndef __out_opt
#define __out_opt
#endif
#ifndef __inout_opt
#define __inout_opt
#endif
#ifndef __in_bcount
#define __in_bcount(n)
#endif
#ifndef __out_bcount
#define __out_bcount(n)
#endif
#ifndef __in_ecount
#define __in_ecount(n)
#endif
#ifndef __out_ecount
#define __out_ecount(n)
#endif
#ifndef __checkReturn
#define __checkReturn
#endif
#ifndef __drv_maxIRQL
#define __drv_maxIRQL(x)
#endif
#ifndef __drv_minIRQL
#define __drv_minIRQL(x)
#endif
#ifndef __drv_requiresIRQL
#define __drv_requiresIRQL(x)
#endif
#ifndef __drv_raisesIRQL
#define __drv_raisesIRQL(x)
#endif
#ifndef __drv_setsIRQL
#define __drv_setsIRQL(x)
#endif
#ifndef __drv_savesIRQL
#define __drv_savesIRQL
#endif
#ifndef __drv_restoresIRQL
#define __drv_restoresIRQL
#endif
#ifndef __drv_savesIRQLGlobal
#define __drv_savesIRQLGlobal(kind, param)
#endif
#ifndef __drv_restoresIRQLGlobal
#define __drv_restoresIRQLGlobal(kind, param)
#endif
#ifndef __drv_sameIRQL
#define __drv_sameIRQL
#endif
#ifndef __drv_dispatchType
#define __drv_dispatchType(x)
#endif
#ifndef __drv_functionClass
#define __drv_functionClass(x)
#endif
#ifndef __drv_when
#define __drv_when(a, b)
#endif
#ifndef __drv_allocatesMem
#define __drv_allocatesMem(kind)
#endif
#ifndef __drv_freesMem
#define __drv_freesMem(kind)
#endif
#ifndef __drv_aliasesMem
#define __drv_aliasesMem
#endif
#ifndef __drv_acquiresResource
#define __drv_acquiresResource(kind)
#endif
#ifndef __drv_releasesResource
#define __drv_releasesResource(kind)
#endif
#ifndef __drv_mustHold
#define __drv_mustHold(kind)
#endif
#ifndef __drv_neverHold
#define __drv_neverHold(kind)
#endif
#ifndef __drv_inTry
#define __drv_inTry
#endif
#ifndef __drv_notInTry
#define __drv_notInTry
#endif
#ifndef __drv_strictType
#define __drv_strictType(t, mode)
#endif
#ifndef __drv_strictTypeMatch
#define __drv_strictTypeMatch(mode)
#endif
#ifndef __drv_preferredFunction
#define __drv_preferredFunction(f, why)
#endif
#ifndef __drv_reportError
#define __drv_reportError(why)
#endif
#ifndef __drv_valueIs
#define __drv_valueIs(x)
#endif


/* ---- The display DDI's own forms (d3dkmddi.h, dispmprt.h) ---- */
#ifndef _Function_class_DXGK_
#define _Function_class_DXGK_(x)
#endif
#ifndef _IRQL_requires_DXGK_
#define _IRQL_requires_DXGK_(x)
#endif
#ifndef _IRQL_requires_max_DXGK_
#define _IRQL_requires_max_DXGK_(x)
#endif
#ifndef _IRQL_requires_min_DXGK_
#define _IRQL_requires_min_DXGK_(x)
#endif
#ifndef _Check_return_DXGK_
#define _Check_return_DXGK_
#endif
#ifndef _Must_inspect_result_DXGK_
#define _Must_inspect_result_DXGK_
#endif
#ifndef _In_reads_bytes_DXGK_
#define _In_reads_bytes_DXGK_(n)
#endif
#ifndef _Out_writes_bytes_DXGK_
#define _Out_writes_bytes_DXGK_(n)
#endif
#ifndef _Field_size_bytes_DXGK_
#define _Field_size_bytes_DXGK_(n)
#endif
#ifndef _Inout_updates_bytes_DXGK_
#define _Inout_updates_bytes_DXGK_(n)
#endif
#ifndef _In_DXGK_
#define _In_DXGK_
#endif
#ifndef _Out_DXGK_
#define _Out_DXGK_
#endif
#ifndef _Inout_DXGK_
#define _Inout_DXGK_
#endif
#ifndef __drv_functionClass_DXGK
#define __drv_functionClass_DXGK(x)
#endif
#ifndef _Struct_size_bytes_
#define _Struct_size_bytes_(n)
#endif
#ifndef _Field_size_part_
#define _Field_size_part_(n, m)
#endif
#ifndef _In_range_DXGK_
#define _In_range_DXGK_(lo, hi)
#endif

#endif
