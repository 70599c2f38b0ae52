// Model resolution: defaults, physical names, parsed templates, index slots, fetch modes and shard
// counts, which is everything the construct, the runtime and the reports read. No validation rule
// runs here (compile.ts adds them): resolveModel serves a manifest that needs no checks of its own
// (a backfill's previous manifest, deployed and validated before). What cannot be resolved at all
// (a malformed template, a missing key template, an unknown index or kind) is still reported, with
// the same diagnostics compileManifest gives, and resolveModel throws on it.
import { DiagnosticSink, ManifestError } from './diagnostics';
import { fingerprintOf } from './fingerprint';
import { undeclaredIndexFix } from './index-name-fix';
import { DEFAULT_CREATED_AT, DEFAULT_UPDATED_AT, DEFAULT_VERSION_ATTRIBUTE, maintainedAttributes } from './maintained';
import { defaultValueBytes, estimateItemBytes, peakEntryWriteUnits, shardsFor } from './sizes';
import { describeValue, dict } from './values';
import { ALLOWED_DELIMITERS, escapeCharFor } from '../keys/encoding';
import { indexAnswers } from '../keys/index-attributes';
import { parseTemplate } from '../keys/template';
import { closestName } from '../model/closest-name';
import { deepFreeze } from '../model/freeze';
import {
  AccessPatternDefinition,
  AttributeKind,
  EntityDefinition,
  GlobalIndexDefinition,
  ProjectionKind,
  ShardStrategy,
  SingleTableManifest,
  SortKeyCondition,
  SortOrder,
} from '../model/manifest';
import {
  AttributeModel,
  EntityIndexKeysModel,
  EntityModel,
  FetchMode,
  IndexModel,
  IndexType,
  KeyAttributeModel,
  KeySegmentModel,
  KeyTemplateModel,
  LSI_SLOTS,
  PatternModel,
  ShardModel,
  shardKeyAttributeName,
  SortKeyCoverage,
  TABLE_INDEX,
  TableModel,
} from '../model/model';

/** Physical names of the table's key attributes. */
export const TABLE_PARTITION_KEY = 'PK';
export const TABLE_SORT_KEY = 'SK';

/**
 * The frozen model of a manifest, without the validation rules; throws `ManifestError` when the
 * manifest cannot be resolved. For a manifest no synth has validated, use `compileManifest`.
 */
export function resolveModel(manifest: SingleTableManifest): TableModel {
  const sink = new DiagnosticSink();
  let draft: TableModel | undefined;
  try {
    draft = resolveManifest(manifest, sink);
  } catch (e) {
    // Without the shape check (compile.ts), a manifest of another shape than the synth validates
    // fails here as a ManifestError, never as a TypeError from deep inside.
    sink.error('MANIFEST_SHAPE', 'manifest', `cannot be resolved (${(e as Error).message})`, 'run `single-table check` (or `cdk synth`) on the manifest for every finding');
  }
  if (draft && !sink.hasErrors) {
    // A pattern that names an unknown entity or index resolves to nothing; the pattern rules say
    // exactly what is wrong, so this only makes sure such a manifest is not used quietly. (After
    // another error, an unresolved pattern is only its consequence.)
    for (const name of Object.keys(manifest.accessPatterns ?? {})) {
      if (!draft.patterns[name]) {
        sink.error('PATTERN_UNRESOLVED', `pattern ${name}`, 'names an entity or index that does not exist, or an index its first entity does not populate',
          'run compileManifest (or `cdk synth`) on the manifest for the exact finding');
      }
    }
  }
  if (!draft || sink.hasErrors) throw new ManifestError(sink.all);
  return deepFreeze(draft);
}

/** Resolves a manifest into a draft model (not frozen), reporting what it cannot resolve; undefined without entities. */
export function resolveManifest(manifest: SingleTableManifest, sink: DiagnosticSink): TableModel | undefined {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest) || manifest.entities === undefined) {
    sink.error('MANIFEST_SHAPE', 'manifest', 'has no `entities` map', 'pass an object with at least one entity under `entities`');
    return undefined;
  }
  return resolve(manifest, sink);
}

