"""The package's file names tell a user what to import: the package itself (its ``__all__``) and the
pytest plugin ``single_table_runtime.testing``; every other module is internal, named with a leading
underscore, and free to change between releases. No module imports itself back through others (an
import circle), type-only imports included: what two modules share lives in a module below both."""
from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import single_table_runtime


def test_every_module_but_the_pytest_plugin_is_internal() -> None:
    modules = sorted(m.name for m in pkgutil.iter_modules(single_table_runtime.__path__))
    assert [m for m in modules if not m.startswith('_')] == ['testing']
    assert len(modules) > 1


def test_every_name_in_all_is_reached_from_the_package() -> None:
    for name in single_table_runtime.__all__:
        assert getattr(single_table_runtime, name) is not None, name


def import_arrows(folder: Path) -> dict[str, dict[str, set[str]]]:
    """Per module of a package folder, the package's other modules it depends on and the names it takes from each: every
    import of a module (at the top, in a function, under ``if TYPE_CHECKING:``), and a class of another module named in
    an annotation or a quoted type without an import."""
    trees = {p.stem: ast.parse(p.read_text(encoding='utf-8')) for p in folder.glob('*.py')}
    package = folder.name
    classes: dict[str, list[str]] = {}
    for module, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(module)
    arrows: dict[str, dict[str, set[str]]] = {m: {} for m in trees}
    for module, tree in trees.items():
        bound = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        typed: set[str] = set()
        for node in ast.walk(tree):
            targets: list[tuple[str, str]] = []
            if isinstance(node, ast.ImportFrom):
                parts = (node.module or '').split('.')
                if node.level == 1 and node.module:
                    targets = [(parts[0], a.name) for a in node.names]
                elif node.level == 1 or (node.level == 0 and node.module == package):
                    targets = [(a.name, '*') for a in node.names]
                elif node.level == 0 and parts[0] == package:
                    targets = [(parts[1], a.name) for a in node.names]
                bound.update(a.asname or a.name for a in node.names)
            elif isinstance(node, ast.Import):
                targets = [(a.name.split('.')[1], '*') for a in node.names if a.name.startswith(package + '.')]
            for target, name in targets:
                if target in trees and target != module:
                    arrows[module].setdefault(target, set()).add(name)
            annotations: list[ast.expr | None] = []
            if isinstance(node, ast.arg):
                annotations.append(node.annotation)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                annotations.append(node.returns)
            elif isinstance(node, ast.AnnAssign):
                annotations.append(node.annotation)
            elif isinstance(node, ast.Subscript):
                annotations.append(node.slice)
            for annotation in filter(None, annotations):
                for part in ast.walk(annotation):
                    if isinstance(part, ast.Name):
                        typed.add(part.id)
                    elif isinstance(part, ast.Constant) and isinstance(part.value, str):
                        try:
                            quoted = ast.parse(part.value, mode='eval')
                        except SyntaxError:
                            continue
                        typed.update(n.id for n in ast.walk(quoted) if isinstance(n, ast.Name))
        for name in typed - bound:
            for owner in classes.get(name, []):
                if owner != module:
                    arrows[module].setdefault(owner, set()).add(name)
    return arrows


def import_circles(arrows: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """Every group of modules that reach one another through their arrows (strongly connected, two or more), sorted."""
    reach = {m: set(targets) for m, targets in arrows.items()}
    changed = True
    while changed:
        changed = False
        for targets in reach.values():
            more = set().union(*(reach[t] for t in targets)) - targets
            if more:
                targets |= more
                changed = True
    groups = {tuple(sorted({m, *(t for t in reach[m] if m in reach[t])})) for m in arrows if m in reach[m]}
    return sorted(list(g) for g in groups)


def test_no_module_of_the_package_imports_itself_through_others() -> None:
    arrows = import_arrows(Path(single_table_runtime.__file__).parent)
    circles = import_circles(arrows)
    listed = ['; '.join(f"{m} -> {t} ({', '.join(sorted(arrows[m][t]))})" for m in circle for t in sorted(arrows[m]) if t in circle) for circle in circles]
    assert circles == [], 'import circles:\n' + '\n'.join(listed)
    # The arrows are those the modules have: the table handle at the top imports the operations, a type-only import counts.
    assert {'_query', '_items', '_context'} <= set(arrows['_table'])
    assert 'Plan' in arrows['_conditions']['_query_plan']


def test_the_circle_finder_counts_function_type_only_and_quoted_type_arrows(tmp_path: Path) -> None:
    package = tmp_path / 'pkg'
    package.mkdir()
    (package / '__init__.py').write_text('')
    (package / '_a.py').write_text('from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ._b import B\nclass A:\n    pass\n')
    (package / '_b.py').write_text("class B:\n    def f(self) -> 'A | None':\n        return None\n")
    (package / '_c.py').write_text('def g():\n    from pkg import _d\n')
    (package / '_d.py').write_text('from ._c import g\n')
    (package / '_e.py').write_text('from ._a import A\n')
    arrows = import_arrows(package)
    assert arrows['_a'] == {'_b': {'B'}} and arrows['_b'] == {'_a': {'A'}} and arrows['_c'] == {'_d': {'*'}}
    assert import_circles(arrows) == [['_a', '_b'], ['_c', '_d']]
