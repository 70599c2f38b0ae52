// The design advice on designs with the classic index mistakes and on the example app: each piece
// named with its figures at us-east-1's list prices, the improved manifest, its backfill plan, and
// the CLI's output and --write.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { manifest as example } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { planBackfill } from '../../lib/migrate/plan';
import { designAdvice } from '../../lib/reports/advice/advice';
import { adviceMarkdown } from '../../lib/reports/advice/advice-markdown';
import { SECONDS_PER_MONTH } from '../../lib/reports/advice/prices';
import { AdviceRule } from '../../lib/reports/advice/rules';
import { DesignReports } from '../../lib/reports/design-reports';
import { ROOT, runIn } from '../cli/run';
import { checkedFiles, blocksOf } from '../docs/doc-blocks';
import { accountEvents, customerPartition, largeOrders, notesOnLsi, taskStatus, threeLookupIndexes } from '../fixtures/advice-designs';
import { ADVICE_DOC_FILES, adviceDocBlock } from '../support/advice-docs';

const shown = (report: ReturnType<typeof designAdvice>) => report.advice.filter((a) => a.hasEffect);

test('three single-entity GSIs: one overloaded GSI1 with the merged templates, no write unit saved, 2 GSIs and 16 alarms freed', () => {
  const report = designAdvice(threeLookupIndexes);
  const [merge] = shown(report);
  expect(shown(report)).toHaveLength(1);
  expect(merge.rule).toBe(AdviceRule.OVERLOAD_GSIS);
  expect(merge.indexes).toEqual(['EmailIndex', 'StatusIndex', 'CategoryIndex']);
  expect(merge.change).toContain('User pk EMAIL#{email} sk USER#{userId}; Order pk STATUS#{status} sk {createdAt}; Product pk CAT#{category} sk PRICE#{price}');
  expect(merge.monthly).toMatchObject({ writeUnits: 0, readUnits: 0, storageGb: 0, totalCost: 0 });
  expect(merge.note).toMatch(/saves no write units/);
  expect(merge.effects).toEqual([
    'frees 2 of the 20 GSIs a table may have',
    'removes 16 alarm(s) and 2 dashboard widget(s) of SingleTable.monitor() (8 alarms per GSI on demand)',
  ]);
  // The same 65 write units/s go to the one index instead of three.
  expect(merge.monthly.writeUnitsPerSecondByIndex).toEqual({ EmailIndex: -10, StatusIndex: -50, CategoryIndex: -5, GSI1: 65 });
  const merged = compileManifest(report.improved).model;
  expect(Object.keys(merged.indexes)).toEqual(['table', 'GSI1']);
  expect(Object.values(merged.patterns).map((p) => p.index)).toEqual(['GSI1', 'GSI1', 'GSI1']);
  // Provisioned: 6 alarms per GSI and the capacity the two GSIs held.
  const provisioned = shown(designAdvice(threeLookupIndexes, { provisioned: true }))[0];
  expect(provisioned.effects[1]).toContain('removes 12 alarm(s)');
  expect(provisioned.effects[2]).toMatch(/provisioned read and write capacity of 2 GSI/);
  // Deployed: the transition design (the three GSIs and GSI1) first, then the removals one by one.
  expect(Object.keys(report.transition!.globalIndexes!)).toEqual(['EmailIndex', 'StatusIndex', 'CategoryIndex', 'GSI1']);
  expect(report.deploySteps).toEqual([
    'deploy the transition manifest: the current design plus GSI GSI1 and the key templates of User on GSI1, Order on GSI1, Product on GSI1, the patterns unchanged '
    + '(--write writes it next to the improved one); one added GSI per stack update, as CloudFormation creates one GSI per update',
    expect.stringMatching(/^backfill the stored items into it: single-table backfill <transition> --from <current>/),
    "deploy the improved manifest's patterns, then remove EmailIndex, StatusIndex, CategoryIndex one GSI per stack update (CloudFormation deletes one GSI per update)",
    expect.stringMatching(/^backfill with the improved manifest --from the transition one/),
  ]);
  // The move: each entity newly populates GSI1 and leaves its old index.
  const plan = planBackfill(merged, compileManifest(threeLookupIndexes).model);
  expect(plan.entities.map((e) => e.changes.map((c) => `${c.index} ${c.change}`))).toEqual([
    ['GSI1 ADDED', 'EmailIndex REMOVED'], ['GSI1 ADDED', 'StatusIndex REMOVED'], ['GSI1 ADDED', 'CategoryIndex REMOVED'],
  ]);
});

