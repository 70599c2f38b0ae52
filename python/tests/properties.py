"""How many examples of each Hypothesis property reached its assertion.

A property whose assertion sits behind a condition (two values that happen to differ, an input the
compiled path happens to take) can pass without ever checking anything. So a property calls
``asserted()`` where it has checked what it is about, and conftest.py runs every ``@given`` test
through ``count_asserted``: it counts the examples Hypothesis generated that ran to the end (not an
``@example``, not the replay of a failure; an example that ``assume`` or a filter rejected is not
one), writes the counts to test-reports/property-cases.jsonl (one line per property, beside the
Node.js suite's lines of test/support/property-runs.ts) and fails the test when fewer examples than
its floor asserted: every example, unless ``@asserted_at_least(share)`` lowers it (and then its
strategy should make the examples that assert common on purpose).
"""
from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any, Callable, TypeVar

import pytest
from hypothesis.control import current_build_context

REPORT = Path(__file__).resolve().parents[2] / 'test-reports' / 'property-cases.jsonl'
_FLOOR = '_asserted_floor'
T = TypeVar('T', bound=Callable[..., Any])


class _Count:
    def __init__(self) -> None:
        self.cases = 0
        self.asserted = 0
        self.reached = False


_running: _Count | None = None


def asserted() -> None:
    """Marks the running example as one that reached the property's assertion."""
    if _running is None:
        raise RuntimeError('asserted() marks an example of a @given test; this call ran outside one')
    _running.reached = True


def asserted_at_least(share: float) -> Callable[[T], T]:
    """Above ``@given``: the property passes when at least ``share`` (0 to 1) of its examples asserted, instead of every one."""
    def floor(test: T) -> T:
        setattr(test, _FLOOR, share)
        return test
    return floor


def count_asserted(item: pytest.Function) -> None:
    """Runs the ``@given`` test of ``item`` counting its examples that called ``asserted()``; checks and reports the count once it passed."""
    run = item.runtest
    handle = item.obj.hypothesis

    def counted(test: Callable[..., None], count: _Count) -> Callable[..., None]:
        @functools.wraps(test)
        def example(*args: Any, **kwargs: Any) -> None:
            # Hypothesis runs an @example and the replay of a failure as the final run of an input;
            # what its engine generates (and shrinks, which only follows a failure) is not final.
            generated = not current_build_context().is_final
            count.reached = False
            test(*args, **kwargs)
            if generated:
                count.cases += 1
                count.asserted += count.reached
        return example

    def runtest() -> None:
        global _running
        count = _Count()
        test = handle.inner_test
        handle.inner_test = counted(test, count)
        _running = count
        try:
            run()
        finally:
            handle.inner_test = test
            _running = None
        share = getattr(item.obj, _FLOOR, getattr(test, _FLOOR, 1))
        floor = math.ceil(share * count.cases)
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        with REPORT.open('a', encoding='utf-8') as report:
            report.write(json.dumps({'file': str(item.path), 'test': item.name, 'cases': count.cases, 'asserted': count.asserted, 'floor': floor}) + '\n')
        if count.asserted < floor:
            pytest.fail(f'the property reached an assertion in {count.asserted} of {count.cases} examples; it needs {floor} ({share * 100:g}%): '
                        'make its strategy produce the examples it checks, or lower its floor with asserted_at_least', pytrace=False)

    item.runtest = runtest  # type: ignore[method-assign]
