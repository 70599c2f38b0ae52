// Lambda handlers bundled as NodejsFunction bundles them: no CDK code may reach a Lambda, the SDK
// stays external, no handler resolves a manifest (it loads the compiled model file), a handler
// carries only the operations it calls, and every bundle stays within its byte budget.
import * as path from 'path';
import { build, Metafile } from 'esbuild';
import { bundle, BundleResult, LAMBDA_BUNDLE_OPTIONS, packagedRuntime, ROOT } from '../support/bundle';

/**
 * Budgets in minified bytes, through `cdk-single-table/runtime` as the package delivers it (the
 * example app's also from the sources, as its stack's NodejsFunction bundles it). They are
 * regression guards, not goals: each sits just above what its shape measures today (bench/history.md
 * has the breakdown), so a regression fails here: an operation reachable from another, the whole
 * model in a handler that needs slices, the manifest's resolution in a Lambda. The shapes: put +
 * query and get only on the access module `single-table generate --access` writes, the quick
 * start's (the operations over the deployed model, no generated code), and the example app's (a
 * put of any entity and any pattern by name, its sharded and fetched patterns included).
 * The access module's functions take the runtime's arguments: its put + query handler carries the
 * read options `query` accepts (filter, attributes, with the runtime's result decoding and the check
 * of the attributes against those the pattern declares it reads: about 5.9 KB), paging (0.6 KB), the
 * lookup by name with "did you mean" (0.9 KB: a swap of two letters is one edit, lookalike letters
 * win ties), the loader of the whole model its table hands the runtime's operations (1.3 KB) and
 * the check that the table was opened from the module's manifest. A query by pattern name also
 * carries the key conditions of GSIs keyed on the items' own attributes and a put their value
 * checks (about 4.9 KB: the model decides at run time which a pattern needs), and the writes and
 * the fan-out of a sharded one (about 2.1 KB: its shard attribute, and the merge by the sort
 * attributes' tuple with numbers in decimal order).
 */
const BUDGETS = {
  'bench/handlers/cdk-single-table.ts': 23_200,
  'bench/handlers/cdk-single-table-get.ts': 8_550,
  'examples/handler.ts': 47_500,
  'bench/handlers/cdk-single-table-generic.ts': 47_500,
};
const ACCESS_HANDLERS = ['bench/handlers/cdk-single-table.ts', 'bench/handlers/cdk-single-table-get.ts'] as const;

const results: Record<string, { fromSources: BundleResult; asPackage: BundleResult }> = {};
beforeAll(async () => {
  for (const entry of Object.keys(BUDGETS)) {
    results[entry] = { fromSources: await bundle(entry), asPackage: await bundle(entry, { asPackage: true }) };
  }
});

const bundles = () => Object.values(results).flatMap((r) => [r.fromSources, r.asPackage]);
const inputsOf = (entry: keyof typeof BUDGETS) => {
  const { inputs } = results[entry].fromSources;
  return Object.keys(inputs).filter((i) => inputs[i] > 0);
};

test.each(Object.entries(BUDGETS))('%s stays within %d bytes, from the sources and through the package', (entry, budget) => {
  expect(results[entry].fromSources.bytes).toBeLessThanOrEqual(budget);
  expect(results[entry].asPackage.bytes).toBeLessThanOrEqual(budget);
});

