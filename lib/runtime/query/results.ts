// Query results back to typed entities. The type attribute names the entity; where an index does
// not project it (KEYS_ONLY), the table key is matched against the pattern's entity templates and
// the attribute values inside the keys are decoded. Key attributes and the type attribute are
// storage details and are stripped.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DATE_SEGMENT, decodeNumber, decodeString, NUMBER_SEGMENT } from '../../keys/encoding';
import { EntityModel, KeyTemplateModel, TABLE_INDEX, TableModel } from '../../model/model';
import { fromItem } from '../attributes/marshall';

/** One typed result: the entity's name and its item. */
export interface EntityItem {
  readonly entity: string;
  readonly item: Record<string, unknown>;
}

/** Decodes the attribute values of a key composed from `template`; undefined if it does not fit. */
export function parseKey(model: TableModel, template: KeyTemplateModel, key: string | undefined): Record<string, unknown> | undefined {
  if (key === undefined) return undefined;
  const parts = key.split(model.delimiter);
  if (parts.length !== template.segments.length) return undefined;
  const values: Record<string, unknown> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = template.segments[i];
    const part = parts[i];
    if (seg.literal !== undefined) {
      if (seg.literal !== part) return undefined;
      continue;
    }
    // A segment value that is not of its kind's form: the key is another entity's.
    const value = seg.kind === 'STRING' ? decodeString(part, model.escapeChar)
      : seg.kind === 'NUMBER' ? NUMBER_SEGMENT.test(part) ? decodeNumber(part) : undefined
        : seg.kind === 'DATE' ? DATE_SEGMENT.test(part) ? part : undefined
          : seg.kind === 'BOOLEAN' && part === 'true' || undefined;
    if (value === undefined) return undefined;
    values[seg.attribute!] = value;
  }
  return values;
}

/**
 * The entity of a stored item among `entities`, or undefined when it is another one. The type
 * attribute names it; where the index does not project it (KEYS_ONLY), the table key is matched
 * against each entity's templates (the collision rule makes at most one fit).
 */
function identify(model: TableModel, entities: readonly string[], item: Record<string, AttributeValue>): EntityModel | undefined {
  const type = item[model.typeAttribute]?.S;
  if (type !== undefined) {
    const name = model.entityByType[type];
    return entities.includes(name) ? model.entities[name] : undefined;
  }
  for (const name of entities) if (tableKeyValues(model, model.entities[name], item)) return model.entities[name];
  return undefined;
}

/** The attribute values inside an entry's table key; undefined where it does not fit the entity's templates. */
function tableKeyValues(model: TableModel, entity: EntityModel, item: Record<string, AttributeValue>): Record<string, unknown> | undefined {
  const table = model.indexes[TABLE_INDEX];
  const keys = entity.keys[TABLE_INDEX];
  const pk = parseKey(model, keys.pk, item[table.partitionKey]?.S);
  const sk = pk && parseKey(model, keys.sk!, item[table.sortKey!]?.S);
  return sk && { ...pk, ...sk };
}

/** The attribute values inside an entry's table key and its key on `indexName` (without the shard suffix of a sharded one). */
function keyValues(
  model: TableModel, entity: EntityModel, indexName: string, item: Record<string, AttributeValue>,
): Record<string, unknown> | undefined {
  const values = tableKeyValues(model, entity, item);
  if (indexName === TABLE_INDEX) return values;
  const index = model.indexes[indexName];
  // A multi-attribute key is the item's own attributes, which the entry holds as they are.
  if (index.partitionAttributes) return values;
  const slot = entity.keys[indexName];
  let pk = item[index.partitionKey]?.S;
  if (pk !== undefined && index.shards) pk = pk.slice(0, pk.lastIndexOf(model.delimiter));
  return { ...parseKey(model, slot.pk, pk), ...(slot.sk && parseKey(model, slot.sk, item[index.sortKey!]?.S)), ...values };
}

/** How index entries become results. */
export interface ResultShape {
  /** The index read; its keys are decoded when `decodeKeys` is set. */
  readonly index: string;
  /** Whether the entries lack attributes their keys hold (an index that does not project everything, read without a fetch). */
  readonly decodeKeys: boolean;
  /** The only attributes results keep (applied by `keptOnly`, which only reads with `attributes` call). @default - every attribute */
  readonly keep?: ReadonlySet<string>;
}

/** Typed results of a page, in order; items of entities outside `entities` are dropped. */
export function toEntityItems(
  model: TableModel, entities: readonly string[], items: Record<string, AttributeValue>[], strip: ReadonlySet<string>, shape: ResultShape,
): EntityItem[] {
  const out: EntityItem[] = [];
  for (const raw of items) {
    const entity = identify(model, entities, raw);
    if (!entity) continue;
    let item = fromItem(raw, strip);
    if (shape.decodeKeys) item = { ...keyValues(model, entity, shape.index, raw), ...item };
    out.push({ entity: entity.name, item });
  }
  return out;
}

/** `results` with only the attributes of `keep` (every attribute without it). */
export function keptOnly(results: EntityItem[], keep: ReadonlySet<string> | undefined): EntityItem[] {
  if (keep) for (const { item } of results) for (const a of Object.keys(item)) if (!keep.has(a)) delete item[a];
  return results;
}

/** A stored item (GetItem, UpdateItem, DeleteItem result) without key and type attributes. */
export function toItem(item: Record<string, AttributeValue> | undefined, strip: ReadonlySet<string>): Record<string, unknown> | undefined {
  return item ? fromItem(item, strip) : undefined;
}
