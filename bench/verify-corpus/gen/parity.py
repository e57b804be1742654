"""Class `parity`: hand-written mbarrier phase parity (the pipeline primitive derives parity
itself, so these use raw cake.mbarrier.* ops)."""
from common import consts, fill, kernel, persistent_head
import ring as R

C = "parity"
SZ = "M=4096,K=4096"

kernel("buggy", C, "ring_empty_parity_not_inverted",
       "hang (the producer's first empty wait needs a release of data it has not loaded)",
       "the producer waits on 'empty' with the round's parity (round % 2) instead of its inverse, so\n"
       "in round 0 it waits for a phase that only the consumers' first release completes.",
       SZ, R.ring("ring_empty_parity_not_inverted", S=3, PWAIT=R.pwait(3, parity="%phase")))

kernel("buggy", C, "ring_full_parity_inverted",
       "race (wrong result): round 0 waits pass at once on the fresh full barriers",
       "the consumers wait on 'full' with the inverted parity (the producer's convention).",
       SZ, R.ring("ring_full_parity_inverted", S=3, CWAIT=R.cwait(3, parity="%free")))

RING_KT2 = R.ring("ring_parity_from_iteration", S=4)
RING_KT2 = RING_KT2.replace("%phase = arith.remui %round, %c2 : index",
                            "%phase = arith.remui %kt, %c2 : index")
kernel("buggy", C, "ring_parity_from_iteration",
       "race (wrong result): at iteration 1 the consumer's parity-1 wait passes on a fresh barrier",
       "parity alternates with the iteration (kt % 2) instead of the round (kt / 4 % 2) of a 4-slot ring.",
       SZ, RING_KT2)

FIRST_ROUND = ("          %first = arith.cmpi ult, %kt, %c3 : index\n"
               "          scf.if %first {\n"
               "            cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<6>\n"
               "          }\n")
kernel("buggy", C, "ring_empty_wait_first_round_only",
       "race (wrong result): from round 1 on the producer overwrites slots the consumers still read",
       "the producer waits on 'empty' only while kt < stages (where the wait is free anyway) and never\n"
       "in later rounds.",
       SZ, R.ring("ring_empty_wait_first_round_only", S=3, PWAIT=FIRST_ROUND))

kernel("buggy", C, "ring_consumer_parity_zero",
       "race (wrong result): from round 1 on the wait on parity 0 passes before the data lands",
       "the consumer waits with the constant parity 0 in every iteration.",
       SZ, R.ring("ring_consumer_parity_zero", S=2, CWAIT=R.cwait(2, parity="%c0")))

SKIP_OK = ("          %later = arith.cmpi uge, %kt, %c3 : index\n"
           "          scf.if %later {\n"
           "            cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<6>\n"
           "          }\n")
SKIP_BAD = SKIP_OK.replace("%free", "%phase")
kernel("correct", C, "ring_skip_round0_acquire",
       "none (correct)",
       "the producer skips the empty wait in round 0 (the slots start empty) and from round r >= 1 waits\n"
       "for phase r - 1, i.e. parity (r - 1) % 2 = (r % 2) ^ 1.",
       SZ, R.ring("ring_skip_round0_acquire", S=3, PWAIT=SKIP_OK))
kernel("buggy", C, "ring_skip_round0_wrong_parity",
       "hang (round 1 waits for the release of round 1 itself)",
       "the producer skips round 0's empty wait, but from round r waits for parity r % 2: phase r, which\n"
       "the consumers complete only after the data of round r that the producer has not yet loaded.",
       SZ, R.ring("ring_skip_round0_wrong_parity", S=3, PWAIT=SKIP_BAD))

RING_DIV2 = R.ring("ring_round_wrong_stage_count", S=3)
RING_DIV2 = RING_DIV2.replace("%round = arith.divui %kt, %c3 : index",
                              "%round = arith.divui %kt, %c2 : index")
kernel("buggy", C, "ring_round_wrong_stage_count",
       "race or hang: at kt = 2 the slot's first round is computed as round 1",
       "slots rotate over 3 stages but the round (and the parity) divides by 2, a leftover of a 2-stage\n"
       "version.",
       SZ, RING_DIV2)

