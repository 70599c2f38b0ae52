// Words for model facts that several reports print: key templates (with shard suffixes), when an
// entity is in a sparse index, projections and fetch modes. Kept in one place so the entity charts,
// the index charts and the access-pattern table always say the same thing.
import { AttributeKind, ProjectionKind } from '../model/manifest';
import { attributeKeyNames, EntityModel, FetchMode, hashKeyAttributes, IndexModel, IndexType, KeyAttributeModel, KeyTemplateModel, TableModel } from '../model/model';

/** A partition key template as stored: with the shard suffix on a sharded GSI (a multi-attribute one's shard attribute last). */
export function partitionKeyText(template: KeyTemplateModel | undefined, index: IndexModel, delimiter: string): string {
  if (index.partitionAttributes || !template) return attributeKeyText(hashKeyAttributes(index));
  if (!index.shards) return template.source;
  return `${template.source}${delimiter}[0-${index.shards.readCount - 1}]`;
}

/** A multi-attribute key as its attributes in key order, e.g. `[tenantId, status]`. */
export function attributeKeyText(attributes: readonly KeyAttributeModel[]): string {
  return `[${attributes.map((a) => a.name).join(', ')}]`;
}

/** `pk / sk` of an entity on an index, or `pk` for an index without a sort key. */
export function keyPairText(model: TableModel, entity: EntityModel, index: IndexModel): string {
  if (index.partitionAttributes) {
    const pk = attributeKeyText(hashKeyAttributes(index));
    return index.sortAttributes?.length ? `${pk} / ${attributeKeyText(index.sortAttributes)}` : pk;
  }
  const keys = entity.keys[index.name];
  const pk = partitionKeyText(keys.pk, index, model.delimiter);
  return keys.sk ? `${pk} / ${keys.sk.source}` : pk;
}

/**
 * Attributes that decide whether an entity is in an index: optional attributes of its index key
 * templates. An item without one (or with `false`, for booleans) is left out of the index.
 */
export function sparseCondition(entity: EntityModel, index: IndexModel): string | undefined {
  const keys = entity.keys[index.name];
  const attrs = index.partitionAttributes
    ? attributeKeyNames(index)
    : keys && index.type !== IndexType.TABLE ? [...keys.pk.attributes, ...(keys.sk?.attributes ?? [])] : [];
  const optional = [...new Set(attrs)].filter((a) => !entity.attributes[a]?.required || entity.attributes[a]?.type === AttributeKind.BOOLEAN);
  if (optional.length === 0) return undefined;
  return optional.map((a) => (entity.attributes[a]?.type === AttributeKind.BOOLEAN ? `${a} is true` : `${a} is set`)).join(' and ');
}

/** The projection of an index in words, e.g. `INCLUDE (orderId, status, Type)`. */
export function projectionText(index: IndexModel): string {
  if (index.type === IndexType.TABLE) return 'whole item';
  if (index.projection === ProjectionKind.INCLUDE) return `INCLUDE (${index.nonKeyAttributes.join(', ')})`;
  return index.projection;
}

/** How a pattern gets what its index does not project. */
export function fetchText(fetch: FetchMode): string {
  switch (fetch) {
    case FetchMode.BATCH_GET: return 'yes: BatchGetItem on the table';
    case FetchMode.LSI_FETCH: return 'yes: DynamoDB fetches from the table (LSI)';
    default: return 'no';
  }
}

/** Secondary indexes of the model in model order (GSIs, then LSIs). */
export function secondaryIndexes(model: TableModel): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type !== IndexType.TABLE);
}
