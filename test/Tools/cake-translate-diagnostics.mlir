// cake-translate prints diagnostics as cake-opt does: --cake-diagnostics=json gives one versioned
// record per diagnostic, =sarif one SARIF 2.1.0 log when done (the rule with its description,
// the location, the notes as related locations, the fix hint).
// RUN: not cake-translate %s --chip=sm_80 --emit=ptx --cake-diagnostics=json 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: {"col":13,"file":"{{.*}}cake-translate-diagnostics.mlir","hint":"set target = \"sm_90\" on @elect_store, or use an op that sm_80 has","line":[[@LINE+24]],"message":"expected a target with elect.sync (sm_90, sm_90a, sm_100a), got sm_80","notes":[{"col":1,"file":"{{.*}}cake-translate-diagnostics.mlir","line":[[@LINE+19]],"message":"the kernel's target is set here"}],"op":"cake.elect_one","rule":"target.elect","schema":"cake-diagnostic","severity":"error","version":1}
// RUN: not cake-translate %s --chip=sm_80 --emit=ptx --cake-diagnostics=sarif 2> %t.sarif
// RUN: FileCheck %s --check-prefix=SARIF < %t.sarif
// RUN: python3 -c "import json,sys; log=json.load(open(sys.argv[1])); r=log['runs'][0]; assert log['version']=='2.1.0' and len(r['results'])==1 and r['results'][0]['ruleId']=='target.elect', log; print('sarif ok')" %t.sarif | FileCheck %s --check-prefix=PARSED
// SARIF: "level": "error"
// SARIF: "startLine": [[@LINE+19]]
// SARIF: "text": "expected a target with elect.sync (sm_90, sm_90a, sm_100a), got sm_80 (fix: set target = \"sm_90\" on @elect_store, or use an op that sm_80 has)"
// SARIF: "text": "the kernel's target is set here"
// SARIF: "ruleId": "target.elect"
// SARIF: "name": "cake-translate"
// SARIF: "id": "target.elect"
// SARIF-NEXT: "shortDescription"
// SARIF-NEXT: "text": "`elect_one` below sm_90"
// SARIF: "version": "2.1.0"
// PARSED: sarif ok
// A clean translation prints an empty log.
// RUN: cake-translate %s --emit=manifest --cake-diagnostics=sarif -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN: "results": []

cake.kernel @elect_store(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %leader = cake.elect_one
  scf.if %leader {
    cake.store %one, %y[%c0] masked : i32, !cake.tensor<[N], i32>
  }
  cake.return
}

// A diagnostic of the whole file (MLIR's line 0, column 0: here an empty input has no kernel) has
// its file and no position: null line and column in JSON, no region in SARIF (whose lines start
// at 1).
// RUN: printf '' > %t.empty.mlir
// RUN: not cake-translate %t.empty.mlir --emit=manifest --cake-diagnostics=json 2>&1 | FileCheck %s --check-prefix=WHOLEFILE
// WHOLEFILE: {"col":null,"file":"{{.*}}empty.mlir","hint":null,"line":null,"message":"no cake.kernel in the module: a manifest needs cake-level IR"
// RUN: not cake-translate %t.empty.mlir --emit=manifest --cake-diagnostics=sarif 2> %t.empty.sarif
// RUN: python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]['results'][0]; p=r['locations'][0]['physicalLocation']; assert 'region' not in p and p['artifactLocation']['uri'].endswith('empty.mlir'), r; print('no region')" %t.empty.sarif | FileCheck %s --check-prefix=NOREGION
// NOREGION: no region
