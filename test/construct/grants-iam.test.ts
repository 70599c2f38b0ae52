// Pattern grants, evaluated by an IAM policy evaluator against requests the runtime builds: each
// grant allows the Query of its pattern (every shard of a sharded one) and the fetch of its
// entities' items, and denies neighbouring requests: other patterns on the same index, look-alike
// keys, other indexes, other entities' items, and requests that carry no partition key.
import { App } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as fc from 'fast-check';
import { allows, fetchRequest, IamRequest, itemRequest, onIndex, patternQueries, policyOf, TABLE_NAME } from './iam';
import { newFunction, tableStack } from './policy';
import { manifest } from '../../examples/manifest';
import { ExampleStack } from '../../examples/stack';
import { compileManifest } from '../../lib/manifest/compile';
import { TABLE_INDEX } from '../../lib/model/model';
import { buildPut } from '../../lib/runtime/items/requests';
import { propertyRuns } from '../support/property-runs';

const model = compileManifest(manifest).model;

/** An input of each example pattern: the partition key values and an open or simple sort key condition. */
const INPUTS: Record<string, Record<string, unknown>> = {
  ordersForCustomer: { username: 'ana' },
  customerWithOrders: { username: 'ana' },
  orderById: { orderId: 'o-1' },
  ordersByStatus: { status: 'OPEN', between: [{}, {}] },
  customerByEmail: { email: 'ana@example.com' },
  productsByCategory: { category: 'books', between: [{}, {}] },
  groupsForCustomer: { username: 'ana' },
  membersOfGroup: { groupId: 'g-1' },
  runningTasks: { running: true },
  ordersForCustomerByDate: { username: 'ana', between: [{}, {}] },
  ordersForCustomerByAmount: { username: 'ana', amount: 10 },
};

/** One stored item of each example entity, as the runtime writes it (table and index keys included). */
const ITEMS = {
  Customer: buildPut(model, TABLE_NAME, 'Customer', { username: 'ana', email: 'ana@example.com', name: 'Ana', createdAt: '2026-01-01T00:00:00.000Z' }).Item!,
  Order: buildPut(model, TABLE_NAME, 'Order', { username: 'ana', orderId: 'o-1', status: 'OPEN', createdAt: '2026-01-01T00:00:00.000Z', amount: 10 }).Item!,
  Product: buildPut(model, TABLE_NAME, 'Product', { productId: 'p-1', category: 'books', price: 5, name: 'Book' }).Item!,
  Group: buildPut(model, TABLE_NAME, 'Group', { groupId: 'g-1', name: 'G' }).Item!,
  Membership: buildPut(model, TABLE_NAME, 'Membership', { username: 'ana', groupId: 'g-1', joinedAt: '2026-01-01T00:00:00.000Z' }).Item!,
  Task: buildPut(model, TABLE_NAME, 'Task', { taskId: 't-1', name: 'T', running: true, startedAt: '2026-01-01T00:00:00.000Z' }).Item!,
};

async function expectAllowed(policy: object, request: IamRequest): Promise<void> {
  expect({ request, allowed: await allows(policy, request) }).toEqual({ request, allowed: true });
}

async function expectDenied(policy: object, request: IamRequest): Promise<void> {
  expect({ request, allowed: await allows(policy, request) }).toEqual({ request, allowed: false });
}

/** Keys that look like `key` but that no item of its template has: the first literal without its delimiter, alone, or lower-cased. */
function lookAlikes(key: string): string[] {
  const at = key.indexOf(model.delimiter);
  return [key.slice(0, at) + key.slice(at + 1), key.slice(0, at), key.toLowerCase(), 'X' + key];
}

/** One function per example pattern, each granted that pattern only, on one table (one synth for all). */
const granted = (() => {
  const { stack, table } = tableStack(manifest);
  const fns = Object.keys(model.patterns).map((name) => {
    const fn = newFunction(stack, name);
    table.grantPatterns(fn, name);
    return [name, fn] as const;
  });
  return (name: string) => policyOf(stack, fns.find(([n]) => n === name)![1]);
})();

test('every example pattern has an input here', () => {
  expect(Object.keys(INPUTS).sort()).toEqual(Object.keys(model.patterns).sort());
});

