// The conformance corpus the Python runtime reproduces: vectors the Node.js runtime's own functions
// compute from random input (fast-check), for several models. Key segments of every kind (unicode,
// delimiters and escape characters, doubles over their whole range, dates with offsets, bad values),
// shard choice, whole PutItem requests of random items, Query requests of random pattern inputs, and
// cursors over random positions, and the guard writes of random transactions of unique values; in a
// section of their own, stored numbers as the Node.js runtime reads them and model files as it loads
// them; for GSIs keyed on the items' own attributes, Query requests and cursors, and on such GSIs
// write-sharded, stored items, updates, the shards a query reads and whole fan-out pages over
// in-memory shards. A vector holds the input and what Node made of it: the output, or the error code. Numbers of the input travel as JavaScript writes them, so both sides read the same double.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { manifest as exampleManifest } from '../../examples/manifest';
import exampleDocument from '../../examples/manifest.model.json';
import { encodeSegment, escapeCharFor } from '../../lib/keys/encoding';
import { fnv1a, shardForItem, shardForValue } from '../../lib/keys/shard';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { defineManifest } from '../../lib/model/infer';
import { AttributeKind, ShardStrategy, SingleTableManifest, SortKeyCondition } from '../../lib/model/manifest';
import type { AttributeModel, TableModel } from '../../lib/model/model';
import { numberValue } from '../../lib/runtime/attributes/marshall';
import { buildPut } from '../../lib/runtime/items/requests';
import { buildUpdate } from '../../lib/runtime/items/update';
import { encodeCursor } from '../../lib/runtime/query/cursor';
import { fanOutQuery, FanOutState } from '../../lib/runtime/query/fanout';
import { itemOrder, tupleSortString } from '../../lib/runtime/query/fanout-order';
import { shardsToQuery } from '../../lib/runtime/query/fanout-shards';
import { buildQueryInput, planQuery, queryBinding } from '../../lib/runtime/query/plan';
import { SingleTableError } from '../../lib/runtime/table/errors';
import { deployedModel, loadModel } from '../../lib/runtime/table/load-model';
import { buildTransactWrite, uniqueTouched, UntypedAction } from '../../lib/runtime/transact/plan';
import { manifest as sliceManifest } from '../fixtures/access-slice-manifest';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { manifest as comparisonsManifest } from '../fixtures/comparisons-manifest';
import { shardedTournamentManifest, tournamentManifest } from '../fixtures/tournament';

/**
 * Accounts with a version, timestamps and a unique email; their devices in the same partition; members
 * whose handle is unique within their tenant.
 */
export const maintainedManifest = defineManifest({
  entities: {
    Account: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        email: { type: AttributeKind.STRING },
        name: { type: AttributeKind.STRING },
      },
      pk: 'ACCOUNT#{id}',
      sk: 'ACCOUNT',
      version: {},
      timestamps: {},
      unique: ['email'],
    },
    Device: {
      attributes: { id: { type: AttributeKind.STRING, required: true }, token: { type: AttributeKind.STRING, required: true } },
      pk: 'ACCOUNT#{id}',
      sk: 'DEVICE#{token}',
    },
    Member: {
      attributes: {
        tenant: { type: AttributeKind.STRING, required: true },
        id: { type: AttributeKind.STRING, required: true },
        handle: { type: AttributeKind.STRING },
      },
      pk: 'TENANT#{tenant}',
      sk: 'MEMBER#{id}',
      unique: ['handle'],
      uniqueScope: { handle: 'tenant' },
    },
  },
  localIndexes: { enabled: false },
  accessPatterns: { devices: { entities: ['Device'], sortKeyCondition: SortKeyCondition.BEGINS_WITH } },
});

/** The table name every request of the corpus is built for. */
export const CORPUS_TABLE = 'T';