function resolve(manifest: SingleTableManifest, sink: DiagnosticSink): TableModel {
  let delimiter = manifest.delimiter ?? '#';
  if (typeof delimiter !== 'string' || delimiter.length !== 1 || !ALLOWED_DELIMITERS.includes(delimiter)) {
    sink.error('DELIMITER_INVALID', 'manifest', `delimiter ${describeValue(delimiter)} is not allowed`, `use one of ${ALLOWED_DELIMITERS.split('').join(' ')} (default '#')`);
    delimiter = '#';
  }
  const escapeChar = escapeCharFor(delimiter);
  const typeAttribute = manifest.typeAttribute ?? 'Type';
  const localIndexesEnabled = manifest.localIndexes?.enabled ?? true;

  const indexes = dict<IndexModel>();
  indexes[TABLE_INDEX] = {
    name: TABLE_INDEX,
    type: IndexType.TABLE,
    partitionKey: TABLE_PARTITION_KEY,
    sortKey: TABLE_SORT_KEY,
    projection: ProjectionKind.ALL,
    nonKeyAttributes: [],
  };
  for (const [name, def] of Object.entries(manifest.globalIndexes ?? {})) {
    indexes[name] = resolveGlobalIndex(name, def ?? {}, typeAttribute);
  }
  if (localIndexesEnabled) {
    LSI_SLOTS.forEach((slot, i) => {
      if (indexes[slot]) return; // a GSI with a slot name: reported by the naming rule
      indexes[slot] = {
        name: slot,
        type: IndexType.LSI,
        partitionKey: TABLE_PARTITION_KEY,
        sortKey: `${slot}SK`,
        // The slot layout: odd slots ALL, even slots KEYS_ONLY.
        projection: i % 2 === 0 ? ProjectionKind.ALL : ProjectionKind.KEYS_ONLY,
        nonKeyAttributes: [],
      };
    });
  }

  const entities = dict<EntityModel>();
  const entityByType = dict<string>();
  for (const [name, def] of Object.entries(manifest.entities)) {
    const entity = resolveEntity(name, def, manifest, indexes, delimiter, escapeChar, typeAttribute, sink);
    entities[name] = entity;
    if (entityByType[entity.typeValue] === undefined) entityByType[entity.typeValue] = name;
  }

  // Shard counts need entry sizes, which need the entities; so do multi-attribute keys' kinds.
  for (const [name, def] of Object.entries(manifest.globalIndexes ?? {})) {
    const index = indexes[name];
    if (index?.type === IndexType.GSI && index.partitionAttributes) resolveAttributeKeys(index, entities);
    if (index?.type === IndexType.GSI && def?.sharding) {
      const shards = resolveShards(def, index, entities, indexes, typeAttribute);
      // Compile rejects such counts with their property; the Lambda, which resolves without that
      // check, must still never compose a `#NaN` shard.
      if (!shards.counts.every((n) => Number.isInteger(n) && n >= 1)) {
        sink.error('SHARD_COUNT_INVALID', `index ${name}`, `shard counts ${describeValue(shards.counts)} cannot be resolved to whole numbers`, 'run `single-table check` on the manifest for the exact finding');
      }
      (index as { shards?: ShardModel }).shards = shards;
    }
  }

  const patterns = dict<PatternModel>();
  for (const [name, def] of Object.entries(manifest.accessPatterns ?? {})) {
    const pattern = resolvePattern(name, def, entities, indexes, delimiter);
    if (pattern) patterns[name] = pattern;
  }

  const keyAttributes: string[] = [];
  for (const index of Object.values(indexes)) {
    // A multi-attribute index keys on data attributes, which results keep: none is a composed key.
    if (index.partitionAttributes) continue;
    for (const attr of [index.partitionKey, index.sortKey]) {
      if (attr && !keyAttributes.includes(attr)) keyAttributes.push(attr);
    }
  }

  return {
    delimiter,
    escapeChar,
    typeAttribute,
    localIndexesEnabled,
    indexes,
    entities,
    patterns,
    entityByType,
    keyAttributes,
    fingerprint: fingerprintOf(manifest),
  };
}

