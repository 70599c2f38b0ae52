// Query results back to typed entities. The type attribute names the entity; where an index does
// not project it (KEYS_ONLY), the table key is matched against the pattern's entity templates and
// the attribute values inside the keys are decoded. Key attributes and the type attribute are
// storage details and are stripped.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { fromItem } from './marshall';
import { DATE_SEGMENT, decodeNumber, decodeString, NUMBER_SEGMENT } from '../keys/encoding';
import { EntityModel, KeyTemplateModel, PatternModel, TABLE_INDEX, TableModel } from '../manifest/model';

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
    } else if (seg.kind === 'STRING') {
      values[seg.attribute!] = decodeString(part, model.escapeChar);
    } else if (seg.kind === 'NUMBER' && NUMBER_SEGMENT.test(part)) {
      values[seg.attribute!] = decodeNumber(part);
    } else if (seg.kind === 'DATE' && DATE_SEGMENT.test(part)) {
      values[seg.attribute!] = part;
    } else if (seg.kind === 'BOOLEAN' && part === 'true') {
      values[seg.attribute!] = true;
    } else {
      return undefined;
    }
  }
  return values;
}

/** The entity of a stored item among a pattern's entities, or undefined when it is another one. */
type Identified = { entity: EntityModel; fromKeys?: Record<string, unknown> };

function identify(model: TableModel, pattern: PatternModel, item: Record<string, AttributeValue>): Identified | undefined {
  const type = item[model.typeAttribute]?.S;
  if (type !== undefined) {
    const name = model.entityByType[type];
    return pattern.entities.includes(name) ? { entity: model.entities[name] } : undefined;
  }
  const table = model.indexes[TABLE_INDEX];
  for (const name of pattern.entities) {
    const entity = model.entities[name];
    const keys = entity.keys[TABLE_INDEX];
    const pk = parseKey(model, keys.pk, item[table.partitionKey]?.S);
    const sk = pk && parseKey(model, keys.sk!, item[table.sortKey!]?.S);
    if (!pk || !sk) continue;
    const index = model.indexes[pattern.index];
    const slot = entity.keys[pattern.index];
    const ipk = parseKey(model, slot.pk, item[index.partitionKey]?.S);
    const isk = slot.sk && parseKey(model, slot.sk, item[index.sortKey!]?.S);
    return { entity, fromKeys: { ...ipk, ...isk, ...pk, ...sk } };
  }
  return undefined;
}

/** Typed results of a page, in order; items of entities outside the pattern are dropped. */
export function toEntityItems(model: TableModel, pattern: PatternModel, items: Record<string, AttributeValue>[], strip: ReadonlySet<string>) {
  const out: EntityItem[] = [];
  for (const raw of items) {
    const found = identify(model, pattern, raw);
    if (!found) continue;
    const item = fromItem(raw, strip);
    out.push({ entity: found.entity.name, item: found.fromKeys ? { ...found.fromKeys, ...item } : item });
  }
  return out;
}

/** A stored item (GetItem, UpdateItem, DeleteItem result) without key and type attributes. */
export function toItem(item: Record<string, AttributeValue> | undefined, strip: ReadonlySet<string>): Record<string, unknown> | undefined {
  return item ? fromItem(item, strip) : undefined;
}