/** The models of the corpus: the example app's file as a Lambda gets it, its manifest under other delimiters, and fixtures with ATTRIBUTE sharding, KEYS_ONLY and every comparison. */
export function corpusModels(): Record<string, TableModel> {
  const compiled = (m: SingleTableManifest) => resolveModel(m);
  // The example's templates written with another delimiter (no name or literal of it holds one).
  const delimited = (d: string) => compiled({ ...JSON.parse(JSON.stringify(exampleManifest).replace(/#/g, d)), delimiter: d });
  return {
    example: loadModel(exampleDocument),
    exampleBang: delimited('!'),
    examplePlus: delimited('+'),
    slice: compiled(sliceManifest),
    comparisons: compiled(comparisonsManifest),
  };
}

// Text that meets every rule of the encoding: delimiters and escape characters of each allowed
// delimiter, control characters, a space, non-ASCII, astral characters (surrogate pairs in UTF-16), lone surrogates.
const tricky = fc.constantFrom('#', '$', '!', '"', '+', ',', '%', '&', '\u0000', '\u001f', ' ', 'A', 'a', 'é', '\u2028', '\uffff', '😀', '\ud800', '\udfff', '~');
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.oneof(tricky, fc.constantFrom('a', 'b', '1')), maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('é', '😀'), minLength: 300, maxLength: 700 }) },
);
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.integer({ min: -9999, max: 9999 }).map((n) => n / 100),
  fc.constantFrom(0, -0, 1e-130, 9.99e125, 1e126, 5e-324, Number.MAX_VALUE, 2 ** 53, 2 ** 60, 1e21, 1e-7, 0.1, -99.99, 100),
);
const isoDate = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((d) => d.toISOString());
const date = fc.oneof(
  isoDate,
  // the forms a date may be given in: date only, minutes, no milliseconds, more digits, an offset, a space
  fc.tuple(isoDate, fc.constantFrom('date', 'minutes', 'seconds', 'micro', 'offset', 'space', 'compact')).map(([d, form]) => {
    switch (form) {
      case 'date': return d.slice(0, 10);
      case 'minutes': return d.slice(0, 16);
      case 'seconds': return d.slice(0, 19) + 'Z';
      case 'micro': return d.slice(0, 23) + '987Z';
      case 'offset': return d.slice(0, 23) + '+05:30';
      case 'space': return d.slice(0, 19).replace('T', ' ') + '-0130';
      default: return d.slice(0, 19) + '-23:59';
    }
  }),
  fc.constantFrom('2024-02-29', '2023-02-29', '2024-13-01', '2024-04-31', '2024-01-01T24:00', '2024-01-01T23:60', '0000-01-01T00:30+01:00',
    '9999-12-31T23:59:59.999-00:01', '2024-01-01T00:00+24:00', '２０２４-01-01', '2024-01-01T00:00:00Z\n', 'yesterday'),
);

/**
 * The models of the corpus's multi-attribute section: AWS's tournament design, invoices on two such
 * GSIs beside a composed one, and matches by status on such a GSI write-sharded: by random shard, by
 * bracket (a sort attribute, after another count), by round (a NUMBER) and by status (the partition attribute).
 */
export function attributeKeyModels(): Record<string, TableModel> {
  const sharded = (sharding: Parameters<typeof shardedTournamentManifest>[0]) => resolveModel(shardedTournamentManifest(sharding));
  return {
    tournament: resolveModel(tournamentManifest()),
    invoices: resolveModel(attributeKeyedManifest()),
    shardedRandom: sharded({ shardCount: 4 }),
    shardedByBracket: sharded({ shardCount: 5, previousShardCounts: [2], strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'bracket' }),
    shardedByRound: sharded({ shardCount: 3, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'round' }),
    shardedByStatus: sharded({ shardCount: 3, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'status' }),
  };
}

/** A number's text as DynamoDB returns it (within its range), now and then in a form only another client writes. */
const numberText = fc.oneof(
  fc.constantFrom('-1', '-0.5', '0', '0.25', '1', '2', '9', '10', '10.5', '100', '1E+3', '1e3', '-1E-130', '9.99E+125', '12345678901234567890123456789012345678'),
  fc.double({ min: -1e20, max: 1e20, noNaN: true }).filter((n) => n === 0 || Math.abs(n) >= 1e-130).map(String),
);

/**
 * Where a fan-out page over a sharded multi-attribute GSI ends: per shard, the sort attributes' values
 * (a number as its text) and the table key of the last item it gave, or null.
 */
