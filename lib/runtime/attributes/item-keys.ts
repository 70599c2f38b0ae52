// Composing an item's keys from its values, exactly as the model declares them: the table key,
// every index slot the entity populates (absent when an input is missing, empty or false, so the
// item stays out of a sparse index), shard suffixes (on a multi-attribute GSI, the shard attribute),
// and UTF-8 size limits that DynamoDB enforces but local engines do not.
//
// runtime/attributes turns an item's values into the attributes a request sends: values.ts checks
// and converts them, marshall.ts converts AttributeValues both ways, this file composes the key
// attributes with the key formats of lib/keys.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { encodeValue, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, SegmentResult, utf8Length } from '../../keys/encoding';
import { shardedKey, shardForItem, shardForValue } from '../../keys/shard';
import { ComposeFailure, Composer, composerOf } from '../../keys/template';
import { attributeKeyNames, EntityIndexKeysModel, EntityModel, IndexModel, KeyAttributeModel, KeyTemplateModel, TABLE_INDEX, TableModel } from '../../model/model';
import { ErrorContext, SingleTableError } from '../table/errors';

type Values = Readonly<Record<string, unknown>>;
type Named = Pick<EntityModel, 'name'>;
type Sourced = Pick<KeyTemplateModel, 'source'>;

/**
 * One secondary index slot of an entity, its templates compiled (numbers into EntityKeys.composers),
 * or a sharded multi-attribute GSI of its (no template: the slot writes the shard attribute).
 */
interface SlotKeys {
  readonly index: IndexModel;
  /** Undefined on a multi-attribute GSI. */
  readonly keys?: EntityIndexKeysModel;
  /** Undefined on an LSI, which shares the table's partition key. */
  readonly pk?: number;
  readonly sk?: number;
}

/**
 * An entity's key templates compiled once per entity (the model is frozen), for every put and
 * update. Templates with the same source share a composer (GSI1 `ORDER#{orderId}` for both keys
 * and the table's sort key), so a put composes each distinct key once.
 */
interface EntityKeys {
  readonly composers: readonly Composer[];
  readonly slots: readonly SlotKeys[];
}

/** Composer numbers of the table key. */
const TABLE_PK = 0;
const TABLE_SK = 1;

const compiled = new WeakMap<EntityModel, EntityKeys>();

function entityKeys(model: TableModel, entity: EntityModel): EntityKeys {
  let keys = compiled.get(entity);
  if (keys) return keys;
  const composers: Composer[] = [];
  const sources: string[] = [];
  const add = (t: KeyTemplateModel) => (sources.push(t.source), composers.push(composerOf(t, model.delimiter, model.escapeChar)) - 1);
  const compose = (t: KeyTemplateModel) => {
    const n = sources.indexOf(t.source);
    return n < 0 ? add(t) : n;
  };
  const table = entity.keys[TABLE_INDEX];
  // Numbers TABLE_PK and TABLE_SK, also when the two templates are the same.
  add(table.pk);
  add(table.sk!);
  const slots: SlotKeys[] = [];
  for (const name in entity.keys) {
    if (name === TABLE_INDEX) continue;
    const index = model.indexes[name];
    const k = entity.keys[name];
    slots.push({ index, keys: k, pk: index.type === 'LSI' ? undefined : compose(k.pk), sk: index.sortKey && k.sk ? compose(k.sk) : undefined });
  }
  // The items' own attributes key a multi-attribute GSI as stored; a sharded one also needs its shard.
  for (const name in model.indexes) {
    const index = model.indexes[name];
    if (index.shards?.keyAttribute && index.entities!.includes(entity.name)) slots.push({ index });
  }
  keys = { composers, slots };
  compiled.set(entity, keys);
  return keys;
}

/** The attributes an entity's table key is composed from, in template order. */
export function tableKeyNames(entity: EntityModel): string[] {
  const keys = entity.keys[TABLE_INDEX];
  return [...new Set([...keys.pk.attributes, ...keys.sk!.attributes])];
}

