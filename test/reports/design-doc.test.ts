import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, ProjectionKind, SingleTableManifest } from '../../lib/model/manifest';
import { designDocument, designMarkdown } from '../../lib/reports/design-doc';

const GOLDEN = join(__dirname, '__golden__', 'example-docs.md');
const model = compileManifest(manifest).model;

describe('design document of the example app', () => {
  test('matches the committed golden file (regenerate with UPDATE_GOLDEN=1)', () => {
    const markdown = designMarkdown(model);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, markdown);
    expect(existsSync(GOLDEN)).toBe(true);
    expect(markdown).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  test('is deterministic: a JSON copy of the manifest, compiled again, gives the same document', () => {
    const copy = JSON.parse(JSON.stringify(manifest)) as SingleTableManifest;
    expect(designMarkdown(compileManifest(copy).model)).toBe(designMarkdown(model));
  });

  test('main chart: a row per entity with table keys, GSI keys with shard suffix, LSI sort keys and sparse notes', () => {
    const chart = designDocument(model).mainTable;
    expect(chart.headers).toEqual(['Entity', 'PK', 'SK', 'GSI keys', 'LSI sort keys', 'Notes']);
    expect(chart.rows.map((r) => r[0])).toEqual(Object.keys(manifest.entities));
    const order = chart.rows.find((r) => r[0] === 'Order')!;
    expect(order[3].split('\n')).toEqual(['GSI1: ORDER#{orderId} / ORDER#{orderId}', 'GSI2: ORDER#{status}#[0-2] / {createdAt}']);
    expect(order[4].split('\n')).toEqual(['LSI1SK: ORDERED#{createdAt}', 'LSI2SK: AMOUNT#{amount}']);
    const task = chart.rows.find((r) => r[0] === 'Task')!;
    expect(task[5]).toContain('in GSI3 only when running is true and startedAt is set');
  });

  test('one chart per populated index, overloaded rows with their patterns; empty LSI slots listed', () => {
    const doc = designDocument(model);
    expect(doc.indexes.map((t) => t.heading.split(':')[0])).toEqual(['GSI1', 'GSI2', 'GSI3', 'LSI1', 'LSI2']);
    const gsi1 = doc.indexes[0];
    expect(gsi1.headers).toEqual(['Entity', 'GSI1PK', 'GSI1SK', 'Access patterns']);
    expect(gsi1.rows.find((r) => r[0] === 'Membership')).toEqual([
      'Membership', 'GROUP#{groupId}', 'CUSTOMER#{username}', 'membersOfGroup: A group and its members (inverted adjacency list)',
    ]);
    expect(doc.indexes[1].intro).toContain('write-sharded RANDOM over 3 shard(s) for a peak of 2000 writes/s');
    expect(doc.emptyIndexes).toEqual(['LSI3 (ALL)', 'LSI4 (KEYS_ONLY)', 'LSI5 (ALL)']);
  });

  test('access-pattern table: key condition, order, consistency, projection and follow-up fetch', () => {
    const rows = designDocument(model).accessPatterns.rows;
    const row = (name: string) => rows.find((r) => r[0].startsWith(name + ':'))!;
    expect(row('ordersByStatus').slice(2)).toEqual([
      'GSI2',
      'GSI2PK = ORDER#{status}#[0-2] AND GSI2SK BETWEEN {createdAt} AND {createdAt} (3 queries in parallel, merged)',
      'descending', 'eventual', 'INCLUDE (orderId, username, status, createdAt, amount, Type)', 'no',
    ]);
    expect(row('ordersForCustomerByDate')[5]).toBe('strong');
    expect(row('runningTasks')[7]).toBe('yes: BatchGetItem on the table');
    expect(row('ordersForCustomerByAmount')[3]).toBe('PK = CUSTOMER#{username} AND LSI2SK >= AMOUNT#{amount}');
    expect(row('ordersForCustomerByAmount')[7]).toBe('yes: DynamoDB fetches from the table (LSI)');
    expect(row('customerWithOrders')[1]).toBe('Customer, Order');
  });

  test('with LSIs, says every item collection is capped at 10 GB even though unused slots cost no storage', () => {
    const markdown = designMarkdown(model);
    expect(markdown).toContain('They hold no entries, so they cost no storage and no writes');
    expect(markdown).toContain('every item collection (the items of one partition key value with their LSI entries) is capped at 10 GB');
    expect(markdown).not.toContain('cost nothing');
    const note: SingleTableManifest = {
      entities: { Note: { attributes: { id: { type: AttributeKind.STRING, required: true } }, pk: 'NOTE#{id}', sk: 'NOTE' } },
    };
    expect(designMarkdown(compileManifest(note).model)).toContain('capped at 10 GB');
    expect(designMarkdown(compileManifest({ ...note, localIndexes: { enabled: false } }).model)).not.toContain('10 GB');
  });

  test('cells cannot break a table: pipes and newlines in descriptions are escaped', () => {
    const m: SingleTableManifest = {
      entities: {
        Note: {
          description: 'a | b\nc',
          attributes: { id: { type: AttributeKind.STRING, required: true } },
          pk: 'NOTE#{id}',
          sk: 'NOTE',
        },
      },
      localIndexes: { enabled: false },
    };
    const markdown = designMarkdown(compileManifest(m).model);
    expect(markdown).toContain('| a \\| b<br>c |');
  });

  test('a GSI without sort key: its chart and key conditions have no sort key; no index at all is said so', () => {
    const m: SingleTableManifest = {
      entities: {
        User: {
          attributes: { id: { type: AttributeKind.STRING, required: true }, email: { type: AttributeKind.STRING, required: true } },
          pk: 'USER#{id}',
          sk: 'USER',
          indexes: { ByEmail: { pk: 'EMAIL#{email}' } },
        },
      },
      globalIndexes: { ByEmail: { hasSortKey: false, projection: ProjectionKind.KEYS_ONLY } },
      localIndexes: { enabled: false },
      accessPatterns: { userByEmail: { entities: ['User'], index: 'ByEmail' } },
    };
    const doc = designDocument(compileManifest(m).model);
    expect(doc.indexes[0].headers).toEqual(['Entity', 'ByEmailPK', 'Access patterns']);
    expect(doc.indexes[0].rows).toEqual([['User', 'EMAIL#{email}', 'userByEmail']]);
    expect(doc.accessPatterns.rows[0][3]).toBe('ByEmailPK = EMAIL#{email}');
    expect(doc.mainTable.rows[0][3]).toBe('ByEmail: EMAIL#{email}');
    const bare = designMarkdown(compileManifest({ ...m, entities: { User: { ...m.entities.User, indexes: undefined } }, accessPatterns: {} }).model);
    expect(bare).toContain('## Secondary indexes\n\n_No entity populates a secondary index._\n\nSlots no entity populates yet: ByEmail (KEYS_ONLY).');
  });
});
