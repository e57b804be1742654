"""Facts from a ``ptxas -v`` log (cake-translate --ptxas-log): registers, spills, shared memory."""
import re

_PATTERNS = {
    "registers": r"Used (\d+) registers",
    "barriers": r"used (\d+) barriers",
    "smem_bytes": r"(\d+) bytes smem",
    "cmem_bytes": r"(\d+) bytes cmem\[0\]",
    "stack_bytes": r"(\d+) bytes stack frame",
    "spill_stores": r"(\d+) bytes spill stores",
    "spill_loads": r"(\d+) bytes spill loads",
}


def parse(log, entry=None):
    """Facts for ``entry`` (or the first function) in a ptxas log; keys absent from the log are None."""
    text = log or ""
    if entry:
        m = re.search(r"Compiling entry function '%s'" % re.escape(entry), text)
        if m:
            nxt = re.search(r"Compiling entry function", text[m.end():])
            text = text[m.start(): m.end() + (nxt.start() if nxt else len(text))]
    facts = {}
    for key, pat in _PATTERNS.items():
        m = re.search(pat, text)
        facts[key] = int(m.group(1)) if m else None
    if facts["barriers"] is None and facts["registers"] is not None:
        facts["barriers"] = 0
    if facts["smem_bytes"] is None and facts["registers"] is not None:
        facts["smem_bytes"] = 0
    return facts
