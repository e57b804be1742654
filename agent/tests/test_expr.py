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

    def test_boolean_operators_give_bools_and_evaluate_every_operand(self):
        env = {"N": 3, "B": 0}
        self.assertIs(expr.evaluate("N and 7", env), True)
        self.assertIs(expr.evaluate("B or 0", env), False)
        self.assertIs(expr.evaluate("not B and N > 2", env), True)
        self.assertIs(expr.evaluate("1 < N < 3", env), False)
        with self.assertRaisesRegex(expr.ExprError, "unknown name 'M'"):
            expr.evaluate("B and M", env)          # no short circuit: M is still looked up
        self.assertEqual(expr.evaluate("N ** 2 / 2 - -N", env), 7.5)

    def test_names(self):
        self.assertEqual(expr.names("BLOCK * VEC + ceildiv(N, 2)"), {"BLOCK", "VEC", "N"})

    def test_rejects_unsafe_and_unknown(self):
        for bad in ("__import__('os')", "N.real", "[1, 2]", "lambda: 1", "open('x')", "min",
                    "min(*N)", "__builtins__", "N if N else 1", "(N := 2)"):
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
