// The backfill planner: from the model a table's items were written under (when known) and the
// model they must now satisfy, which stored index attributes are missing or stale, and for one
// stored item the SET / REMOVE of index key attributes that brings it under the new model. Pure:
// keys are composed by the runtime's own builders (writeItemKeys), never re-encoded here, and no
// attribute an entity declares is ever written or removed.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, utf8Length } from '../keys/encoding';
import { guardMark } from '../keys/unique-guard';
import { isModelDocument, ModelFile } from '../model/format';
import { EntityModel, IndexModel, KeyAttributeModel, ShardModel, TABLE_INDEX, TableModel, writtenKeyAttributes } from '../model/model';
import { indexInputs, indexSlots, writeItemKeys } from '../runtime/attributes/item-keys';
import { fromItem } from '../runtime/attributes/marshall';
import { parseKey } from '../runtime/query/results';
import { loadModel } from '../runtime/table/load-model';

type Item = Record<string, AttributeValue>;

/** What changed on one index slot of an entity between the two models. */
export interface SlotChange {
  /** The index slot. */
  readonly index: string;
  /** `ADDED` (the entity newly populates it), `REMOVED`, `TEMPLATE`, `SHARDS`, `KEY_NAMES` (physical attribute names). */
  readonly change: 'ADDED' | 'REMOVED' | 'TEMPLATE' | 'SHARDS' | 'KEY_NAMES';
  /** For people: what it was and what it is. */
  readonly detail: string;
}

/** The planned changes of one entity. */
export interface EntityPlan {
  readonly entity: string;
  /** Slot changes; empty when nothing the items hold is known to be stale. */
  readonly changes: SlotChange[];
  /** Its unique attributes, whose values get a guard item where they have none. @default - none */
  readonly unique?: string[];
}

/** The plan of a backfill: what every item is checked against. */
export interface BackfillPlan {
  /** The model items must satisfy. */
  readonly next: TableModel;
  /** The model they were written under. @default - unknown: every slot is checked, shard history from `next` */
  readonly previous?: TableModel;
  /** Per entity of `next`, the changes known from the two models (or from the shard history). */
  readonly entities: EntityPlan[];
  /**
   * The attributes a backfill may set or remove: every secondary index key attribute the runtime
   * writes (composed keys, a multi-attribute GSI's shard attribute) and the type attribute, of both
   * models; never the table key, never an attribute an entity declares.
   */
  readonly managed: string[];
}

/** What an item needs. */
export type ItemFix =
  | { readonly kind: 'CURRENT'; readonly entity: string }
  /** A unique value's guard item: the library's own, checked from the item that holds the value. */
  | { readonly kind: 'GUARD' }
  | { readonly kind: 'STALE'; readonly entity: string; readonly set: Item; readonly remove: string[]; readonly condition: ItemCondition }
  | { readonly kind: 'SKIPPED'; readonly reason: string }
  | { readonly kind: 'FAILED'; readonly entity?: string; readonly reason: string; readonly violations?: KeyViolation[] };

/**
 * A stored value a multi-attribute GSI cannot index (an index key violation): DynamoDB leaves the
 * item out of the index and refuses every write to it until the value is fixed.
 */
export interface KeyViolation {
  /** The index. */
  readonly index: string;
  /** The key attribute. */
  readonly attribute: string;
  /** The stored value's DynamoDB type: `S`, `N`, `B`, `BOOL`, `NULL`, `L`, `M`, `SS`, `NS` or `BS`. */
  readonly storedType: string;
  /** The kind the index declares for it: `STRING`, `DATE` or `NUMBER`. */
  readonly declaredType: string;
  /** A string of the right type that is empty or over the key size limit: its size in UTF-8 bytes. @default - a type mismatch */
  readonly bytes?: number;
  /** The key size limit in UTF-8 bytes (2048 partition, 1024 sort), with `bytes`. @default - a type mismatch */
  readonly maxBytes?: number;
}

