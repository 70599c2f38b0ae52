// The stored formats against test/fixtures/format-vectors.json: values written once by the library
// and committed. Keys, shard suffixes, guard items and cursors outlive every release (a table keeps
// them, a client holds a cursor across a deployment), so every later version must write and read
// exactly these. The expected values come from the file only; python/tests/test_format_vectors.py
// reads the same file. A failure names the vector: the format it pins changed (docs/keys.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeNumber, decodeString, encodeValue, escapeCharFor } from '../../lib/keys/encoding';
import { shardForItem, shardForValue } from '../../lib/keys/shard';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelJson } from '../../lib/model/document';
import { AttributeKind, SingleTableManifest } from '../../lib/model/manifest';
import type { TableModel } from '../../lib/model/model';
import { buildPut } from '../../lib/runtime/items/requests';
import { decodeCursor, encodeCursor } from '../../lib/runtime/query/cursor';
import { shardsToQuery } from '../../lib/runtime/query/fanout-shards';
import { buildQueryInput, planQuery, queryBinding } from '../../lib/runtime/query/plan';
import { buildTransactWrite, UntypedAction } from '../../lib/runtime/transact/plan';
import vectors from '../fixtures/format-vectors.json';

const MODEL_FILE = join(__dirname, '..', 'fixtures', 'format-vectors.model.json');
const TABLE = 'T';
let model: TableModel;
beforeAll(() => {
  model = resolveModel(vectors.manifest as SingleTableManifest);
});

/** `[name, vector]` rows for test.each: the name says which vector failed. */
const named = <T>(list: readonly T[], name: (v: T) => string): [string, T][] => list.map((v) => [name(v), v]);
const text = JSON.stringify;

test('the manifest fingerprint', () => {
  expect(model.fingerprint).toBe(vectors.fingerprint);
});

test('the model file the Python vectors read is the one this manifest compiles to', () => {
  // The file is input of python/tests/test_format_vectors.py, not a vector: after a change of the
  // model file's layout, write it again with
  // npx ts-node -P test/tsconfig.json -e "require('fs').writeFileSync('test/fixtures/format-vectors.model.json', require('./lib/model/document').modelJson(require('./lib/manifest/resolve').resolveModel(require('./test/fixtures/format-vectors.json').manifest)))"
  expect(readFileSync(MODEL_FILE, 'utf8')).toBe(modelJson(model));
});

describe('key segments', () => {
  test.each(named(vectors.segments, (v) => `${v.kind} ${text(v.value)}${v.delimiter ? ` (delimiter ${v.delimiter})` : ''} is ${text(v.segment)}`))('%s', (_, v) => {
    const escapeChar = escapeCharFor(v.delimiter ?? '#');
    expect(encodeValue(v.kind as AttributeKind, v.value, escapeChar)).toBe(v.segment);
    if (v.kind === 'STRING') expect(decodeString(v.segment, escapeChar)).toBe(v.value);
    if (v.kind === 'NUMBER') expect(decodeNumber(v.segment)).toBe(v.value);
  });
});

describe('shard choice', () => {
  test.each(named(vectors.shards, (v) => `${v.strategy} ${text(v.strategy === 'RANDOM' ? [v.pk, v.sk] : v.segment)} of ${v.count} shards is shard ${v.shard}`))('%s', (_, v) => {
    const shard = v.strategy === 'RANDOM' ? shardForItem(v.pk!, v.sk!, v.count) : shardForValue(v.segment!, v.count);
    expect(shard).toBe(v.shard);
  });
});

describe('stored items', () => {
  test.each(named(vectors.items, (v) => `${v.entity} ${text(v.item)}`))('%s', (_, v) => {
    expect(buildPut(model, TABLE, v.entity, v.item).Item).toEqual(v.stored);
  });
});

describe('key conditions and the shards a query reads', () => {
  test.each(named(vectors.queries, (v) => `${v.pattern} ${text(v.input)}`))('%s', (_, v) => {
    const plan = planQuery(model, v.pattern, v.input, v.options as never);
    const input = buildQueryInput(model, TABLE, plan, plan.condition.pk!);
    const { IndexName, KeyConditionExpression, ExpressionAttributeValues, ScanIndexForward } = input;
    expect(JSON.parse(text({ IndexName, KeyConditionExpression, ExpressionAttributeValues, ScanIndexForward }))).toEqual(v.request);
    expect(plan.index.shards ? shardsToQuery(model, plan, v.input) : null).toEqual(v.shards);
  });
});

describe('cursors', () => {
  test.each(named(vectors.cursors, (v) => `${v.pattern} ${text(v.input)} at ${text(v.position)}`))('%s', (_, v) => {
    const binding = queryBinding(model, planQuery(model, v.pattern, v.input, v.options as never));
    expect(decodeCursor(v.pattern, binding, v.cursor)).toEqual(v.position);
    expect(encodeCursor(v.pattern, binding, v.position)).toBe(v.cursor);
  });
});

describe('unique-value guard items', () => {
  test.each(named(vectors.guards, (v) => `${v.entity} ${text(v.item)}`))('%s', (_, v) => {
    const action = { type: 'put', entity: v.entity, item: v.item, mode: 'create' } as UntypedAction;
    const plan = buildTransactWrite(model, TABLE, [action], [undefined], [false], { now: '2024-01-01T00:00:00.000Z' });
    expect(plan.items.filter((_item, i) => plan.sent[i].guard).map((t) => t.Put!.Item)).toEqual(v.guards);
  });
});