test('10 KB orders: ALL to INCLUDE saves 9 write units per put ($1,478.25 a month at 100 puts/s), KEYS_ONLY to INCLUDE saves the fetches', () => {
  const report = designAdvice(largeOrders, { itemCounts: { Order: 10_000_000 } });
  const [include, fetched] = shown(report);
  expect(shown(report)).toHaveLength(2);
  expect(include.rule).toBe(AdviceRule.PROJECT_READ_ATTRIBUTES);
  expect(include.change).toBe('project INCLUDE totalAmount on GSI ByCustomer instead of ALL: what ordersForCustomer read besides the keys');
  // 10 units per ALL entry, 1 per INCLUDE entry: 9 x 100 writes/s x 730 h.
  expect(include.monthly.writeUnits).toBe(-9 * 100 * SECONDS_PER_MONTH);
  expect(include.monthly.writeCost).toBeCloseTo(-1478.25, 2);
  // Reads of a 10 KB entry (1.5 units, eventually consistent) become 0.5: 200 reads/s.
  expect(include.monthly.readUnits).toBe(-1 * 200 * SECONDS_PER_MONTH);
  expect(include.monthly.readCost).toBeCloseTo(-65.7, 2);
  // 10 million entries of 10,340 bytes become entries of keys and the amount.
  expect(include.monthly.storageGb).toBeCloseTo(-93.82, 2);
  expect(fetched.rule).toBe(AdviceRule.PROJECT_FETCHED_ATTRIBUTES);
  expect(fetched.change).toMatch(/^project INCLUDE status, totalAmount on GSI ByRep instead of KEYS_ONLY/);
  // 500 reads/s each paid a query (0.5) and a 10 KB fetch (1.5): 1.5 saved per read; writes stay at 1 unit.
  expect(fetched.monthly).toMatchObject({ writeUnits: 0, readUnits: -1.5 * 500 * SECONDS_PER_MONTH });
  expect(fetched.monthly.readCost).toBeCloseTo(-246.38, 2);
  expect(fetched.monthly.storageCost).toBeGreaterThan(0);
  expect(report.applied).toEqual(['PROJECT_READ_ATTRIBUTES ByCustomer', 'PROJECT_FETCHED_ATTRIBUTES ByRep']);
  // A deployed GSI's projection cannot change in place: each goes under a new name first.
  expect(report.transition).toBeUndefined();
  expect(report.deploySteps.map((step) => step.split(' changes')[0])).toEqual(['GSI ByCustomer', 'GSI ByRep']);
  expect(report.before.totalCost - report.after.totalCost).toBeCloseTo(-include.monthly.totalCost - fetched.monthly.totalCost, 6);
  // Without item counts, storage is named as missing.
  expect(shown(designAdvice(largeOrders))[0].missing).toEqual(['the item count of Order (--item-counts Order=N)']);
});

test('a required status as a GSI key: a sparse flag, priced at most at the index\'s share for the entity', () => {
  const [sparse] = shown(designAdvice(taskStatus, { itemCounts: { Task: 1_000_000 } }));
  expect(sparse.rule).toBe(AdviceRule.SPARSE_FLAG_INDEX);
  expect(sparse.change).toContain('pk STATUS#{statusFlag}');
  // Each task's ByStatus entry is about 1.6 KB (ALL): 2 units x 20 writes/s.
  expect(sparse.monthly.writeUnitsPerSecondByIndex).toEqual({ ByStatus: -40 });
  expect(sparse.monthly.writeCost).toBeCloseTo(-40 * SECONDS_PER_MONTH * 0.625e-6, 6);
  expect(sparse.monthly.storageGb).toBeLessThan(0);
  expect(sparse.manifest).toBeUndefined();
});