/** The table key of an item: both parts must be composable. */
export function tableKey(model: TableModel, entity: EntityModel, values: Values): { pk: string; sk: string } {
  const composers = entityKeys(model, entity).composers;
  return tableKeyOf(model, entity, composers[TABLE_PK](values), composers[TABLE_SK](values));
}

function tableKeyOf(model: TableModel, entity: EntityModel, pk: string | ComposeFailure, sk: string | ComposeFailure): { pk: string; sk: string } {
  const templates = entity.keys[TABLE_INDEX];
  const index = model.indexes[TABLE_INDEX];
  return {
    pk: requiredKey(entity, templates.pk, pk, index.partitionKey, MAX_PARTITION_KEY_BYTES),
    sk: requiredKey(entity, templates.sk!, sk, index.sortKey!, MAX_SORT_KEY_BYTES),
  };
}

/** Every distinct key of an entity composed from one item's values, by composer number. */
function composeAll(keys: EntityKeys, values: Values): (string | ComposeFailure)[] {
  return keys.composers.map((compose) => compose(values));
}

/** The table key as the AttributeValue map DynamoDB wants. */
export function keyAttributes(model: TableModel, key: { pk: string; sk: string }): Record<string, AttributeValue> {
  const index = model.indexes[TABLE_INDEX];
  return { [index.partitionKey]: { S: key.pk }, [index.sortKey!]: { S: key.sk } };
}

/** A composed key that must exist (the table's); throws MISSING_ATTRIBUTE or INVALID_VALUE naming the key and its template. */
export function requiredKey(entity: Named, template: Sourced, r: string | ComposeFailure, attribute: string, limit: number): string {
  if (typeof r === 'string') return checkSize(entity, attribute, r, limit);
  const key = `key ${attribute} = ${template.source}`;
  throw keyError({ entity: entity.name }, r, `is needed (non-empty) for ${key}`, ` (${key})`);
}

/** Why a key could not be composed: MISSING_ATTRIBUTE saying what needs it, or INVALID_VALUE with the encoder's reason and then `where`. */
export function keyError(context: ErrorContext, r: ComposeFailure, missing: string, where = ''): SingleTableError {
  return 'absent' in r
    ? new SingleTableError('MISSING_ATTRIBUTE', missing, { ...context, attribute: r.absent })
    : new SingleTableError('INVALID_VALUE', r.error + where, { ...context, attribute: r.attribute });
}

/**
 * Throws KEY_TOO_LARGE when a key value exceeds DynamoDB's UTF-8 byte limit: an item's key, naming
 * its entity, or (`query` given: the bytes a shard suffix adds, else 0) a query's, naming its pattern.
 */
export function checkSize(owner: Named, attribute: string, key: string, limit: number, query?: number): string {
  const suffix = query ?? 0;
  // Each UTF-16 unit is at most 3 UTF-8 bytes, so short keys skip the byte count.
  if (key.length * 3 + suffix > limit) {
    const bytes = utf8Length(key) + suffix;
    if (bytes > limit) {
      throw new SingleTableError('KEY_TOO_LARGE', `${query === undefined ? '' : "the query's "}key ${attribute} is ${bytes} bytes of UTF-8; DynamoDB allows ${limit}`,
        { [query === undefined ? 'entity' : 'pattern']: owner.name, attribute });
    }
  }
  return key;
}

/**
 * Writes every key attribute of an item into `out`: the table key, and each secondary index slot
 * whose inputs are all present (the item is left out of the others).
 */
export function writeItemKeys(model: TableModel, entity: EntityModel, values: Values, out: Record<string, AttributeValue>): void {
  const keys = entityKeys(model, entity);
  const done = composeAll(keys, values);
  const table = tableKeyOf(model, entity, done[TABLE_PK], done[TABLE_SK]);
  const index = model.indexes[TABLE_INDEX];
  out[index.partitionKey] = { S: table.pk };
  out[index.sortKey!] = { S: table.sk };
  for (const slot of keys.slots) slotKeyAttributes(model, entity, slot, done, values, table, out);
}

/**
 * Writes the key attribute values of one secondary index slot into `out` and returns it, or
 * returns undefined and writes nothing when an input is absent (the item is left out of the
 * index). For an LSI only the sort key is written.
 */
