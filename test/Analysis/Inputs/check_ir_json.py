"""Reads `cake-opt --cake-print-ir-json` output and prints one line per op (name, line, operand
ids, results with types), checking that every operand was defined before its use (a block
argument or an earlier result) and the schema header."""
import json
import sys

doc = json.load(open(sys.argv[1]))
assert (doc["schema"], doc["version"]) == ("cake-ir", 1), doc.keys()
defined = set()


def visit(ops, depth):
    for op in ops:
        for operand in op["operands"]:
            assert operand in defined, (op["name"], operand)
        results = " ".join(f"{r['id']}:{r['type']}" for r in op["results"])
        for r in op["results"]:
            defined.add(r["id"])
        line = op["loc"]["line"] if op["loc"] else "-"
        print(f"{'  ' * depth}{op['name']} @{line} ({' '.join(op['operands'])}) -> {results}")
        for region in op["regions"]:
            for block in region:
                for arg in block["arguments"]:
                    defined.add(arg["id"])
                visit(block["ops"], depth + 1)


visit(doc["ops"], 0)
