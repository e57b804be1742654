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

#include "ThreadModel.h"

namespace mlir::cake {

/// Reports the findings above for `kernel`; false when it reported any.
bool verifyParitySequences(KernelOp kernel, ThreadModel &model);

/// TMA store groups along the same paths (every warp's first thread and every thread that may
/// issue, commit or wait for a store), with block barriers as the only order between threads:
/// - `tma.store-pending-at-exit`: a store whose group no cake.tma.store_wait retires before the
///   block exits (the bulk copy may still read shared memory another block reuses);
/// - `tma.store-race`: a write to a buffer (generic or TMA) that a store's group reads, not
///   ordered against it: in another thread, neither before a barrier the issuer passed before
///   the store nor after a barrier that follows the retiring wait; in the issuer, between the
///   store and its wait.
bool verifyTmaStoreGroups(KernelOp kernel, ThreadModel &model);

} // namespace mlir::cake

#endif // CAKE_LIB_TRANSFORMS_PATHSIMULATION_H