/**
 * What the fix was computed from: the values (or absence) of the attributes it depends on. A write
 * conditioned on exactly these finds the item as it was read, or fails and is recomputed.
 */
export interface ItemCondition {
  /** Attribute name to its stored value, or undefined when it was absent. */
  readonly attributes: { readonly [name: string]: AttributeValue | undefined };
}

/** A plan that cannot be carried out by rewriting index attributes. */
export class BackfillPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackfillPlanError';
  }
}

/**
 * A model to plan with: a compiled model file as `single-table generate` writes it (what `openTable`
 * takes, imported as JSON), or the model `compileManifest(manifest)` of `cdk-single-table` returns.
 */
export type BackfillModel = ModelFile | TableModel;

/**
 * Plans a backfill to `next`. With `previous`, changes are named per slot and a changed table key
 * is refused before any item is read: it moves the item to another key, a delete and a put, which
 * an index backfill does not do. Without it, the shard history `next` declares (previous counts and
 * strategies, which the shard lock keeps complete) names the resharded slots.
 */
export function planBackfill(nextModel: BackfillModel, previousModel?: BackfillModel): BackfillPlan {
  const next = tableModel(nextModel);
  const previous = previousModel && tableModel(previousModel);
  const managed = new Set<string>();
  for (const model of previous ? [previous, next] : [next]) {
    const table = model.indexes[TABLE_INDEX];
    for (const attr of writtenKeyAttributes(model)) if (attr !== table.partitionKey && attr !== table.sortKey) managed.add(attr);
    managed.add(model.typeAttribute);
  }
  for (const model of previous ? [previous, next] : [next]) {
    for (const entity of Object.values(model.entities)) for (const name in entity.attributes) managed.delete(name);
  }
  if (previous) checkTableKeys(previous, next);
  const entities = Object.values(next.entities).map((entity) => ({
    entity: entity.name,
    changes: previous ? slotChanges(previous, next, entity) : shardHistory(next, entity),
    ...(entity.unique?.length ? { unique: [...entity.unique] } : {}),
  }));
  return { next, previous, entities, managed: [...managed] };
}

function tableModel(model: BackfillModel): TableModel {
  if (isModelDocument(model)) return loadModel(model);
  if (typeof (model as Partial<TableModel>)?.fingerprint !== 'string' || !(model as Partial<TableModel>).entityByType) {
    throw new BackfillPlanError('expected a compiled model file (written by `single-table generate <manifest>`) or the model `compileManifest(manifest)` returns, not a manifest');
  }
  return model as TableModel;
}

function checkTableKeys(previous: TableModel, next: TableModel): void {
  const [a, b] = [previous.indexes[TABLE_INDEX], next.indexes[TABLE_INDEX]];
  if (a.partitionKey !== b.partitionKey || a.sortKey !== b.sortKey) {
    throw new BackfillPlanError(`the table key attributes changed from ${a.partitionKey}/${a.sortKey} to ${b.partitionKey}/${b.sortKey}; ` +
      'a table key cannot change on a deployed table: create a new table and copy the items');
  }
  for (const entity of Object.values(next.entities)) {
    const old = previous.entities[entity.name]?.keys[TABLE_INDEX];
    const now = entity.keys[TABLE_INDEX];
    if (old && (old.pk.source !== now.pk.source || old.sk!.source !== now.sk!.source || previous.delimiter !== next.delimiter)) {
      throw new BackfillPlanError(`entity ${entity.name}: its table key changed from ${old.pk.source} / ${old.sk!.source} to ${now.pk.source} / ${now.sk!.source}; ` +
        'that moves every item to a new key (a put under the new key and a delete of the old one), which a backfill of index attributes does not do: ' +
        'keep the table key templates, or copy the items with put and delete');
    }
  }
}

