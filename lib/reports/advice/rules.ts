// The advice rules: each reads the compiled model (and the manifest it came from) and proposes
// changes, most with the rewritten manifest, which advice.ts prices with the cost model against
// the original. A rule never prices anything itself, so no rule can claim a saving the cost model
// does not compute.
import { throttleAlarmsPerScope, DASHBOARD_WIDGETS_PER_SCOPE } from '../../construct/monitoring/per-index';
import { segmentsOverlap } from '../../keys/template';
import { checkManifest } from '../../manifest/compile';
import { DiagnosticLevel, ManifestDiagnostic } from '../../manifest/diagnostics';
import { ITEM_COLLECTION_BYTES, itemsPerPartition } from '../../manifest/rules/hot-partitions';
import { indexEntryBytes, shardsFor, writeUnits } from '../../manifest/sizes';
import { GlobalIndexDefinition, ProjectionKind, SingleTableManifest, SortKeyCondition } from '../../model/manifest';
import { EntityModel, FetchMode, IndexModel, IndexType, KeyTemplateModel, LSI_SLOTS, PatternModel, populatesIndex, TABLE_INDEX, TableModel } from '../../model/model';
import { filteredEntities } from '../cost-reads';

/** The rule a piece of advice comes from. */
export enum AdviceRule {
  /** GSIs whose entities never share an item and whose keys cannot collide: one overloaded GSI serves their patterns. */
  OVERLOAD_GSIS = 'OVERLOAD_GSIS',
  /** An ALL projection whose patterns read a few attributes: INCLUDE only those. */
  PROJECT_READ_ATTRIBUTES = 'PROJECT_READ_ATTRIBUTES',
  /** A KEYS_ONLY or INCLUDE projection whose patterns fetch the items: project what they read when the fetches cost more than the writes saved. */
  PROJECT_FETCHED_ATTRIBUTES = 'PROJECT_FETCHED_ATTRIBUTES',
  /** A GSI keyed on a required flag or status holds every item: a sparse key holds only the items a pattern reads. */
  SPARSE_FLAG_INDEX = 'SPARSE_FLAG_INDEX',
  /** A GSI pattern within the table partition: an LSI slot serves it, strongly consistent if wanted, with no GSI. */
  LSI_FOR_PARTITION_PATTERN = 'LSI_FOR_PARTITION_PATTERN',
  /** An LSI pattern on item collections nothing bounds: a GSI has no 10 GB cap. */
  GSI_FOR_UNBOUNDED_COLLECTION = 'GSI_FOR_UNBOUNDED_COLLECTION',
  /** A GSI no pattern queries, or LSI entries no pattern reads: every write pays for them. */
  UNUSED_INDEX = 'UNUSED_INDEX',
  /** A GSI partition key with few values and writes past one partition: shard it. */
  SHARD_HOT_KEY = 'SHARD_HOT_KEY',
  /** A pattern that reads whole partitions and drops other entities' items, where a sort-key prefix would read only its own. */
  KEY_INSTEAD_OF_FILTER = 'KEY_INSTEAD_OF_FILTER',
}

/** Which declared figures a proposal's price depends on. */
export type Needs = 'writes' | 'reads' | 'storage';

/** A rule's proposal, before pricing. */
export interface Proposal {
  readonly rule: AdviceRule;
  readonly entities: string[];
  readonly indexes: string[];
  readonly patterns: string[];
  /** What to change, naming the entities, indexes, patterns and the new key templates or projection. */
  readonly change: string;
  /** The rule, in one sentence. */
  readonly why: string;
  /** What else it changes, where money is not the point. */
  readonly effects: string[];
  /** Figures the price depends on. */
  readonly needs: Needs[];
  /** The design after the change; undefined when the change is not a manifest rewrite advise can make. */
  readonly rewrite?: SingleTableManifest;
  /** Said when the cost model shows no money effect, e.g. why a merge saves no write units. */
  readonly noSaving?: string;
  /** Why advise cannot write the change, when it has no rewrite. */
  readonly manual?: string;
}