function attributeFanOutStateOf(model: TableModel, pattern: string, shards: number[]): fc.Arbitrary<FanOutState> {
  const index = model.indexes[model.patterns[pattern].index];
  const keyText = fc.string({ unit: fc.oneof(tricky, fc.constantFrom('a', 'Z', '5')), maxLength: 12 });
  const key = fc.tuple(...(index.sortAttributes ?? []).map((a) => (a.kind === 'NUMBER' ? numberText : keyText)), keyText, keyText);
  return fc.record({ after: fc.tuple(...shards.map(() => fc.option(key, { nil: null }))), last: fc.nat({ max: shards.length - 1 }) })
    .chain((s) => key.map((k) => ({ after: s.after.map((p, i) => (i === s.last ? k : p)), last: s.last })));
}

/** A random update of an item on a sharded multi-attribute GSI: its table key, some attributes set (now and then emptied), some removed. */
function attributeUpdateOf(model: TableModel, entity: string): fc.Arbitrary<{ input: Record<string, unknown>; remove: string[] }> {
  const e = model.entities[entity];
  const keyNames = new Set([...e.keys.table.pk.attributes, ...e.keys.table.sk!.attributes]);
  const others = Object.values(e.attributes).filter((a) => !keyNames.has(a.name));
  return fc.tuple(itemOf(model, entity), fc.subarray(others.map((a) => a.name)), fc.subarray(others.filter((a) => !a.required).map((a) => a.name)))
    .map(([item, set, remove]) => ({
      input: Object.fromEntries(Object.entries(item).filter(([n]) => keyNames.has(n) || set.includes(n))),
      remove: remove.filter((n) => !set.includes(n)),
    }));
}

/**
 * A random input of a pattern on a multi-attribute GSI: its partition attributes (now and then one
 * left out), a run of its sort attributes (now and then with a gap), a date's leading part or a
 * string's prefix for BEGINS_WITH, bounds for BETWEEN, and now and then a name it does not use.
 */
function attributeInputOf(model: TableModel, pattern: string): fc.Arbitrary<Record<string, unknown>> {
  const p = model.patterns[pattern];
  const index = model.indexes[p.index];
  const attribute = (name: string) => Object.values(model.entities).map((e) => e.attributes[name]).find(Boolean)!;
  const value = (name: string): fc.Arbitrary<unknown> => {
    const attr = attribute(name);
    const prefix = attr.type === 'DATE' ? isoDate.chain((d) => fc.integer({ min: 1, max: 24 }).map((n) => d.slice(0, n))) : fc.constantFrom('U', 'UPP', 'é');
    return fc.oneof({ weight: 6, arbitrary: valueOf(attr) }, { weight: 1, arbitrary: fc.constantFrom(1, 2, 10, 'UPPER', 'UPPER-PLAYIN', '') },
      { weight: p.sortKeyCondition === 'BEGINS_WITH' ? 3 : 0, arbitrary: prefix });
  };
  const partition = (index.partitionAttributes ?? []).map((a) => a.name);
  const sort = (index.sortAttributes ?? []).map((a) => a.name);
  // The first `count` attributes, or (now and then) all but the first: a gap DynamoDB refuses.
  const run = (names: string[]) => fc.tuple(fc.nat({ max: names.length }), ...names.map(value))
    .map(([count, ...vs]) => Object.fromEntries(names.slice(0, count).map((n, i) => [n, vs[i]])));
  const withGap = (names: string[]) => fc.oneof({ weight: 8, arbitrary: run(names) },
    { weight: 1, arbitrary: fc.tuple(...names.map(value)).map((vs) => Object.fromEntries(names.map((n, i) => [n, vs[i]]).slice(1))) });
  const keys = fc.tuple(...partition.map((n) => fc.option(value(n), { freq: 20, nil: undefined })))
    .map((vs) => Object.fromEntries(partition.map((n, i) => [n, vs[i]]).filter(([, v]) => v !== undefined)));
  const condition = p.sortKeyCondition === 'BETWEEN'
    ? fc.oneof(
      fc.tuple(withGap(sort), withGap(sort)).map(([lo, hi]) => ({ between: [lo, hi] })),
      // Bounds equal but for the last attribute given: the common, valid shape.
      fc.tuple(run(sort), fc.tuple(...sort.map(value))).map(([lo, more]) => {
        const names = Object.keys(lo);
        const hi = names.length ? { ...lo, [names[names.length - 1]]: more[names.length - 1] } : {};
        return { between: [lo, hi] };
      }))
    : p.sortKeyCondition === 'NONE' ? fc.constant({}) : withGap(sort);
  const extra = fc.oneof({ weight: 30, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constant({ nope: 1 }) });
  return fc.tuple(keys, condition, extra).map(([pk, rest, unused]) => ({ ...pk, ...rest, ...unused }));
}

