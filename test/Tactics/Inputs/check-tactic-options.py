"""Checks `cake-opt --cake-list-tactics`'s "passes" against its presets (stdin): every preset's
pass is described, every option a preset's pipeline sets is one of the pass's options with a value
of its type, the passes come in the presets' order, and each pass's transform op is its
pipeline's op. Prints one line per pass; exits 1 naming the first mismatch."""
import json
import re
import sys

listing = json.load(sys.stdin)
passes = {p["pass"]: p for p in listing["passes"]}
order = []
for preset in listing["tactics"]:
    name, pipeline = preset["name"], preset["pipeline"]
    if preset["pass"] not in passes:
        sys.exit(f"{name}: pass {preset['pass']} is not described")
    if preset["pass"] not in order:
        order.append(preset["pass"])
    described = passes[preset["pass"]]
    if not preset["transform"].startswith(described["transform_op"] + " "):
        sys.exit(f"{name}: op {preset['transform'].split()[0]} is not {described['transform_op']}")
    types = {o["name"]: o["type"] for o in described["options"]}
    match = re.fullmatch(r"builtin\.module\([\w-]+(?:\{(.*)\})?\)", pipeline)
    for setting in (match.group(1) or "").split():
        key, value = setting.split("=", 1)
        if key not in types:
            sys.exit(f"{name}: sets {key}, not an option of {preset['pass']}")
        ok = {"int64": re.fullmatch(r"-?\d+", value), "bool": value in ("true", "false"),
              "string": True}[types[key]]
        if not ok:
            sys.exit(f"{name}: {key}={value} is not a {types[key]}")
if order != [p["pass"] for p in listing["passes"]]:
    sys.exit(f"passes in another order than the presets: {order}")
for p in listing["passes"]:
    print(p["pass"], " ".join(f"{o['name']}:{o['type']}={json.dumps(o['default'])}" for o in p["options"]))