/** What the rules read. */
export interface RuleInput {
  readonly manifest: SingleTableManifest;
  readonly model: TableModel;
  readonly diagnostics: ManifestDiagnostic[];
  /** Whether the table is provisioned (changes the alarms per GSI and adds capacity minimums). */
  readonly provisioned: boolean;
}

type Rule = (input: RuleInput) => Proposal[];

/** A manifest change. */
type Edit = (m: Mutable) => void;
type Mutable = { entities: Record<string, any>; globalIndexes?: Record<string, any>; accessPatterns?: Record<string, any>; localIndexes?: any };

/** The manifest after `edit`, or undefined when it does not compile. */
export function rewritten(manifest: SingleTableManifest, edit: Edit): SingleTableManifest | undefined {
  const copy = JSON.parse(JSON.stringify(manifest)) as Mutable;
  edit(copy);
  const { model, diagnostics } = checkManifest(copy as unknown as SingleTableManifest);
  return model && !diagnostics.some((d) => d.level === DiagnosticLevel.ERROR) ? copy as unknown as SingleTableManifest : undefined;
}

const gsis = (model: TableModel) => Object.values(model.indexes).filter((i) => i.type === IndexType.GSI);
const patternsOn = (model: TableModel, index: string) => Object.values(model.patterns).filter((p) => p.index === index);
const entitiesOn = (model: TableModel, index: string) => Object.values(model.entities).filter((e) => populatesIndex(e, model.indexes[index]));
const names = (xs: { name: string }[]) => xs.map((x) => x.name);
const list = (xs: string[]) => xs.join(', ');

/** The effects of removing `count` GSIs (negative: adding them). */
function gsiEffects(count: number, provisioned: boolean): string[] {
  const n = Math.abs(count);
  const alarms = n * throttleAlarmsPerScope(provisioned);
  const freed = count > 0;
  const effects = [
    freed ? `frees ${n} of the 20 GSIs a table may have` : `takes ${n} more of the 20 GSIs a table may have`,
    `${freed ? 'removes' : 'adds'} ${alarms} alarm(s) and ${n * DASHBOARD_WIDGETS_PER_SCOPE} dashboard widget(s) of SingleTable.monitor() (${throttleAlarmsPerScope(provisioned)} alarms per GSI ${provisioned ? 'provisioned' : 'on demand'})`,
  ];
  if (provisioned) effects.push(`${freed ? 'frees' : 'needs'} the provisioned read and write capacity of ${n} GSI(s) (at least 1 unit each, the table's by default)`);
  return effects;
}

/** A GSI no pattern queries costs writes and storage for nothing; LSI entries no pattern reads likewise. */
const unusedIndexes: Rule = ({ manifest, model, provisioned }) => {
  const proposals: Proposal[] = [];
  for (const index of gsis(model)) {
    if (patternsOn(model, index.name).length > 0) continue;
    const entities = names(entitiesOn(model, index.name));
    const rewrite = rewritten(manifest, (m) => {
      delete m.globalIndexes![index.name];
      for (const e of Object.values(m.entities)) if (e.indexes) delete e.indexes[index.name];
    });
    proposals.push({
      rule: AdviceRule.UNUSED_INDEX,
      entities,
      indexes: [index.name],
      patterns: [],
      change: `remove GSI ${index.name}${entities.length ? ` and the key templates ${list(entities)} declare for it` : ''}`,
      why: 'an index no access pattern queries is written and stored on every write of its entities, for no read',
      effects: gsiEffects(1, provisioned),
      needs: ['writes', 'storage'],
      rewrite,
    });
  }
  const lsis = Object.values(model.indexes).filter((i) => i.type === IndexType.LSI);
  const unbounded = names(Object.values(model.entities).filter((e) => itemsPerPartition(e) === undefined));
  // Empty slots matter only where a collection can grow past the cap.
  if (lsis.length > 0 && unbounded.length > 0 && lsis.every((slot) => entitiesOn(model, slot.name).length === 0)) {
    proposals.push({
      rule: AdviceRule.UNUSED_INDEX,
      entities: unbounded,
      indexes: names(lsis),
      patterns: [],
      change: 'turn the LSI slots off (localIndexes: { enabled: false }) when the table is next created, unless a pattern will need one',
      why: 'a table with LSIs caps every item collection at 10 GB and keeps it on one partition, whether or not the slots hold entries',
      effects: [`no 10 GB cap on the item collections of ${list(unbounded)}, which nothing bounds (maxItemsPerPartition)`],
      needs: [],
      manual: 'LSIs exist from the table\'s creation to its deletion: the change replaces the table',
    });
  }
  for (const slot of lsis) {
    const entities = names(entitiesOn(model, slot.name));
    if (entities.length === 0 || patternsOn(model, slot.name).length > 0) continue;
    const rewrite = rewritten(manifest, (m) => {
      for (const e of Object.values(m.entities)) if (e.indexes) delete e.indexes[slot.name];
    });
    proposals.push({
      rule: AdviceRule.UNUSED_INDEX,
      entities,
      indexes: [slot.name],
      patterns: [],
      change: `remove the ${slot.name} sort key templates of ${list(entities)}; the slot stays, empty, for a later pattern`,
      why: 'an LSI entry no access pattern reads costs a write on every write of the item and counts toward the 10 GB item collection cap',
      effects: ['smaller item collections under the 10 GB LSI cap'],
      needs: ['writes', 'storage'],
      rewrite,
    });
  }
  return proposals;
};

