#!/usr/bin/env python3
"""Writes cake-fuzz's seed corpus: every examples/*.mlir whole, and each `// -----` split input of
the .mlir files in the given directories (test/IR: valid and invalid ops), one file per input.

    make_corpus.py OUT_DIR SOURCE_DIR...
"""
import hashlib
import pathlib
import re
import sys


def main() -> int:
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for source in sys.argv[2:]:
        for path in sorted(pathlib.Path(source).glob("*.mlir")):
            text = path.read_text()
            for part in re.split(r"^// -----\s*$", text, flags=re.M):
                # RUN / CHECK lines are comments to the parser; drop them to keep inputs short.
                body = "\n".join(l for l in part.splitlines() if not l.lstrip().startswith("//"))
                if not body.strip():
                    continue
                name = hashlib.sha1(body.encode()).hexdigest()
                (out / name).write_text(body + "\n")
                count += 1
    print(f"{count} seed inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
