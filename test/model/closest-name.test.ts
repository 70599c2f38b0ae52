// "Did you mean": the closest declared name, only when it is close enough to be the one meant.
import * as fc from 'fast-check';
import { closestName, didYouMean } from '../../lib/model/closest-name';
import { propertyRuns } from '../support/property-runs';

test.each([
  ['ordrId', ['username', 'orderId', 'status'], 'orderId'],
  ['stauts', ['username', 'orderId', 'status'], 'status'],
  ['Ordr', ['Customer', 'Order'], 'Order'],
  ['gsi2', ['table', 'GSI1', 'GSI2'], 'GSI2'],
  // A swap is one edit; of names equally close, the lookalike.
  ['dcos', ['docs', 'cost', 'check'], 'docs'],
  ['GSI2', ['GSI1', 'GSl2', 'GSI3'], 'GSl2'],
  ['fromat', ['format', 'out', 'json'], 'format'],
  ['projecton', ['projection', 'include'], 'projection'],
  ['lineNumber', ['username', 'orderId'], undefined],
  ['ab', ['xy', 'cd'], undefined],
  ['x', [], undefined],
  ['outdir', ['format', 'out'], undefined],
])('%s among %j: %s', (name, names, expected) => {
  expect(closestName(name, names)).toBe(expected);
});

test('the suggestion reads as the start of a fix, and is empty when nothing is close', () => {
  expect(didYouMean('ordrId', ['orderId'])).toBe("did you mean 'orderId'? ");
  expect(didYouMean('lineNumber', ['orderId'])).toBe('');
});

test('a declared name finds itself, and one edit away from a name of 3+ characters finds a name at most one edit away', () => {
  const name = fc.stringMatching(/^[a-z]{3,12}$/);
  fc.assert(fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 6 }), fc.nat(), fc.nat(), fc.constantFrom('a', 'z'), (names, pick, at, ch) => {
    const meant = names[pick % names.length];
    expect(closestName(meant, names)).toBe(meant);
    const i = at % meant.length;
    const typo = meant.slice(0, i) + ch + meant.slice(i + 1);
    const found = closestName(typo, names);
    expect(found).toBeDefined();
    expect(names.some((n) => n === found)).toBe(true);
    expect(distance(typo, found!)).toBeLessThanOrEqual(1);
  }), { numRuns: propertyRuns(100) });
});

/** Edit distance (a swap of two neighbours is one edit) by memoized recursion, written apart from the implementation. */
function distance(a: string, b: string, memo = new Map<string, number>()): number {
  if (!a.length || !b.length) return a.length + b.length;
  const key = `${a.length},${b.length}`;
  if (!memo.has(key)) {
    const replaced = distance(a.slice(1), b.slice(1), memo) + (a[0] === b[0] ? 0 : 1);
    const swapped = a.length > 1 && b.length > 1 && a[0] === b[1] && a[1] === b[0] ? distance(a.slice(2), b.slice(2), memo) + 1 : Infinity;
    memo.set(key, Math.min(distance(a.slice(1), b, memo) + 1, distance(a, b.slice(1), memo) + 1, replaced, swapped));
  }
  return memo.get(key)!;
}