/** The projection covering every merged index: ALL if one projects everything, else the union of INCLUDE lists. */
function unionProjection(defs: GlobalIndexDefinition[]): Pick<GlobalIndexDefinition, 'projection' | 'include'> {
  const kinds = defs.map((d) => d.projection ?? ProjectionKind.ALL);
  if (kinds.includes(ProjectionKind.ALL)) return { projection: ProjectionKind.ALL };
  const include = [...new Set(defs.flatMap((d) => d.include ?? []))];
  return include.length ? { projection: ProjectionKind.INCLUDE, include } : { projection: ProjectionKind.KEYS_ONLY };
}

/** The merged index's name: a generic name in the group, else the first free `GSI<n>`. */
function overloadedName(group: string[], taken: string[]): string {
  const generic = group.find((n) => /^GSI\d+$/.test(n));
  if (generic) return generic;
  for (let n = 1; ; n++) if (!taken.includes(`GSI${n}`)) return `GSI${n}`;
}

function mergeEdit(group: string[], target: string): Edit {
  return (m) => {
    const defs = group.map((g) => m.globalIndexes![g] as GlobalIndexDefinition);
    const merged: Record<string, unknown> = { ...unionProjection(defs) };
    const capacity = (key: 'readCapacity' | 'writeCapacity') => defs.map((d) => d[key]).filter((c): c is number => c !== undefined);
    if (capacity('readCapacity').length) merged.readCapacity = Math.max(...capacity('readCapacity'));
    if (capacity('writeCapacity').length) merged.writeCapacity = Math.max(...capacity('writeCapacity'));
    const kept = group.includes(target) ? (m.globalIndexes![target] as GlobalIndexDefinition) : undefined;
    if (kept?.partitionKeyName) merged.partitionKeyName = kept.partitionKeyName;
    if (kept?.sortKeyName) merged.sortKeyName = kept.sortKeyName;
    if (defs.some((d) => d.hasSortKey === false)) merged.hasSortKey = false;
    const indexes: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(m.globalIndexes!)) {
      if (name === group[0]) indexes[target] = merged;
      else if (!group.includes(name)) indexes[name] = def;
    }
    m.globalIndexes = indexes;
    for (const e of Object.values(m.entities)) {
      if (!e.indexes) continue;
      const moved: Record<string, unknown> = {};
      for (const [name, keys] of Object.entries(e.indexes)) moved[group.includes(name) ? target : name] = keys;
      e.indexes = moved;
    }
    for (const p of Object.values(m.accessPatterns ?? {})) if (group.includes(p.index)) p.index = target;
  };
}

