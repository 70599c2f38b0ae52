// Tenant isolation: the LeadingKeys patterns, checked two ways: the exact condition in
// the policy, and, as IAM's StringLike would evaluate them, against keys the runtime composes for
// random tenant ids: a tenant's own keys match, another tenant's never do.
import * as fc from 'fast-check';
import { newFunction, statementsOf, tableStack } from './policy';
import { WriteOperation } from '../../lib/construct/access/options';
import { composeKey } from '../../lib/keys/template';
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, ProjectionKind, SingleTableManifest, SortKeyCondition } from '../../lib/manifest/structs';
import { guardKeyAttributes } from '../../lib/runtime/unique';
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
    tenant: { entities: ['Tenant'], sortKeyCondition: SortKeyCondition.EQUALS },
    plans: { entities: ['Plan'], index: 'GSI2' },
  },
};

const leadingKeys = (statement: any): string[] => statement.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];

test('every statement carries the tenant condition, with the patterns of the templates it touches', () => {
  const { stack, table } = tableStack(manifest);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { patterns: ['invoicesByStatus', 'tenant'], writes: [WriteOperation.PUT], tenant: { attribute: 'tenantId', value: 'acme' } });
  expect(statementsOf(stack, fn)).toEqual([
    {
      Effect: 'Allow',
      Action: 'dynamodb:Query',
      Resource: 'TABLE/index/GSI1',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#acme#*'] } },
    },
    {
      Effect: 'Allow',
      // The KEYS_ONLY index makes invoicesByStatus fetch the items from the table.
      Action: ['dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
      Resource: 'TABLE',
      // Plan has no tenant id in its key: out of the tenant's reach, so not listed.
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#acme', 'TENANT#acme#*'] } },
    },
  ]);
});

test('a policy variable is inserted as is; literal wildcards and $ in an id are escaped', () => {
  const { stack, table } = tableStack(manifest);
  const tagged = newFunction(stack, 'Tagged');
  const odd = newFunction(stack, 'Odd');
  table.grantAccess(tagged, { patterns: ['tenant'], tenant: { attribute: 'tenantId', value: '${aws:PrincipalTag/tenantId}' } });
  table.grantAccess(odd, { patterns: ['tenant'], tenant: { attribute: 'tenantId', value: 'a*b?c d' } });
  expect(leadingKeys(statementsOf(stack, tagged)[0])).toEqual(['TENANT#${aws:PrincipalTag/tenantId}']);
  // 'a*b?c d': the space is key-escaped to `$a`, whose `$` IAM must read literally.
  expect(leadingKeys(statementsOf(stack, odd)[0])).toEqual(['TENANT#a${*}b${?}c${$}ad']);
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

/** IAM StringLike: `*` any run, `?` one character, `${*}` `${?}` `${$}` literal. */
function stringLike(pattern: string, value: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const literal = /^\$\{([*?$])\}/.exec(pattern.slice(i));
    if (literal) {
      re += '\\' + literal[1];
      i += 3;
    } else if (pattern[i] === '*') {
      re += '.*';
    } else if (pattern[i] === '?') {
      re += '.';
    } else {
      re += pattern[i].replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp('^' + re + '$', 's').test(value);
}

test('property: a tenant matches its own keys on every template and never another tenant\'s', () => {
  const model = compileManifest(manifest).model;
  const id = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'b', '#', '$', '*', '?', ' ', 'Z', '-') });
  fc.assert(fc.property(id, id, id, fc.integer({ min: 0, max: 3 }), (mine, theirs, invoiceId, shard) => {
    fc.pre(mine !== theirs);
    const { stack, table } = tableStack(manifest);
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { patterns: ['invoicesByStatus', 'tenant'], readItems: true, tenant: { attribute: 'tenantId', value: mine } });
    const patterns = statementsOf(stack, fn).flatMap(leadingKeys);
    const keysOf = (tenantId: string) => {
      const values = { tenantId, invoiceId, status: 'OPEN' };
      const key = (template: any) => (composeKey(template, values, model.delimiter, model.escapeChar) as { key: string }).key;
      return [key(model.entities.Tenant.keys.table.pk), key(model.entities.Invoice.keys.table.pk), `${key(model.entities.Invoice.keys.GSI1.pk)}#${shard}`];
    };
    for (const key of keysOf(mine)) expect(patterns.some((p) => stringLike(p, key))).toBe(true);
    for (const key of keysOf(theirs)) expect(patterns.some((p) => stringLike(p, key))).toBe(false);
  }), { numRuns: propertyRuns(60) });
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
  if (scope) m.entities.Invoice.uniqueScope = scope;
  return m;
}

test('writes of a unique entity scoped by the tenant get the tenant\'s guard keys in a statement of their own, and the read before', () => {
  const { stack, table } = tableStack(withUniqueNumbers('tenantId'));
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { writes: [WriteOperation.PUT], tenant: { attribute: 'tenantId', value: 'acme' } });
  expect(statementsOf(stack, fn)).toEqual([
    {
      Effect: 'Allow',
      Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
      Resource: 'TABLE',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#acme', 'TENANT#acme#*'] } },
    },
    {
      Effect: 'Allow',
      // An upsert that changes the number deletes the guard of the old one.
      Action: ['dynamodb:DeleteItem', 'dynamodb:PutItem'],
      Resource: 'TABLE',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#acme#${$}unique#*'] } },
    },
  ]);
});

