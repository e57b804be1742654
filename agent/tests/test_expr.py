"""cake_agent.expr: the task expression language."""
import unittest

from tests import util  # noqa: F401  (sets sys.path)
from cake_agent import expr


class ExprTest(unittest.TestCase):
    def test_arithmetic_and_functions(self):
        env = {"N": 1000, "B": 256}
        self.assertEqual(expr.evaluate("ceildiv(N, B)", env), 4)
        self.assertEqual(expr.evaluate("B * 4 // 3 + mod(N, 7)", env), 341 + 1000 % 7)
        self.assertEqual(expr.evaluate("max(N, B) - min(N, B)", env), 744)
        self.assertTrue(expr.evaluate("B % 32 == 0 and 64 <= B <= 1024", env))

    def test_names(self):
        self.assertEqual(expr.names("BLOCK * VEC + ceildiv(N, 2)"), {"BLOCK", "VEC", "N"})

    def test_rejects_unsafe_and_unknown(self):
        for bad in ("__import__('os')", "N.real", "[1, 2]", "lambda: 1", "open('x')"):
            with self.assertRaises(expr.ExprError, msg=bad):
                expr.evaluate(bad, {"N": 1})
        with self.assertRaises(expr.ExprError):
            expr.evaluate("M + 1", {"N": 1})
        with self.assertRaises(expr.ExprError):
            expr.evaluate("N // 0", {"N": 1})
        with self.assertRaises(expr.ExprError):
            expr.evaluate("N +", {"N": 1})


if __name__ == "__main__":
    unittest.main()