/**
 * The multi-attribute section of the corpus: Query requests (and on a sharded GSI the shards each
 * reads) and cursors of random pattern inputs on its models; on its sharded models, the stored items
 * of random puts and the requests of random updates.
 */
function attributeKeyVectors(
  sample: <T>(arb: fc.Arbitrary<T>, n: number) => T[],
): { queries: object[]; cursors: object[]; puts: object[]; updates: object[] } {
  const models = attributeKeyModels();
  const queries: object[] = [];
  const cursors: object[] = [];
  const puts: object[] = [];
  const updates: object[] = [];
  for (const [name, model] of Object.entries(models)) {
    for (const pattern of Object.keys(model.patterns)) {
      if (model.patterns[pattern].pk) continue;
      for (const [input, opts] of sample(fc.tuple(attributeInputOf(model, pattern), options), 150)) {
        const positionsOf = (shardList?: number[]) =>
          sample<unknown>(shardList ? attributeFanOutStateOf(model, pattern, shardList) : positionOf(model, pattern, undefined), 1);
        queries.push(queryVector({ model, name, pattern, input, options: opts }, positionsOf, cursors));
      }
    }
    if (!Object.values(model.indexes).some((i) => i.shards?.keyAttribute)) continue;
    for (const entity of Object.keys(model.entities)) {
      for (const item of sample(itemOf(model, entity), 300)) {
        puts.push(putVector(model, name, entity, item));
      }
      for (const { input, remove } of sample(attributeUpdateOf(model, entity), 300)) {
        let update: unknown = null;
        let error: string | null = null;
        try {
          update = buildUpdate(model, CORPUS_TABLE, entity, input, remove);
        } catch (e) {
          error = codeOf(e);
        }
        updates.push({ model: name, entity, input, remove, update, error });
      }
    }
  }
  return { queries, cursors, puts, updates };
}

/**
 * Whole fan-out pages over in-memory shards of a sharded multi-attribute GSI (sorted by round, a
 * NUMBER, then bracket): random items spread over the shards, each shard's items in the Node.js
 * runtime's index order, read page after page (random limit and order) from the state each page
 * returns. A vector holds the shards, and per page the state it starts from, its items' table keys
 * and the state it returns: the other runtime, from the same state, must read the same page and
 * return the same state.
 */
async function fanOutVectors(sample: <T>(arb: fc.Arbitrary<T>, n: number) => T[]): Promise<object[]> {
  const sortAttributes = [{ name: 'round', numeric: true }, { name: 'bracket', numeric: false }];
  const tieBreakKeys = ['PK', 'SK'];
  const ascending = itemOrder((i) => tupleSortString(i, sortAttributes), tieBreakKeys, false);
  // Text DynamoDB stores (no lone surrogate, which UTF-8 cannot hold): the characters whose UTF-16 and UTF-8 orders differ among them.
  const bracket = fc.string({ unit: fc.constantFrom('#', '$', '\u0000', '\u001f', ' ', 'A', 'a', 'é', '\uffff', '\ue000', '😀', '~', 'U', 'L'), maxLength: 3 });
  const match = fc.tuple(fc.oneof(numberText, fc.constantFrom('1', '2', '10')), fc.oneof(bracket, fc.constantFrom('UPPER', 'LOWER')), fc.nat({ max: 99 }));
  const cases = fc.record({
    matches: fc.uniqueArray(match, { selector: ([, , id]) => id, minLength: 5, maxLength: 40 }),
    shardCount: fc.integer({ min: 1, max: 5 }),
    limit: fc.integer({ min: 1, max: 6 }),
    descending: fc.boolean(),
  });
  const vectors: object[] = [];
  for (const { matches, shardCount, limit, descending } of sample(cases, 120)) {
    const shards: Record<string, AttributeValue>[][] = Array.from({ length: shardCount }, () => []);
    for (const [round, name, id] of matches) {
      shards[id % shardCount].push({ round: { N: round }, bracket: { S: name }, PK: { S: `MATCH#${id}` }, SK: { S: 'MATCH' } });
    }
    for (const items of shards) items.sort(ascending);
    const fetch = async (shard: number, start: Record<string, AttributeValue> | undefined, n: number) => {
      const items = descending ? [...shards[shard]].reverse() : shards[shard];
      const at = start ? items.findIndex((i) => i.PK.S === start.PK.S) + 1 : 0;
      const page = items.slice(at, at + n);
      return { Items: page, LastEvaluatedKey: at + n < items.length ? { ...page[page.length - 1], ByStatusShard: { N: String(shard) } } : undefined };
    };
    const pages: object[] = [];
    let state: FanOutState | undefined;
    do {
      const out = await fanOutQuery(fetch, {
        shards: shards.map((_, i) => i),
        limit,
        descending,
        sortKey: 'PK',
        sortAttributes,
        tieBreakKeys,
        state,
        partitionKeyOf: (shard) => ({ status: { S: 'OPEN' }, ByStatusShard: { N: String(shard) } }),
      });
      pages.push({ state: state ?? null, items: out.items.map((i) => i.PK.S), next: out.state ?? null });
      state = out.state;
    } while (state && pages.length <= matches.length + 1);
    vectors.push({ shards, limit, descending, pages });
  }
  return vectors;
}

