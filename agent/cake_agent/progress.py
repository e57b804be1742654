"""A one-line progress display while evolving (rewritten in place on a terminal)."""
import sys


class Progress:
    def __init__(self, budget, stream=None, measures=True):
        self.budget, self.stream, self.measures = budget, stream or sys.stderr, measures
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def update(self, db, run_id, generation):
        row = db.q("SELECT COUNT(*) AS n, SUM(status='failed') AS f, SUM(status='compiled') AS c,"
                   " SUM(status='measured') AS m, MIN(fitness) AS best FROM candidates WHERE run_id=?", (run_id,))[0]
        n, total = row["n"], int(self.budget["candidates"])
        width = 24
        done = int(width * min(n, total) / max(total, 1))
        best = f"{row['best']:.4f} ms" if row["best"] is not None else "none"
        line = (f"[{'#' * done}{'.' * (width - done)}] {n}/{total} gen {generation} "
                f"compiled {row['c'] or 0} measured {row['m'] or 0} failed {row['f'] or 0} best {best}")
        if self.tty:
            self.stream.write("\r" + line + "\033[K")
        elif n == total or generation != getattr(self, "_gen", generation):
            self.stream.write(line + "\n")  # not a terminal: one line per generation
        self._gen = generation
        self.stream.flush()

    def close(self):
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
