"""Writes a transform library with one named sequence per preset of `cake-opt --cake-list-tactics`
(read on stdin): @<name, '-' as '_'> runs the preset's "transform" op on the module."""
import json
import sys

listed = json.load(sys.stdin)
print("module attributes {transform.with_named_sequence} {")
for tactic in listed["tactics"]:
    name = tactic["name"].replace("-", "_")
    print(f"  // {tactic['pipeline']}")
    print(f"  transform.named_sequence @{name}(%target: !transform.any_op {{transform.readonly}}) {{")
    print(f"    {tactic['transform']}")
    print("    transform.yield")
    print("  }")
print("}")
