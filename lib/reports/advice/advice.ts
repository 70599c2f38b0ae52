// Design advice: what the rules (./rules.ts) propose for a manifest, each priced by the cost model
// as the difference between the design before and after it at the declared rates, and the
// improved manifest that applies every change with an effect, one at a time, each re-advised on the
// design the previous ones left.
import { monthlyDifference, monthlyFigures, MonthlyFigures, OnDemandPrices, pricesOf, SECONDS_PER_MONTH } from './prices';
import { ADVICE_RULES, AdviceRule, Needs, Proposal, patternsReading } from './rules';
import { checkManifest, compileManifest } from '../../manifest/compile';
import { itemsPerPartition } from '../../manifest/rules/hot-partitions';
import { SingleTableManifest } from '../../model/manifest';
import { IndexModel, IndexType, TableModel } from '../../model/model';
import { costReport } from '../cost';
import { WriteKind } from '../cost-writes';

/** Options of the design advice. */
export interface AdviceOptions {
  /**
   * The region whose built-in on-demand list prices price the advice (`ON_DEMAND_PRICES`).
   * @default 'us-east-1'
   */
  readonly region?: string;

  /**
   * Prices to use instead of a built-in region's.
   * @default - the built-in prices of `region`
   */
  readonly prices?: OnDemandPrices;

  /**
   * Stored items per entity name, to price storage.
   * @default - storage is not priced; advice that changes it names the counts to give
   */
  readonly itemCounts?: { [entityName: string]: number };

  /**
   * Whether the table uses provisioned capacity: changes the alarms per GSI and adds capacity minimums to the effects.
   * @default false
   */
  readonly provisioned?: boolean;
}

/** One piece of advice. */
export interface Advice {
  /** The rule it comes from. */
  readonly rule: AdviceRule;
  /** The entities it concerns. */
  readonly entities: string[];
  /** The indexes it concerns. */
  readonly indexes: string[];
  /** The access patterns it concerns. */
  readonly patterns: string[];
  /** What to change. */
  readonly change: string;
  /** Why, in one sentence. */
  readonly why: string;
  /** What it changes per month at the declared rates: negative figures are savings. */
  readonly monthly: MonthlyFigures;
  /** What else it changes: GSIs, alarms, capacity minimums, consistency, limits. */
  readonly effects: string[];
  /** Why the figures show no saving, when they do not. @default - none */
  readonly note?: string;
  /** Rates, sizes or declarations the figures lack, each naming where to give it. */
  readonly missing: string[];
  /** Whether it changes anything at the declared rates (money or one of `effects`). */
  readonly hasEffect: boolean;
  /** The manifest with only this change. @default - not a change advise can write (see `notWritten`) */
  readonly manifest?: SingleTableManifest;
  /** Why advise cannot write the change. @default - it can: see `manifest` */
  readonly notWritten?: string;
}

/** Advice for a manifest, with the design before and after. */
export interface AdviceReport {
  /** The prices used. */
  readonly prices: OnDemandPrices;
  /** Every piece of advice, with effect or not, in rule order. */
  readonly advice: Advice[];
  /** The design's monthly figures as it is. */
  readonly before: MonthlyFigures;
  /** The monthly figures of `improved`. */
  readonly after: MonthlyFigures;
  /** The manifest with every change that has an effect, a rewrite, and saves money or keeps writes from failing, applied. */
  readonly improved: SingleTableManifest;
  /** The rules applied to get `improved`, in order, with the indexes each touched. */
  readonly applied: string[];
  /** The design a deployed table passes through (see `transitionManifest`). @default - `improved` adds no GSI */
  readonly transition?: SingleTableManifest;
  /**
   * How a deployed table gets from the design to `improved`: CloudFormation creates or deletes one
   * GSI per stack update and cannot change a GSI's keys or projection in place.
   */
  readonly deploySteps: string[];
}

/** Advice for a manifest; throws the compiler's ManifestError when it is invalid, and for an unknown region. */
export function designAdvice(manifest: SingleTableManifest, options: AdviceOptions = {}): AdviceReport {
  const prices = options.prices ?? pricesOf(options.region ?? 'us-east-1');
  const counts = options.itemCounts ?? {};
  const compiled = compileManifest(manifest);
  for (const name of Object.keys(counts)) {
    if (!compiled.model.entities[name]) throw new Error(`item count for '${name}': no such entity; use one of ${Object.keys(compiled.model.entities).join(', ')}`);
  }
  const before = monthlyFigures(compiled.model, prices, counts);
  const advice = adviseOn(manifest, compiled.model, compiled.diagnostics, before, prices, options);
  // Each change is re-advised on the design the previous ones left (a merge changes what a projection rule sees).
  let improved = manifest;
  let current = advice;
  const applied: string[] = [];
  for (let round = 0; round < 20; round++) {
    // A change that costs money is written only when it keeps writes from failing (shards, the 10 GB cap).
    const next = current.find((a) => a.hasEffect && a.manifest && (a.monthly.totalCost <= 0 || SAFETY.includes(a.rule)));
    if (!next) break;
    applied.push(`${next.rule} ${next.indexes.join(', ')}`);
    improved = next.manifest!;
    const c = compileManifest(improved);
    current = adviseOn(improved, c.model, c.diagnostics, monthlyFigures(c.model, prices, counts), prices, options);
  }
  const next = compileManifest(improved).model;
  const after = monthlyFigures(next, prices, counts);
  // A transition that does not compile (more GSIs than a table may have, say) is left to the steps' prose.
  const proposed = transitionManifest(manifest, improved);
  const transition = proposed && checkManifest(proposed).model ? proposed : undefined;
  return { prices, advice, before, after, improved, applied, transition, deploySteps: deploySteps(compiled.model, next) };
}

