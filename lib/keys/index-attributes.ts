// What an index entry tells about an item without reading the item: the attributes the index
// projects, and the attribute values inside the entity's table key and its key on that index
// (key encoding is reversible: keys/encoding.ts). The compiled model decides a pattern's fetch
// mode from it, and the runtime decides whether a query naming `attributes` can skip the fetch.
import type { EntityModel, IndexModel } from '../model/model';

/**
 * The attributes of `entity` an entry of `index` holds or encodes in its keys; undefined when the
 * index projects every attribute.
 */
export function attributesInIndex(entity: EntityModel, index: IndexModel): ReadonlySet<string> | undefined {
  if (index.projection === 'ALL') return undefined;
  // A multi-attribute key's attributes are held as themselves.
  const found = new Set(index.nonKeyAttributes);
  for (const attr of [...index.partitionAttributes ?? [], ...index.sortAttributes ?? []]) found.add(attr.name);
  const slots = [entity.keys.table, entity.keys[index.name]];
  for (const slot of slots) {
    for (const attribute of slot?.pk.attributes ?? []) found.add(attribute);
    for (const attribute of slot?.sk?.attributes ?? []) found.add(attribute);
  }
  return found;
}

/** Whether an entry of `index` gives every one of `attributes` that `entity` has. */
export function indexAnswers(entity: EntityModel, index: IndexModel, attributes: readonly string[]): boolean {
  const found = attributesInIndex(entity, index);
  return !found || attributes.every((a) => !Object.hasOwn(entity.attributes, a) || found.has(a));
}
