// A pattern that needs no attribute beyond the keys of a KEYS_ONLY index: no fetch, no type
// attribute in the results, so entities are told apart by matching the table key against their
// templates, and the values inside the keys are decoded back (escapes, numbers, dates, booleans).
import { AttributeKind, createClient, defineManifest, ProjectionKind } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';
import { countRequests } from '../support/requests';

const manifest = defineManifest({
  entities: {
    Job: {
      attributes: {
        jobId: { type: AttributeKind.STRING, required: true },
        priority: { type: AttributeKind.NUMBER, required: true },
        queued: { type: AttributeKind.BOOLEAN },
        at: { type: AttributeKind.DATE, required: true },
        note: { type: AttributeKind.STRING },
      },
      pk: 'JOB#{jobId}',
      sk: 'JOB#{jobId}',
      indexes: { Queue: { pk: 'QUEUED#{queued}', sk: 'J#{at}#{priority}' } },
    },
    Batch: {
      attributes: {
        batchId: { type: AttributeKind.STRING, required: true },
        queued: { type: AttributeKind.BOOLEAN },
        at: { type: AttributeKind.DATE, required: true },
        priority: { type: AttributeKind.NUMBER, required: true },
      },
      pk: 'BATCH#{batchId}',
      sk: 'BATCH#{batchId}',
      indexes: { Queue: { pk: 'QUEUED#{queued}', sk: 'B#{at}#{priority}' } },
    },
  },
  globalIndexes: { Queue: { projection: ProjectionKind.KEYS_ONLY } },
  localIndexes: { enabled: false },
  accessPatterns: { queue: { entities: ['Job', 'Batch'], index: 'Queue', attributes: [] } },
});

let engine: Engine;
let db: ReturnType<typeof createClient<typeof manifest>>;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.client, tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

test('entities identified and key values decoded without reading the items', async () => {
  await db.putItem('Job', { jobId: 'j 1#x', priority: -2.5, queued: true, at: '2024-01-02T00:00:00Z', note: 'not projected' });
  await db.putItem('Batch', { batchId: 'b1', queued: true, at: '2024-01-01T00:00:00Z', priority: 7 });
  await db.putItem('Job', { jobId: 'j2', priority: 1, queued: false, at: '2024-01-03T00:00:00Z' });
  const requests = countRequests(db.table.dynamodb);
  const page = await db.query('queue', { queued: true });
  expect(requests.of('BatchGetItemCommand')).toBe(0);
  expect(page.items).toEqual([
    { entity: 'Batch', item: { batchId: 'b1', queued: true, at: '2024-01-01T00:00:00.000Z', priority: 7 } },
    { entity: 'Job', item: { jobId: 'j 1#x', queued: true, at: '2024-01-02T00:00:00.000Z', priority: -2.5 } },
  ]);
});