export function indexKeyAttributes(
  model: TableModel,
  entity: EntityModel,
  index: IndexModel,
  values: Values,
  table: { pk: string; sk: string },
  out: Record<string, AttributeValue> = {},
): Record<string, AttributeValue> | undefined {
  const keys = entityKeys(model, entity);
  const slot = keys.slots.find((s) => s.index === index)!;
  // Only this slot's templates: an update asks for each index it changes.
  const done: (string | ComposeFailure)[] = [];
  if (slot.pk !== undefined) done[slot.pk] = keys.composers[slot.pk](values);
  if (slot.sk !== undefined) done[slot.sk] = keys.composers[slot.sk](values);
  return slotKeyAttributes(model, entity, slot, done, values, table, out);
}

function slotKeyAttributes(
  model: TableModel,
  entity: EntityModel,
  slot: SlotKeys,
  done: readonly (string | ComposeFailure)[],
  values: Values,
  table: { pk: string; sk: string },
  out: Record<string, AttributeValue>,
): Record<string, AttributeValue> | undefined {
  const index = slot.index;
  if (!slot.keys) {
    out[index.shards!.keyAttribute!] = { N: String(shardOf(model, entity, index, values, table)) };
    return out;
  }
  const keys = slot.keys;
  let pkValue: string | undefined;
  if (slot.pk !== undefined) {
    const pk = done[slot.pk];
    if (typeof pk !== 'string') return absentOrThrow(entity, keys.pk, pk);
    pkValue = index.shards ? shardedKey(pk, shardOf(model, entity, index, values, table), model.delimiter) : pk;
    checkSize(entity, index.partitionKey, pkValue, MAX_PARTITION_KEY_BYTES);
  }
  let skValue: string | undefined;
  if (slot.sk !== undefined) {
    const sk = done[slot.sk];
    if (typeof sk !== 'string') return absentOrThrow(entity, keys.sk!, sk);
    skValue = checkSize(entity, index.sortKey!, sk, MAX_SORT_KEY_BYTES);
  }
  if (pkValue !== undefined) out[index.partitionKey] = { S: pkValue };
  if (skValue !== undefined) out[index.sortKey!] = { S: skValue };
  return out;
}

/** An index key that could not be composed: undefined when an input is absent (the item stays out of the index), else INVALID_VALUE. */
export function absentOrThrow(entity: Named, template: Sourced, r: ComposeFailure): undefined {
  if (!('absent' in r)) throw keyError({ entity: entity.name }, r, '', ` (key template ${template.source})`);
}

/** The shard an item's entry goes to on a sharded GSI. */
function shardOf(model: TableModel, entity: EntityModel, index: IndexModel, values: Values, table: { pk: string; sk: string }): number {
  const shards = index.shards!;
  const name = shards.strategy === 'ATTRIBUTE' ? shards.attribute : undefined;
  const kind = name === undefined ? undefined : entity.attributes[name].type;
  return shardFor(entity, index.name, shards.writeCount, name, (value) => encodeValue(kind!, value, model.escapeChar), values, table);
}

/**
 * The shard of an item: from its table key (RANDOM), or from the encoded value of the shard
 * attribute (ATTRIBUTE), which must be given and encodable.
 */
export function shardFor(
  entity: Named, index: string, writeCount: number, attribute: string | undefined, encode: (value: unknown) => SegmentResult,
  values: Values, table: { pk: string; sk: string },
): number {
  if (attribute === undefined) return shardForItem(table.pk, table.sk, writeCount);
  const encoded = encode(values[attribute]);
  // Given but not encodable (an unpaired surrogate): a bad value, as in a key template.
  if (typeof encoded === 'object') {
    throw new SingleTableError('INVALID_VALUE', `${encoded.error} (shard attribute of ${index})`, { entity: entity.name, attribute });
  }
  if (encoded === undefined) {
    throw new SingleTableError('MISSING_ATTRIBUTE', `is the shard attribute of ${index} and must be given`, { entity: entity.name, attribute });
  }
  return shardForValue(encoded, writeCount);
}