test('no aws-cdk-lib or constructs in any bundle', () => {
  for (const entry of Object.keys(BUDGETS) as (keyof typeof BUDGETS)[]) {
    expect(inputsOf(entry).filter((i) => /node_modules\/(aws-cdk-lib|constructs)\//.test(i) || i.startsWith('lib/construct/'))).toEqual([]);
  }
  for (const { code } of bundles()) expect(code).not.toMatch(/aws-cdk-lib|require\("constructs"\)/);
});

test('the SDK is left to the Lambda runtime: required, never bundled', () => {
  for (const result of bundles()) {
    expect(Object.keys(result.inputs).filter((i) => i.includes('node_modules/'))).toEqual([]);
    expect(result.code).toContain('require("@aws-sdk/client-dynamodb")');
  }
});

test('no handler resolves a manifest or carries a validation rule or the model file: each holds the slices of its access module', () => {
  for (const entry of Object.keys(BUDGETS) as (keyof typeof BUDGETS)[]) {
    expect(inputsOf(entry).filter((i) => i.startsWith('lib/manifest/'))).toEqual([]);
  }
  // The access functions hold their slices of the model, never the whole file: sharded, fetched
  // and key-decoded patterns read through theirs too.
  for (const entry of ACCESS_HANDLERS) {
    expect(inputsOf(entry).filter((i) => i.endsWith('.access.ts'))).toHaveLength(1);
    // The loader of the whole model comes along (the runtime's operations read it through the same table), never a model file.
    expect(inputsOf(entry).filter((i) => i.endsWith('.model.json'))).toEqual([]);
  }
  // Without generated code, the handler reads the model the stack deployed: no model file in its bundle either.
  for (const entry of ['bench/handlers/cdk-single-table-generic.ts', 'examples/handler.ts']) {
    expect(inputsOf(entry as keyof typeof BUDGETS).filter((i) => i.endsWith('.model.json') || i.endsWith('.access.ts'))).toEqual([]);
    expect(inputsOf(entry as keyof typeof BUDGETS)).toContain('lib/runtime/table/load-model.ts');
  }
  // Codes only resolution and the rules raise: their text in the code means they came along.
  for (const { code } of bundles()) expect(code).not.toMatch(/PATTERN_UNRESOLVED|TABLE_KEY_MISSING|SHARD_LOCK_|KEY_COLLISION/);
});

test('a handler carries only the operations it calls', () => {
  const putQuery = inputsOf('bench/handlers/cdk-single-table.ts');
  // The query takes the runtime's options (read options, paging), and the table loads the whole model for the runtime's operations.
  expect(putQuery).toEqual(expect.arrayContaining(['lib/runtime/access/write.ts', 'lib/runtime/access/query.ts', 'lib/runtime/query/read-options.ts', 'lib/runtime/query/pages.ts',
    'lib/runtime/table/load-model.ts']));
  // No fan-out, update, batch, get or range condition: unreachable from a put and a query of one
  // partition without a sort-key condition. No shard or item collection code: the bench table has
  // neither a sharded index nor LSIs.
  for (const absent of ['lib/runtime/query/fanout.ts', 'lib/runtime/query/fanout-shards.ts', 'lib/runtime/items/update.ts', 'lib/runtime/table/client.ts', 'lib/runtime/query/fanout-heap.ts',
    'lib/runtime/access/read.ts', 'lib/runtime/batch/send-batches.ts', 'lib/runtime/items/item-collections.ts', 'lib/keys/shard.ts', 'lib/runtime/query/fanout-order.ts',
    // The condition compiler comes with `where`, which the handler does not call.
    'lib/runtime/expressions/condition.ts',
    // Nor the slice reader (sharded, fetched, key-decoded patterns) or template parsing.
    'lib/runtime/access/slice-read.ts', 'lib/runtime/query/fetch-items.ts']) {
    expect(putQuery).not.toContain(absent);
  }
  const get = inputsOf('bench/handlers/cdk-single-table-get.ts');
  for (const absent of ['lib/runtime/query/key-condition.ts', 'lib/runtime/query/plan.ts', 'lib/runtime/query/cursor.ts', 'lib/runtime/items/item-collections.ts', 'lib/runtime/query/fanout.ts',
    'lib/runtime/access/write.ts', 'lib/runtime/access/query.ts']) {
    expect(get).not.toContain(absent);
  }
  for (const code of [results['bench/handlers/cdk-single-table.ts'].asPackage.code, results['bench/handlers/cdk-single-table-get.ts'].asPackage.code]) {
    expect(code).not.toMatch(/PARTIAL_INDEX_UPDATE|DUPLICATE_BATCH_KEY|fan-out query: |swap the bounds/);
  }
  // A get reads the table key, whose attributes are strings: no date or number key code.
  expect(results['bench/handlers/cdk-single-table-get.ts'].asPackage.code).not.toMatch(/ISO-8601|P000/);
  // One require of the SDK, however many operations the runtime has.
  for (const { code } of bundles()) expect(code.split('require("@aws-sdk/client-dynamodb")').length - 1).toBe(1);
  // The example serves every pattern, sharded and fetched ones too: the fan-out and the fetch are
  // there, with no generated code and no update, batch write or stream decoding.
  expect(inputsOf('examples/handler.ts')).toEqual(expect.arrayContaining(['lib/runtime/query/fanout.ts', 'lib/runtime/query/fetch-items.ts', 'lib/runtime/query/read-index.ts']));
  for (const absent of ['lib/runtime/access/slice-read.ts', 'lib/runtime/items/update.ts', 'lib/runtime/batch/batch-write.ts', 'lib/runtime/streams/decode-stream.ts', 'lib/runtime/table/client.ts']) {
    expect(inputsOf('examples/handler.ts')).not.toContain(absent);
  }
  // No template is parsed at run time: a get composes its key from its parts. (The put + query handler
  // carries the runtime's decoding of key values, which a query given `attributes` runs.)
  expect(results['bench/handlers/cdk-single-table-get.ts'].asPackage.code).not.toMatch(/\.split\(\w+\.delimiter\)/);
});

test('a fetched pattern carries the fetch through its slice reader', async () => {
  const fetched = Object.keys((await bundle('test/fixtures/handlers/fetched-pattern-handler.ts')).inputs);
  expect(fetched).toEqual(expect.arrayContaining(['lib/runtime/access/slice-read.ts', 'lib/runtime/query/fetch-items.ts', 'lib/runtime/batch/send-batches.ts']));
});

test('users get what the sources measure: an import of cdk-single-table/runtime is the ES module build, tree-shaken', () => {
  for (const entry of Object.keys(BUDGETS)) {
    const { fromSources, asPackage } = results[entry];
    // The runtime's ES module build (its main entry, or the generated code's `/access` entry and the chunks they share).
    expect(path.relative(ROOT, packagedRuntime())).toBe('out/runtime/index.mjs');
    expect(Object.keys(asPackage.inputs).filter((i) => /^out\/runtime\/.*\.mjs$/.test(i)).length).toBeGreaterThan(0);
    expect(Object.keys(asPackage.inputs).filter((i) => i.startsWith('lib/') || i.startsWith('out/') && !i.endsWith('.mjs'))).toEqual([]);
    // The same code either way, give or take the module boundaries esbuild draws.
    expect(Math.abs(asPackage.bytes - fromSources.bytes)).toBeLessThan(fromSources.bytes * 0.03);
  }
});

test('createClient, the object holding every operation, is the larger option: it bundles them all, and no compiler', async () => {
  const { bytes } = await bundle('test/fixtures/handlers/create-client-handler.ts', { asPackage: true });
  expect(bytes).toBeGreaterThan(results['bench/handlers/cdk-single-table.ts'].asPackage.bytes * 1.3);
  const { inputs } = await bundle('test/fixtures/handlers/create-client-handler.ts');
  expect(Object.keys(inputs)).toContain('lib/runtime/table/client.ts');
  expect(Object.keys(inputs).filter((i) => i.startsWith('lib/manifest/'))).toEqual([]);
});

// What versioned, timestamped and unique entities' writes carry: their error codes, the expected
// version's placeholder and fields, the updatedAt they set.
const MAINTAINED_CODE = [/VERSION_CONFLICT/, /UNIQUE_NEEDS_TRANSACTION/, /expectedVersion/, /storedVersion/, /\.updatedAt\b/, /retry with version/];

test('a handler over a model without versioned, timestamped or unique entities carries none of their code', async () => {
  for (const entry of Object.keys(BUDGETS) as (keyof typeof BUDGETS)[]) {
    expect(inputsOf(entry)).not.toContain('lib/runtime/items/maintained-writes.ts');
    expect(inputsOf(entry)).not.toContain('lib/runtime/items/version-timestamps.ts');
    for (const { code } of [results[entry].fromSources, results[entry].asPackage]) {
      for (const pattern of MAINTAINED_CODE) expect(code).not.toMatch(pattern);
    }
  }
  // createClient passes the hooks itself: its bundle has every one of them, so the patterns find what they look for.
  const { code } = await bundle('test/fixtures/handlers/create-client-handler.ts', { asPackage: true });
  for (const pattern of MAINTAINED_CODE) expect(code).toMatch(pattern);
});

test('the operations with no condition compiler unless a condition is made: the condition code comes with where', async () => {
  const handler = 'test/fixtures/handlers/model-file-handler.ts';
  for (const result of [await bundle(handler), await bundle(handler, { asPackage: true })]) {
    expect(result.bytes).toBeLessThanOrEqual(61_300);
    for (const pattern of [...MAINTAINED_CODE, /caller's condition/, /TRANSACTION_CANCELLED|TransactWriteItems/]) expect(result.code).not.toMatch(pattern);
  }
  const inputs = Object.keys((await bundle(handler)).inputs);
  for (const absent of ['lib/runtime/items/maintained-writes.ts', 'lib/runtime/items/version-timestamps.ts', 'lib/runtime/expressions/condition.ts', 'lib/runtime/transact/plan.ts', 'lib/runtime/items/update.ts', 'lib/runtime/expressions/where.ts']) {
    expect(inputs).not.toContain(absent);
  }
  // A filter made with where brings the compiler, and the write's wording of a failed condition does not come with it.
  const filtered = await bundle('test/fixtures/handlers/filtered-query-handler.ts');
  expect(Object.keys(filtered.inputs)).toEqual(expect.arrayContaining(['lib/runtime/expressions/condition.ts', 'lib/runtime/expressions/where.ts']));
});

test('a require() of cdk-single-table/runtime (CommonJS) reaches no compiler, no validation rule and no CDK code', async () => {
  const result = await build({
    ...LAMBDA_BUNDLE_OPTIONS,
    stdin: { contents: "module.exports = require('cdk-single-table/runtime').createClient;", resolveDir: ROOT, loader: 'js' },
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(Object.values((result.metafile as Metafile).outputs)[0].inputs).map((i) => path.relative(ROOT, path.resolve(ROOT, i)));
  expect(inputs).toContain('out/runtime/table/client.js');
  expect(inputs.filter((i) => /^out\/(manifest|construct|reports|cli|generate|migrate)\//.test(i) || /aws-cdk-lib|constructs/.test(i))).toEqual([]);
});

test('a handler that sends no transaction carries none of the transaction or unique-value code', () => {
  for (const entry of Object.keys(BUDGETS) as (keyof typeof BUDGETS)[]) {
    const inputs = inputsOf(entry);
    for (const absent of ['lib/runtime/transact/plan.ts', 'lib/runtime/transact/run.ts', 'lib/runtime/transact/send.ts', 'lib/runtime/items/unique.ts', 'lib/runtime/transact/transact-write.ts',
      'lib/keys/unique-guard.ts']) {
      expect(inputs).not.toContain(absent);
    }
    expect(results[entry].asPackage.code).not.toMatch(/TRANSACTION_CANCELLED|TransactWriteItems/);
  }
});