/**
 * GSIs whose entities are disjoint, with composed unsharded keys of the same shape, merged one at a
 * time into the first while the merged manifest still compiles (its keys cannot collide).
 */
const overloadGsis: Rule = ({ manifest, model, provisioned }) => {
  const candidates = gsis(model).filter((i) => !i.partitionAttributes && !i.shards && patternsOn(model, i.name).length > 0);
  const proposals: Proposal[] = [];
  const used = new Set<string>();
  for (const first of candidates) {
    if (used.has(first.name)) continue;
    const group = [first.name];
    const entities = new Set(names(entitiesOn(model, first.name)));
    for (const other of candidates) {
      if (other === first || used.has(other.name) || (other.sortKey === undefined) !== (first.sortKey === undefined)) continue;
      const theirs = names(entitiesOn(model, other.name));
      if (theirs.some((e) => entities.has(e))) continue;
      const tryGroup = [...group, other.name];
      if (!rewritten(manifest, mergeEdit(tryGroup, overloadedName(tryGroup, Object.keys(model.indexes))))) continue;
      group.push(other.name);
      theirs.forEach((e) => entities.add(e));
    }
    if (group.length < 2) continue;
    group.forEach((g) => used.add(g));
    const target = overloadedName(group, Object.keys(model.indexes));
    const rewrite = rewritten(manifest, mergeEdit(group, target))!;
    const templates = [...entities].map((e) => {
      const slot = group.find((g) => model.entities[e].keys[g])!;
      const keys = model.entities[e].keys[slot];
      return `${e} pk ${keys.pk.source}${keys.sk ? ` sk ${keys.sk.source}` : ''}`;
    });
    const projection = unionProjection(group.map((g) => (manifest.globalIndexes ?? {})[g]));
    const widened = group.some((g) => model.indexes[g].projection !== projection.projection
      || (projection.projection === ProjectionKind.INCLUDE && projection.include!.some((a) => !model.indexes[g].nonKeyAttributes.includes(a))));
    proposals.push({
      rule: AdviceRule.OVERLOAD_GSIS,
      entities: [...entities],
      indexes: group,
      patterns: names(Object.values(model.patterns).filter((p) => group.includes(p.index))),
      change: `merge GSIs ${list(group)} into one overloaded GSI ${target} (${projection.projection}${projection.include ? ` ${list(projection.include)}` : ''}) with the key templates ${templates.join('; ')}`,
      why: 'patterns on indexes whose entities never share an item can share one index whose partition keys cannot collide, which the compiler checks',
      effects: gsiEffects(group.length - 1, provisioned),
      needs: widened ? ['writes', 'storage'] : [],
      rewrite,
      noSaving: 'saves no write units or storage on demand: each item was in one of these indexes and is in the one merged index',
    });
  }
  return proposals;
};

/** Attributes `pattern` reads that `entity` neither holds in its keys on the table nor on `index`. */
function nonKeyReads(entity: EntityModel, index: string, attributes: string[]): string[] {
  const inKeys = new Set([entity.keys[TABLE_INDEX], entity.keys[index]].flatMap((k) => [...k?.pk.attributes ?? [], ...k?.sk?.attributes ?? []]));
  return attributes.filter((a) => Object.hasOwn(entity.attributes, a) && !inKeys.has(a));
}

/** The INCLUDE list serving every pattern on a GSI, or undefined when a pattern declares no `attributes`. */
function readAttributes(manifest: SingleTableManifest, model: TableModel, index: IndexModel): { include: string[]; undeclared: string[] } {
  const include = new Set<string>();
  const undeclared: string[] = [];
  for (const p of patternsOn(model, index.name)) {
    if (!manifest.accessPatterns?.[p.name]?.attributes) {
      undeclared.push(p.name);
      continue;
    }
    for (const e of p.entities) nonKeyReads(model.entities[e], index.name, p.attributes).forEach((a) => include.add(a));
  }
  return { include: [...include], undeclared };
}

function setProjection(index: string, include: string[] | undefined): Edit {
  return (m) => {
    const def = m.globalIndexes![index];
    delete def.include;
    if (include) Object.assign(def, { projection: ProjectionKind.INCLUDE, include });
    else def.projection = ProjectionKind.ALL;
  };
}