kernel("correct", C, "ring_two_stage",
       "none (correct)",
       "a 2-slot ring, parity (kt / 2) % 2, producer inverse parity on 'empty'.",
       SZ, R.ring("ring_two_stage", S=2))

# --- a persistent ring: the phase must continue across output tiles ----------------------------
PERS = persistent_head(132, (0, 1, 2, 3, 4, 8, 32), share=True) + """  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %i = %c0 to %count step %c1 {
          %step = arith.muli %i, %nblocks : index
          %t = arith.addi %bid, %step : index
          %m0 = arith.muli %t, %c32 : index
          %g0 = arith.muli %i, %ktiles : index
          scf.for %kt = %c0 to %ktiles step %c1 {
            %g = arith.addi %g0, %kt : index
            %slot = arith.remui @@PIDX@@, %c2 : index
            %round = arith.divui @@PIDX@@, %c2 : index
            %phase = arith.remui @@PROUND@@, %c2 : index
            %free = arith.xori %phase, %c1 : index
            %empty = arith.addi %slot, %c2 : index
            cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
            cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
            %k0 = arith.muli %kt, %c32 : index
            cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
                : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
          }
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %count step %c1 {
        %step = arith.muli %i, %nblocks : index
        %t = arith.addi %bid, %step : index
        %m0 = arith.muli %t, %c32 : index
        %g0 = arith.muli %i, %ktiles : index
        %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
          %g = arith.addi %g0, %kt : index
          %slot = arith.remui @@CIDX@@, %c2 : index
          %round = arith.divui @@CIDX@@, %c2 : index
          %phase = arith.remui @@CROUND@@, %c2 : index
          %empty = arith.addi %slot, %c2 : index
          cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<4>
          %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v = arith.addf %v0, %v1 : vector<4xf32>
          %part = vector.reduction <add>, %v : vector<4xf32> into f32
          cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
          %acc2 = arith.addf %acc, %part : f32
          scf.yield %acc2 : f32
        }
        %total = cake.warp_reduce sum %sum {lanes = 4 : i64} : f32
        %mrow = arith.addi %m0, %row : index
        %lead = arith.cmpi eq, %quad, %c0 : index
        scf.if %lead {
          cake.store %total, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
        }
      }
    }
  }
  cake.return
}
"""


def pers(name, pidx="%g", cidx="%g", pround="%round", cround="%round"):
    return fill(PERS, NAME=name, PIDX=pidx, CIDX=cidx, PROUND=pround, CROUND=cround)


kernel("correct", C, "persistent_ring_global_count",
       "none (correct)",
       "slot and parity follow the block's global iteration g = i * ktiles + kt in both roles.",
       "M=100000,K=96", pers("persistent_ring_global_count"))
kernel("buggy", C, "persistent_ring_restart_per_tile",
       "wrong-result-for-some-shapes: K=96 (3 k-tiles, 2 slots) makes slot 1's parity disagree from the\n"
       "//      second tile on, so its wait passes on an old phase; K=128 works",
       "both roles compute slot and parity from the inner counter kt: the phase restarts at every output\n"
       "tile although the barriers keep counting.",
       "M=100000,K=96", pers("persistent_ring_restart_per_tile", pidx="%kt", cidx="%kt"))
kernel("buggy", C, "persistent_ring_consumer_restart",
       "wrong-result-for-some-shapes (or hang): K=96 puts the producer and the consumers on different\n"
       "//      slots and parities from the second tile on",
       "the producer counts globally, the consumers restart slot and parity at every tile.",
       "M=100000,K=96", pers("persistent_ring_consumer_restart", cidx="%kt"))
kernel("buggy", C, "persistent_ring_parity_from_tile",
       "race (wrong result): from kt = 2 on, a slot's wait uses the tile's parity, which does not flip\n"
       "//      with the rounds of the inner loop",
       "slots follow the global count, but the parity comes from the outer tile counter i and stays\n"
       "constant inside the k loop.",
       "M=100000,K=4096", pers("persistent_ring_parity_from_tile", pround="%i", cround="%i"))

