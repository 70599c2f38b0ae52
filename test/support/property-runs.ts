// How many cases a property tries. `npm test` tries the number its test gives, sized to answer
// fast; SINGLE_TABLE_LONG_RUNS=1 tries LONG_RUNS_FACTOR times as many, a longer search for after a
// change to the code under a property (docs/local-engine.md, "This project's tests").
export const LONG_RUNS_ENV = 'SINGLE_TABLE_LONG_RUNS';
export const LONG_RUNS_FACTOR = 10;

/** `numRuns` for `fc.assert`: `runs` in a normal test run, LONG_RUNS_FACTOR times as many in a long one. */
export function propertyRuns(runs: number): number {
  return process.env[LONG_RUNS_ENV] === '1' ? runs * LONG_RUNS_FACTOR : runs;
}