/** The secondary index slots an item of the entity writes keys for (a sharded multi-attribute GSI's: its shard), by index name. */
export function indexSlots(model: TableModel, entity: EntityModel): string[] {
  return entityKeys(model, entity).slots.map((s) => s.index.name);
}

/**
 * The attributes whose change moves an index slot's keys (the shard attribute included): on a
 * sharded multi-attribute GSI, its key attributes, whose new values put the item in another
 * partition (the shard is written again with them).
 */
export function indexInputs(entity: EntityModel, index: IndexModel): string[] {
  return index.partitionAttributes ? [...new Set([...attributeKeyNames(index), ...indexNeeds(entity, index)])] : indexNeeds(entity, index);
}

/**
 * The attributes an index slot's keys are computed from, which an update that moves them needs:
 * every input of a composed key; of a multi-attribute GSI's shard, only the shard attribute
 * (ATTRIBUTE strategy), since DynamoDB keys the index on the stored attributes themselves.
 */
export function indexNeeds(entity: EntityModel, index: IndexModel): string[] {
  const shard = index.shards?.strategy === 'ATTRIBUTE' ? index.shards.attribute : undefined;
  if (index.partitionAttributes) return shard ? [shard] : [];
  const keys = entity.keys[index.name];
  const names = [...(index.type === 'LSI' ? [] : keys.pk.attributes), ...(keys.sk?.attributes ?? [])];
  if (shard) names.push(shard);
  return [...new Set(names)];
}

/** Per attribute name, the multi-attribute GSIs it keys and the size limit there (the partition's when it is in both). */
const keyedAttributes = new WeakMap<TableModel, ReadonlyMap<string, { readonly indexes: string[]; readonly limit: number }>>();

function keyedAttributesOf(model: TableModel): ReadonlyMap<string, { readonly indexes: string[]; readonly limit: number }> {
  let keyed = keyedAttributes.get(model);
  if (!keyed) {
    const map = new Map<string, { indexes: string[]; limit: number }>();
    for (const index of Object.values(model.indexes)) {
      const sides: [readonly KeyAttributeModel[] | undefined, number][] =
        [[index.partitionAttributes, MAX_PARTITION_KEY_BYTES], [index.sortAttributes, MAX_SORT_KEY_BYTES]];
      for (const [attrs, limit] of sides) {
        for (const { name } of attrs ?? []) {
          const entry = map.get(name) ?? { indexes: [], limit };
          entry.indexes.push(index.name);
          entry.limit = Math.min(entry.limit, limit);
          map.set(name, entry);
        }
      }
    }
    keyed = map;
    keyedAttributes.set(model, keyed);
  }
  return keyed;
}

/**
 * Checks the stored values of an item's attributes that key a multi-attribute GSI. DynamoDB refuses
 * an empty string in a key attribute, and a value over the key size limit, even on an item that
 * lacks the index's other attributes.
 */
export function checkAttributeKeyValues(
  model: TableModel, entity: Named, values: Readonly<Record<string, AttributeValue>> | readonly (readonly [string, AttributeValue])[],
): void {
  const keyed = keyedAttributesOf(model);
  if (keyed.size === 0) return;
  const entries = Array.isArray(values) ? values as readonly (readonly [string, AttributeValue])[] : Object.entries(values);
  for (const [name, av] of entries) {
    const s = av.S;
    const key = s === undefined ? undefined : keyed.get(name);
    if (!key) continue;
    if (s === '') {
      throw new SingleTableError('INVALID_VALUE', `is a key attribute of ${key.indexes.join(', ')}, which cannot hold an empty string (DynamoDB refuses it); `
        + `leave the attribute out to keep the item out of ${key.indexes.length === 1 ? 'that index' : 'those indexes'}`, { entity: entity.name, attribute: name });
    }
    if (s!.length * 3 > key.limit && utf8Length(s!) > key.limit) {
      throw new SingleTableError('KEY_TOO_LARGE', `is ${utf8Length(s!)} bytes of UTF-8, and as a key attribute of ${key.indexes.join(', ')} DynamoDB allows ${key.limit}`, { entity: entity.name, attribute: name });
    }
  }
}