# --- carried (slot, phase) state, CUTLASS PipelineState style ---------------------------------
STATE = persistent_head(148, (0, 1, 2, 3, 4, 5, 8, 32), share=False) + """  %buf = cake.alloc_smem : !cake.smem<3x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<6>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c2], count 1 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c3], count 4 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c4], count 4 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c5], count 4 : !cake.mbarriers<6>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        %pend:2 = scf.for %t = %bid to %tiles step %nblocks iter_args(%ps = %c0, %pp = %c0) -> (index, index) {
          %m0 = arith.muli %t, %c32 : index
          %st:2 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%slot = @@PINIT_S@@, %phase = @@PINIT_P@@) -> (index, index) {
            %free = arith.xori %phase, %c1 : index
            %empty = arith.addi %slot, %c3 : index
            cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<6>
            cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<6>
            %k0 = arith.muli %kt, %c32 : index
            cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
                : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<3x32x32xf32>, !cake.mbarriers<6>
            %next = arith.addi %slot, %c1 : index
            %wrap = arith.cmpi eq, %next, %c3 : index
            %nslot = arith.select %wrap, %c0, %next : index
            %flip = arith.xori %phase, %c1 : index
            %nphase = arith.select %wrap, %flip, %phase : index
            scf.yield %nslot, %nphase : index, index
          }
          scf.yield %st#0, %st#1 : index, index
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %zero = arith.constant 0.0 : f32
      %cend:2 = scf.for %t = %bid to %tiles step %nblocks iter_args(%cs = %c0, %cp = %c0) -> (index, index) {
        %m0 = arith.muli %t, %c32 : index
        %res:3 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%slot = @@CINIT_S@@, %phase = @@CINIT_P@@, %acc = %zero) -> (index, index, f32) {
          %empty = arith.addi %slot, %c3 : index
          cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<6>
          %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<3x32x32xf32> -> vector<4xf32>
          %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<3x32x32xf32> -> vector<4xf32>
          %v = arith.addf %v0, %v1 : vector<4xf32>
          %part = vector.reduction <add>, %v : vector<4xf32> into f32
          %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
          %el = cake.elect_one
          scf.if %el {
            cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<6>
          }
          %acc2 = arith.addf %acc, %rsum : f32
          %next = arith.addi %slot, %c1 : index
          %wrap = arith.cmpi eq, %next, %c3 : index
          %nslot = arith.select %wrap, %c0, %next : index
          %flip = arith.xori %phase, %c1 : index
          %nphase = arith.select %wrap, %flip, %phase : index
          scf.yield %nslot, %nphase, %acc2 : index, index, f32
        }
        %mrow = arith.addi %m0, %row : index
        %lead = arith.cmpi eq, %quad, %c0 : index
        scf.if %lead {
          cake.store %res#2, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
        }
        scf.yield %res#0, %res#1 : index, index
      }
    }
  }
  cake.return
}
"""


def state(name, p=("%ps", "%pp"), c=("%cs", "%cp")):
    return fill(STATE, NAME=name, PINIT_S=p[0], PINIT_P=p[1], CINIT_S=c[0], CINIT_P=c[1])


kernel("correct", C, "carried_state_persistent",
       "none (correct)",
       "slot and phase are carried through both loops (PipelineState style), so the phase continues\n"
       "across output tiles; empty barriers count one elected arrival per consumer warp.",
       "M=100000,K=160", state("carried_state_persistent"))
kernel("buggy", C, "carried_state_reset_per_tile",
       "wrong-result-for-some-shapes: K=160 (5 k-tiles, 3 slots) desynchronises slots and phases from\n"
       "//      the second tile on (a wait passes on an old phase); K=192 works",
       "both roles restart the carried (slot, phase) at (0, 0) for every output tile instead of\n"
       "continuing from the previous tile's state.",
       "M=100000,K=160", state("carried_state_reset_per_tile", p=("%c0", "%c0"), c=("%c0", "%c0")))
kernel("buggy", C, "carried_state_consumer_reset",
       "wrong-result-for-some-shapes (or hang): with K=160 the consumers read slot 0 while the producer\n"
       "//      filled slot 2 of the second tile",
       "the producer carries its state across tiles, the consumers restart at (0, 0) per tile.",
       "M=100000,K=160", state("carried_state_consumer_reset", c=("%c0", "%c0")))