function resolveGlobalIndex(name: string, def: GlobalIndexDefinition, typeAttribute: string): IndexModel {
  const projection = def.projection ?? ProjectionKind.ALL;
  const hasSortKey = def.hasSortKey ?? true;
  const nonKeyAttributes =
    projection === ProjectionKind.INCLUDE ? unique([...(def.include ?? []), typeAttribute]) : [];
  if (def.partitionAttributes) {
    // Kinds and entities follow from the entities (resolveAttributeKeys); the rules check the rest.
    const keyAttributes = (names: string[] | undefined) => (names ?? []).map((attr) => ({ name: attr, kind: AttributeKind.STRING }));
    return {
      name,
      type: IndexType.GSI,
      partitionKey: def.partitionAttributes[0] ?? `${name}PK`,
      sortKey: def.sortAttributes?.[0],
      partitionAttributes: keyAttributes(def.partitionAttributes),
      sortAttributes: keyAttributes(def.sortAttributes),
      entities: [],
      projection,
      nonKeyAttributes,
      readCapacity: def.readCapacity,
      writeCapacity: def.writeCapacity,
      description: def.description,
    };
  }
  return {
    name,
    type: IndexType.GSI,
    partitionKey: def.partitionKeyName ?? `${name}PK`,
    sortKey: hasSortKey ? (def.sortKeyName ?? `${name}SK`) : undefined,
    projection,
    nonKeyAttributes,
    readCapacity: def.readCapacity,
    writeCapacity: def.writeCapacity,
    description: def.description,
  };
}

/**
 * A multi-attribute index's key attribute kinds (as the first entity declaring each has it; the
 * rules report entities that disagree) and its entities: those declaring every key attribute.
 */
function resolveAttributeKeys(index: IndexModel, entities: { [name: string]: EntityModel }): void {
  const withKind = (attr: KeyAttributeModel): KeyAttributeModel => {
    const declared = Object.values(entities).find((e) => Object.hasOwn(e.attributes, attr.name));
    return { name: attr.name, kind: declared?.attributes[attr.name].type ?? attr.kind };
  };
  const draft = index as { -readonly [K in keyof IndexModel]: IndexModel[K] };
  draft.partitionAttributes = index.partitionAttributes!.map(withKind);
  draft.sortAttributes = index.sortAttributes!.map(withKind);
  const names = [...draft.partitionAttributes, ...draft.sortAttributes].map((a) => a.name);
  draft.entities = Object.values(entities).filter((e) => names.every((n) => Object.hasOwn(e.attributes, n))).map((e) => e.name);
}

