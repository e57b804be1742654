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
# The operators the language has (evaluated as Python evaluates them).
_BIN = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_CMP = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


class ExprError(ValueError):
    """An expression that does not parse, uses something unsupported, or names an unknown value."""


def names(text):
    """The set of variable names an expression uses (raises ExprError if it does not parse)."""
    return set(_names(text))


@functools.lru_cache(maxsize=4096)
def _names(text):
    """Once per text: a library definition repeats ~100 constraints over ~9,000 variants."""
    tree = _parse(text)
    return frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in FUNCTIONS)


def evaluate(text, env):
    """Evaluates ``text`` with the variables of ``env`` (a dict); raises ExprError on any problem."""
    code = _compiled(text)
    try:
        return eval(code, _GLOBALS, env)  # noqa: S307 (the tree was checked: _check)
    except NameError as e:
        raise ExprError(f"unknown name '{getattr(e, 'name', None) or e}'") from None
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


# Evaluation runs Python's own code for the checked tree (a router evaluates ~25,000 constraints
# for one new shape: walking the tree in Python took 0.15 s). Only what _check admits reaches
# compile(); `and`/`or` become calls of all/any over every operand, so they evaluate every
# operand and give a bool, as the language defines them; names resolve from the environment,
# then to the functions, nothing else (no builtins).
_ALL, _ANY = "__cake_all__", "__cake_any__"
_GLOBALS = {"__builtins__": {}, **FUNCTIONS, _ALL: lambda *v: all(v), _ANY: lambda *v: any(v)}


@functools.lru_cache(maxsize=4096)
def _compiled(text):
    tree = _parse(text)
    _check(tree.body)
    lowered = _BoolOpsAsCalls().visit(ast.parse(text.strip(), mode="eval"))
    return compile(ast.fix_missing_locations(lowered), "<cake expression>", "eval")


class _BoolOpsAsCalls(ast.NodeTransformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        fn = _ALL if isinstance(node.op, ast.And) else _ANY
        return ast.copy_location(ast.Call(func=ast.Name(id=fn, ctx=ast.Load()), args=node.values,
                                          keywords=[]), node)


def _check(node):
    """Raises ExprError unless every element of the tree is one the language has."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)):
        return
    if isinstance(node, ast.Name) and not node.id.startswith("__") and node.id not in FUNCTIONS:
        return
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _check(node.left), _check(node.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Not)):
        return _check(node.operand)
    if isinstance(node, ast.BoolOp):
        return [_check(v) for v in node.values]
    if isinstance(node, ast.Compare) and all(type(o) in _CMP for o in node.ops):
        return [_check(v) for v in [node.left, *node.comparators]]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
            and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)):
        return [_check(a) for a in node.args]
    raise ExprError(f"unsupported expression element: {ast.dump(node)[:60]}")
