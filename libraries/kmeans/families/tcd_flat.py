"""tcd's `fl` configurations (an experiment, not in the default plan: build.py --flat-tcd): x and c
read as the flat arrays they are ([BND] and [BKD] elements), so every D gets 16-byte loads.
Measured slower than the v1/v2 loads they replace (bench/results/2026-12-04-library-kmeans-11).
"""
from .common import DTYPES


# `fl`: x and c are read as the flat arrays they are. A lane's span of a row (16 bytes at the
# row's element offset o + column) lies in the two aligned 16-byte vectors at a = o + column -
# (o mod span) and a + span; the span elements are taken from them at the row's misalignment
# e = o mod span, the same for every step of D (computed once per row; for c, once per pass).
# 16-bit types move 32-bit words: word j of the result is word (e div 2) + j of the pair, shifted
# by 16 bits when e is odd. The loads are masked: only the tensor's ragged last vector goes
# element by element (what it reads past the row's D is zeroed by the column mask).


def flat_constants(w, span, consts):
    for c in (2, 3):
        if c not in consts:
            w(f"  %c{c} = arith.constant {c} : index")
    w("  %i16 = arith.constant 16 : i32")
    w("  %i0 = arith.constant 0 : i32")
    iota = ", ".join(str(e) for e in range(span))
    w(f"  %iota = arith.constant dense<[{iota}]> : vector<{span}xi32>")
    w('  %xelems = cake.problem_size "BND"')
    w('  %celems = cake.problem_size "BKD"')


def flat_row(w, ind, tag, batch_base, row, span):
    """The flat row's aligned base %fb<tag> and the selectors of its misalignment."""
    w(f"{ind}%fr{tag} = arith.addi {batch_base}, {row} : index")
    w(f"{ind}%fo{tag} = arith.muli %fr{tag}, %ddim : index")
    w(f"{ind}%fe{tag} = arith.remui %fo{tag}, %c{span} : index")
    w(f"{ind}%fb{tag} = arith.subi %fo{tag}, %fe{tag} : index")
    word = "%fe" + tag
    if span == 8:                           # 16-bit elements: whole words, then a half-word shift
        w(f"{ind}%fh{tag} = arith.divui %fe{tag}, %c2 : index")
        w(f"{ind}%fodd{tag} = arith.remui %fe{tag}, %c2 : index")
        w(f"{ind}%fo32{tag} = arith.index_cast %fodd{tag} : index to i32")
        w(f"{ind}%fsh{tag} = arith.muli %fo32{tag}, %i16 : i32")
        w(f"{ind}%fshm{tag} = arith.subi %i16, %fsh{tag} : i32")
        word = "%fh" + tag
    for k in (1, 2, 3):
        w(f"{ind}%fp{k}{tag} = arith.cmpi eq, {word}, %c{k} : index")


def flat_extract(w, ind, tag, rowtag, span, ty, vt, result, first, second):
    """`result`: the span elements at the row's misalignment from its two vectors `first` and
    `second`, those past D (the column mask %colm) zero."""
    if span == 8:
        w(f"{ind}%vwa{tag} = vector.bitcast {first} : {vt} to vector<4xi32>")
        w(f"{ind}%vwb{tag} = vector.bitcast {second} : {vt} to vector<4xi32>")
        src, words, et = ("%vwa" + tag, "%vwb" + tag), 5, "i32"
    else:
        src, words, et = (first, second), 4, ty
    for j in range(8):
        w(f"{ind}%we{j}{tag} = vector.extract {src[j // 4]}[{j % 4}] : {et} from vector<4x{et}>")
    for j in range(words):
        cur = f"%we{j}{tag}"
        for k in (1, 2, 3):
            w(f"{ind}%ws{k}_{j}{tag} = arith.select %fp{k}{rowtag}, %we{j + k}{tag}, {cur} : {et}")
            cur = f"%ws{k}_{j}{tag}"
    if span == 8:
        outs = []
        for j in range(4):
            w(f"{ind}%wr{j}{tag} = arith.shrui %ws3_{j}{tag}, %fsh{rowtag} : i32")
            w(f"{ind}%wl{j}{tag} = arith.shli %ws3_{j + 1}{tag}, %i16 : i32")
            w(f"{ind}%wm{j}{tag} = arith.shli %wl{j}{tag}, %fshm{rowtag} : i32")
            w(f"{ind}%wo{j}{tag} = arith.ori %wr{j}{tag}, %wm{j}{tag} : i32")
            outs.append(f"%wo{j}{tag}")
        w(f"{ind}%wv{tag} = vector.from_elements {', '.join(outs)} : vector<4xi32>")
        w(f"{ind}%vu{tag} = vector.bitcast %wv{tag} : vector<4xi32> to {vt}")
    else:
        w(f"{ind}%vu{tag} = vector.from_elements {', '.join(f'%ws3_{j}{tag}' for j in range(4))} : {vt}")
    w(f"{ind}{result} = arith.select %colm, %vu{tag}, %zx : vector<{span}xi1>, {vt}")