test('an unused GSI, a GSI pattern within the table partition, a hot kind key: remove, move to an LSI, shard', () => {
  const report = designAdvice(accountEvents, { itemCounts: { Account: 10_000, Event: 100_000_000 } });
  const byRule = Object.fromEntries(shown(report).map((a) => [a.rule, a]));
  expect(Object.keys(byRule)).toEqual([
    AdviceRule.UNUSED_INDEX, AdviceRule.SPARSE_FLAG_INDEX, AdviceRule.LSI_FOR_PARTITION_PATTERN, AdviceRule.SHARD_HOT_KEY,
  ]);
  // ByPlan: Account's 5 puts/s each write one unit to it.
  expect(byRule.UNUSED_INDEX.change).toBe('remove GSI ByPlan and the key templates Account declare for it');
  expect(byRule.UNUSED_INDEX.monthly.writeUnits).toBe(-5 * SECONDS_PER_MONTH);
  expect(byRule.UNUSED_INDEX.monthly.writeCost).toBeCloseTo(-8.21, 2);
  // ByTime is keyed by the account: the KEYS_ONLY slot LSI2 serves it, the same write units, smaller entries.
  const lsi = byRule.LSI_FOR_PARTITION_PATTERN;
  expect(lsi.indexes).toEqual(['ByTime', 'LSI2']);
  expect(lsi.monthly.writeUnits).toBe(0);
  expect(lsi.monthly.storageGb).toBeCloseTo(-7.08, 2);
  expect(lsi.effects).toContain('eventsByTime may then read strongly consistent');
  // 3,000 writes/s of one unit on a key of 3 values: ceil(3000 / 800) = 4 shards; each read then queries 4 shards.
  const shard = byRule.SHARD_HOT_KEY;
  expect(shard.change).toBe("shard GSI ByKind: sharding = { shardCount: 4 } for Event's 3000 writes/s x 1 unit(s)");
  expect(shard.monthly.readUnits).toBe(10 * (4 * 0.5 - 0.5) * SECONDS_PER_MONTH);
  expect(shard.note).toMatch(/^costs read units/);
  expect(report.applied).toEqual(['UNUSED_INDEX ByPlan', 'LSI_FOR_PARTITION_PATTERN ByTime, LSI2', 'SHARD_HOT_KEY ByKind']);
  expect(compileManifest(report.improved).diagnostics.filter((d) => d.code === 'HOT_PARTITION_KEY')).toEqual([]);
});

test('an LSI pattern on collections nothing bounds: a GSI without the 10 GB cap, at its price', () => {
  const report = designAdvice(notesOnLsi, { itemCounts: { Note: 1_000_000 } });
  const [move] = shown(report);
  expect(move.rule).toBe(AdviceRule.GSI_FOR_UNBOUNDED_COLLECTION);
  expect(move.change).toBe('move notesByTime from LSI1 to a new GSI GSI1 keyed pk ACCOUNT#{accountId} sk NOTE_AT#{writtenAt}');
  expect(move.monthly.writeUnits).toBe(0);
  expect(move.monthly.storageCost).toBeCloseTo(0.02, 2);
  expect(move.effects[0]).toBe("no 10 GB cap on Note's item collections");
  // Kept from failing writes, so written although it costs a little storage.
  expect(report.applied).toEqual(['GSI_FOR_UNBOUNDED_COLLECTION LSI1']);
  // Strongly consistent reads keep the LSI: the advice is to bound the collection.
  const strong = { ...notesOnLsi.accessPatterns!.notesByTime, consistentRead: true };
  const consistent = designAdvice({ ...notesOnLsi, accessPatterns: { notesByTime: strong } });
  expect(shown(consistent)[0].change).toBe('notesByTime reads strongly consistent, which only LSI1 gives: bound Note with maxItemsPerPartition instead');
  expect(shown(consistent)[0].manifest).toBeUndefined();
});

