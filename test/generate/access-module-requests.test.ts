// The generated request of one-partition patterns: patterns whose requests have one shape (table
// or index, a filter of as many types, select) share one function of what differs between them,
// so a bundle holds the literal once; a shape of one pattern stays an inline literal. `putItem`,
// `getItem` and `query` look names up in the records of what each reads.
import { accessModule } from '../../lib/generate/access-module';
import { resolveModel } from '../../lib/manifest/resolve';
import { AttributeKind, defineManifest } from '../../lib/runtime';

const attributes = { id: { type: AttributeKind.STRING, required: true } };
const entity = (name: string) => ({ attributes, pk: `${name}#{id}`, sk: name, indexes: { GSI1: { pk: `ALL#${name}`, sk: '{id}' } } });

const model = resolveModel(defineManifest({
  entities: { A: entity('A'), B: entity('B'), C: entity('C') },
  globalIndexes: { GSI1: {} },
  accessPatterns: {
    allA: { index: 'GSI1', entities: ['A'], pk: 'ALL#A', description: 'Every A (unsharded: no readShards, no ShardModel, no SortOrder)' },
    allB: { index: 'GSI1', entities: ['B'], pk: 'ALL#B' },
    aAndB: { index: 'GSI1', entities: ['A', 'B'], pk: 'ALL#A' },
    oneA: { entities: ['A'], pk: 'A#{id}' },
  },
}));
const source = accessModule(model, { file: '/app/manifest.access.ts', manifestFile: '/app/manifest.ts' });
const requestOf = (pattern: string) => new RegExp(`export const ${pattern}Pattern: PatternAccess = \\{[\\s\\S]*?\\n  request: (.*),\\n`).exec(source)?.[1];

test('two patterns of one shape share one request function, each with its index, partition key attribute and type', () => {
  expect(source.match(/^const request\d+ = /gm)).toEqual(['const request1 = ']);
  expect(source).toContain('const request1 = (IndexName: string, partitionKey: string, typeValue0: string): PatternAccess["request"] => (TableName, pk, ScanIndexForward) => '
    + '({ TableName, IndexName, KeyConditionExpression: "#pk = :pk", ExpressionAttributeNames: { "#pk": partitionKey, "#type": "Type" }, '
    + 'ExpressionAttributeValues: { ":pk": { S: pk }, ":t0": { S: typeValue0 } }, ScanIndexForward, FilterExpression: "#type IN (:t0)" });');
  expect(requestOf('allA')).toBe('/* @__PURE__ */ request1("GSI1", "GSI1PK", "A")');
  expect(requestOf('allB')).toBe('/* @__PURE__ */ request1("GSI1", "GSI1PK", "B")');
  // The function comes before the patterns that call it when the module loads.
  expect(source.indexOf('const request1 =')).toBeLessThan(source.indexOf('export const allAPattern'));
});

test('a shape of one pattern stays inline: the table query has no IndexName at all, the filter of two types its own literal', () => {
  expect(requestOf('oneA')).toBe('(TableName, pk, ScanIndexForward) => ({ TableName, KeyConditionExpression: "#pk = :pk", '
    + 'ExpressionAttributeNames: { "#pk": "PK", "#type": "Type" }, ExpressionAttributeValues: { ":pk": { S: pk }, ":t0": { S: "A" } }, '
    + 'ScanIndexForward, FilterExpression: "#type IN (:t0)" })');
  expect(requestOf('aAndB')).toContain('IndexName: "GSI1", ');
  expect(requestOf('aAndB')).toContain('":t0": { S: "A" }, ":t1": { S: "B" } }');
});

test('putItem, getItem and query check the table\'s model is the module\'s, then look the name up in the records of what each reads', () => {
  // The check is each function's first statement: nothing is read or sent before it.
  expect(source.match(/ \{\n {2}checkModuleTable\(table, FINGERPRINT\);\n/g)).toHaveLength(3);
  expect(source).toContain('const puts = { "A": APut, "B": BPut, "C": CPut };');
  expect(source).toContain('  const put = named("entity", puts, entity);\n  return putWith(table, put, item, options as never, collectionsOf);');
  expect(source).toContain('const keys = { "A": AKey, "B": BKey, "C": CKey };');
  expect(source).toContain('const patterns = { "allA": allAPattern, "allB": allBPattern, "aAndB": aAndBPattern, "oneA": oneAPattern };');
  expect(source).toContain('  return pagedQuery(table, () => named("pattern", patterns, pattern), input as never, options as never, queryPattern) as never;');
  // Its imports are the helpers its code refers to, and nothing else: names in a description's text are not references.
  expect(source).toContain('Every A (unsharded: no readShards, no ShardModel, no SortOrder)');
  for (const name of ['readShards', 'ShardModel', 'SortOrder']) expect(source).not.toMatch(new RegExp(`^import .*\\b${name}\\b`, 'm'));
  expect(source).toMatch(/^import \{ STRING_KIND, attributeFault, checkModuleTable, checkSize, collectionsOf, declaredOnly, getEntity, keyFault, named, openAccess, pagedQuery, partitionCondition, putWith, queryPattern, stringSegment, textSegment \} from "cdk-single-table\/runtime\/access";$/m);
});