/** A value of an attribute's kind (or, now and then, of another kind: a bad value). */
function valueOf(attribute: AttributeModel): fc.Arbitrary<unknown> {
  const right = (): fc.Arbitrary<unknown> => {
    switch (attribute.type) {
      case 'STRING': return text;
      case 'NUMBER': return number;
      case 'DATE': return date;
      case 'BOOLEAN': return fc.boolean();
      case 'LIST': return fc.array(fc.oneof(text, fc.integer(), fc.boolean()), { maxLength: 3 });
      case 'MAP': return fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), text, { maxKeys: 2 });
      default: return fc.constant(undefined);
    }
  };
  return fc.oneof({ weight: 30, arbitrary: right() }, { weight: 1, arbitrary: fc.oneof(text, number, fc.boolean()) });
}

/** A random item of an entity: every attribute most of the time, an optional one left out now and then. */
function itemOf(model: TableModel, entity: string): fc.Arbitrary<Record<string, unknown>> {
  const attributes = Object.values(model.entities[entity].attributes).filter((a) => a.type !== 'STRING_SET' && a.type !== 'NUMBER_SET');
  return fc.tuple(...attributes.map((a) => fc.option(valueOf(a), { freq: a.required ? 60 : 4, nil: undefined })))
    .map((values) => Object.fromEntries(attributes.map((a, i) => [a.name, values[i]]).filter(([, v]) => v !== undefined)));
}

/** A random input of a pattern: its key attributes, a between of leading sort-key attributes, now and then an unknown name. */
function inputOf(model: TableModel, pattern: string): fc.Arbitrary<Record<string, unknown>> {
  const p = model.patterns[pattern];
  const entity = model.entities[p.entities[0]];
  const kindOf = (name: string) => Object.values(model.entities).map((e) => e.attributes[name]).find(Boolean) ?? entity.attributes[name];
  const values = (names: string[]) => fc.tuple(...names.map((n) => fc.option(valueOf(kindOf(n)), { freq: 8, nil: undefined })))
    .map((vs) => Object.fromEntries(names.map((n, i) => [n, vs[i]]).filter(([, v]) => v !== undefined)));
  const sk = p.sk?.attributes ?? [];
  const condition = p.sortKeyCondition === 'BETWEEN'
    ? fc.tuple(values(sk), values(sk)).map(([lo, hi]) => ({ between: [lo, hi] }))
    : p.sortKeyCondition === 'NONE' ? fc.constant({}) : values(sk);
  // Now and then a name the pattern does not use.
  const extra = fc.oneof({ weight: 30, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constant({ nope: 1 }) });
  return fc.tuple(values(p.pk!.attributes), condition, extra).map(([pk, rest, unused]) => ({ ...pk, ...rest, ...unused }));
}

const options = fc.record({
  // now and then a limit the runtime refuses
  limit: fc.option(fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 1, max: 200 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 1.5) }),
    { nil: undefined }),
  order: fc.option(fc.constantFrom('asc', 'desc'), { nil: undefined }),
}, { requiredKeys: [] });