test('without tenant isolation the guard writes are restricted to guard keys: a delete-only grant deletes no other item through them', () => {
  for (const [scope, pattern] of [[undefined, '${$}unique#*'], ['tenantId', 'TENANT#*#${$}unique#*']] as const) {
    const { stack, table } = tableStack(withUniqueNumbers(scope));
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { writes: [WriteOperation.DELETE] });
    expect(statementsOf(stack, fn)).toEqual([
      { Effect: 'Allow', Action: 'dynamodb:DeleteItem', Resource: 'TABLE' },
      { Effect: 'Allow', Action: 'dynamodb:DeleteItem', Resource: 'TABLE', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [pattern] } } },
      // The read of the item's values before its delete: Invoice's partitions only.
      { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: 'TABLE', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#*'] } } },
    ]);
  }
});

test('without tenant isolation a grant of writes reads only the unique entities\' partitions before writing, not every item of the table', () => {
  const model = compileManifest(manifest).model;
  const keyOf = (entity: 'Tenant' | 'Invoice' | 'Plan', values: Record<string, unknown>) =>
    (composeKey(model.entities[entity].keys.table.pk, values, model.delimiter, model.escapeChar) as { key: string }).key;
  // Plan's values unique instead: its partition key is PLAN#{planId}.
  const m: any = withUniqueNumbers(undefined);
  delete m.entities.Invoice.unique;
  m.entities.Plan.unique = ['planId'];
  const { stack, table } = tableStack(m);
  const fn = newFunction(stack, 'Fn');
  table.grantAccess(fn, { writes: [WriteOperation.PUT, WriteOperation.UPDATE] });
  const reads = statementsOf(stack, fn).filter((s: any) => [s.Action].flat().includes('dynamodb:GetItem'));
  expect(reads).toEqual([
    { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: 'TABLE', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PLAN#*'] } } },
  ]);
  fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', '#', '$', '*', 'Z') }), (id) => {
    expect(stringLike(leadingKeys(reads[0])[0], keyOf('Plan', { planId: id }))).toBe(true);
    expect(stringLike(leadingKeys(reads[0])[0], keyOf('Tenant', { tenantId: id }))).toBe(false);
    expect(stringLike(leadingKeys(reads[0])[0], keyOf('Invoice', { tenantId: id, invoiceId: id }))).toBe(false);
  }), { numRuns: propertyRuns(50) });

  // A grant that reads items anyway keeps its one table-wide statement for them.
  const both = tableStack(m);
  const reader = newFunction(both.stack, 'Fn');
  both.table.grantAccess(reader, { writes: [WriteOperation.PUT], readItems: true });
  expect(statementsOf(both.stack, reader).filter((s: any) => [s.Action].flat().includes('dynamodb:GetItem'))).toEqual([
    { Effect: 'Allow', Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem'], Resource: 'TABLE' },
  ]);

  // A partition key that starts with a value has no prefix narrower than every key: the read stays table-wide.
  const open = JSON.parse(JSON.stringify(m));
  open.entities.Plan.pk = '{planId}#PLAN';
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
    .toThrow("entity Invoice: its unique values (number) are held by guard items shared by every tenant, which tenant isolation on 'tenantId' cannot allow "
      + "without letting one tenant see and take another's values; declare uniqueScope: 'tenantId' on Invoice");
  // Reads alone write no guard.
  table.grantAccess(fn, { patterns: ['tenant'], tenant: { attribute: 'tenantId', value: 'acme' } });
});

test('property: a tenant\'s grant matches the guard keys the runtime writes for its own values and never another tenant\'s', () => {
  const m = withUniqueNumbers('tenantId');
  const model = compileManifest(m).model;
  const invoice = model.entities.Invoice;
  const id = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'b', '#', '$', '*', '?', ' ', 'Z', '-') });
  fc.assert(fc.property(id, id, fc.string({ minLength: 1, maxLength: 10 }), (mine, theirs, number) => {
    fc.pre(mine !== theirs);
    const { stack, table } = tableStack(m);
    const fn = newFunction(stack, 'Fn');
    table.grantAccess(fn, { writes: [WriteOperation.PUT, WriteOperation.DELETE], tenant: { attribute: 'tenantId', value: mine } });
    const guardStatements = statementsOf(stack, fn).filter((s: any) => [s.Action].flat().includes('dynamodb:DeleteItem'));
    const patterns = guardStatements.flatMap(leadingKeys);
    const guardOf = (tenantId: string) => guardKeyAttributes(model, invoice, 'number', number, { tenantId, invoiceId: 'i1' })![model.indexes.table.partitionKey].S!;
    expect(patterns.some((p) => stringLike(p, guardOf(mine)))).toBe(true);
    expect(patterns.some((p) => stringLike(p, guardOf(theirs)))).toBe(false);
  }), { numRuns: propertyRuns(40) });
});
