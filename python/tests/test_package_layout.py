"""The package's file names tell a user what to import: the package itself (its ``__all__``) and the
pytest plugin ``single_table_runtime.testing``; every other module is internal, named with a leading
underscore, and free to change between releases."""
from __future__ import annotations

import pkgutil

import single_table_runtime


def test_every_module_but_the_pytest_plugin_is_internal() -> None:
    modules = sorted(m.name for m in pkgutil.iter_modules(single_table_runtime.__path__))
    assert [m for m in modules if not m.startswith('_')] == ['testing']
    assert len(modules) > 1


def test_every_name_in_all_is_reached_from_the_package() -> None:
    for name in single_table_runtime.__all__:
        assert getattr(single_table_runtime, name) is not None, name