function slotChanges(previous: TableModel, next: TableModel, entity: EntityModel): SlotChange[] {
  const old = previous.entities[entity.name];
  const changes: SlotChange[] = [];
  const slots = new Set([...Object.keys(entity.keys), ...Object.keys(old?.keys ?? {})]);
  slots.delete(TABLE_INDEX);
  for (const name of slots) {
    const [was, now] = [old?.keys[name], entity.keys[name]];
    const [wasIndex, nowIndex] = [previous.indexes[name], next.indexes[name]];
    if (!was || !now) {
      changes.push({ index: name, change: was ? 'REMOVED' : 'ADDED', detail: was ? `${describeSlot(was)}: attributes removed` : `${describeSlot(now!)}: attributes written` });
      continue;
    }
    if (wasIndex.partitionKey !== nowIndex.partitionKey || wasIndex.sortKey !== nowIndex.sortKey) {
      changes.push({ index: name, change: 'KEY_NAMES', detail: `${wasIndex.partitionKey}/${wasIndex.sortKey ?? '-'} -> ${nowIndex.partitionKey}/${nowIndex.sortKey ?? '-'}` });
    }
    if (describeSlot(was) !== describeSlot(now) || previous.delimiter !== next.delimiter) {
      changes.push({ index: name, change: 'TEMPLATE', detail: `${describeSlot(was)} -> ${describeSlot(now)}` });
    }
    const [a, b] = [wasIndex.shards, nowIndex.shards];
    const label = (s: typeof a) => (s ? shardsLabel(s) : 'unsharded');
    if (label(a) !== label(b)) changes.push({ index: name, change: 'SHARDS', detail: `${label(a)} -> ${label(b)}` });
  }
  changes.push(...attributeIndexChanges(previous, next, entity));
  if (old && old.typeValue !== entity.typeValue) changes.push({ index: TABLE_INDEX, change: 'TEMPLATE', detail: `type ${old.typeValue} -> ${entity.typeValue}` });
  if (previous.typeAttribute !== next.typeAttribute) changes.push({ index: TABLE_INDEX, change: 'KEY_NAMES', detail: `type attribute ${previous.typeAttribute} -> ${next.typeAttribute}` });
  return changes;
}

/**
 * The multi-attribute GSIs the entity's items enter or leave: nothing is written for them (DynamoDB
 * indexes the stored values) but a sharded one's shard attribute, and an entered one refuses values
 * of another type or size. Sharding added, changed or removed rewrites the shard attribute.
 */
function attributeIndexChanges(previous: TableModel, next: TableModel, entity: EntityModel): SlotChange[] {
  const keyedOn = (i: IndexModel) => `keyed on ${attributeList(i.partitionAttributes!)}${i.sortAttributes?.length ? ` / ${attributeList(i.sortAttributes)}` : ''}`;
  const sharding = (i: IndexModel) => (i.shards ? `${shardsLabel(i.shards)} in ${i.shards.keyAttribute}` : 'unsharded');
  const populated = (model: TableModel, name: string) => {
    const index = Object.hasOwn(model.indexes, name) ? model.indexes[name] : undefined;
    return index?.partitionAttributes && index.entities?.includes(entity.name) ? index : undefined;
  };
  const changes: SlotChange[] = [];
  for (const name of new Set([...Object.keys(previous.indexes), ...Object.keys(next.indexes)])) {
    const [was, now] = [populated(previous, name), populated(next, name)];
    if (was && now && keyedOn(was) === keyedOn(now)) {
      if (sharding(was) !== sharding(now)) {
        const written = now.shards ? `${now.shards.keyAttribute} written` : `${was.shards!.keyAttribute} removed`;
        changes.push({ index: name, change: 'SHARDS', detail: `${sharding(was)} -> ${sharding(now)}: ${written}` });
      }
      continue;
    }
    if (was) changes.push({ index: name, change: 'REMOVED', detail: `${keyedOn(was)}: DynamoDB drops its entries, nothing is removed from the items` });
    if (now) {
      changes.push({
        index: name,
        change: 'ADDED',
        detail: `${keyedOn(now)}: DynamoDB indexes the stored values, ${now.shards ? `${sharding(now)} written` : 'nothing is written'}; an item whose value has another type or size is listed as failed`,
      });
    }
  }
  return changes;
}

