// Stream decoding without an engine: for generated items of every attribute kind (keys holding
// delimiters and escape characters), the record DynamoDB would write for a put decodes, in every
// stream view, to the item as written and to its table key; and the records that are not entity
// items, or not stream records, are told apart.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { compileManifest } from '../../lib/manifest/compile';
import { modelDocument } from '../../lib/model/document';
import { FINGERPRINT_ENV } from '../../lib/model/environment';
import { TABLE_INDEX } from '../../lib/model/model';
import { AttributeKind, createClient, decodeStream, defineManifest, openTable, SingleTableError } from '../../lib/runtime';
import { itemToWrite } from '../../lib/runtime/items/requests';
import { decodeStreamRecord } from '../../lib/runtime/streams/decode-stream';
import { compileModelFile } from '../../lib/testing';
import { propertyRuns } from '../support/property-runs';

const manifest = defineManifest({
  entities: {
    Doc: {
      attributes: {
        tenant: { type: AttributeKind.STRING, required: true },
        kind: { type: AttributeKind.STRING, required: true },
        n: { type: AttributeKind.NUMBER, required: true },
        at: { type: AttributeKind.DATE, required: true },
        flag: { type: AttributeKind.BOOLEAN },
        note: { type: AttributeKind.STRING },
        tags: { type: AttributeKind.STRING_SET },
        scores: { type: AttributeKind.NUMBER_SET },
        body: { type: AttributeKind.MAP },
        parts: { type: AttributeKind.LIST },
      },
      pk: 'DOC#{tenant}',
      sk: 'DOC#{kind}#{n}#{at}',
    },
    Tag: {
      attributes: {
        tenant: { type: AttributeKind.STRING, required: true },
        name: { type: AttributeKind.STRING, required: true },
      },
      pk: 'DOC#{tenant}',
      sk: 'TAG#{name}',
    },
  },
});
const model = compileManifest(manifest).model;
// Decoding reads the model only: the table name is never used.
const decoder = openTable<typeof manifest>({ model: modelDocument(model), tableName: 'stream' });

// Strings with the characters keys escape: the delimiter, the escape character, spaces, non-ASCII.
const text = fc.string({ unit: fc.constantFrom('a', 'b', '#', '$', ' ', 'é', '😀'), minLength: 1, maxLength: 6 });
const number = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }))
  .filter((n) => !Object.is(n, -0) && (n === 0 || Math.abs(n) >= 1e-130));
const date = fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true });
const bytes = fc.uint8Array({ minLength: 1, maxLength: 8 });
const nested: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, number, fc.boolean(), fc.constant(null), bytes,
    fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('x', 'y', 'z'), tie('value'), { maxKeys: 3 })),
})).value;

const doc = fc.record({
  tenant: text,
  kind: text,
  n: number,
  at: fc.oneof(date, date.map((d) => d.toISOString())),
  flag: fc.boolean(),
  note: text,
  tags: fc.uniqueArray(text, { minLength: 1, maxLength: 3 }).map((a) => new Set(a)),
  scores: fc.uniqueArray(fc.integer({ min: -99, max: 99 }), { minLength: 1, maxLength: 3 }).map((a) => new Set(a)),
  body: fc.dictionary(fc.constantFrom('a', 'b'), nested, { maxKeys: 2 }),
  parts: fc.array(nested, { maxLength: 3 }),
}, { requiredKeys: ['tenant', 'kind', 'n', 'at'] }).map((item) => ({ entity: 'Doc' as const, item }));
const tag = fc.record({ tenant: text, name: text }).map((item) => ({ entity: 'Tag' as const, item }));

/** The item as the runtime returns it: dates as their ISO-8601 UTC strings. */
const returned = (item: Record<string, unknown>) => (item.at instanceof Date ? { ...item, at: item.at.toISOString() } : item);

/** A stored item as a Lambda event writes it: JSON, bytes as base64. */
const lambdaJson = (item: Record<string, AttributeValue>) => JSON.parse(JSON.stringify(item, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v)));

