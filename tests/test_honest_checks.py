"""No check passes on an empty answer: `assert all(...)` and loops of asserts need a guard.

`assert all(x for x in answer)` and `for x in answer: assert ...` hold when `answer` is empty, so
a service that answers nothing passes them. Each such check must first require what it checks
to exist, by one of:
- an earlier assert in the same test that names the collection (`assert items`, `assert
  len(items) == 3`) or the same assert (`assert items and all(...)`);
- an earlier `if` on it that leaves the test or the loop (`if not items: continue`);
- the collection taken from `eventually(...)` with no `holds` (it returns a truthy answer);
- a literal or a module constant (UPPER_CASE), or `range`/`zip`/`enumerate` over them;
- a `# non-empty: <why>` comment on the line or just above it, where the reason is outside the
  test's text (a helper's contract, a hypothesis strategy's minimum);
- a `# may be empty: <why>` comment there, for a check of something that happens only sometimes
  (a race, a goal) and is pinned elsewhere, said as such.
Loops nested in another loop are judged by the outer one.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
MARKERS = ("# non-empty:", "# may be empty:")
BUILTINS = {
    "sorted",
    "list",
    "set",
    "tuple",
    "zip",
    "enumerate",
    "range",
    "len",
    "reversed",
    "min",
    "max",
}


def _marked(lines: list[str], lineno: int) -> bool:
    """A marker on the statement's line, or on a comment line just above it."""
    above = lines[lineno - 2].strip() if lineno >= 2 else ""
    here = lines[lineno - 1]
    return any(m in here or (above.startswith("#") and m in above) for m in MARKERS)


def _mentions(statement: ast.stmt, name: str) -> bool:
    return name in ast.unparse(statement)


def _guards(earlier: list[ast.stmt], source: str, root: str) -> bool:
    for statement in earlier:
        if isinstance(statement, ast.Assert) and (
            _mentions(statement, source) or _mentions(statement, root)
        ):
            return True
        if isinstance(statement, ast.If) and root in ast.unparse(statement.test):
            leaves = (ast.Continue, ast.Return, ast.Raise, ast.Break)
            if any(isinstance(inner, leaves) for inner in statement.body):
                return True
        if isinstance(statement, ast.Assign) and root in {
            ast.unparse(target) for target in statement.targets
        }:
            value = statement.value
            if isinstance(value, ast.Await):
                value = value.value
            if (
                isinstance(value, ast.Call)
                and ast.unparse(value.func) in ("eventually", "eventually_async")
                and len(value.args) <= 2
                and not value.keywords
            ):
                return True
    return False


def _checked_collections(statement: ast.stmt) -> list[tuple[ast.expr, ast.expr | None]]:
    """The collections an `assert all(...)` or a loop of asserts runs over, with the assert."""
    if isinstance(statement, ast.Assert):
        test = statement.test
        parts = [test]
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            parts = list(test.values)
        found = []
        for part in parts:
            if (
                isinstance(part, ast.Call)
                and isinstance(part.func, ast.Name)
                and part.func.id == "all"
                and part.args
                and isinstance(part.args[0], ast.GeneratorExp | ast.ListComp)
            ):
                found.append((part.args[0].generators[0].iter, test))
        return found
    if isinstance(statement, ast.For | ast.AsyncFor):
        if any(isinstance(inner, ast.Assert) for inner in statement.body):
            return [(statement.iter, None)]
    return []


def _is_fixed(collection: ast.expr, root: str) -> bool:
    if isinstance(collection, ast.List | ast.Tuple | ast.Set | ast.Dict | ast.Constant):
        return True
    if isinstance(collection, ast.Call) and ast.unparse(collection.func) == "range":
        names = [node.id for node in ast.walk(collection) if isinstance(node, ast.Name)]
        return all(name == "range" or name.isupper() for name in names)
    return root.isupper()


def unguarded_checks(path: Path, base: Path = TESTS.parent) -> list[str]:
    text = path.read_text()
    lines = text.splitlines()
    found = []
    for function in ast.walk(ast.parse(text)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        statements = sorted(
            (node for node in ast.walk(function) if isinstance(node, ast.stmt)),
            key=lambda node: (node.lineno, node.col_offset),
        )
        nested = {
            id(inner)
            for loop in statements
            if isinstance(loop, ast.For | ast.AsyncFor)
            for inner in ast.walk(loop)
            if inner is not loop
        }
        for index, statement in enumerate(statements):
            if id(statement) in nested or _marked(lines, statement.lineno):
                continue
            for collection, whole in _checked_collections(statement):
                source = ast.unparse(collection)
                names = [node.id for node in ast.walk(collection) if isinstance(node, ast.Name)]
                root = next((n for n in names if n not in BUILTINS), source)
                if _is_fixed(collection, root):
                    continue
                if isinstance(whole, ast.BoolOp) and any(
                    root in ast.unparse(value)
                    for value in whole.values
                    if not (isinstance(value, ast.Call) and ast.unparse(value.func) == "all")
                ):
                    continue
                if _guards(statements[:index], source, root):
                    continue
                found.append(f"{path.relative_to(base)}:{statement.lineno}: {source}")
    return found


def test_no_check_passes_on_an_empty_answer() -> None:
    found = [line for path in sorted(TESTS.rglob("*.py")) for line in unguarded_checks(path)]
    assert not found, "checks that pass when there is nothing to check:\n" + "\n".join(found)


def test_the_lint_finds_an_unguarded_check(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "def test_a(answer):\n"
        "    assert all(x > 0 for x in answer)\n"
        "def test_b(answer):\n"
        "    for x in answer:\n"
        "        assert x\n"
        "def test_c(answer):\n"
        "    assert answer and all(x > 0 for x in answer)\n"
        "def test_d(answer):\n"
        "    assert len(answer) == 2\n"
        "    for x in answer:\n"
        "        assert x\n"
    )
    found = [line.split(":")[1] for line in unguarded_checks(sample, tmp_path)]
    assert found == ["2", "4"]