function resolveEntity(
  name: string,
  def: EntityDefinition,
  manifest: SingleTableManifest,
  indexes: { [name: string]: IndexModel },
  delimiter: string,
  escapeChar: string,
  typeAttribute: string,
  sink: DiagnosticSink,
): EntityModel {
  const where = `entity ${name}`;
  const attributes = dict<AttributeModel>();
  for (const [attrName, attr] of Object.entries(def?.attributes ?? {})) {
    const type = attr?.type;
    if (!Object.values(AttributeKind).includes(type)) {
      sink.error('ATTRIBUTE_TYPE_INVALID', `${where}, attribute ${attrName}`, `type ${describeValue(type)} is not an AttributeKind`, `use one of ${Object.values(AttributeKind).join(', ')}`);
    }
    attributes[attrName] = {
      name: attrName,
      type,
      required: attr?.required ?? false,
      typicalSizeBytes: attr?.typicalSizeBytes ?? defaultValueBytes(type),
      distinctValues: attr?.distinctValues,
    };
  }
  const maintained = maintainedAttributes(def);
  for (const [attrName, type] of maintained) {
    // A declared one is reported by the maintained-attributes rule; the runtime's kind wins here.
    attributes[attrName] = { name: attrName, type, required: false, typicalSizeBytes: defaultValueBytes(type) };
  }
  const kindOf = (attr: string) => attributes[attr]?.type;
  const parse = (source: string | undefined, slot: string, part: 'pk' | 'sk'): KeyTemplateModel | undefined => {
    if (source === undefined) return undefined;
    const parsed = parseTemplate(source, delimiter, escapeChar, kindOf);
    if ('error' in parsed) {
      sink.error('TEMPLATE_INVALID', `${where}, ${slot === TABLE_INDEX ? 'table' : 'index ' + slot} ${part}`, `template ${JSON.stringify(source)} ${parsed.error}`,
        parsed.undeclared === undefined ? 'correct the template' : undeclaredFix(parsed.undeclared, source, attributes));
      return undefined;
    }
    return parsed.template;
  };

  const keys = dict<EntityIndexKeysModel>();
  if (!def?.pk || !def?.sk) {
    sink.error('TABLE_KEY_MISSING', where, `has no table ${!def?.pk ? 'pk' : 'sk'} template`, "set both `pk` and `sk`, e.g. pk: 'CUSTOMER#{username}', sk: 'ORDER#{orderId}'");
  }
  const tablePk = parse(def?.pk, TABLE_INDEX, 'pk');
  const tableSk = parse(def?.sk, TABLE_INDEX, 'sk');
  if (tablePk && tableSk) keys[TABLE_INDEX] = { index: TABLE_INDEX, pk: tablePk, sk: tableSk };

  for (const [slot, templates] of Object.entries(def?.indexes ?? {})) {
    const index = indexes[slot];
    const loc = `${where}, index ${slot}`;
    if (!index || index.type === IndexType.TABLE) {
      const lsiOff = LSI_SLOTS.includes(slot);
      const declared = Object.keys(indexes).filter((n) => n !== TABLE_INDEX);
      sink.error('ENTITY_INDEX_UNKNOWN', loc, lsiOff ? `populates ${slot} but local indexes are disabled` : `populates index '${slot}', which is not declared`,
        lsiOff ? 'enable `localIndexes` or remove the slot from the entity'
          : undeclaredIndexFix(slot, manifest, declared, `declare it under globalIndexes, or use one of: ${declared.join(', ') || '(none)'}`));
      continue;
    }
    if (index.type === IndexType.LSI) {
      if (templates?.pk !== undefined) {
        sink.error('LSI_PK_TEMPLATE', loc, `sets pk ${JSON.stringify(templates.pk)}, but an LSI shares the table's partition key`, 'remove `pk`; set only `sk`');
      }
      if (templates?.sk === undefined) {
        sink.error('INDEX_SK_TEMPLATE_MISSING', loc, 'populates an LSI without an sk template', "set `sk`, e.g. sk: 'DATE#{createdAt}'");
        continue;
      }
      const sk = parse(templates.sk, slot, 'sk');
      if (tablePk && sk) keys[slot] = { index: slot, pk: tablePk, sk };
      continue;
    }
    // Entities populate a multi-attribute index by their attributes; templates for it are reported by the rules.
    if (index.partitionAttributes) continue;
    if (templates?.pk === undefined) {
      sink.error('INDEX_PK_TEMPLATE_MISSING', loc, 'populates a GSI without a pk template', "set `pk`, e.g. pk: 'ORDER#{status}'");
      continue;
    }
    if (index.sortKey && templates.sk === undefined) {
      sink.error('INDEX_SK_TEMPLATE_MISSING', loc, `populates ${slot}, which has a sort key, without an sk template`, 'set `sk`, or declare the index with hasSortKey: false');
      continue;
    }
    if (!index.sortKey && templates.sk !== undefined) {
      sink.error('INDEX_SK_TEMPLATE_UNUSED', loc, `sets sk ${JSON.stringify(templates.sk)} on ${slot}, which has no sort key`, 'remove `sk`, or declare the index with a sort key');
      continue;
    }
    const pk = parse(templates.pk, slot, 'pk');
    const sk = parse(templates.sk, slot, 'sk');
    if (pk && (sk || !index.sortKey)) keys[slot] = { index: slot, pk, sk };
  }

  const draft = { attributes, keys, typeValue: def?.typeValue ?? name };
  return {
    name,
    typeValue: draft.typeValue,
    attributes,
    keys,
    typicalItemSizeBytes: def?.typicalItemSizeBytes ?? estimateItemBytes(draft, indexes, typeAttribute),
    writesPerSecond: def?.writesPerSecond,
    maxItemsPerPartition: def?.maxItemsPerPartition,
    version: def?.version ? def.version.attribute ?? DEFAULT_VERSION_ATTRIBUTE : undefined,
    timestamps: def?.timestamps ? {
      createdAt: def.timestamps.createdAt ?? DEFAULT_CREATED_AT,
      updatedAt: def.timestamps.updatedAt ?? DEFAULT_UPDATED_AT,
    } : undefined,
    unique: def?.unique?.length ? [...def.unique] : undefined,
    uniqueScope: def?.uniqueScope && Object.keys(def.uniqueScope).length ? { ...def.uniqueScope } : undefined,
    description: def?.description,
  };
}