/** Where a page ends: a LastEvaluatedKey of the index, or a fan-out state over the query's shards. */
function positionOf(model: TableModel, pattern: string, shards: number[] | undefined): fc.Arbitrary<unknown> {
  const index = model.indexes[model.patterns[pattern].index];
  const table = model.indexes.table;
  const keyText = fc.string({ unit: fc.oneof(tricky, fc.constantFrom('a', 'Z', '5')), maxLength: 12 });
  if (shards) {
    const key = fc.tuple(keyText, keyText, keyText);
    return fc.record({ after: fc.tuple(...shards.map(() => fc.option(key, { nil: null }))), last: fc.nat({ max: shards.length - 1 }) })
      .chain((s) => key.map((k) => ({ after: s.after.map((p, i) => (i === s.last ? k : p)), last: s.last })));
  }
  const names = [...new Set([index.partitionKey, index.sortKey, table.partitionKey, table.sortKey].filter((n): n is string => !!n))];
  return fc.tuple(...names.map(() => keyText)).map((vs) => Object.fromEntries(names.map((n, i) => [n, { S: vs[i] }])));
}

/**
 * A random transaction of unique values over the maintained manifest's Account (unique email) and
 * Member (handle unique per tenant): puts, updates and deletes of a few items and values, so values
 * move, swap and clash between actions, with what each action that moves a unique value read of its item.
 */
function transactionOf(): fc.Arbitrary<{ actions: UntypedAction[]; stored: (Record<string, unknown> | undefined)[] }> {
  const value = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('a', 'b', 'é#', '😀') }, { weight: 1, arbitrary: text });
  const account = fc.record({ id: fc.constantFrom('a1', 'a2', 'a#3'), email: fc.option(value, { nil: undefined }) }, { requiredKeys: ['id'] });
  const member = fc.record({ tenant: fc.constantFrom('t1', 't$2'), id: fc.constantFrom('m1', 'm2'), handle: fc.option(value, { nil: undefined }) },
    { requiredKeys: ['tenant', 'id'] });
  const action = fc.oneof(
    fc.tuple(account, fc.constantFrom(undefined, 'create')).map(([item, mode]) => ({ type: 'put', entity: 'Account', item, mode })),
    fc.tuple(account, fc.boolean())
      .map(([changes, remove]) => ({ type: 'update', entity: 'Account', changes: { ...changes, version: 1 }, remove: remove ? ['email'] : undefined })),
    account.map(({ id }) => ({ type: 'delete', entity: 'Account', key: { id } })),
    fc.tuple(member, fc.constantFrom(undefined, 'create')).map(([item, mode]) => ({ type: 'put', entity: 'Member', item, mode })),
    fc.tuple(member, fc.boolean()).map(([changes, remove]) => ({ type: 'update', entity: 'Member', changes, remove: remove ? ['handle'] : undefined })),
    member.map(({ tenant, id }) => ({ type: 'delete', entity: 'Member', key: { tenant, id } })),
  ).map((a) => JSON.parse(JSON.stringify(a)) as UntypedAction);
  // What the read of an item found: nothing, the item without a value, or the item with one.
  const read = fc.oneof(fc.constant(undefined), fc.constant({}), value.map((v) => ({ v })));
  return fc.array(fc.tuple(action, read), { minLength: 1, maxLength: 4 }).map((list) => ({
    actions: list.map(([a]) => a),
    stored: list.map(([a, r]) => (r === undefined ? undefined
      : { PK: { S: 'stored' }, ...('v' in r ? { [a.entity === 'Account' ? 'email' : 'handle']: { S: r.v } } : {}) })),
  }));
}

/**
 * Stored numbers as DynamoDB returns them (digits, no type): what the Node.js runtime writes for doubles,
 * in its notation and as DynamoDB spells whole numbers out; integers of up to 38 digits (bigints);
 * fractions of up to 38 digits, which another client may have written.
 */
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const storedNumber = fc.oneof(
  number.filter((n) => n === 0 || (Math.abs(n) >= 1e-130 && Math.abs(n) < 1e126)).chain((n) => fc.constantFrom(String(n),
    Number.isInteger(n) ? BigInt(n).toString() : String(n))),
  fc.constantFrom('100000000000000000000000', '1152921504606847000', '1152921504606846976', `1${'0'.repeat(125)}`, '9007199254740991',
    '9007199254740992', '9007199254740993', '1.2345678901234567890123', '99999999999999999999.99', '-0.1'),
  fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), digits(0, 37)).map(([minus, first, rest]) => `${minus ? '-' : ''}${first}${rest}`),
  fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), digits(0, 18), digits(1, 19)).map(([minus, first, a, b]) => `${minus ? '-' : ''}${first}${a}.${b}`.replace(/0+$/, '')).filter((t) => !t.endsWith('.')),
);

