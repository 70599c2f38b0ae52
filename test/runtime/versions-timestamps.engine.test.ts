// Versions, timestamps and update operators on DynamoDB Local. A versioned write states the version
// it read: concurrent writers never lose a write silently (each applies or fails with
// VERSION_CONFLICT, and the version counts the applied writes); timestamps are kept by the runtime.
import fc from 'fast-check';
import { AttributeKind, ConditionFailedError, createClient, defineManifest } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';

const manifest = defineManifest({
  entities: {
    Doc: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        title: { type: AttributeKind.STRING, required: true },
        views: { type: AttributeKind.NUMBER },
        tags: { type: AttributeKind.STRING_SET },
        history: { type: AttributeKind.LIST },
        rank: { type: AttributeKind.NUMBER },
      },
      pk: 'DOC#{id}',
      sk: 'DOC',
      indexes: { GSI1: { pk: 'RANK', sk: '{rank}' }, GSI2: { pk: 'RECENT', sk: '{modifiedAt}' } },
      version: {},
      timestamps: { updatedAt: 'modifiedAt' },
    },
  },
  globalIndexes: { GSI1: {}, GSI2: {} },
  localIndexes: { enabled: false },
});

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;
beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

test('a create writes version 1 and both timestamps; an update states the version it read and gets the next', async () => {
  const before = new Date().toISOString();
  await db.putItem('Doc', { id: 'd1', title: 'a' });
  const created = (await db.getItem('Doc', { id: 'd1' }))!;
  expect(created).toMatchObject({ version: 1, title: 'a' });
  expect(created.createdAt >= before && created.createdAt === created.modifiedAt).toBe(true);
  const updated = await db.updateItem('Doc', { id: 'd1', version: 1, title: 'b' });
  expect(updated).toMatchObject({ version: 2, title: 'b', createdAt: created.createdAt });
  expect(updated.modifiedAt >= created.modifiedAt).toBe(true);
  const stale = await db.updateItem('Doc', { id: 'd1', version: 1, title: 'c' }).catch((e) => e);
  expect(stale).toBeInstanceOf(ConditionFailedError);
  expect(stale).toMatchObject({ code: 'VERSION_CONFLICT', expectedVersion: 1, storedVersion: 2, item: { title: 'b' } });
  expect(stale.message).toContain('(id: "d1"): the write expected version 1; the item is at version 2; read it and retry with version 2');
});

test('a put without a version only creates; a replace states the version; updates without one are refused before sending', async () => {
  await db.putItem('Doc', { id: 'd2', title: 'a' });
  await expect(db.putItem('Doc', { id: 'd2', title: 'again' })).rejects.toMatchObject({ code: 'VERSION_CONFLICT', storedVersion: 1 });
  await db.putItem('Doc', { id: 'd2', title: 'replaced', version: 1 }, { mode: 'replace' });
  expect(await db.getItem('Doc', { id: 'd2' })).toMatchObject({ title: 'replaced', version: 2 });
  await expect(db.updateItem('Doc', { id: 'd2', title: 'x' })).rejects.toThrow('[MISSING_ATTRIBUTE] entity Doc, attribute version: is the version');
  await expect(db.putItem('Doc', { id: 'd2', title: 'x' }, { mode: 'replace' })).rejects.toMatchObject({ code: 'MISSING_ATTRIBUTE' });
  await expect(db.deleteItem('Doc', { id: 'd2' }, { version: 1 })).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
  await expect(db.batchWrite([{ type: 'put', entity: 'Doc', item: { id: 'd3', title: 'x' } }])).rejects.toThrow(/versioned, and BatchWriteItem takes no condition/);
  expect(await db.deleteItem('Doc', { id: 'd2' }, { version: 2 })).toMatchObject({ version: 2 });
});

test('concurrent versioned updates: each applies or fails with VERSION_CONFLICT, and the version counts those applied', async () => {
  let run = 0;
  await fc.assert(fc.asyncProperty(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 1, max: 3 }), async (writers, rounds) => {
    const id = `c${run++}`;
    await db.putItem('Doc', { id, title: 'start', views: 0 });
    let applied = 0;
    let conflicts = 0;
    for (let r = 0; r < rounds; r++) {
      const read = (await db.getItem('Doc', { id }, { consistent: true }))!;
      const outcomes = await Promise.all(Array.from({ length: writers }, (_, w) =>
        db.updateItem('Doc', { id, version: read.version, title: `w${w}` }, { add: { views: 1 } }).then(() => 'applied', (e) => e.code)));
      applied += outcomes.filter((o) => o === 'applied').length;
      conflicts += outcomes.filter((o) => o === 'VERSION_CONFLICT').length;
      expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1); // all read the same version: one wins
    }
    expect(applied + conflicts).toBe(writers * rounds);
    const final = (await db.getItem('Doc', { id }, { consistent: true }))!;
    expect(final.version).toBe(1 + applied);
    expect(final.views).toBe(applied);
  }), { numRuns: propertyRuns(15) });
});