# --- ping-pong of one smem slot between two warpgroups, raw parity -----------------------------
PING = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[R, 256], f32> {cake.name = "x"},
    %y: !cake.tensor<[R, 256], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %slot = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c64 : index
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // 0: full (128 writer arrivals), 1: empty (128 reader arrivals)
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      scf.for %i = %c0 to %c64 step %c1 {
        %row = arith.addi %r0, %i : index
        scf.for %h = %c0 to %c2 step %c1 {
          %n2 = arith.muli %i, %c2 : index
          %n = arith.addi %n2, %h : index
          %par = arith.remui @@WPAR@@, %c2 : index
          %free = arith.xori %par, %c1 : index
          cake.mbarrier.wait %bars[%c1], @@WFREE@@ : !cake.mbarriers<2>
          %hc = arith.muli %h, %c128 : index
          %col = arith.addi %hc, %tid : index
          %v = cake.load %x[%row, %col] masked : !cake.tensor<[R, 256], f32> -> f32
          %sq = arith.mulf %v, %v : f32
          cake.store %sq, %slot[%tid] : f32, !cake.smem<128xf32>
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "reader" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %c64 step %c1 {
        %row = arith.addi %r0, %i : index
        scf.for %h = %c0 to %c2 step %c1 {
          %n2 = arith.muli %i, %c2 : index
          %n = arith.addi %n2, %h : index
          %par = arith.remui %n, %c2 : index
          cake.mbarrier.wait %bars[%c0], @@RPAR@@ : !cake.mbarriers<2>
          %v = cake.load %slot[%u] : !cake.smem<128xf32> -> f32
          cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
          %hc = arith.muli %h, %c128 : index
          %col = arith.addi %hc, %u : index
          cake.store %v, %y[%row, %col] masked : f32, !cake.tensor<[R, 256], f32>
        }
      }
    }
  }
  cake.return
}
"""
kernel("correct", C, "pingpong_slot_parity",
       "none (correct)",
       "one smem slot handed back and forth 128 times: the writer waits 'empty' with parity (n % 2) ^ 1,\n"
       "the reader waits 'full' with n % 2, n counting both loops.",
       "R=4096", fill(PING, NAME="pingpong_slot_parity", WPAR="%n", WFREE="%free", RPAR="%par"))
kernel("buggy", C, "pingpong_inner_parity_frozen",
       "race (wrong result): the writer's second chunk of each row passes the empty wait at once and\n"
       "//      overwrites the slot before the reader took the first",
       "the writer's parity comes from the row counter i, so it does not flip inside the inner loop\n"
       "over the two halves of a row.",
       "R=4096", fill(PING, NAME="pingpong_inner_parity_frozen", WPAR="%i", WFREE="%free", RPAR="%par"))
kernel("buggy", C, "pingpong_writer_parity_not_inverted",
       "hang (the writer's first wait needs the reader's first release)",
       "the writer waits on 'empty' with parity n % 2 instead of (n % 2) ^ 1.",
       "R=4096", fill(PING, NAME="pingpong_writer_parity_not_inverted", WPAR="%n", WFREE="%par", RPAR="%par"))
kernel("buggy", C, "pingpong_reader_parity_inverted",
       "race (wrong result): the reader's first wait passes on the fresh barrier, before the first write",
       "the reader waits on 'full' with the writer's inverted parity.",
       "R=4096", fill(PING, NAME="pingpong_reader_parity_inverted", WPAR="%n", WFREE="%free",
                       RPAR="%free").replace(
           "          %par = arith.remui %n, %c2 : index\n          cake.mbarrier.wait %bars[%c0], %free",
           "          %par = arith.remui %n, %c2 : index\n          %free = arith.xori %par, %c1 : index\n          cake.mbarrier.wait %bars[%c0], %free"))

# --- a one-slot TMA ring with constant barrier indices (no computed mbarrier index) -------------
ONE = R.ring("@@NAME@@", S=1)
ONE = ONE.replace("%slot = arith.remui %kt, %c1 : index", "%slot = arith.addi %c0, %c0 : index")
ONE = ONE.replace("%empty = arith.addi %slot, %c1 : index", "%empty = arith.addi %c1, %c0 : index")
# Constant indices: full is %c0, empty is %c1 (the ring's computed %slot / %empty stay for the buffer).
ONE = ONE.replace("cake.mbarrier.wait %bars[%empty]", "cake.mbarrier.wait %bars[%c1]")
ONE = ONE.replace("cake.mbarrier.arrive_expect_tx %bars[%slot]", "cake.mbarrier.arrive_expect_tx %bars[%c0]")
ONE = ONE.replace("%buf[%slot], %bars[%slot]", "%buf[%slot], %bars[%c0]")
ONE = ONE.replace("cake.mbarrier.wait %bars[%slot]", "cake.mbarrier.wait %bars[%c0]")
ONE = ONE.replace("cake.mbarrier.arrive %bars[%empty]", "cake.mbarrier.arrive %bars[%c1]")


def one(name, **repl):
    t = ONE.replace("@@NAME@@", name)
    for old, new in repl.items():
        pass
    return t


SZ1 = "M=4096,K=4096"
kernel("correct", C, "one_slot_ring_constant_indices",
       "none (correct)",
       "a one-slot TMA ring addressed with constant barrier indices (full 0, empty 1); the parity is\n"
       "kt % 2 for 'full' and its inverse for 'empty'.",
       SZ1, one("one_slot_ring_constant_indices"))
kernel("buggy", C, "one_slot_ring_empty_parity_not_inverted",
       "hang (the producer's first wait needs the consumers' first release)",
       "constant barrier indices; the producer waits on 'empty' with kt % 2 instead of its inverse.",
       SZ1, one("one_slot_ring_empty_parity_not_inverted").replace(
           "cake.mbarrier.wait %bars[%c1], %free", "cake.mbarrier.wait %bars[%c1], %phase"))
kernel("buggy", C, "one_slot_ring_full_parity_inverted",
       "race (wrong result): the consumers' first wait passes on the fresh barrier",
       "constant barrier indices; the consumers wait on 'full' with the inverted parity.",
       SZ1, one("one_slot_ring_full_parity_inverted").replace(
           "cake.mbarrier.wait %bars[%c0], %phase", "cake.mbarrier.wait %bars[%c0], %free"))
kernel("buggy", C, "one_slot_ring_parity_constant",
       "race (wrong result): from the second tile on, the consumers' wait passes on the completed phase 0",
       "constant barrier indices; the consumers wait with parity 0 in every iteration.",
       SZ1, one("one_slot_ring_parity_constant").replace(
           "cake.mbarrier.wait %bars[%c0], %phase", "cake.mbarrier.wait %bars[%c0], %c0"))
kernel("buggy", C, "one_slot_ring_empty_wait_first_round_only",
       "race (wrong result): from tile 1 on the producer refills the slot while the consumers read it",
       "constant barrier indices; the producer waits on 'empty' only for kt < 1 (the free first round).",
       SZ1, one("one_slot_ring_empty_wait_first_round_only").replace(
           "          cake.mbarrier.wait %bars[%c1], %free : !cake.mbarriers<2>\n",
           "          %first = arith.cmpi ult, %kt, %c1 : index\n"
           "          scf.if %first {\n"
           "            cake.mbarrier.wait %bars[%c1], %free : !cake.mbarriers<2>\n"
           "          }\n"))
kernel("correct", C, "one_slot_ring_skip_round0",
       "none (correct)",
       "constant barrier indices; the producer skips the empty wait for tile 0 and from tile kt >= 1\n"
       "waits for phase kt - 1 (parity (kt % 2) ^ 1).",
       SZ1, one("one_slot_ring_skip_round0").replace(
           "          cake.mbarrier.wait %bars[%c1], %free : !cake.mbarriers<2>\n",
           "          %later = arith.cmpi uge, %kt, %c1 : index\n"
           "          scf.if %later {\n"
           "            cake.mbarrier.wait %bars[%c1], %free : !cake.mbarriers<2>\n"
           "          }\n"))