test('a pattern reading the whole customer partition: BEGINS_WITH "ORDER#" saves the reads of the profile and 50 addresses', () => {
  const report = designAdvice(customerPartition);
  const [key] = shown(report);
  expect(shown(report)).toHaveLength(1);
  expect(key.rule).toBe(AdviceRule.KEY_INSTEAD_OF_FILTER);
  expect(key.change).toBe('query ordersOfCustomer with sortKeyCondition BEGINS_WITH (the prefix "ORDER#" its Order sort keys start with) instead of the whole partition, which also holds Customer, Address');
  // An order (0.5 unit) read with the profile and 50 addresses of about 390 bytes: 3 units; 100 reads/s.
  expect(key.monthly.readUnits).toBe(-2.5 * 100 * SECONDS_PER_MONTH);
  expect(key.monthly.readCost).toBeCloseTo(-82.125, 6);
  expect(compileManifest(report.improved).model.patterns.ordersOfCustomer.sortKeyCondition).toBe('BEGINS_WITH');
  // Without a bound on the addresses, the advice names it.
  const address = { ...customerPartition.entities.Address, maxItemsPerPartition: undefined };
  const unbounded = designAdvice({ ...customerPartition, entities: { ...customerPartition.entities, Address: address } });
  expect(unbounded.advice.find((a) => a.rule === AdviceRule.KEY_INSTEAD_OF_FILTER)!.missing).toEqual(['maxItemsPerPartition on entity Address']);
});

test('the example app: GSI3 overloads into GSI1; what to declare to price the rest', () => {
  const report = designAdvice(example);
  expect(shown(report).map((a) => `${a.rule} ${a.indexes.join(',')}`)).toEqual(['OVERLOAD_GSIS GSI1,GSI3']);
  const hidden = report.advice.filter((a) => !a.hasEffect);
  expect(hidden.map((a) => a.rule)).toEqual([
    AdviceRule.PROJECT_READ_ATTRIBUTES, AdviceRule.PROJECT_FETCHED_ATTRIBUTES, AdviceRule.KEY_INSTEAD_OF_FILTER,
  ]);
  expect(hidden[0].change).toMatch(/^declare the attributes orderById, customerByEmail, productsByCategory, membersOfGroup read/);
  expect(hidden[1].missing).toContain('readsPerSecond on pattern runningTasks');
  // A customer with their orders also reads their memberships (up to 1,000), which share the partition: no sort-key prefix leaves them out.
  expect(hidden[2].change).toMatch(/^customerWithOrders reads Membership items in its partitions and drops them/);
  expect(hidden[2].missing).toEqual(['readsPerSecond on pattern customerWithOrders']);
});