/** An ALL GSI whose patterns each declare the few attributes they read: INCLUDE exactly those. */
const projectReadAttributes: Rule = ({ manifest, model }) => {
  const proposals: Proposal[] = [];
  for (const index of gsis(model)) {
    const patterns = patternsOn(model, index.name);
    if (index.projection !== ProjectionKind.ALL || patterns.length === 0) continue;
    const { include, undeclared } = readAttributes(manifest, model, index);
    const entities = names(entitiesOn(model, index.name));
    const base = {
      rule: AdviceRule.PROJECT_READ_ATTRIBUTES as AdviceRule,
      entities,
      indexes: [index.name],
      patterns: names(patterns),
      why: 'an ALL index copies whole items on every write and stores them again, while its patterns read only what they name',
    };
    if (undeclared.length) {
      proposals.push({
        ...base,
        change: `declare the attributes ${list(undeclared)} read (accessPatterns.<name>.attributes), so GSI ${index.name} can project only those`,
        effects: [],
        needs: ['writes', 'storage'],
        noSaving: `cannot be priced until ${list(undeclared)} declare attributes`,
      });
      continue;
    }
    const rewrite = rewritten(manifest, setProjection(index.name, include));
    proposals.push({
      ...base,
      change: `project INCLUDE ${list(include) || '(keys only)'} on GSI ${index.name} instead of ALL: what ${list(names(patterns))} read besides the keys`,
      effects: [],
      needs: ['writes', 'storage'],
      rewrite,
    });
  }
  return proposals;
};

/** A GSI whose patterns fetch the items: project what they read; worth it when the fetches cost more than the writes it adds. */
const projectFetchedAttributes: Rule = ({ manifest, model }) => {
  const proposals: Proposal[] = [];
  for (const index of gsis(model)) {
    const patterns = patternsOn(model, index.name);
    const fetching = patterns.filter((p) => p.fetch === FetchMode.BATCH_GET);
    if (index.projection === ProjectionKind.ALL || fetching.length === 0) continue;
    const { include, undeclared } = readAttributes(manifest, model, index);
    const all = undeclared.length > 0;
    const wider = all ? undefined : [...new Set([...index.nonKeyAttributes.filter((a) => a !== model.typeAttribute), ...include])];
    const rewrite = rewritten(manifest, setProjection(index.name, wider));
    proposals.push({
      rule: AdviceRule.PROJECT_FETCHED_ATTRIBUTES,
      entities: names(entitiesOn(model, index.name)),
      indexes: [index.name],
      patterns: names(fetching),
      change: `project ${wider ? `INCLUDE ${list(wider)}` : 'ALL'} on GSI ${index.name} instead of ${index.projection}${all ? ` (${list(undeclared)} declare no attributes: they read whole items)` : ''}, so ${list(names(fetching))} read no item back`,
      why: 'a pattern whose index lacks what it reads pays a BatchGetItem of whole items per result, which costs more than projecting them once the reads outnumber the writes',
      effects: [`${list(names(fetching))} answer in one round trip instead of a query then a BatchGetItem`],
      needs: ['writes', 'reads', 'storage'],
      rewrite,
    });
  }
  return proposals;
};

