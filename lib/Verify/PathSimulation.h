//===- PathSimulation.h - barriers and store groups along each thread's path -*- C++ -*-===//
//
// Runs each warp's first thread through the kernel for a few concrete problem sizes (scf.for and
// scf.while unrolled, conditions decided, loop-carried values carried) and reads the sequence of its
// mbarrier waits. Two properties follow from the hardware alone, whatever the protocol:
// - `mbarrier.parity-sequence`: a thread's successive waits on one barrier wait for successive
//   phases, so their parities alternate; a repeated parity waits on a phase that already passed
//   (the wait returns at once) or skips one;
// - `mbarrier.parity-initial`: a barrier whose phases publish data (TMA copies complete on it,
//   or its arrivals follow shared-memory writes) is waited first for its first phase (parity 0):
//   with parity 1 the wait passes at once, before the data is there.
// The same paths give the TMA store groups' lifetimes (verifyTmaStoreGroups). A finding names
// the sizes and the iteration that show it.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_TRANSFORMS_PATHSIMULATION_H
#define CAKE_LIB_TRANSFORMS_PATHSIMULATION_H

#include "Cake/Analysis/ThreadModel.h"

namespace mlir::cake {

/// Reports the findings above for `kernel`; false when it reported any.
bool verifyParitySequences(KernelOp kernel, ThreadModel &model);

/// The async proxy's reads of shared memory along the same paths (every warp's first thread and
/// every thread that may issue, commit or wait for a TMA store), with block barriers, mbarrier
/// phases and program order as the only order between accesses:
/// - `tma.store-pending-at-exit`: a store whose group no cake.tma.store_wait retires before the
///   block exits (the bulk copy may still read shared memory another block reuses);
/// - `tma.store-race` / `wgmma.operand-race`: a write to a buffer that a TMA store's or a wgmma's
///   group still reads, not ordered after the wait that retires the group;
/// - `async.proxy-fence-missing`: a generic write that an async-proxy read (TMA store, wgmma
///   operand) is ordered after, with no cake.fence.proxy_async in the writing thread between
///   the write and what orders it.
bool verifyAsyncAccesses(KernelOp kernel, ThreadModel &model);

/// cp.async copies against the generic reads of their slots: `async.cp-async-in-flight`, a read
/// that may run while a copy into its slot is in flight (its group not retired by a
/// cp.async.wait of the copying thread, or, for another thread, no block barrier after it); and
/// with `checkExit`, `async.cp-async-pending-at-exit`, a committed group no wait retires before
/// the thread exits.
bool verifyCpAsyncVisibility(KernelOp kernel, ThreadModel &model, bool checkExit = true);

/// Pipeline steps along the same paths: `pipeline.iteration-sequence` (a thread's waits or
/// commits not naming iterations 0, 1, 2, ...), `pipeline.release-sequence` (a consumer's
/// releases not the iterations it waited for, in order) and `pipeline.unconsumed-iteration`
/// (committed iterations no consumer waits for).
bool verifyPipelineSequences(KernelOp kernel, ThreadModel &model);

/// `race.unordered-handoff`: in kernels whose warp roles hand data over through shared memory
/// with named barriers (and no mbarriers, pipelines or async copies), every thread's path for a
/// few sizes; a write and another warp's access of the same element are ordered only by a block
/// barrier or a named-barrier instance (the k-th arrivals of its participants) that one reaches
/// after its access and the other before its own. A pair ordered neither way is reported.
bool verifyRoleHandoffs(KernelOp kernel, ThreadModel &model);

} // namespace mlir::cake

#endif // CAKE_LIB_TRANSFORMS_PATHSIMULATION_H