/** The fix for a template naming an undeclared attribute: the template with the closest declared one, if any is close. */
function undeclaredFix(name: string, source: string, attributes: { [name: string]: AttributeModel }): string {
  const closest = closestName(name, Object.keys(attributes));
  const declare = `declare '${name}' in the entity's attributes`;
  if (closest === undefined) return `${declare}, or name one it declares: ${Object.keys(attributes).join(', ') || '(none)'}`;
  return `did you mean '${closest}'? write ${JSON.stringify(source.split(`{${name}}`).join(`{${closest}}`))}, or ${declare}`;
}

function resolveShards(
  def: GlobalIndexDefinition,
  index: IndexModel,
  entities: { [name: string]: EntityModel },
  indexes: { [name: string]: IndexModel },
  typeAttribute: string,
): ShardModel {
  const sharding = def.sharding!;
  let writeCount = sharding.shardCount;
  if (writeCount === undefined && sharding.peakWritesPerSecond !== undefined) {
    writeCount = shardsFor(sharding.peakWritesPerSecond * peakEntryWriteUnits(index, entities, indexes, typeAttribute));
  }
  writeCount = writeCount ?? 1;
  const counts = [...new Set([writeCount, ...(sharding.previousShardCounts ?? []).filter((n) => Number.isInteger(n))])].sort((a, b) => a - b);
  const strategy = sharding.strategy ?? ShardStrategy.RANDOM;
  const current = strategyLabel(strategy, sharding.shardAttribute);
  const strategies = [...new Set([current, ...(sharding.previousStrategies ?? []).map((p) => strategyLabel(p?.strategy, p?.shardAttribute))])].sort();
  return {
    writeCount,
    readCount: counts[counts.length - 1],
    counts,
    strategy,
    attribute: sharding.shardAttribute,
    strategies,
    pinnedReads: strategy === ShardStrategy.ATTRIBUTE && sharding.shardAttribute !== undefined && strategies.length === 1,
    peakWritesPerSecond: sharding.peakWritesPerSecond,
    keyAttribute: index.partitionAttributes ? shardKeyAttributeName(index.name) : undefined,
  };
}

