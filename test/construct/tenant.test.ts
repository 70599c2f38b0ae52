// Tenant isolation: the LeadingKeys patterns, checked two ways: the exact condition in the policy,
// and, by an IAM policy evaluator, against requests the runtime builds for random tenant ids: a
// tenant's own requests of the granted patterns are allowed, its other patterns' and another
// tenant's never are.
import * as fc from 'fast-check';
import { allows, fetchRequest, IamRequest, itemRequest, patternQueries, policyOf, TABLE_NAME } from './iam';
import { newFunction, statementsOf, tableStack } from './policy';
import { WriteOperation } from '../../lib/construct/grants/options';
import { guardKeyPatterns } from '../../lib/construct/grants/tenant';
import { encodeSegment } from '../../lib/keys/encoding';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, ProjectionKind, SingleTableManifest, SortKeyCondition } from '../../lib/model/manifest';
import { buildPut } from '../../lib/runtime/items/requests';
import { buildReadUnique, guardKeyAttributes } from '../../lib/runtime/items/unique';
import { propertyRuns } from '../support/property-runs';

const manifest: SingleTableManifest = {
  entities: {
    Tenant: {
      attributes: { tenantId: { type: AttributeKind.STRING, required: true } },
      pk: 'TENANT#{tenantId}',
      sk: 'TENANT#{tenantId}',
    },
    Invoice: {
      attributes: {
        tenantId: { type: AttributeKind.STRING, required: true },
        invoiceId: { type: AttributeKind.STRING, required: true },
        status: { type: AttributeKind.STRING, required: true },
        // In no key: a KEYS_ONLY index entry lacks it, so invoicesByStatus fetches the items.
        amount: { type: AttributeKind.NUMBER },
      },
      pk: 'TENANT#{tenantId}#INVOICE#{invoiceId}',
      sk: 'INVOICE#{invoiceId}',
      indexes: { GSI1: { pk: 'TENANT#{tenantId}#STATUS#{status}', sk: 'INVOICE#{invoiceId}' } },
    },
    Customer: {
      attributes: {
        tenantId: { type: AttributeKind.STRING, required: true },
        customerId: { type: AttributeKind.STRING, required: true },
        email: { type: AttributeKind.STRING, required: true },
      },
      pk: 'TENANT#{tenantId}#CUSTOMER#{customerId}',
      sk: 'CUSTOMER#{customerId}',
      indexes: { GSI1: { pk: 'TENANT#{tenantId}#EMAIL#{email}', sk: 'CUSTOMER#{customerId}' } },
    },
    Plan: {
      attributes: { planId: { type: AttributeKind.STRING, required: true } },
      pk: 'PLAN#{planId}',
      sk: 'PLAN#{planId}',
      indexes: { GSI2: { pk: 'PLANS', sk: 'PLAN#{planId}' } },
    },
  },
  globalIndexes: { GSI1: { projection: ProjectionKind.KEYS_ONLY, sharding: { shardCount: 4 } }, GSI2: {} },
  accessPatterns: {
    invoicesByStatus: { entities: ['Invoice'], index: 'GSI1' },
    customerByEmail: { entities: ['Customer'], index: 'GSI1' },
    tenant: { entities: ['Tenant'], sortKeyCondition: SortKeyCondition.EQUALS },
    invoice: { entities: ['Invoice'], sortKeyCondition: SortKeyCondition.EQUALS },
    // Shared by every tenant: the plans on offer.
    plans: { entities: ['Plan'], index: 'GSI2' },
    plan: { entities: ['Plan'], sortKeyCondition: SortKeyCondition.EQUALS },
  },
};

const leadingKeys = (statement: any): string[] => statement.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
const model = compileManifest(manifest).model;
const onlyPresent = { Null: { 'dynamodb:LeadingKeys': 'false' } };