function shardsLabel(s: ShardModel): string {
  return `${s.writeCount} shard(s), ${s.strategy}${s.attribute ? ` on ${s.attribute}` : ''}`;
}

function attributeList(attrs: readonly KeyAttributeModel[]): string {
  return `[${attrs.map((a) => a.name).join(', ')}]`;
}

/** Without the previous model: the resharded slots the shard history declares. */
function shardHistory(next: TableModel, entity: EntityModel): SlotChange[] {
  const changes: SlotChange[] = [];
  for (const name of indexSlots(next, entity)) {
    const shards = next.indexes[name].shards;
    if (!shards) continue;
    const counts = shards.counts.filter((n) => n !== shards.writeCount);
    const current = shards.strategy + (shards.attribute ? `:${shards.attribute}` : '');
    const strategies = shards.strategies.filter((s) => s !== current);
    if (counts.length === 0 && strategies.length === 0) continue;
    const from = [counts.length ? `${counts.join(', ')} shard(s)` : '', strategies.join(', ')].filter(Boolean).join(', ');
    changes.push({ index: name, change: 'SHARDS', detail: `${from} -> ${shards.writeCount} shard(s), ${current}` });
  }
  return changes;
}

function describeSlot(keys: { pk: { source: string }; sk?: { source: string } }): string {
  return keys.sk ? `${keys.pk.source} / ${keys.sk.source}` : keys.pk.source;
}

/**
 * The fix of one stored item. The entity comes from the type attribute (of `next`, else of
 * `previous`), else from the shape of the table key; the keys every index slot should hold are
 * composed from the item's stored attribute values by the runtime's key builder.
 */
export function itemFix(plan: BackfillPlan, item: Item): ItemFix {
  const { next } = plan;
  if (item[next.typeAttribute]?.S === guardMark(next.escapeChar)) return { kind: 'GUARD' };
  const entity = identify(plan, item);
  if (!entity) {
    const type = item[next.typeAttribute]?.S ?? (plan.previous && item[plan.previous.typeAttribute]?.S);
    return { kind: 'SKIPPED', reason: type === undefined ? 'no type attribute, and the table key matches no entity\'s templates' : `type ${JSON.stringify(type)} is no entity of the manifest` };
  }
  const violations = keyViolations(next, item);
  if (violations.length) return { kind: 'FAILED', entity: entity.name, reason: violations.map(violationText).join('; '), violations };
  const managed = new Set(plan.managed);
  const values = fromItem(item, managed);
  const expected: Item = {};
  try {
    writeItemKeys(next, entity, values, expected);
  } catch (e) {
    return { kind: 'FAILED', entity: entity.name, reason: (e as Error).message };
  }
  expected[next.typeAttribute] = { S: entity.typeValue };
  const table = next.indexes[TABLE_INDEX];
  for (const attr of [table.partitionKey, table.sortKey!]) {
    if (expected[attr].S !== item[attr]?.S) {
      return { kind: 'FAILED', entity: entity.name, reason: `its ${attr} is ${JSON.stringify(item[attr]?.S)}, but its attributes compose ${JSON.stringify(expected[attr].S)}: the table key cannot be rewritten in place` };
    }
  }
  const set: Item = {};
  const remove: string[] = [];
  for (const attr of plan.managed) {
    const want = expected[attr];
    if (want && !sameValue(want, item[attr])) set[attr] = want;
    else if (!want && item[attr] !== undefined) remove.push(attr);
  }
  if (remove.length === 0 && Object.keys(set).length === 0) return { kind: 'CURRENT', entity: entity.name };
  return { kind: 'STALE', entity: entity.name, set, remove, condition: conditionOf(plan, entity, item) };
}

