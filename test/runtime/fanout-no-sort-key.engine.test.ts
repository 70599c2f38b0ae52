// A sharded GSI without a sort key, on the embedded engine, through the client: a partition's items
// come in an order of the engine's own (a hash of the table key), not by any key the merge can
// compare, so paging must resume every shard from its own position and never read items past as
// "behind the merge position". Every item comes back exactly once at any page size.
import fc from 'fast-check';
import { AttributeKind, createClient, defineManifest } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { propertyRuns } from '../support/property-runs';
import { allPages } from '../support/requests';

const manifest = defineManifest({
  entities: {
    Job: {
      attributes: { id: { type: AttributeKind.STRING, required: true }, state: { type: AttributeKind.STRING, required: true } },
      pk: 'JOB#{id}',
      sk: 'JOB#{id}',
      indexes: { ByState: { pk: 'STATE#{state}' } },
    },
  },
  globalIndexes: { ByState: { hasSortKey: false, sharding: { shardCount: 3 } } },
  localIndexes: { enabled: false },
  accessPatterns: { jobsInState: { entities: ['Job'], index: 'ByState' } },
});

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;
let run = 0;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

test('paging a sharded GSI without a sort key returns every item once', async () => {
  await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 9 }), async (count, limit) => {
    const state = `S${run++}`;
    const ids = Array.from({ length: count }, (_, i) => `j${String(i).padStart(2, '0')}`);
    if (count) await db.batchWrite(ids.map((id) => ({ type: 'put' as const, entity: 'Job' as const, item: { id, state } })));
    const { items } = await allPages((cursor) => db.query('jobsInState', { state }, { cursor, limit }));
    expect(items.map((i) => i.item.id).sort()).toEqual(ids);
  }), { numRuns: propertyRuns(15) });
});