test('each action carries the tenant\'s keys of exactly the templates it is sent with, and refuses a request without keys', () => {
  const { stack, table } = tableStack(manifest);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { patterns: ['invoicesByStatus', 'tenant'], writes: [WriteOperation.PUT], tenant: { attribute: 'tenantId', value: 'acme' } });
  const keys = (patterns: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns }, ...onlyPresent });
  expect(statementsOf(stack, fn)).toEqual([
    // GSI1 is sharded: the runtime queries each shard's key, the template's with `#<shard>`.
    { Effect: 'Allow', Action: 'dynamodb:Query', Resource: 'TABLE/index/GSI1', Condition: keys(['TENANT#acme#STATUS#*#*']) },
    // The KEYS_ONLY index makes invoicesByStatus fetch the items from the table.
    { Effect: 'Allow', Action: 'dynamodb:BatchGetItem', Resource: 'TABLE', Condition: keys(['TENANT#acme#INVOICE#*']) },
    { Effect: 'Allow', Action: 'dynamodb:Query', Resource: 'TABLE', Condition: keys(['TENANT#acme']) },
    // Plan has no tenant id in its key: out of the tenant's reach, so not listed.
    { Effect: 'Allow', Action: 'dynamodb:PutItem', Resource: 'TABLE', Condition: keys(['TENANT#acme', 'TENANT#acme#CUSTOMER#*', 'TENANT#acme#INVOICE#*']) },
  ]);
});

/** Stored items of a tenant, as the runtime writes them. */
function itemsOf(tenantId: string) {
  return {
    invoice: buildPut(model, TABLE_NAME, 'Invoice', { tenantId, invoiceId: 'i-1', status: 'OPEN', amount: 5 }).Item!,
    customer: buildPut(model, TABLE_NAME, 'Customer', { tenantId, customerId: 'c-1', email: 'ana@example.com' }).Item!,
  };
}

async function expectAllowed(policy: object, request: IamRequest): Promise<void> {
  expect({ request, allowed: await allows(policy, request) }).toEqual({ request, allowed: true });
}

async function expectDenied(policy: object, request: IamRequest): Promise<void> {
  expect({ request, allowed: await allows(policy, request) }).toEqual({ request, allowed: false });
}

test('a tenant\'s grant of a pattern allows that pattern\'s requests of the tenant: not its other patterns on the index, nor other tenants\'', async () => {
  const { stack, table } = tableStack(manifest);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { patterns: ['invoicesByStatus', 'tenant'], tenant: { attribute: 'tenantId', value: 'acme' } });
  const policy = policyOf(stack, fn);
  const byStatus = (tenantId: string) => patternQueries(model, 'invoicesByStatus', { tenantId, status: 'OPEN' });
  expect(byStatus('acme')).toHaveLength(4);
  for (const request of [...byStatus('acme'), ...patternQueries(model, 'tenant', { tenantId: 'acme' })]) await expectAllowed(policy, request);
  await expectAllowed(policy, fetchRequest(model, [itemsOf('acme').invoice]));
  const denied = [
    // The tenant's other patterns, on the same index and on the table.
    ...patternQueries(model, 'customerByEmail', { tenantId: 'acme', email: 'ana@example.com' }),
    ...patternQueries(model, 'invoice', { tenantId: 'acme', invoiceId: 'i-1' }),
    // Other tenants, one whose id starts with this one's among them.
    ...['acme2', 'other', 'acme#x'].flatMap((t) => [...byStatus(t), ...patternQueries(model, 'tenant', { tenantId: t })]),
    fetchRequest(model, [itemsOf('other').invoice]),
    // The tenant's other entities' items, alone or with its own.
    fetchRequest(model, [itemsOf('acme').customer]),
    fetchRequest(model, [itemsOf('acme').invoice, itemsOf('acme').customer]),
    itemRequest(model, { Key: itemsOf('acme').invoice }),
    // Shared patterns it was not granted.
    ...patternQueries(model, 'plans', {}),
    ...patternQueries(model, 'plan', { planId: 'p-1' }),
    { ...byStatus('acme')[0], leadingKeys: undefined },
    { ...fetchRequest(model, [itemsOf('acme').invoice]), leadingKeys: undefined },
  ];
  for (const request of denied) await expectDenied(policy, request);
});

