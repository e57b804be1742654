"""A small, safe integer/float expression language for tasks.

Used for ``{{...}}`` placeholders in seed IR, tunable constraints, floor formulas and shape
expressions: numbers, names, ``+ - * / // % **``, comparisons, ``and``/``or``/``not``, parentheses and
the functions ``min max ceildiv floordiv mod``. Nothing else (no attributes, no calls to other names).
"""
import ast
import functools

FUNCTIONS = {
    "min": min,
    "max": max,
    "ceildiv": lambda a, b: -(-a // b),
    "floordiv": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
}
_BIN = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
        ast.Pow: lambda a, b: a ** b}
_CMP = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
        ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


class ExprError(ValueError):
    """An expression that does not parse, uses something unsupported, or names an unknown value."""


def names(text):
    """The set of variable names an expression uses (raises ExprError if it does not parse)."""
    tree = _parse(text)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in FUNCTIONS}


def evaluate(text, env):
    """Evaluates ``text`` with the variables of ``env`` (a dict); raises ExprError on any problem."""
    tree = _parse(text)
    try:
        return _eval(tree.body, env)
    except ZeroDivisionError:
        raise ExprError(f"division by zero in '{text}'") from None
    except TypeError as e:
        raise ExprError(f"cannot evaluate '{text}': {e}") from None


@functools.lru_cache(maxsize=4096)
def _parse(text):
    """Parsed once per text: hosts evaluate the same manifest expressions on every launch."""
    if not isinstance(text, str) or not text.strip():
        raise ExprError(f"expected an expression string, got {text!r}")
    try:
        return ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ExprError(f"cannot parse expression '{text}'") from None


def _eval(node, env):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise ExprError(f"unknown name '{node.id}'")
        return env[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _BIN[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Not)):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else (v if isinstance(node.op, ast.UAdd) else not v)
    if isinstance(node, ast.BoolOp):
        vals = [_eval(v, env) for v in node.values]
        return all(vals) if isinstance(node.op, ast.And) else any(vals)
    if isinstance(node, ast.Compare) and all(type(o) in _CMP for o in node.ops):
        left = _eval(node.left, env)
        for op, comp in zip(node.ops, node.comparators):
            right = _eval(comp, env)
            if not _CMP[type(op)](left, right):
                return False
            left = right
        return True
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
            and not node.keywords):
        return FUNCTIONS[node.func.id](*[_eval(a, env) for a in node.args])
    raise ExprError(f"unsupported expression element: {ast.dump(node)[:60]}")
