// The merge order of a sharded multi-attribute GSI: tupleSortString orders items as DynamoDB orders
// the sort attribute tuple (strings by UTF-8 bytes, numbers by exact decimal value), checked against
// a reference comparator that compares the typed values themselves.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { shardForValue } from '../../lib/keys/shard';
import { compileManifest } from '../../lib/manifest/compile';
import { ShardStrategy } from '../../lib/model/manifest';
import { fanOutQuery, FanOutState, ShardPageFetcher } from '../../lib/runtime/query/fanout';
import { compareUtf8, isNumberText, numberSortText, SortAttribute, tupleSortString } from '../../lib/runtime/query/fanout-order';
import { shardsToQuery } from '../../lib/runtime/query/fanout-shards';
import { planQuery } from '../../lib/runtime/query/plan';
import { shardedTournamentManifest } from '../fixtures/tournament';
import { propertyRuns } from '../support/property-runs';

/** A decimal text as DynamoDB may write one: sign, digits, a point, an exponent. */
const decimalText = fc.record({
  negative: fc.boolean(),
  digits: fc.stringMatching(/^[0-9]{1,38}$/),
  point: fc.nat({ max: 40 }),
  exponent: fc.option(fc.integer({ min: -90, max: 90 }), { nil: undefined }),
}).map(({ negative, digits, point, exponent }) => {
  const at = Math.min(point, digits.length);
  const body = at === 0 || at === digits.length ? digits : `${digits.slice(0, at)}.${digits.slice(at)}`;
  return `${negative ? '-' : ''}${body}${exponent === undefined ? '' : `e${exponent}`}`;
});

/** value = mantissa x 10^exponent, exactly. */
function parseDecimal(text: string): { mantissa: bigint; exponent: number } {
  const [, sign, int, frac = '', exp = '0'] = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text)!;
  const mantissa = BigInt(int + frac || '0');
  return { mantissa: sign === '-' ? -mantissa : mantissa, exponent: Number(exp) - frac.length };
}

function compareDecimals(a: string, b: string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.min(x.exponent, y.exponent);
  const left = x.mantissa * 10n ** BigInt(x.exponent - scale);
  const right = y.mantissa * 10n ** BigInt(y.exponent - scale);
  return left === right ? 0 : left < right ? -1 : 1;
}

const utf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** The reference: the tuple's values compared one by one, each by its type. */
function compareTuples(attributes: readonly SortAttribute[], a: Record<string, AttributeValue>, b: Record<string, AttributeValue>): number {
  for (const { name, numeric } of attributes) {
    const c = numeric ? compareDecimals(a[name].N!, b[name].N!) : utf8(a[name].S!, b[name].S!);
    if (c !== 0) return c;
  }
  return 0;
}

const sign = (n: number) => Math.sign(n);

test('a number\'s sort text orders decimals by exact value, across lengths, signs, points and exponents', () => {
  fc.assert(fc.property(decimalText, decimalText, (a, b) => {
    expect(isNumberText(a) && isNumberText(b)).toBe(true);
    expect(sign(compareUtf8(numberSortText(a), numberSortText(b)))).toBe(compareDecimals(a, b));
  }), { numRuns: propertyRuns(400) });
});

// Strings short and alike (a prefix of another, U+0000, characters past U+FFFF), so that ties and prefixes are common.
const text = fc.string({ unit: fc.constantFrom('a', 'b', '\u0000', '\u0001', '\uffff', '😀', 'é'), maxLength: 3 });
const smallNumber = fc.constantFrom('0', '-0.5', '2', '10', '-10', '1e1', '0.25', '100000000000000000000000000000000000001', '-3');

test('tupleSortString orders items as the typed tuple of their sort attributes', () => {
  const attributes: SortAttribute[] = [{ name: 'round', numeric: true }, { name: 'bracket', numeric: false }, { name: 'slot', numeric: false }];
  const item = fc.record({ round: smallNumber, bracket: text, slot: text })
    .map(({ round, bracket, slot }): Record<string, AttributeValue> => ({ round: { N: round }, bracket: { S: bracket }, slot: { S: slot } }));
  fc.assert(fc.property(item, item, (a, b) => {
    expect(sign(compareUtf8(tupleSortString(a, attributes), tupleSortString(b, attributes)))).toBe(compareTuples(attributes, a, b));
  }), { numRuns: propertyRuns(600) });
});

test('equal numbers in other texts make equal sort strings; a text that is no number is refused', () => {
  expect(numberSortText('1000')).toBe(numberSortText('1e3'));
  expect(numberSortText('0.50')).toBe(numberSortText('.5'));
  expect(numberSortText('-0')).toBe(numberSortText('0'));
  expect(isNumberText('12x')).toBe(false);
  expect(isNumberText('')).toBe(false);
  expect(() => numberSortText('NaN')).toThrow('"NaN" is not a number\'s text');
});