test('a shared pattern granted beside a tenant grant allows its own partitions only, so the function stays within its tenant', async () => {
  const { stack, table } = tableStack(manifest);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { patterns: ['tenant', 'invoice'], tenant: { attribute: 'tenantId', value: 'acme' } });
  table.grantPatterns(fn, 'plan', 'plans');
  const policy = policyOf(stack, fn);
  for (const request of [...patternQueries(model, 'plan', { planId: 'p-1' }), ...patternQueries(model, 'plans', {}), ...patternQueries(model, 'tenant', { tenantId: 'acme' })]) {
    await expectAllowed(policy, request);
  }
  for (const request of [...patternQueries(model, 'tenant', { tenantId: 'other' }), ...patternQueries(model, 'invoice', { tenantId: 'other', invoiceId: 'i-1' })]) {
    await expectDenied(policy, request);
  }
});

test('a policy variable is inserted as is and evaluated per principal; literal wildcards and $ in an id are escaped', async () => {
  const { stack, table } = tableStack(manifest);
  const tagged = newFunction(stack, 'Tagged');
  const odd = newFunction(stack, 'Odd');
  table.grantAccess(tagged, { patterns: ['tenant'], tenant: { attribute: 'tenantId', value: '${aws:PrincipalTag/tenantId}' } });
  table.grantAccess(odd, { patterns: ['tenant'], tenant: { attribute: 'tenantId', value: 'a*b?c d' } });
  expect(leadingKeys(statementsOf(stack, tagged)[0])).toEqual(['TENANT#${aws:PrincipalTag/tenantId}']);
  // 'a*b?c d': the space is key-escaped to `$a`, whose `$` IAM must read literally.
  expect(leadingKeys(statementsOf(stack, odd)[0])).toEqual(['TENANT#a${*}b${?}c${$}ad']);
  const [acme] = patternQueries(model, 'tenant', { tenantId: 'acme' });
  await expectAllowed(policyOf(stack, tagged), { ...acme, context: { 'aws:PrincipalTag/tenantId': 'acme' } });
  await expectDenied(policyOf(stack, tagged), { ...acme, context: { 'aws:PrincipalTag/tenantId': 'other' } });
  await expectAllowed(policyOf(stack, odd), patternQueries(model, 'tenant', { tenantId: 'a*b?c d' })[0]);
  await expectDenied(policyOf(stack, odd), patternQueries(model, 'tenant', { tenantId: 'aXbYc d' })[0]);
});

test('a pattern whose partition key lacks the tenant id cannot be isolated', () => {
  const { stack, table } = tableStack(manifest);
  const fn = newFunction(stack, 'Fn');
  expect(() => table.grantAccess(fn, { patterns: ['plans'], tenant: { attribute: 'tenantId', value: 'acme' } }))
    .toThrow("pattern plans: tenant isolation needs the tenant attribute 'tenantId' in the partition key PLANS");
  expect(() => table.grantAccess(fn, { readItems: true, tenant: { attribute: 'region', value: 'acme' } }))
    .toThrow("tenant isolation: no entity has the tenant attribute 'region' in its table partition key");
});

test('a value before the tenant id would need a wildcard that spans tenants: refused', () => {
  const m = JSON.parse(JSON.stringify(manifest));
  m.entities.Invoice.pk = 'INVOICE#{invoiceId}#TENANT#{tenantId}';
  const { stack, table } = tableStack(m);
  const fn = newFunction(stack, 'Fn');
  expect(() => table.grantAccess(fn, { writes: [WriteOperation.PUT], tenant: { attribute: 'tenantId', value: 'acme' } }))
    .toThrow("entity Invoice: tenant isolation needs the tenant attribute 'tenantId' before any other value in INVOICE#{invoiceId}#TENANT#{tenantId}, but {invoiceId} comes first");
});