/**
 * Model files as a function finds them at SINGLE_TABLE_MODEL: what `deployedModel` makes of each (the
 * error code, or none), with the variable unset and naming a file that is not there too.
 */
function modelErrorVectors(document: object): { text: string | null; unset: boolean; error: string | null }[] {
  const texts: (string | null)[] = [
    JSON.stringify(document), JSON.stringify({ ...document, formatVersion: 2 }), JSON.stringify({ ...document, format: 'other' }),
    JSON.stringify({ ...document, model: { ...(document as { model: object }).model, fingerprint: undefined } }), '[]', 'null', '42', '"model"',
    '{"format": ', '', 'not json', null,
  ];
  const dir = mkdtempSync(join(tmpdir(), 'single-table-corpus-'));
  const saved = process.env.SINGLE_TABLE_MODEL;
  try {
    return [...texts, undefined].map((content, i) => {
      const file = join(dir, `model-${i}.json`);
      if (typeof content === 'string') writeFileSync(file, content);
      if (content === undefined) delete process.env.SINGLE_TABLE_MODEL; else process.env.SINGLE_TABLE_MODEL = file;
      let error: string | null = null;
      try {
        deployedModel();
      } catch (e) {
        error = codeOf(e);
      }
      return { text: content === undefined ? null : content, unset: content === undefined, error };
    });
  } finally {
    if (saved === undefined) delete process.env.SINGLE_TABLE_MODEL; else process.env.SINGLE_TABLE_MODEL = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}

const codeOf = (e: unknown) => {
  if (e instanceof SingleTableError) return e.code;
  throw e;
};

/**
 * The query vector of one pattern input: the Query input and the shards it reads as the Node.js
 * runtime plans them, or its error code; pushes onto `cursors` the cursors of the positions that
 * `positionsOf` draws for the shards it reads.
 */
function queryVector(
  query: { model: TableModel; name: string; pattern: string; input: Record<string, unknown>; options: object },
  positionsOf: (shards?: number[]) => unknown[],
  cursors: object[],
): object {
  const { model, name, pattern, input, options: opts } = query;
  let request: unknown = null;
  let shardList: number[] | undefined;
  let error: string | null = null;
  try {
    const plan = planQuery(model, pattern, input, opts as never);
    request = buildQueryInput(model, CORPUS_TABLE, plan, plan.condition.pk);
    shardList = plan.index.shards ? shardsToQuery(model, plan, input) : undefined;
    const binding = queryBinding(model, plan);
    for (const position of positionsOf(shardList)) {
      cursors.push({ model: name, pattern, input, options: opts, position, cursor: encodeCursor(pattern, binding, position) });
    }
  } catch (e) {
    error = codeOf(e);
  }
  return { model: name, pattern, input, options: opts, request, shards: shardList ?? null, error };
}

/** A put vector: the item and the PutItem Item the Node.js runtime builds of it, or its error code. */
function putVector(model: TableModel, name: string, entity: string, item: Record<string, unknown>): object {
  try {
    return { model: name, entity, item, put: buildPut(model, CORPUS_TABLE, entity, item).Item, error: null };
  } catch (e) {
    return { model: name, entity, item, put: null, error: codeOf(e) };
  }
}

/** Numbers as JavaScript writes them (the reader makes each a double): a replacer for JSON.stringify. */
const numbersAsText = (_key: string, value: unknown) => (typeof value === 'number' ? { $number: String(value) } : value);

/** Writes the corpus to `file` and returns the count of each kind of vector; `items` random items per run (spread over models and entities). */
export async function writeCorpus(file: string, { items = 10_000, seed = Date.now() % 2 ** 31 } = {}): Promise<Record<string, number>> {
  const models = corpusModels();
  const names = Object.keys(models);
  let run = 0;
  const sample = <T>(arb: fc.Arbitrary<T>, n: number) => fc.sample(arb, { numRuns: n, seed: seed + run++ });

  const arbitraries: [AttributeKind, fc.Arbitrary<unknown>][] = [
    [AttributeKind.STRING, text], [AttributeKind.NUMBER, number], [AttributeKind.DATE, date], [AttributeKind.BOOLEAN, fc.boolean()],
  ];
  const segments = arbitraries.flatMap(([kind, arbitrary]) => {
    const values = sample(arbitrary, 600);
    return values.flatMap((value, i) => {
      const escape = escapeCharFor('!#$%&*+'[i % 7]);
      const r = encodeSegment(kind, value, escape);
      return [{ kind, value, escape, segment: 'segment' in r ? r.segment : null, error: 'error' in r }];
    });
  });
  const shards = sample(fc.tuple(text, text, fc.integer({ min: 1, max: 64 })), 1000).map(([a, b, count]) => ({
    pk: a, sk: b, count, fnv: fnv1a(a), item: shardForItem(a, b, count), value: shardForValue(a, count),
  }));

  const puts: object[] = [];
  for (const name of names) {
    const model = models[name];
    const entities = Object.keys(model.entities);
    for (const entity of entities) {
      for (const item of sample(itemOf(model, entity), Math.ceil(items / names.length / entities.length))) {
        puts.push(putVector(model, name, entity, item));
      }
    }
  }

  const queries: object[] = [];
  const cursors: object[] = [];
  for (const name of names) {
    const model = models[name];
    for (const pattern of Object.keys(model.patterns)) {
      for (const [input, opts] of sample(fc.tuple(inputOf(model, pattern), options), 150)) {
        const positionsOf = (shardList?: number[]) => sample(positionOf(model, pattern, shardList), 2);
        queries.push(queryVector({ model, name, pattern, input, options: opts }, positionsOf, cursors));
      }
    }
  }

  // The guard writes of random transactions (their items' own requests are the single-item operations' in a transaction).
  const guardModel = resolveModel(maintainedManifest);
  const guards = sample(transactionOf(), 1500).map(({ actions, stored }) => {
    const readDone = actions.map((a) => uniqueTouched(guardModel.entities[a.entity], a).length > 0);
    try {
      const plan = buildTransactWrite(guardModel, CORPUS_TABLE, actions, stored as never, readDone, { now: '2024-01-01T00:00:00.000Z' });
      return { actions, stored, writes: plan.items.filter((_, i) => plan.sent[i].guard), error: null };
    } catch (e) {
      return { actions, stored, writes: null, error: codeOf(e) };
    }
  });

  const attributeKeys = { ...attributeKeyVectors(sample), fanOuts: await fanOutVectors(sample) };
  // Numbers and model files: what the Node.js runtime reads from each (its own section, beside the request vectors).
  const numbers = sample(storedNumber, 1500).map((stored) => {
    const value = numberValue(stored);
    return { text: stored, kind: typeof value, value: String(value) };
  });
  const modelErrors = modelErrorVectors(modelDocument(models[names[0]]));

  const documents = Object.fromEntries(names.map((n) => [n, modelDocument(models[n])]));
  const attributeKeyDocuments = Object.fromEntries(Object.entries(attributeKeyModels()).map(([n, m]) => [n, modelDocument(m)]));
  // The models as written (their counts are numbers), the vectors with their numbers as text.
  const sections = { seed, table: CORPUS_TABLE, segments, shards, puts, queries, cursors, guards, attributeKeys, numbers, modelErrors };
  const vectors = JSON.stringify(sections, numbersAsText);
  writeFileSync(file, `{"models":${JSON.stringify(documents)},"guardModel":${JSON.stringify(modelDocument(guardModel))},`
    + `"attributeKeyModels":${JSON.stringify(attributeKeyDocuments)},${vectors.slice(1)}`);
  const counts = {
    segments,
    shards,
    puts,
    queries,
    cursors,
    guards,
    attributeKeyQueries: attributeKeys.queries,
    attributeKeyCursors: attributeKeys.cursors,
    attributeKeyPuts: attributeKeys.puts,
    attributeKeyUpdates: attributeKeys.updates,
    attributeKeyFanOuts: attributeKeys.fanOuts,
    numbers,
    modelErrors,
  };
  return Object.fromEntries(Object.entries(counts).map(([kind, list]) => [kind, list.length]));
}