test('the CLI prints the advice with its prices, hides advice without effect unless --all, and --write writes JSON that compiles', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'advise-'));
  try {
    writeFileSync(join(dir, 'orders.json'), JSON.stringify(largeOrders));
    const out = await runIn(dir, 'advise', 'orders.json', '--item-counts', 'Order=10000000', '--write', 'improved.json');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('on-demand list prices of us-east-1 as of 2024-11-01: $0.625 per million write request units');
    expect(out.stdout).toContain('Per month: write units -2,365.2M (-$1,478.25), read units -525.6M (-$65.70), storage -93.82 GB (-$23.46); total -$1,567.41.');
    const improved = JSON.parse(readFileSync(join(dir, 'improved.json'), 'utf8'));
    expect(improved.globalIndexes.ByCustomer).toEqual({ projection: 'INCLUDE', include: ['totalAmount'] });
    expect(() => compileManifest(improved)).not.toThrow();
    writeFileSync(join(dir, 'three.json'), JSON.stringify(threeLookupIndexes));
    const all = await runIn(dir, 'advise', 'three.json', '--all');
    expect(all.stdout).toContain('PROJECT_READ_ATTRIBUTES (no effect at these rates)');
    expect((await runIn(dir, 'advise', 'three.json')).stdout).toContain('3 more piece(s) of advice change nothing at these rates (--all lists them).');
    const ts = await runIn(dir, 'advise', 'three.json', '--write', 'three.ts');
    expect(ts.code).toBe(0);
    expect(readFileSync(join(dir, 'three.ts'), 'utf8')).toContain('GSI1: { projection: ProjectionKind.ALL }');
    expect((await runIn(dir, 'advise', 'three.json', '--region', 'mars-1')).stderr).toContain("no built-in prices for region 'mars-1'");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the HTML view and the jsii reports carry the same advice', () => {
  const html = DesignReports.html(threeLookupIndexes);
  expect(html).toContain('<section id="advice">');
  expect(html).toContain('OVERLOAD_GSIS: EmailIndex, StatusIndex, CategoryIndex');
  expect(html).toContain('frees 2 of the 20 GSIs a table may have');
  expect(DesignReports.adviceMarkdown(largeOrders, { itemCounts: { Order: 10_000_000 } })).toContain('total -$1,567.41');
  expect(JSON.parse(DesignReports.adviceJson(largeOrders)).improved.globalIndexes.ByRep).toEqual({ projection: 'INCLUDE', include: ['status', 'totalAmount'] });
});

test('docs/advice.md: the command prints the output the page shows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'advice-doc-'));
  try {
    for (const [file, design] of Object.entries(ADVICE_DOC_FILES)) writeFileSync(join(dir, file), JSON.stringify(design));
    const { code, output } = adviceDocBlock('test/reports/advice.test.ts');
    const args = code.trim().split(/\s+/);
    expect(args.slice(0, 3)).toEqual(['npx', 'single-table', 'advise']);
    const out = await runIn(dir, ...args.slice(2));
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(output!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('docs/advice.md: the code example compiles against the package and prints the example app\'s advice', () => {
  mkdirSync(join(ROOT, 'cdk.out'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'cdk.out', 'docs-advice-'));
  const printed: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
  try {
    const code = checkedFiles(blocksOf('docs/advice.md')).get('advice.ts')!.text;
    const lib = relative(dir, join(ROOT, 'lib', 'index')).split(sep).join('/');
    const exampleModule = relative(dir, join(ROOT, 'examples', 'manifest')).split(sep).join('/');
    writeFileSync(join(dir, 'advice.ts'), code.replace("from 'cdk-single-table'", `from '${lib}'`).replace("from './manifest'", `from '${exampleModule}'`));
    // The block as a user's module, loaded (and so run) the way the CLI loads one.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    jest.isolateModules(() => require(join(dir, 'advice.ts')));
    expect(printed[0]).toBe('OVERLOAD_GSIS: ' + designAdvice(example).advice[0].change + ' (0.00 USD a month)');
    expect(printed.at(-1)).toMatch(/^# Design advice/);
  } finally {
    log.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('LSI slots no entity populates, on a table whose collections nothing bounds: off at the next creation, not written', () => {
  const report = designAdvice({ ...customerPartition, localIndexes: undefined });
  const off = shown(report).find((a) => a.rule === AdviceRule.UNUSED_INDEX)!;
  expect(off.indexes).toEqual(['LSI1', 'LSI2', 'LSI3', 'LSI4', 'LSI5']);
  expect(off.effects).toEqual(['no 10 GB cap on the item collections of Order, which nothing bounds (maxItemsPerPartition)']);
  expect(off.manifest).toBeUndefined();
  expect(off.notWritten).toMatch(/replaces the table/);
  expect(adviceMarkdown(report)).toContain("- not written by --write: LSIs exist from the table's creation to its deletion: the change replaces the table");
});