test.each([
  ['empty', '', 'is empty'],
  ['holding an unpaired surrogate', 'acme\ud800', 'holds an unpaired UTF-16 surrogate'],
])('a tenant id that cannot be a key value is refused, saying why: %s', (_what, value, why) => {
  const { stack, table } = tableStack(manifest);
  const fn = newFunction(stack, 'Fn');
  expect(() => table.grantAccess(fn, { readItems: true, tenant: { attribute: 'tenantId', value } }))
    .toThrow(`tenant isolation: the tenant id ${JSON.stringify(value)} ${why}`);
});

/** Every request the runtime sends for a tenant's invoices by status (each shard) and its tenant item, and the fetch of its invoice. */
function tenantRequests(tenantId: string, invoiceId: string): IamRequest[] {
  return [
    ...patternQueries(model, 'invoicesByStatus', { tenantId, status: 'OPEN' }),
    ...patternQueries(model, 'tenant', { tenantId }),
    fetchRequest(model, [buildPut(model, TABLE_NAME, 'Invoice', { tenantId, invoiceId, status: 'OPEN' }).Item!]),
  ];
}

const tenantId = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'b', '#', '$', '*', '?', ' ', 'Z', '-') });

test('property: a tenant\'s grant allows its own requests on every template and never another tenant\'s', async () => {
  await fc.assert(fc.asyncProperty(tenantId, tenantId, tenantId, async (mine, theirs, invoiceId) => {
    fc.pre(mine !== theirs);
    const { stack, table } = tableStack(manifest);
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { patterns: ['invoicesByStatus', 'tenant'], tenant: { attribute: 'tenantId', value: mine } });
    const policy = policyOf(stack, fn);
    for (const request of tenantRequests(mine, invoiceId)) await expectAllowed(policy, request);
    for (const request of tenantRequests(theirs, invoiceId)) await expectDenied(policy, request);
  }), { numRuns: propertyRuns(12) });
});

test('property: with the tenant id a principal tag, one policy allows each principal its own tenant\'s requests only', async () => {
  const { stack, table } = tableStack(manifest);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { patterns: ['invoicesByStatus', 'tenant'], tenant: { attribute: 'tenantId', value: '${aws:PrincipalTag/tenantId}' } });
  const policy = policyOf(stack, fn);
  // The tag holds the encoded id; IAM would read a `*` or `?` in a tag as a wildcard, so ids here have none.
  const id = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'b', '#', '$', ' ', 'Z', '-') });
  await fc.assert(fc.asyncProperty(id, id, id, async (mine, theirs, invoiceId) => {
    fc.pre(mine !== theirs);
    const context = { 'aws:PrincipalTag/tenantId': (encodeSegment(AttributeKind.STRING, mine, model.escapeChar) as { segment: string }).segment };
    for (const request of tenantRequests(mine, invoiceId)) await expectAllowed(policy, { ...request, context });
    for (const request of tenantRequests(theirs, invoiceId)) await expectDenied(policy, { ...request, context });
  }), { numRuns: propertyRuns(40) });
});

test('a KEYS_ONLY pattern whose keys hold every attribute of its entity fetches nothing, so gets no BatchGetItem', () => {
  const m = JSON.parse(JSON.stringify(manifest));
  delete m.entities.Invoice.attributes.amount;
  const { stack, table } = tableStack(m);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { patterns: ['invoicesByStatus'], tenant: { attribute: 'tenantId', value: 'acme' } });
  const actions = statementsOf(stack, fn).flatMap((s: any) => [s.Action].flat());
  expect(actions).toContain('dynamodb:Query');
  expect(actions).not.toContain('dynamodb:BatchGetItem');
});

