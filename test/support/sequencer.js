// The order of the test files. Jest runs the files it has timed before longest first; on a fresh
// clone it has no times and goes by file size, which can start a small but long file (a packed
// package installed and synthesized, the Python suite, the CLI synthesizing an app) last, while
// the other worker idles. Without times, those kinds go first; the rest keep jest's order.
const Sequencer = require('@jest/test-sequencer').default;

/** Path parts of the files that take longest, longest kind first. */
const LONG_FIRST = ['/test/package/', '/test/python/', '/test/examples/', '.engine.test.ts', 'fanout', '/test/construct/tenant'];

const rank = (test) => {
  const i = LONG_FIRST.findIndex((part) => test.path.includes(part));
  return i === -1 ? LONG_FIRST.length : i;
};

class LongFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration != null)) return sorted;
    return sorted.map((test, i) => [test, i]).sort(([a, i], [b, j]) => rank(a) - rank(b) || i - j).map(([test]) => test);
  }
}

module.exports = LongFirstSequencer;