def flat_addresses(w, ind, tag, rowtag, span):
    w(f"{ind}%fa{tag} = arith.addi %fb{rowtag}, %dq : index")
    w(f"{ind}%fn{tag} = arith.addi %fa{tag}, %c{span} : index")


def flat_loads(w, ind, tags, tensors, vt, masked):
    """The two vectors of each tag; their names, in order."""
    names = []
    for tag in tags:
        tensor, tt = tensors[tag[0]]
        for part in ("a", "n"):
            name = f"%l{part}{tag}{'m' if masked else ''}"
            w(f"{ind}{name} = cake.load {tensor}[%f{part}{tag}]{' masked' if masked else ''} : {tt} -> {vt}")
            names.append(name)
    return names


def flat_bases(w, span, rows):
    """Before the passes: each of the lane's x rows' aligned base and misalignment; b * K for c."""
    w("  %bn = arith.muli %b, %ndim : index")
    w("  %bk = arith.muli %b, %kdim : index")
    for i, h in rows:
        flat_row(w, "  ", f"x{i}_{h}", "%bn", f"%rowc{i}_{h}", span)


def flat_step_loads(w, p, rows, kn, xt, ct, vt):
    """One step of D: the column mask, then every row's and centroid's two vectors, then the
    extractions (%x<i>_<h>_0 and %y<n>_0, what `part` takes for v = span)."""
    ty, width = DTYPES[p["dtype"]][:2]
    span = 16 // width                      # tcd_span: 16 bytes a lane and row
    ind = "      "
    w(f"{ind}%lim = arith.subi %ddim, %dq : index")
    w(f"{ind}%lim32 = arith.index_cast %lim : index to i32")
    w(f"{ind}%limv = vector.broadcast %lim32 : i32 to vector<{span}xi32>")
    w(f"{ind}%colm = arith.cmpi slt, %iota, %limv : vector<{span}xi32>")
    tags = [f"x{i}_{h}" for i, h in rows] + [f"y{n}" for n in range(kn)]
    for tag in tags:
        flat_addresses(w, ind, tag, tag if tag[0] == "x" else "c" + tag[1:], span)
    # One test per step for all the lane's vectors (its last row's and last centroid's are the
    # farthest): plain loads when all lie in the tensors, masked ones (element by element at the
    # ragged end) only near their ends. A masked load per vector would be a branch per load,
    # and ptxas waits for each load at its branch's join (call 1: 0.60x of the v1/v2 builds).
    lx, lc = f"x{rows[-1][0]}_{rows[-1][1]}", f"y{kn - 1}"
    w(f"{ind}%xend = arith.addi %fn{lx}, %c{span} : index")
    w(f"{ind}%cend = arith.addi %fn{lc}, %c{span} : index")
    w(f"{ind}%xin = arith.cmpi ule, %xend, %xelems : index")
    w(f"{ind}%cin = arith.cmpi ule, %cend, %celems : index")
    w(f"{ind}%allin = arith.andi %xin, %cin : i1")
    tensors = {"x": ("%x", xt), "y": ("%c", ct)}
    w(f"{ind}%lv:{2 * len(tags)} = scf.if %allin -> ({', '.join([vt] * (2 * len(tags)))}) {{")
    w(f"{ind}  scf.yield {', '.join(flat_loads(w, ind + '  ', tags, tensors, vt, False))} : "
      f"{', '.join([vt] * (2 * len(tags)))}")
    w(f"{ind}}} else {{")
    w(f"{ind}  scf.yield {', '.join(flat_loads(w, ind + '  ', tags, tensors, vt, True))} : "
      f"{', '.join([vt] * (2 * len(tags)))}")
    w(f"{ind}}}")
    for k, tag in enumerate(tags):
        rowtag, result = (tag, f"%{tag}_0") if tag[0] == "x" else ("c" + tag[1:], f"%{tag}_0")
        flat_extract(w, ind, tag, rowtag, span, ty, vt, result, f"%lv#{2 * k}", f"%lv#{2 * k + 1}")