/** The manifest with invoice numbers unique per tenant (or, with `scope` undefined, across the table). */
function withUniqueNumbers(scope: string | undefined): SingleTableManifest {
  const m = JSON.parse(JSON.stringify(manifest));
  m.entities.Invoice.attributes.number = { type: AttributeKind.STRING };
  m.entities.Invoice.unique = ['number'];
  if (scope) m.entities.Invoice.uniqueScope = { number: scope };
  return m;
}

test('writes of a unique entity scoped by the tenant: guard writes on the tenant\'s guard keys, the read before on the entity\'s partitions', () => {
  const { stack, table } = tableStack(withUniqueNumbers('tenantId'));
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { writes: [WriteOperation.PUT], tenant: { attribute: 'tenantId', value: 'acme' } });
  const keys = (patterns: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns }, ...onlyPresent });
  expect(statementsOf(stack, fn)).toEqual([
    { Effect: 'Allow', Action: 'dynamodb:PutItem', Resource: 'TABLE', Condition: keys(['TENANT#acme', 'TENANT#acme#${$}unique#*', 'TENANT#acme#CUSTOMER#*', 'TENANT#acme#INVOICE#*']) },
    // An upsert that changes the number deletes the guard of the old one.
    { Effect: 'Allow', Action: 'dynamodb:DeleteItem', Resource: 'TABLE', Condition: keys(['TENANT#acme#${$}unique#*']) },
    { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: 'TABLE', Condition: keys(['TENANT#acme#INVOICE#*']) },
  ]);
});

test('without tenant isolation the read before a delete reaches only the unique entity\'s partitions', () => {
  for (const scope of [undefined, 'tenantId']) {
    const { stack, table } = tableStack(withUniqueNumbers(scope));
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { writes: [WriteOperation.DELETE] });
    expect(statementsOf(stack, fn)).toEqual([
      // Deletes of any item, the guards' among them.
      { Effect: 'Allow', Action: 'dynamodb:DeleteItem', Resource: 'TABLE' },
      { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: 'TABLE', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#*#INVOICE#*'] }, ...onlyPresent } },
    ]);
  }
});

/** Invoice numbers unique per tenant, and codes unique across the table. */
function withMixedScopes(): SingleTableManifest {
  const m = withUniqueNumbers('tenantId') as any;
  m.entities.Invoice.attributes.code = { type: AttributeKind.STRING };
  m.entities.Invoice.unique = ['number', 'code'];
  return m;
}

test('an entity whose unique attributes have different scopes gets the guard keys of each', () => {
  const mixed = compileManifest(withMixedScopes()).model;
  expect(guardKeyPatterns(mixed, mixed.entities.Invoice, undefined).sort()).toEqual(['${$}unique#*', 'TENANT#*#${$}unique#*']);
  // Without tenant isolation a grant of deletes is table-wide, which holds both.
  const { stack, table } = tableStack(withMixedScopes());
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { writes: [WriteOperation.DELETE] });
  expect(statementsOf(stack, fn).find((s: any) => s.Action === 'dynamodb:DeleteItem')).toEqual({ Action: 'dynamodb:DeleteItem', Effect: 'Allow', Resource: 'TABLE' });
});

