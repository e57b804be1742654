"""Every rule id a CAKE pass reports (a string literal given to emitFinding, emitFindingWarning,
attachFix or a pass's report helper, or a target requirement's rule in
include/Cake/IR/TargetRequirements.def) is declared in
include/Cake/Verify/Rules.def, and every declared id is reported somewhere.
Usage: check_rule_ids.py SOURCE_ROOT RULES_JSON"""
import json
import os
import re
import sys

root, listed = sys.argv[1], sys.argv[2]
with open(listed) as f:
    declared = {r["id"] for r in json.load(f)["rules"]}
families = sorted({i.split(".")[0] for i in declared})
literal = re.compile(r'"((?:%s)\.[a-z0-9-]+)"' % "|".join(families))
used = set()
with open(os.path.join(root, "include", "Cake", "IR", "TargetRequirements.def")) as f:
    used |= set(literal.findall(f.read()))
for folder, _, files in os.walk(os.path.join(root, "lib")):
    for name in files:
        if name.endswith(".cpp") or name.endswith(".h"):
            with open(os.path.join(folder, name)) as f:
                used |= set(literal.findall(f.read()))
problems = [f"reported but not declared in Rules.def: {i}" for i in sorted(used - declared)]
problems += [f"declared in Rules.def but reported by no pass: {i}" for i in sorted(declared - used)]
print("\n".join(problems) or f"OK: {len(declared)} rule ids, declared once")
sys.exit(1 if problems else 0)