/** The stack updates and backfills that move a deployed table from `before` to `after`, in order. */
export function deploySteps(before: TableModel, after: TableModel): string[] {
  const gsis = (m: TableModel) => Object.values(m.indexes).filter((i) => i.type === IndexType.GSI);
  const shape = (i: IndexModel) => JSON.stringify([
    i.partitionKey, i.sortKey, i.projection, [...i.nonKeyAttributes].sort(), i.partitionAttributes, i.sortAttributes,
  ]);
  const added = gsis(after).filter((i) => !before.indexes[i.name]).map((i) => i.name);
  const removed = gsis(before).filter((i) => !after.indexes[i.name]).map((i) => i.name);
  const changed = gsis(after).filter((i) => before.indexes[i.name] && shape(before.indexes[i.name]) !== shape(i)).map((i) => i.name);
  const entered = newSlots(before, after);
  const steps: string[] = [];
  for (const name of changed) {
    steps.push(`GSI ${name} changes its keys or projection, which a deployed GSI cannot do in place: declare the new one under another name `
      + `(e.g. ${name}V2) next to ${name}, deploy, backfill, move its patterns to it and deploy, then remove ${name} and deploy`);
  }
  if (entered.length) {
    const what = [added.length ? `GSI ${added.join(', ')}` : '', `the key templates of ${entered.join(', ')}`].filter((x) => x).join(' and ');
    steps.push(`deploy the transition manifest: the current design plus ${what}, the patterns unchanged (--write writes it next to the improved one)`
      + `${added.length ? '; one added GSI per stack update, as CloudFormation creates one GSI per update' : ''}`);
    steps.push('backfill the stored items into it: single-table backfill <transition> --from <current> --table <table> --dry-run prices the writes; run it again without --dry-run');
  }
  if (removed.length) {
    steps.push(`deploy the improved manifest's patterns, then remove ${removed.join(', ')} one GSI per stack update (CloudFormation deletes one GSI per update)`);
    steps.push(`backfill with the improved manifest --from the ${entered.length ? 'transition' : 'current'} one: it removes the key attributes of ${removed.join(', ')} from the stored items`);
  } else if (entered.length) {
    steps.push('deploy the improved manifest: the patterns read the new index entries');
  }
  return steps;
}

/** `entity index` for every index slot an entity populates in `after` and not in `before`. */
function newSlots(before: TableModel, after: TableModel): string[] {
  return Object.values(after.entities).flatMap((e) => Object.keys(e.keys)
    .filter((index) => index !== 'table' && !before.entities[e.name]?.keys[index])
    .map((index) => `${e.name} on ${index}`));
}

/**
 * The design a deployed table passes through on its way to `improved`: the current one plus every
 * GSI `improved` adds and every entity's key templates for the index slots it newly populates,
 * with the patterns unchanged, so the application keeps reading the indexes it reads while the new
 * entries are created and backfilled. Undefined when `improved` populates no new slot.
 */
export function transitionManifest(current: SingleTableManifest, improved: SingleTableManifest): SingleTableManifest | undefined {
  type Mutable = { globalIndexes?: Record<string, unknown>; entities: Record<string, { indexes?: Record<string, unknown> }> };
  const copy = JSON.parse(JSON.stringify(current)) as Mutable;
  let changed = false;
  for (const [name, def] of Object.entries(improved.globalIndexes ?? {})) {
    if (Object.hasOwn(current.globalIndexes ?? {}, name)) continue;
    copy.globalIndexes = { ...copy.globalIndexes ?? {}, [name]: def };
    changed = true;
  }
  for (const [entity, def] of Object.entries(improved.entities)) {
    for (const [index, keys] of Object.entries(def.indexes ?? {})) {
      const target = copy.entities[entity];
      if (!target || Object.hasOwn(target.indexes ?? {}, index)) continue;
      target.indexes = { ...target.indexes ?? {}, [index]: keys };
      changed = true;
    }
  }
  return changed ? copy as unknown as SingleTableManifest : undefined;
}

const SAFETY = [AdviceRule.SHARD_HOT_KEY, AdviceRule.GSI_FOR_UNBOUNDED_COLLECTION];
const MONEY_ONLY = [AdviceRule.PROJECT_READ_ATTRIBUTES, AdviceRule.PROJECT_FETCHED_ATTRIBUTES];