describe.each(Object.keys(INPUTS))('a grant of %s', (name) => {
  const pattern = model.patterns[name];
  const policy = granted(name);
  const own = patternQueries(model, name, INPUTS[name]);

  test('allows the queries the runtime sends for it, every shard of a sharded index, for any value', async () => {
    expect(own.length).toBe(model.indexes[pattern.index].shards?.readCount ?? 1);
    for (const request of own) await expectAllowed(policy, request);
    const strings = pattern.pk!.segments.filter((s) => s.kind === 'STRING').map((s) => s.attribute!);
    const value = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', 'Z', '#', '$', '*', '?', ' ', '-') });
    await fc.assert(fc.asyncProperty(fc.array(value, { minLength: strings.length, maxLength: strings.length }), async (values) => {
      const input = { ...INPUTS[name], ...Object.fromEntries(strings.map((s, i) => [s, values[i]])) };
      for (const request of patternQueries(model, name, input)) await expectAllowed(policy, request);
    }), { numRuns: strings.length ? propertyRuns(10) : 1 });
  });

  test('denies the queries of the other patterns on its index, unless they read the same partitions', async () => {
    const others = Object.values(model.patterns).filter((p) => p.index === pattern.index && p.name !== name);
    for (const other of others) {
      for (const request of patternQueries(model, other.name, INPUTS[other.name])) {
        // LeadingKeys sees partition keys only: patterns of one partition key template share their partitions.
        if (other.pk!.source === pattern.pk!.source) await expectAllowed(policy, request);
        else await expectDenied(policy, request);
      }
    }
  });

  test('denies look-alike keys, other indexes and a Query without a partition key', async () => {
    for (const key of lookAlikes(own[0].leadingKeys![0])) await expectDenied(policy, { ...own[0], leadingKeys: [key] });
    // A sharded index is queried shard by shard: the key without its shard suffix is no key of it.
    if (model.indexes[pattern.index].shards) await expectDenied(policy, patternQueries(model, 'orderById', { orderId: 'OPEN' }).map((r) => onIndex({ ...r, leadingKeys: ['ORDER#OPEN'] }, pattern.index))[0]);
    for (const index of Object.keys(model.indexes).filter((i) => i !== pattern.index)) await expectDenied(policy, onIndex(own[0], index));
    await expectDenied(policy, { ...own[0], leadingKeys: undefined });
  });

  test('fetches exactly its entities\' items when its index lacks attributes, and reads no item by key', async () => {
    const mine = pattern.entities.map((e) => ITEMS[e as keyof typeof ITEMS]);
    const pk = model.indexes[TABLE_INDEX].partitionKey;
    const others = Object.entries(ITEMS)
      .filter(([e]) => !pattern.entities.includes(e) && ITEMS[e as keyof typeof ITEMS][pk].S !== mine[0][pk].S)
      .map(([, item]) => item);
    if (pattern.fetch === 'BATCH_GET') await expectAllowed(policy, fetchRequest(model, mine));
    else await expectDenied(policy, fetchRequest(model, mine));
    for (const other of others) {
      await expectDenied(policy, fetchRequest(model, [other]));
      await expectDenied(policy, fetchRequest(model, [...mine, other]));
    }
    await expectDenied(policy, { ...fetchRequest(model, mine), leadingKeys: undefined });
    await expectDenied(policy, itemRequest(model, { Key: mine[0] }));
  });
});

test('the example stack\'s handler: every pattern\'s queries and its puts, nothing else on the indexes or by key', async () => {
  const stack = new ExampleStack(new App(), 'SingleTableExample');
  const policy = policyOf(stack, stack.node.findChild('Handler') as never);
  for (const name of Object.keys(INPUTS)) for (const request of patternQueries(model, name, INPUTS[name])) await expectAllowed(policy, request);
  for (const item of Object.values(ITEMS)) await expectAllowed(policy, itemRequest(model, { Key: item }, 'dynamodb:PutItem'));
  // Only runningTasks fetches: tasks' items, nobody else's.
  await expectAllowed(policy, fetchRequest(model, [ITEMS.Task]));
  await expectDenied(policy, fetchRequest(model, [ITEMS.Customer]));
  await expectDenied(policy, fetchRequest(model, [ITEMS.Task, ITEMS.Product]));
  await expectDenied(policy, itemRequest(model, { Key: ITEMS.Customer }));
  const [email] = patternQueries(model, 'customerByEmail', INPUTS.customerByEmail);
  await expectDenied(policy, { ...email, leadingKeys: ['USER#ana'] });
  await expectDenied(policy, { ...email, leadingKeys: undefined });
  await expectDenied(policy, { ...onIndex(email, 'GSI3'), leadingKeys: ['EMAIL#ana@example.com'] });
});

test('a pattern whose partition key template holds no literal segment cannot be narrowed: its Query is allowed on any partition of its index, with a warning', async () => {
  const m = JSON.parse(JSON.stringify(manifest));
  m.entities.Task.indexes.GSI3.pk = '{running}';
  const open = compileManifest(m).model;
  const { stack, table } = tableStack(m);
  const fn = newFunction(stack, 'Fn');
  table.grantPatterns(fn, 'runningTasks', 'productsByCategory');
  Annotations.fromStack(stack).hasWarning('/Test/Table', Match.stringLikeRegexp('pattern runningTasks: its partition key template \\{running\\} holds no literal segment.*e\\.g\\. TASK#\\{running\\}'));
  const policy = policyOf(stack, fn);
  const [running] = patternQueries(open, 'runningTasks', { running: true });
  await expectAllowed(policy, running);
  await expectAllowed(policy, { ...running, leadingKeys: ['CUSTOMER#ana'] });
  // Its fetch and the other pattern stay narrowed.
  await expectAllowed(policy, fetchRequest(open, [ITEMS.Task]));
  await expectDenied(policy, fetchRequest(open, [ITEMS.Customer]));
  await expectDenied(policy, { ...patternQueries(open, 'productsByCategory', INPUTS.productsByCategory)[0], leadingKeys: ['EMAIL#ana'] });
});