function recordsOf(entity: 'Doc' | 'Tag', item: Record<string, unknown>) {
  const stored = itemToWrite(model, model.entities[entity], item);
  const table = model.indexes[TABLE_INDEX];
  const Keys = { [table.partitionKey]: stored[table.partitionKey], [table.sortKey!]: stored[table.sortKey!] };
  return {
    insert: { eventName: 'INSERT', dynamodb: { Keys, NewImage: lambdaJson(stored), SequenceNumber: '100' } },
    remove: { eventName: 'REMOVE', dynamodb: { Keys, OldImage: lambdaJson(stored), SequenceNumber: '101' } },
    keysOnly: { eventName: 'REMOVE', dynamodb: { Keys: lambdaJson(Keys), SequenceNumber: '102' } },
  };
}

test('a put\'s record decodes to the item as written and its table key, with images or keys only', () => {
  fc.assert(fc.property(fc.oneof(doc, tag), ({ entity, item }) => {
    const { insert, remove, keysOnly } = recordsOf(entity, item);
    const keys = entity === 'Doc' ? { tenant: item.tenant, kind: (item as { kind: string }).kind, n: (item as { n: number }).n, at: returned(item).at } : item;
    const base = { entity, keys, expired: false };
    expect(decodeStreamRecord(decoder, insert)).toEqual({ ...base, eventName: 'INSERT', newItem: returned(item), oldItem: undefined, sequenceNumber: '100' });
    expect(decodeStreamRecord(decoder, remove)).toEqual({ ...base, eventName: 'REMOVE', newItem: undefined, oldItem: returned(item), sequenceNumber: '101' });
    expect(decodeStreamRecord(decoder, keysOnly)).toEqual({ ...base, eventName: 'REMOVE', newItem: undefined, oldItem: undefined, sequenceNumber: '102' });
  }), { numRuns: propertyRuns(50) });
});

describe('records that are not entity items', () => {
  const item = { tenant: 't', name: 'n' };
  const { insert } = recordsOf('Tag', item);

  test('an image without the type attribute, or with a type the model does not declare, is skipped', () => {
    const type = model.typeAttribute;
    const { [type]: typed, ...untyped } = insert.dynamodb.NewImage;
    const foreign = { ...insert, dynamodb: { ...insert.dynamodb, NewImage: { ...untyped, [type]: { S: 'Invoice' } } } };
    const prototypeName = { ...insert, dynamodb: { ...insert.dynamodb, NewImage: { ...untyped, [type]: { S: 'constructor' } } } };
    expect(typed).toEqual({ S: 'Tag' });
    expect(decodeStreamRecord(decoder, { ...insert, dynamodb: { ...insert.dynamodb, NewImage: untyped } })).toBeUndefined();
    expect(decodeStreamRecord(decoder, foreign)).toBeUndefined();
    expect(decodeStreamRecord(decoder, prototypeName)).toBeUndefined();
    expect(decodeStream(decoder, { Records: [foreign, insert, prototypeName] }).map((c) => c.entity)).toEqual(['Tag']);
  });

  test('keys no entity template fits are skipped', () => {
    const keysOnly = { eventName: 'INSERT', dynamodb: { Keys: { PK: { S: 'UNIQUE#email#a@b' }, SK: { S: 'UNIQUE' } } } };
    expect(decodeStreamRecord(decoder, keysOnly)).toBeUndefined();
  });

  test('an item whose stored key no longer fits its entity\'s templates takes its key values from the image', () => {
    const legacy = { ...insert, dynamodb: { ...insert.dynamodb, Keys: { PK: { S: 'OLD#t' }, SK: { S: 'TAG#n' } } } };
    expect(decodeStreamRecord(decoder, legacy)).toMatchObject({ entity: 'Tag', keys: { tenant: 't', name: 'n' }, newItem: item });
  });
});