/** Shard a GSI whose low-cardinality partition key takes more writes than a partition. */
const shardHotKeys: Rule = ({ manifest, model, diagnostics }) => {
  const proposals: Proposal[] = [];
  for (const d of diagnostics) {
    if (d.code !== 'HOT_PARTITION_KEY') continue;
    const [, indexName, entityName] = /^index (\S+), entity (\S+)$/.exec(d.location) ?? [];
    const index = model.indexes[indexName];
    const entity = model.entities[entityName];
    if (!index || !entity || index.partitionAttributes) continue;
    const patterns = names(patternsOn(model, index.name));
    const base = {
      rule: AdviceRule.SHARD_HOT_KEY as AdviceRule,
      entities: [entity.name],
      indexes: [index.name],
      patterns,
      why: 'one partition takes about 1,000 write units per second, and a key with few values can send every write to one of them',
    };
    if (entity.writesPerSecond === undefined) {
      proposals.push({
        ...base,
        change: `declare ${entity.name}'s writesPerSecond to size the shards of GSI ${index.name} (shards = ceil(peak index write units/s / 800))`,
        effects: [],
        needs: ['writes'],
        noSaving: `cannot be sized until ${entity.name} declares writesPerSecond`,
      });
      continue;
    }
    const units = writeUnits(indexEntryBytes(entity, index, model.indexes[TABLE_INDEX], model.typeAttribute));
    const shardCount = shardsFor(entity.writesPerSecond * units);
    const rewrite = rewritten(manifest, (m) => { m.globalIndexes![index.name].sharding = { shardCount }; });
    proposals.push({
      ...base,
      change: `shard GSI ${index.name}: sharding = { shardCount: ${shardCount} } for ${entity.name}'s ${entity.writesPerSecond} writes/s x ${units} unit(s)`,
      effects: [`each of the ${shardCount} shards takes at most ${Math.ceil((entity.writesPerSecond * units) / shardCount)} write units/s, under the 1,000 a partition takes`,
        `${list(patterns) || 'its patterns'} fan out over ${shardCount} queries per read`],
      needs: ['reads'],
      rewrite,
      noSaving: 'costs read units: every read queries each shard, billed at least half a unit each',
    });
  }
  return proposals;
};

/** A required attribute with a handful of values as a GSI's whole partition key: every item is in the index. */
const sparseFlagIndexes: Rule = ({ model }) => {
  const proposals: Proposal[] = [];
  for (const index of gsis(model)) {
    if (index.partitionAttributes) continue;
    for (const entity of entitiesOn(model, index.name)) {
      const attrs = entity.keys[index.name].pk.attributes;
      if (attrs.length !== 1) continue;
      const attr = entity.attributes[attrs[0]];
      if (!attr.required || attr.distinctValues === undefined || attr.distinctValues > 4) continue;
      const patterns = patternsOn(model, index.name).filter((p) => p.entities.includes(entity.name));
      proposals.push({
        rule: AdviceRule.SPARSE_FLAG_INDEX,
        entities: [entity.name],
        indexes: [index.name],
        patterns: names(patterns),
        change: `if ${list(names(patterns)) || 'the patterns'} read one ${attr.name} value (e.g. the running or open items), key GSI ${index.name} on an optional BOOLEAN attribute set only on those items (pk ${entity.keys[index.name].pk.source.replace(`{${attr.name}}`, `{${attr.name}Flag}`)}), and remove it when they leave that state`,
        why: `every ${entity.name} carries the required ${attr.name}, so the index holds and writes every item, while a key present only on the items a pattern reads holds only those`,
        effects: [`the index then holds only the flagged ${entity.name} items; the figure is the most it saves: the index's share for ${entity.name} at the declared rates`],
        needs: ['writes', 'storage'],
        manual: 'the application writes the flag and removes it, and the stored items need it',
      });
    }
  }
  return proposals;
};

/**
 * Whether the item collections `entity` is in stay under the 10 GB LSI cap: every entity whose
 * table partition key can take the same values is bounded, each item counted with an LSI entry as
 * large as itself (an upper bound).
 */
function boundedCollection(model: TableModel, entity: EntityModel): boolean {
  const pk = entity.keys[TABLE_INDEX].pk.segments;
  let bytes = 0;
  for (const member of Object.values(model.entities).filter((e) => segmentsOverlap(e.keys[TABLE_INDEX].pk.segments, pk))) {
    const items = itemsPerPartition(member);
    if (items === undefined) return false;
    bytes += items * member.typicalItemSizeBytes * 2;
  }
  return bytes <= ITEM_COLLECTION_BYTES;
}

/**
 * GSI vs LSI per pattern: a GSI pattern whose partition key is the entity's table partition key
 * can use a free LSI slot when the collection is bounded; an LSI pattern on collections nothing
 * bounds is safer on a GSI unless it needs strong consistency.
 */