test('a position holds each sort attribute\'s value (a number as its text), then the table key; a state that does not fit is INVALID_CURSOR', async () => {
  const sortAttributes: SortAttribute[] = [{ name: 'round', numeric: true }, { name: 'bracket', numeric: false }];
  const item = (round: string, bracket: string, id: string) => ({ round: { N: round }, bracket: { S: bracket }, PK: { S: id }, SK: { S: 'M' } });
  const shards = [[item('-2.5', 'A', 'a'), item('10', 'A', 'b')], [item('9', 'B', 'c'), item('1e3', 'A', 'd')]];
  const starts: (Record<string, AttributeValue> | undefined)[] = [];
  const fetch: ShardPageFetcher = async (shard, start, limit) => {
    starts.push(start);
    const from = start ? shards[shard].findIndex((i) => i.PK.S === start.PK.S) + 1 : 0;
    const items = shards[shard].slice(from, from + limit);
    return { Items: items, LastEvaluatedKey: from + limit < shards[shard].length ? items[items.length - 1] : undefined };
  };
  const options = {
    shards: [0, 1],
    limit: 2,
    descending: false,
    sortKey: 'PK',
    sortAttributes,
    tieBreakKeys: ['PK', 'SK'],
    partitionKeyOf: (shard: number) => ({ status: { S: 'OPEN' }, ByStatusShard: { N: String(shard) } }),
  };
  const first = await fanOutQuery(fetch, options);
  expect(first.items.map((i) => i.PK.S)).toEqual(['a', 'c']);
  expect(first.state).toEqual({ after: [['-2.5', 'A', 'a', 'M'], ['9', 'B', 'c', 'M']], last: 1 });
  starts.length = 0;
  const second = await fanOutQuery(fetch, { ...options, state: first.state });
  expect(second.items.map((i) => i.PK.S)).toEqual(['b', 'd']);
  // Resumed with the values typed, beside the shard's partition key.
  expect(starts).toContainEqual({ status: { S: 'OPEN' }, ByStatusShard: { N: '1' }, round: { N: '9' }, bracket: { S: 'B' }, PK: { S: 'c' }, SK: { S: 'M' } });
  for (const after of [[['x', 'A', 'a', 'M'], null], [['1', 'A', 'a'], null], [[1, 'A', 'a', 'M'], null]]) {
    await expect(fanOutQuery(fetch, { ...options, state: { after, last: 0 } as FanOutState, pattern: 'byStatus' })).rejects.toThrow(
      '[INVALID_CURSOR] pattern byStatus: fan-out query: the state is not one a fan-out query returned; start again without a state');
  }
});

test('without sort attributes a position is the table key, and paging returns every item once', async () => {
  // Each shard's items in an order of the engine's own (not the table key's).
  const shards = [['d', 'a', 'c'], ['b', 'e']].map((ids) => ids.map((id) => ({ PK: { S: id }, SK: { S: 'M' } })));
  const fetch: ShardPageFetcher = async (shard, start, limit) => {
    const from = start ? shards[shard].findIndex((i) => i.PK.S === start.PK.S) + 1 : 0;
    const items = shards[shard].slice(from, from + limit);
    return { Items: items, LastEvaluatedKey: from + limit < shards[shard].length ? items[items.length - 1] : undefined };
  };
  const seen: string[] = [];
  let state: FanOutState | undefined;
  do {
    const page = await fanOutQuery(fetch, { shards: [0, 1], limit: 2, descending: false, sortKey: 'PK', sortAttributes: [], sorted: false, tieBreakKeys: ['PK', 'SK'], state });
    seen.push(...page.items.map((i) => i.PK.S!));
    for (const position of page.state?.after ?? []) if (position) expect(position).toHaveLength(2);
    state = page.state;
  } while (state);
  expect(seen.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
});

test('pinned reads on a multi-attribute index: a partition attribute, or a sort attribute an EQUALS pattern is given', () => {
  const byStatus = compileManifest(shardedTournamentManifest({ shardCount: 4, previousShardCounts: [3], strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status' })).model;
  const pinned = [...new Set([shardForValue('OPEN', 4), shardForValue('OPEN', 3)])].sort();
  expect(shardsToQuery(byStatus, planQuery(byStatus, 'byStatus', { status: 'OPEN' }), { status: 'OPEN' })).toEqual(pinned);
  const byBracket = compileManifest(shardedTournamentManifest({ shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'bracket' })).model;
  const read = (pattern: string, input: Record<string, unknown>) => shardsToQuery(byBracket, planQuery(byBracket, pattern, input), input);
  expect(read('byRound', { status: 'OPEN', round: 1, bracket: 'UPPER' })).toEqual([shardForValue('UPPER', 4)]);
  expect(read('byRound', { status: 'OPEN', round: 1 })).toEqual([0, 1, 2, 3]);
  // A prefix, or a range, leaves the value open.
  expect(read('byBracketPrefix', { status: 'OPEN', round: 1, bracket: 'UPPER' })).toEqual([0, 1, 2, 3]);
  expect(read('fromRound', { status: 'OPEN', round: 1, bracket: 'UPPER' })).toEqual([0, 1, 2, 3]);
});