test('TTL deletions are marked expired, as Lambda and the Streams API name the service', () => {
  const { remove } = recordsOf('Tag', { tenant: 't', name: 'n' });
  expect(decodeStreamRecord(decoder, { ...remove, userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } })?.expired).toBe(true);
  expect(decodeStreamRecord(decoder, { ...remove, userIdentity: { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' } })?.expired).toBe(true);
  expect(decodeStreamRecord(decoder, { ...remove, userIdentity: { type: 'Service', principalId: 'lambda.amazonaws.com' } })?.expired).toBe(false);
});

test('the event decoder keeps the entities and event names asked for, in order, and refuses unknown entities', () => {
  const a = recordsOf('Tag', { tenant: 't', name: 'a' });
  const d = recordsOf('Doc', { tenant: 't', kind: 'k', n: 1, at: '2024-01-01T00:00:00.000Z' });
  const Records = [a.insert, d.insert, d.remove, a.remove];
  expect(decodeStream(decoder, { Records }).map((c) => `${c.entity} ${c.eventName}`)).toEqual(['Tag INSERT', 'Doc INSERT', 'Doc REMOVE', 'Tag REMOVE']);
  const docs = decodeStream(decoder, { Records }, { entities: ['Doc'] });
  // The entity filter narrows the type: only Doc's attributes are there.
  expect(docs.map((c) => c.newItem?.n ?? c.oldItem?.kind)).toEqual([1, 'k']);
  expect(decodeStream(decoder, { Records }, { entities: ['Tag'], eventNames: ['REMOVE'] }).map((c) => c.keys)).toEqual([{ tenant: 't', name: 'a' }]);
  // @ts-expect-error Invoice is no entity of the manifest
  expect(() => decodeStream(decoder, { Records }, { entities: ['Invoice'] })).toThrow(
    new SingleTableError('UNKNOWN_ENTITY', 'is not declared in the manifest; known entities: Doc, Tag', { entity: 'Invoice' }),
  );
});

test('what is not a DynamoDB stream record is refused, naming the missing field', () => {
  const { insert } = recordsOf('Tag', { tenant: 't', name: 'a' });
  expect(() => decodeStreamRecord(decoder, { ...insert, eventName: 'ObjectCreated:Put' })).toThrow(
    new SingleTableError('INVALID_STREAM_RECORD', 'the record\'s eventName is "ObjectCreated:Put", not INSERT, MODIFY or REMOVE; pass the records of a DynamoDB stream'),
  );
  expect(() => decodeStreamRecord(decoder, { eventName: 'INSERT', dynamodb: {} })).toThrow('[INVALID_STREAM_RECORD] the record has no dynamodb.Keys');
});

test('a decoder opened with a model file of its own checks the deployed manifest\'s fingerprint', () => {
  process.env[FINGERPRINT_ENV] = 'another';
  try {
    expect(() => openTable({ model: modelDocument(model), tableName: 'stream' })).toThrow(expect.objectContaining({ code: 'MANIFEST_MISMATCH' }));
  } finally {
    delete process.env[FINGERPRINT_ENV];
  }
});

test('createClient decodes as the operation does, with the entity filter typed', () => {
  const d = recordsOf('Doc', { tenant: 't', kind: 'k', n: 1, at: '2024-01-01T00:00:00.000Z' });
  const t = recordsOf('Tag', { tenant: 't', name: 'a' });
  const client = createClient({ model: compileModelFile(manifest), tableName: 'unused' });
  const Records = [d.insert, t.insert];
  expect(client.decodeStream({ Records })).toEqual(decodeStream(decoder, { Records }));
  expect(client.decodeStream({ Records }, { entities: ['Tag'] }).map((c) => c.newItem?.name)).toEqual(['a']);
});

test('keys only: a key that fits an entity\'s templates only by decoding an escape no encoding writes is no entity\'s', () => {
  const open = defineManifest({
    entities: {
      Account: {
        attributes: {
          a: { type: AttributeKind.STRING, required: true },
          b: { type: AttributeKind.STRING, required: true },
          id: { type: AttributeKind.STRING, required: true },
        },
        pk: '{a}#{b}',
        sk: '{id}',
      },
    },
  });
  const accounts = openTable<typeof open>({ model: modelDocument(compileManifest(open).model), tableName: 'stream' });
  const keysOnly = (PK: string, SK: string) => ({ eventName: 'INSERT', dynamodb: { Keys: { PK: { S: PK }, SK: { S: SK } } } });
  // A unique-value guard's key: the escape character and a letter, then the entity, attribute and value.
  expect(decodeStreamRecord(accounts, keysOnly('$unique#Account', '$unique'))).toBeUndefined();
  expect(decodeStreamRecord(accounts, keysOnly('x$dy#z', 'i$a1'))).toMatchObject({ entity: 'Account', keys: { a: 'x#y', b: 'z', id: 'i 1' } });
});