function adviseOn(manifest: SingleTableManifest, model: TableModel, diagnostics: ReturnType<typeof compileManifest>['diagnostics'],
  before: MonthlyFigures, prices: OnDemandPrices, options: AdviceOptions): Advice[] {
  const counts = options.itemCounts ?? {};
  const input = { manifest, model, diagnostics, provisioned: options.provisioned === true };
  return ADVICE_RULES.flatMap((rule) => rule(input)).map((p) => {
    const monthly = p.rewrite
      ? monthlyDifference(before, monthlyFigures(compileManifest(p.rewrite).model, prices, counts), prices)
      : p.rule === AdviceRule.SPARSE_FLAG_INDEX
        ? indexShare(model, p.entities[0], p.indexes[0], prices, counts)
        : p.rule === AdviceRule.KEY_INSTEAD_OF_FILTER ? filteredShare(model, p.patterns[0], prices) : monthlyDifference(before, before, prices);
    const money = monthly.writeUnits !== 0 || monthly.readUnits !== 0 || monthly.storageGb !== 0;
    // A projection change is worth making only for the money it saves.
    const hasEffect = MONEY_ONLY.includes(p.rule) ? monthly.totalCost < 0 : money || p.effects.length > 0;
    return {
      rule: p.rule,
      entities: p.entities,
      indexes: p.indexes,
      patterns: p.patterns,
      change: p.change,
      why: p.why,
      monthly,
      effects: p.effects,
      note: money && p.rule !== AdviceRule.SHARD_HOT_KEY ? undefined : p.noSaving,
      missing: missingFigures(model, p, counts),
      hasEffect,
      manifest: p.rewrite,
      ...p.rewrite || !p.manual ? {} : { notWritten: p.manual },
    };
  });
}

/** The most a sparse key saves: what the entity's entries on the index cost (its writes and storage there). */
function indexShare(model: TableModel, entity: string, index: string, prices: OnDemandPrices, counts: { [entity: string]: number }): MonthlyFigures {
  const report = costReport(model);
  const put = report.writes.find((w) => w.entity === entity && w.kind === WriteKind.PUT)!;
  const units = put.indexes.find((i) => i.index === index)?.units ?? 0;
  const rate = model.entities[entity].writesPerSecond ?? 0;
  const bytes = (report.storage.find((s) => s.entity === entity)!.indexBytes[index] ?? 0) * (Object.hasOwn(counts, entity) ? counts[entity] : 0);
  const zero = { writeUnits: 0, readUnits: 0, storageGb: 0, writeCost: 0, readCost: 0, storageCost: 0, totalCost: 0, writeUnitsPerSecondByIndex: {} };
  const share = {
    ...zero, writeUnits: rate * units * SECONDS_PER_MONTH, storageGb: bytes / 1024 ** 3, writeUnitsPerSecondByIndex: { [index]: rate * units },
  };
  return monthlyDifference(share, zero, prices);
}

/** What a pattern's reads of items it drops cost: the most a key of its own saves. */
function filteredShare(model: TableModel, pattern: string, prices: OnDemandPrices): MonthlyFigures {
  const read = costReport(model).reads.find((r) => r.pattern === pattern)!;
  const units = (model.patterns[pattern].readsPerSecond ?? 0) * (read.filteredUnitsPerRead ?? 0) * SECONDS_PER_MONTH;
  const zero = { writeUnits: 0, readUnits: 0, storageGb: 0, writeCost: 0, readCost: 0, storageCost: 0, totalCost: 0, writeUnitsPerSecondByIndex: {} };
  return monthlyDifference({ ...zero, readUnits: units }, zero, prices);
}

/** The declarations a proposal's figures lack. */
function missingFigures(model: TableModel, p: Proposal, counts: { [entity: string]: number }): string[] {
  const missing: string[] = [];
  const needs = new Set<Needs>(p.needs);
  if (needs.has('writes')) {
    for (const e of p.entities) if (model.entities[e]?.writesPerSecond === undefined) missing.push(`writesPerSecond on entity ${e}`);
  }
  if (p.rule === AdviceRule.KEY_INSTEAD_OF_FILTER) {
    for (const e of p.entities.slice(model.patterns[p.patterns[0]].entities.length)) {
      if (itemsPerPartition(model.entities[e]) === undefined) missing.push(`maxItemsPerPartition on entity ${e}`);
    }
  }
  if (needs.has('reads')) {
    const patterns = p.patterns.length ? p.patterns.map((n) => model.patterns[n]).filter((x) => x) : patternsReading(model, p.entities);
    for (const pattern of patterns) if (pattern.readsPerSecond === undefined) missing.push(`readsPerSecond on pattern ${pattern.name}`);
  }
  if (needs.has('storage')) {
    for (const e of p.entities) if (!Object.hasOwn(counts, e)) missing.push(`the item count of ${e} (--item-counts ${e}=N)`);
  }
  return missing;
}