/** The stored values every multi-attribute GSI of the model would refuse: of another type, empty, or over the key size limit. */
export function keyViolations(model: TableModel, item: Item): KeyViolation[] {
  const out: KeyViolation[] = [];
  for (const index of Object.values(model.indexes)) {
    if (!index.partitionAttributes) continue;
    const check = (attr: KeyAttributeModel, limit: number) => {
      const value = item[attr.name];
      if (value === undefined) return;
      const storedType = Object.keys(value)[0];
      const wanted = attr.kind === 'NUMBER' ? 'N' : 'S';
      if (storedType !== wanted) {
        out.push({ index: index.name, attribute: attr.name, storedType, declaredType: attr.kind });
      } else if (value.S !== undefined && (value.S === '' || utf8Length(value.S) > limit)) {
        out.push({ index: index.name, attribute: attr.name, storedType, declaredType: attr.kind, bytes: utf8Length(value.S), maxBytes: limit });
      }
    };
    for (const attr of index.partitionAttributes) check(attr, MAX_PARTITION_KEY_BYTES);
    for (const attr of index.sortAttributes ?? []) check(attr, MAX_SORT_KEY_BYTES);
  }
  return out;
}

const STORED_TYPES: Readonly<Record<string, string>> = {
  S: 'a string (S)',
  N: 'a number (N)',
  B: 'binary (B)',
  BOOL: 'a boolean (BOOL)',
  NULL: 'null (NULL)',
  L: 'a list (L)',
  M: 'a map (M)',
  SS: 'a string set (SS)',
  NS: 'a number set (NS)',
  BS: 'a binary set (BS)',
};

function violationText(v: KeyViolation): string {
  const what = v.bytes === undefined ? `is stored as ${STORED_TYPES[v.storedType] ?? v.storedType}, but ${v.index} declares it ${v.declaredType}`
    : v.bytes === 0 ? `is an empty string, which ${v.index} cannot index`
      : `is ${v.bytes} bytes, over the ${v.maxBytes} bytes a key attribute of ${v.index} holds`;
  return `index key violation: ${v.attribute} ${what}; DynamoDB leaves the item out of ${v.index} and refuses writes to it: `
    + `store ${v.attribute} as ${v.declaredType === 'NUMBER' ? 'a number' : 'a non-empty string within the key size limit'}, or remove it, then run the backfill again`;
}

function identify(plan: BackfillPlan, item: Item): EntityModel | undefined {
  const { next, previous } = plan;
  const type = item[next.typeAttribute]?.S;
  if (type !== undefined) return entityNamed(next, next.entityByType[type]);
  const old = previous && item[previous.typeAttribute]?.S;
  if (previous && old !== undefined) return entityNamed(next, previous.entityByType[old]);
  // No type attribute: the table key's shape names the entity (the collision rule keeps it unique).
  const table = next.indexes[TABLE_INDEX];
  const matches = Object.values(next.entities).filter((e) =>
    parseKey(next, e.keys[TABLE_INDEX].pk, item[table.partitionKey]?.S) && parseKey(next, e.keys[TABLE_INDEX].sk!, item[table.sortKey!]?.S));
  return matches.length === 1 ? matches[0] : undefined;
}

function entityNamed(model: TableModel, name: string | undefined): EntityModel | undefined {
  return name !== undefined && Object.hasOwn(model.entities, name) ? model.entities[name] : undefined;
}

/**
 * The fix is a function of the entity (its type attributes or its table key), the inputs of its
 * key templates and shard attributes, and the managed attributes' current values: the condition
 * holds those, as read. A concurrent write of any other attribute leaves the fix right and is kept
 * (the update writes managed attributes only).
 */
function conditionOf(plan: BackfillPlan, entity: EntityModel, item: Item): ItemCondition {
  const names = new Set(plan.managed);
  for (const slot of indexSlots(plan.next, entity)) for (const name of indexInputs(entity, plan.next.indexes[slot])) names.add(name);
  const attributes: { [name: string]: AttributeValue | undefined } = {};
  for (const name of names) attributes[name] = item[name];
  return { attributes };
}

/** Equality of two scalar attribute values (key attributes and template inputs are scalars). */
function sameValue(a: AttributeValue, b: AttributeValue | undefined): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
