// How many cases a property tries, and how many of them reached an assertion. `npm test` tries the
// number its test gives, sized to answer fast; SINGLE_TABLE_LONG_RUNS=1 tries LONG_RUNS_FACTOR times
// as many, a longer search for after a change to the code under a property (docs/local-engine.md,
// "This project's tests").
//
// A property whose assertion sits behind a condition (two items that happen to share a key, a value
// that happens to be negative) can pass without ever checking anything. So every property of a file
// that imports this module counts the cases in which it called `expect`, writes the count to
// test-reports/property-cases.jsonl, and fails when fewer cases than its floor asserted: every case,
// unless the property lowers the floor with `assertedAtLeast` (and then its generator should make
// the cases that assert common on purpose). The Python runtime's Hypothesis properties do the same
// (python/tests/properties.py: `asserted()`, `asserted_at_least`) and append to the same report.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

export const LONG_RUNS_ENV = 'SINGLE_TABLE_LONG_RUNS';
export const LONG_RUNS_FACTOR = 10;

/** `numRuns` for `fc.assert`: `runs` in a normal test run, LONG_RUNS_FACTOR times as many in a long one. */
export function propertyRuns(runs: number): number {
  return process.env[LONG_RUNS_ENV] === '1' ? runs * LONG_RUNS_FACTOR : runs;
}

const FLOOR = Symbol('asserted floor');
/** Where every property's counts go, a line each (the run's global setup empties it). */
export const PROPERTY_CASES_REPORT = join(__dirname, '..', '..', 'test-reports', 'property-cases.jsonl');

/**
 * A plugin for `fc.assert`'s `plugins`: this property passes only when at least `share` (0 to 1) of
 * its cases reached an assertion, instead of every case.
 */
export function assertedAtLeast(share: number): fc.Plugin<unknown> {
  return (_index, store) => {
    store.set(FLOOR, share);
    return {};
  };
}

/** Counts the cases that called `expect` (a case `fc.pre` skipped is not one); checks and reports the count once the property passed. */
const countAsserted: fc.Plugin<unknown> = (_index, store) => {
  let cases = 0;
  let asserted = 0;
  const counted = <R>(before: number, result: R): R => {
    if (fc.PreconditionFailure.isFailure(result)) return result;
    cases++;
    if (expect.getState().assertionCalls > before) asserted++;
    return result;
  };
  return {
    decorateRun: (run) => (value) => {
      const before = expect.getState().assertionCalls;
      const result = run(value);
      return result instanceof Promise ? result.then((r) => counted(before, r)) : counted(before, result);
    },
    onAllRunsComplete: (details) => {
      if (details.failed) return;
      const share = store.get<number>(FLOOR) ?? 1;
      const floor = Math.ceil(share * cases);
      const { currentTestName, testPath } = expect.getState();
      mkdirSync(join(PROPERTY_CASES_REPORT, '..'), { recursive: true });
      appendFileSync(PROPERTY_CASES_REPORT, JSON.stringify({ file: testPath, test: currentTestName, cases, asserted, floor }) + '\n');
      if (asserted < floor) {
        throw new Error(`the property reached an assertion in ${asserted} of ${cases} cases; it needs ${floor} (${share * 100}%): `
          + 'make its generator produce the cases it checks, or lower its floor with assertedAtLeast');
      }
    },
  };
};
fc.installGlobalPlugin(countAsserted);
