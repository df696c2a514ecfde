"""No import cycles: within every package, its own `__init__` and its children (each child
package taken whole) import each other without a cycle.

import-linter's `acyclic_siblings` contract sees cycles between siblings only, not through a
package's `__init__` (`api` importing `api.rest` importing `api`), and it can only count
type-checking imports all or none; here they count, except imports of the app type, which every
screen names for its `self.app` and which never run. The contract's `skip_descendants` and
`ignore_imports` in pyproject.toml apply here too, so the two checks agree on what is excused.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
APP_TYPE = "oddstui.tui.app"


def _contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == "no-cycles")


def _ignored(contract: dict) -> set[tuple[str, str]]:
    pairs = set()
    for line in contract.get("ignore_imports", []):
        importer, imported = (part.strip() for part in line.split("->"))
        pairs.add((importer, imported))
    return pairs


def import_edges(
    package: str,
    skip: tuple[str, ...] = (),
    ignored: frozenset[tuple[str, str]] | set[tuple[str, str]] = frozenset(),
    app_type: str = APP_TYPE,
) -> set[tuple[str, str]]:
    """(importer, imported) module pairs inside `package`, type-checking imports included
    except those of the app type, without imports inside a skipped package or ignored ones."""
    graph = grimp.build_graph(package, cache_dir=None)
    runtime = grimp.build_graph(package, cache_dir=None, exclude_type_checking_imports=True)
    edges = set()
    for importer in graph.modules:
        ran = runtime.find_modules_directly_imported_by(importer)
        for imported in graph.find_modules_directly_imported_by(importer):
            if imported == app_type and imported not in ran:
                continue
            if any(_within(importer, s) and _within(imported, s) for s in skip):
                continue
            if (importer, imported) in ignored:
                continue
            edges.add((importer, imported))
    return edges


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def package_cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """Every cycle among a package's `__init__` and its children, as a list of names."""
    modules = {m for edge in edges for m in edge}
    packages = {m.rsplit(".", 1)[0] for m in modules if "." in m} | {
        m for m in modules if any(o.startswith(m + ".") for o in modules)
    }
    found = []
    for package in sorted(packages):
        nodes: dict[str, set[str]] = {}
        for importer, imported in edges:
            a, b = _node(package, importer), _node(package, imported)
            if a and b and a != b:
                nodes.setdefault(a, set()).add(b)
        found.extend(_cycles(nodes))
    return found


def _node(package: str, module: str) -> str | None:
    """`module` as a node under `package`: the package itself, or the child it lies in."""
    if module == package:
        return package
    if not module.startswith(package + "."):
        return None
    child = module[len(package) + 1 :].split(".", 1)[0]
    return f"{package}.{child}"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_oddstui_has_no_import_cycles() -> None:
    contract = _contract()
    edges = import_edges("oddstui", tuple(contract.get("skip_descendants", ())), _ignored(contract))
    assert len(edges) > 500  # the graph was read
    assert package_cycles(edges) == []


def _package(tmp_path, monkeypatch, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))


TYPED = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    {}\n"


def test_cycles_through_an_init_and_through_type_checking_are_found(tmp_path, monkeypatch):
    _package(
        tmp_path,
        monkeypatch,
        {
            "cyclic/__init__.py": "VERSION = 1\nfrom cyclic.client import errors\n",
            "cyclic/client.py": "from cyclic import errors, VERSION\n",
            "cyclic/errors.py": "",
            "cyclic/sub/__init__.py": "",
            "cyclic/sub/a.py": "import cyclic.sub.b\n",
            "cyclic/sub/b.py": TYPED.format("import cyclic.sub.a"),
        },
    )
    cycles = package_cycles(import_edges("cyclic"))
    assert sorted(cycles) == [["cyclic", "cyclic.client"], ["cyclic.sub.a", "cyclic.sub.b"]]


def test_type_checking_imports_of_the_app_type_do_not_count(tmp_path, monkeypatch):
    _package(
        tmp_path,
        monkeypatch,
        {
            "desk/__init__.py": "",
            "desk/app.py": "import desk.screen\n",
            "desk/screen.py": TYPED.format("from desk.app import App"),
            "desk/widget.py": "import desk.panel\n",
            "desk/panel.py": TYPED.format("import desk.widget"),
        },
    )
    edges = import_edges("desk", app_type="desk.app")
    assert ("desk.app", "desk.screen") in edges
    assert package_cycles(edges) == [["desk.panel", "desk.widget"]]