const gsiOrLsi: Rule = ({ manifest, model, provisioned }) => {
  const proposals: Proposal[] = [];
  const freeSlots = model.localIndexesEnabled ? LSI_SLOTS.filter((s) => entitiesOn(model, s).length === 0) : [];
  for (const index of gsis(model)) {
    const entities = entitiesOn(model, index.name);
    const patterns = patternsOn(model, index.name);
    if (index.partitionAttributes || index.shards || entities.length !== 1 || patterns.length === 0 || freeSlots.length === 0) continue;
    const [entity] = entities;
    const keys = entity.keys[index.name];
    if (keys.pk.source !== entity.keys[TABLE_INDEX].pk.source || !keys.sk || !boundedCollection(model, entity)) continue;
    // A free slot projecting what the GSI projects, else the first free one.
    const slot = freeSlots.find((f) => model.indexes[f].projection === index.projection) ?? freeSlots[0];
    freeSlots.splice(freeSlots.indexOf(slot), 1);
    const rewrite = rewritten(manifest, (m) => {
      m.entities[entity.name].indexes[slot] = { sk: keys.sk!.source };
      delete m.entities[entity.name].indexes[index.name];
      delete m.globalIndexes![index.name];
      for (const p of Object.values(m.accessPatterns ?? {})) if (p.index === index.name) p.index = slot;
    });
    if (!rewrite) continue;
    proposals.push({
      rule: AdviceRule.LSI_FOR_PARTITION_PATTERN,
      entities: [entity.name],
      indexes: [index.name, slot],
      patterns: names(patterns),
      change: `move ${list(names(patterns))} from GSI ${index.name} to the free slot ${slot} with ${entity.name} sk ${keys.sk.source} (its GSI partition key is its table partition key ${keys.pk.source})`,
      why: 'a pattern that reads within one table partition can use an LSI, which reads strongly consistent when asked and needs no GSI of its own, when its item collections stay under 10 GB',
      effects: [...gsiEffects(1, provisioned), `${list(names(patterns))} may then read strongly consistent`, 'its item collections count the LSI entries toward the 10 GB cap'],
      needs: ['writes', 'reads', 'storage'],
      rewrite,
    });
  }
  for (const slot of Object.values(model.indexes).filter((i) => i.type === IndexType.LSI)) {
    for (const p of patternsOn(model, slot.name)) {
      const unbounded = p.entities.filter((e) => itemsPerPartition(model.entities[e]) === undefined);
      if (unbounded.length === 0) continue;
      const base = {
        rule: AdviceRule.GSI_FOR_UNBOUNDED_COLLECTION as AdviceRule,
        entities: p.entities,
        indexes: [slot.name],
        patterns: [p.name],
        why: 'every LSI caps an item collection at 10 GB, after which writes to it fail; a GSI has no such cap but reads only eventually consistent',
      };
      if (p.consistentRead) {
        proposals.push({
          ...base,
          change: `${p.name} reads strongly consistent, which only ${slot.name} gives: bound ${list(unbounded)} with maxItemsPerPartition instead`,
          effects: ['the cap stays; the bound makes the check at synth time'],
          needs: [],
          manual: 'the bound is a fact about the data only you know',
        });
        continue;
      }
      const target = overloadedName([], Object.keys(model.indexes));
      const rewrite = rewritten(manifest, (m) => {
        const include = slot.projection === ProjectionKind.INCLUDE ? { include: slot.nonKeyAttributes.filter((a) => a !== model.typeAttribute) } : {};
        m.globalIndexes = { ...m.globalIndexes ?? {}, [target]: { projection: slot.projection, ...include } };
        for (const e of p.entities) {
          const keys = model.entities[e].keys;
          const def = m.entities[e].indexes;
          def[target] = { pk: keys[TABLE_INDEX].pk.source, sk: keys[slot.name].sk!.source };
          delete def[slot.name];
        }
        m.accessPatterns![p.name].index = target;
      });
      proposals.push({
        ...base,
        change: `move ${p.name} from ${slot.name} to a new GSI ${target} keyed pk ${model.entities[p.entities[0]].keys[TABLE_INDEX].pk.source} sk ${model.entities[p.entities[0]].keys[slot.name].sk!.source}`,
        effects: [`no 10 GB cap on ${list(unbounded)}'s item collections`, ...gsiEffects(-1, provisioned)],
        needs: ['writes', 'reads', 'storage'],
        rewrite,
      });
    }
  }
  return proposals;
};