test('operators: add to numbers and sets, append and prepend to lists, delete from sets, set if missing', async () => {
  await db.putItem('Doc', { id: 'o1', title: 't', tags: new Set(['a']) });
  const out = await db.updateItem('Doc', { id: 'o1', version: 1 }, {
    add: { views: 5, tags: new Set(['b']) },
    append: { history: ['x'] },
    setIfMissing: { title: 'ignored' },
  });
  expect(out).toMatchObject({ views: 5, tags: new Set(['a', 'b']), history: ['x'], title: 't', version: 2 });
  const next = await db.updateItem('Doc', { id: 'o1', version: 2 }, { add: { views: -2 }, prepend: { history: ['w'] }, deleteFromSet: { tags: new Set(['a']) } });
  expect(next).toMatchObject({ views: 3, tags: new Set(['b']), history: ['w', 'x'] });
});

test('an operator on an index key input is refused naming the attribute, the index and the fix; wrong kinds are refused', async () => {
  await expect(db.updateItem('Doc', { id: 'o1', version: 3 }, { add: { rank: 1 } })).rejects.toThrow(
    "[PARTIAL_INDEX_UPDATE] entity Doc, attribute rank: is part of index GSI1's key, and add leaves its new value to DynamoDB");
  // @ts-expect-error append takes lists only
  await expect(db.updateItem('Doc', { id: 'o1', version: 3 }, { append: { views: [1] } })).rejects.toThrow('append applies to LIST attributes; views is NUMBER');
  await expect(db.updateItem('Doc', { id: 'o1', version: 3, views: 1 }, { add: { views: 1 } })).rejects.toThrow('is changed twice in one update');
  await expect(db.updateItem('Doc', { id: 'o1', version: 3 }, { add: { version: 1 } as never })).rejects.toThrow('is maintained by the runtime');
  expect(await db.getItem('Doc', { id: 'o1' })).toMatchObject({ version: 3 });
});

test('a transaction resent with its token is applied once though its timestamps are stamped again; other content under the token is refused', async () => {
  await db.putItem('Doc', { id: 't1', title: 'a', views: 0 });
  const created = (await db.getItem('Doc', { id: 't1' }, { consistent: true }))!;
  const update = [{ type: 'update' as const, entity: 'Doc' as const, changes: { id: 't1', version: 1, title: 'b' }, add: { views: 1 } }];
  await db.transactWrite(update, { token: 'msg-0001' });
  const once = (await db.getItem('Doc', { id: 't1' }, { consistent: true }))!;
  expect(once).toMatchObject({ title: 'b', views: 1, version: 2, createdAt: created.createdAt });
  // A redelivered message: the same call later, its stamp a later time than the first send's.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await db.transactWrite(update, { token: 'msg-0001' });
  expect(await db.getItem('Doc', { id: 't1' }, { consistent: true })).toEqual(once);
  await expect(db.transactWrite([{ ...update[0], changes: { id: 't1', version: 1, title: 'c' } }], { token: 'msg-0001' }))
    .rejects.toMatchObject({ code: 'TOKEN_REUSED' });
  expect(await db.getItem('Doc', { id: 't1' }, { consistent: true })).toEqual(once);

  // A create and an update in one transaction carry one time, and so does their resend.
  const both = [
    { type: 'put' as const, entity: 'Doc' as const, item: { id: 't2', title: 'new' }, mode: 'create' as const },
    { type: 'update' as const, entity: 'Doc' as const, changes: { id: 't1', version: 2 }, add: { views: 1 } },
  ];
  await db.transactWrite(both, { token: 'msg-0002' });
  await new Promise((resolve) => setTimeout(resolve, 5));
  await db.transactWrite(both, { token: 'msg-0002' });
  const [t1, t2] = [(await db.getItem('Doc', { id: 't1' }, { consistent: true }))!, (await db.getItem('Doc', { id: 't2' }, { consistent: true }))!];
  expect(t1).toMatchObject({ views: 2, version: 3 });
  expect(t2).toMatchObject({ version: 1, createdAt: t1.modifiedAt, modifiedAt: t1.modifiedAt });
});
