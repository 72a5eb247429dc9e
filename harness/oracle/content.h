/*
 * content.h — the content oracle: what every allocation must hold, from the
 * scenario's residency history alone. Initial content comes from the
 * allocation's seed (again at each creation after a destroy, which ends
 * the history before); Fill and render writes lay a pattern; DiscardContent
 * and WritePhysical make bytes undefined; transfers move content without
 * changing it; InitContextResource and UpdateContextAllocation leave the
 * builder's own image of the context, as its run recorded it (rec's
 * images), which later moves carry unchanged. Where the allocation lives
 * at the end is the residency tracker's answer (segment and offset), or
 * for system memory the page frames of its final MDL; mapped aperture
 * ranges must point at the allocation's own pages with at least the
 * requested coherence.
 *
 * It reads no DXGKARG argument VidMm built and no result of the reference
 * or the spec model (only a run's own context images, which the DDI
 * leaves to the driver), so it checks all three: a reference run that
 * disagrees with it is a harness bug.
 */
#ifndef PBCHECK_CONTENT_H
#define PBCHECK_CONTENT_H

#include <stddef.h>

#include "oracle/record.h"
#include "scenario/scenario.h"

/* Checks the world `gpu` left after running the first `ops_done`
 * operations of s, with rec from the same run. Returns 0 when every
 * allocation holds what its history says; otherwise 1 with one paragraph
 * in why (the allocation, the offset, what is there and what must be). */
int pbc_content_check(const pbc_scenario *s, uint32_t ops_done, const pbc_gpu *gpu, const pbc_record *rec,
                      char *why, size_t why_size);

/* The same for the context allocations alone (those whose history holds
 * an image from rec): whether every later move carried the image the
 * builder left after InitContextResource or UpdateContextAllocation.
 * Cheap when the run has no image. */
int pbc_content_check_images(const pbc_scenario *s, uint32_t ops_done, const pbc_gpu *gpu, const pbc_record *rec,
                             char *why, size_t why_size);

#endif