/** `RANDOM`, or `ATTRIBUTE:<attribute>`: how the shard lock and the model name a strategy. */
export function strategyLabel(strategy: ShardStrategy | undefined, attribute: string | undefined): string {
  return strategy === ShardStrategy.ATTRIBUTE ? `ATTRIBUTE:${attribute ?? ''}` : String(strategy ?? ShardStrategy.RANDOM);
}

function resolvePattern(
  name: string,
  def: AccessPatternDefinition,
  entities: { [name: string]: EntityModel },
  indexes: { [name: string]: IndexModel },
  delimiter: string,
): PatternModel | undefined {
  const indexName = def?.index ?? TABLE_INDEX;
  const index = indexes[indexName];
  const entityNames = def?.entities ?? [];
  const first = entities[entityNames[0]];
  const attributes = def?.attributes ?? unique(entityNames.flatMap((e) => Object.keys(entities[e]?.attributes ?? {})));
  // What every pattern holds, on either kind of index.
  const shared = () => ({
    name,
    entities: [...entityNames],
    index: indexName,
    sortKeyCondition: def.sortKeyCondition ?? SortKeyCondition.NONE,
    order: def.order ?? SortOrder.ASCENDING,
    consistentRead: def.consistentRead ?? false,
    attributes,
    fetch: fetchModeFor(index!, attributes, entityNames.map((e) => entities[e]).filter((e) => e !== undefined)),
  });
  if (index?.entities) {
    if (!first || !index.entities.includes(first.name)) return undefined; // reported by the pattern rules
    return { ...shared(), description: def.description, readsPerSecond: def.readsPerSecond };
  }
  const keys = first?.keys[indexName];
  if (!index || !keys) return undefined; // reported by the pattern rules
  const sortKeys = entityNames.map((e) => entities[e]?.keys[indexName]?.sk).filter((t): t is KeyTemplateModel => t !== undefined);
  const sortKey = sharedSortKey(sortKeys, delimiter);
  return { ...shared(), pk: keys.pk, ...sortKey, description: def.description, readsPerSecond: def.readsPerSecond };
}

/**
 * The sort key a pattern's condition composes. For several entities: the longest run of leading
 * segments all their templates share (same literal, or same attribute of the same kind), so one
 * condition selects a parent and its children alike; undefined when they share none (the pattern
 * rules reject a condition then). A prefix always ends at a segment boundary.
 */
function sharedSortKey(templates: KeyTemplateModel[], delimiter: string): { sk?: KeyTemplateModel; skCoverage?: SortKeyCoverage } {
  if (templates.length <= 1) return { sk: templates[0] };
  const [first, ...rest] = templates;
  let shared = 0;
  const same = (a: KeySegmentModel, b: KeySegmentModel | undefined) =>
    b !== undefined && a.literal === b.literal && a.attribute === b.attribute && a.kind === b.kind;
  while (shared < first.segments.length && rest.every((t) => same(first.segments[shared], t.segments[shared]))) shared++;
  if (shared === 0) return {};
  const segments = first.segments.slice(0, shared);
  const ending = templates.filter((t) => t.segments.length === shared).length;
  return {
    sk: {
      source: segments.map((s) => s.literal ?? `{${s.attribute}}`).join(delimiter),
      segments,
      attributes: segments.filter((s) => s.attribute !== undefined).map((s) => s.attribute!),
    },
    skCoverage: ending === templates.length ? SortKeyCoverage.KEY : ending > 0 ? SortKeyCoverage.KEY_AND_BELOW : SortKeyCoverage.BELOW,
  };
}

/** A pattern needs no fetch when each entity's attributes it reads are projected or inside the entity's keys. */
function fetchModeFor(index: IndexModel, attributes: string[], entities: EntityModel[]): FetchMode {
  if (entities.every((e) => indexAnswers(e, index, attributes))) return FetchMode.NONE;
  return index.type === IndexType.LSI ? FetchMode.LSI_FETCH : FetchMode.BATCH_GET;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