test('without tenant isolation a grant of writes reads only the unique entities\' partitions before writing, not every item of the table', async () => {
  // Plan's values unique instead: its partition key is PLAN#{planId}.
  const m: any = withUniqueNumbers(undefined);
  delete m.entities.Invoice.unique;
  m.entities.Plan.unique = ['planId'];
  const unique = compileManifest(m).model;
  const { stack, table } = tableStack(m);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { writes: [WriteOperation.PUT, WriteOperation.UPDATE] });
  const policy = policyOf(stack, fn);
  const id = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', '#', '$', '*', 'Z') });
  await fc.assert(fc.asyncProperty(id, async (planId) => {
    await expectAllowed(policy, itemRequest(unique, buildReadUnique(unique, TABLE_NAME, unique.entities.Plan, { planId })));
    await expectDenied(policy, itemRequest(unique, { Key: buildPut(unique, TABLE_NAME, 'Tenant', { tenantId: planId }).Item! }));
    await expectDenied(policy, itemRequest(unique, { Key: buildPut(unique, TABLE_NAME, 'Invoice', { tenantId: planId, invoiceId: planId, status: 'OPEN' }).Item! }));
  }), { numRuns: propertyRuns(20) });

  // A grant that reads items anyway reads them on the whole table.
  const both = tableStack(m);
  const reader = newFunction(both.stack, 'Fn');
  both.table.grantAccess(reader, { writes: [WriteOperation.PUT], readItems: true });
  expect(statementsOf(both.stack, reader).filter((s: any) => [s.Action].flat().includes('dynamodb:GetItem'))).toEqual([
    { Effect: 'Allow', Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem'], Resource: 'TABLE' },
  ]);

  // A partition key with no literal segment has no pattern narrower than every key: the read stays table-wide.
  const open = JSON.parse(JSON.stringify(m));
  open.entities.Plan.pk = '{planId}';
  const bare = tableStack(open);
  const writer = newFunction(bare.stack, 'Fn');
  bare.table.grantAccess(writer, { writes: [WriteOperation.PUT] });
  expect(statementsOf(bare.stack, writer).filter((s: any) => [s.Action].flat().includes('dynamodb:GetItem'))).toEqual([
    { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: 'TABLE' },
  ]);
});

test('a tenant-isolated grant refuses a unique entity whose guards every tenant shares, saying how to scope them', () => {
  const { stack, table } = tableStack(withUniqueNumbers(undefined));
  const fn = newFunction(stack, 'Fn');
  expect(() => table.grantAccess(fn, { writes: [WriteOperation.UPDATE], tenant: { attribute: 'tenantId', value: 'acme' } }))
    .toThrow('[TENANT_UNIQUE_SHARED] entity Invoice: the values of its unique number are held by guard items shared by every tenant, '
      + "which tenant isolation on 'tenantId' cannot allow without letting one tenant see and take another's values. "
      + "Fix: declare uniqueScope: { number: 'tenantId' } on Invoice");
  // Each unique attribute has its own scope: one left across the table is named alone.
  const other = tableStack(withMixedScopes());
  expect(() => other.table.grantAccess(newFunction(other.stack, 'Fn'), { writes: [WriteOperation.PUT], tenant: { attribute: 'tenantId', value: 'acme' } }))
    .toThrow('the values of its unique code are held by guard items shared by every tenant');
  // Reads alone write no guard.
  table.grantAccess(fn, { patterns: ['tenant'], tenant: { attribute: 'tenantId', value: 'acme' } });
});

test('property: a tenant\'s grant allows the guard writes the runtime sends for its own values and never another tenant\'s', async () => {
  const m = withUniqueNumbers('tenantId');
  const unique = compileManifest(m).model;
  const invoice = unique.entities.Invoice;
  await fc.assert(fc.asyncProperty(tenantId, tenantId, fc.string({ minLength: 1, maxLength: 10 }), async (mine, theirs, number) => {
    fc.pre(mine !== theirs);
    const { stack, table } = tableStack(m);
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { writes: [WriteOperation.PUT, WriteOperation.DELETE], tenant: { attribute: 'tenantId', value: mine } });
    const policy = policyOf(stack, fn);
    const guardOf = (t: string) => guardKeyAttributes(unique, invoice, 'number', number, { tenantId: t, invoiceId: 'i1' })!;
    for (const action of ['dynamodb:PutItem', 'dynamodb:DeleteItem']) {
      await expectAllowed(policy, itemRequest(unique, { Key: guardOf(mine) }, action));
      await expectDenied(policy, itemRequest(unique, { Key: guardOf(theirs) }, action));
    }
  }), { numRuns: propertyRuns(12) });
});