/** The literal segments a template starts with, up to its first attribute. */
function leadingLiterals(template: KeyTemplateModel | undefined): string[] {
  const literals: string[] = [];
  for (const s of template?.segments ?? []) {
    if (s.literal === undefined) break;
    literals.push(s.literal);
  }
  return literals;
}

/**
 * A pattern without a sort-key condition reads its partitions whole, other entities' items too,
 * and drops them; when its entities' sort keys start with literal segments the others' cannot
 * start with, BEGINS_WITH reads only its own (a prefix ends at a segment boundary).
 */
const keyInsteadOfFilter: Rule = ({ manifest, model }) => {
  const proposals: Proposal[] = [];
  for (const p of Object.values(model.patterns)) {
    const others = filteredEntities(model, p);
    if (others.length === 0) continue;
    const own = p.entities.map((e) => leadingLiterals(model.entities[e].keys[p.index].sk));
    const shared = own.reduce((a, b) => { let n = 0; while (n < a.length && n < b.length && a[n] === b[n]) n++; return a.slice(0, n); });
    // Another entity's sort key cannot start with the shared segments when, at one of them, it holds another literal.
    const excluded = (o: string) => {
      const segments = model.entities[o].keys[p.index].sk?.segments ?? [];
      return shared.some((literal, i) => segments[i]?.literal !== undefined && segments[i].literal !== literal);
    };
    const usable = shared.length > 0 && others.every(excluded);
    const unbounded = others.filter((o) => itemsPerPartition(model.entities[o]) === undefined);
    const base = {
      rule: AdviceRule.KEY_INSTEAD_OF_FILTER as AdviceRule,
      entities: [...p.entities, ...others],
      indexes: [p.index],
      patterns: [p.name],
      why: 'a query pays for every item in the key range it reads, also those it then drops because another entity stored them there',
    };
    if (!usable) {
      proposals.push({
        ...base,
        change: `${p.name} reads ${list(others)} items in its partitions and drops them: give ${list(p.entities)} sort keys starting with a prefix of their own (then sortKeyCondition BEGINS_WITH), or ${list(others)} a partition key of their own`,
        effects: [],
        needs: ['reads'],
        noSaving: unbounded.length ? `cannot be priced until ${list(unbounded)} declare maxItemsPerPartition` : undefined,
        manual: 'new sort or partition keys are a choice of key templates, and the stored items move with a backfill',
      });
      continue;
    }
    const rewrite = rewritten(manifest, (m) => { m.accessPatterns![p.name].sortKeyCondition = SortKeyCondition.BEGINS_WITH; });
    proposals.push({
      ...base,
      change: `query ${p.name} with sortKeyCondition BEGINS_WITH (the prefix ${JSON.stringify(shared.join(model.delimiter) + model.delimiter)} its ${list(p.entities)} sort keys start with) instead of the whole partition, which also holds ${list(others)}`,
      effects: [],
      needs: ['reads'],
      rewrite,
      noSaving: unbounded.length ? `cannot be priced until ${list(unbounded)} declare maxItemsPerPartition` : undefined,
    });
  }
  return proposals;
};

/** Every rule, in the order advice is listed. */
export const ADVICE_RULES: readonly Rule[] = [
  unusedIndexes, overloadGsis, projectReadAttributes, projectFetchedAttributes, sparseFlagIndexes, gsiOrLsi, shardHotKeys, keyInsteadOfFilter,
];

/** Patterns of the model that read `entities` (used for naming what a figure misses). */
export function patternsReading(model: TableModel, entities: string[]): PatternModel[] {
  return Object.values(model.patterns).filter((p) => p.entities.some((e) => entities.includes(e)));
}
