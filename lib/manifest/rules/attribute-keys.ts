// Multi-attribute GSI keys: an index keyed on the items' own attributes (up to four per side, each
// keeping its type). DynamoDB checks an indexed attribute's type on every write of an item that
// has it, so one attribute name must mean one key type in every entity that declares it.
import type { ManifestRule } from './rule';
import { didYouMean } from '../../model/closest-name';
import { AttributeKind } from '../../model/manifest';
import { attributeKeyNames, IndexType, populatesIndex, shardKeyAttributeName, TableModel } from '../../model/model';
import { own } from '../values';

/** Most attributes on each side of a multi-attribute key. */
export const MAX_KEY_ATTRIBUTES = 4;

/** Kinds an attribute of a multi-attribute key may have: stored as DynamoDB strings (S) or numbers (N). */
export const KEYABLE_KINDS: readonly AttributeKind[] = [AttributeKind.STRING, AttributeKind.DATE, AttributeKind.NUMBER];

/** The properties of a composed index that a multi-attribute index replaces. */
const COMPOSED_ONLY = ['partitionKeyName', 'sortKeyName', 'hasSortKey'] as const;

/**
 * A multi-attribute index is declared on its own terms: 1-4 partition and 0-4 sort attributes,
 * each once, without a composed index's key names; sharded, it keeps a partition key attribute
 * free for the shard.
 */
export const attributeKeysAreWellFormed: ManifestRule = (_model, manifest, sink) => {
  for (const [name, def] of Object.entries(manifest.globalIndexes ?? {})) {
    if (!def) continue;
    const where = `index ${name}`;
    if (def.partitionAttributes === undefined) {
      if (def.sortAttributes !== undefined) {
        sink.error('ATTRIBUTE_KEYS_WITHOUT_PARTITION', where, `declares sortAttributes ${JSON.stringify(def.sortAttributes)} without partitionAttributes`,
          "add partitionAttributes (1-4 attribute names, e.g. ['tenantId']), or remove sortAttributes to keep a composed key");
      }
      continue;
    }
    const partition = def.partitionAttributes;
    const sort = def.sortAttributes ?? [];
    if (partition.length < 1 || partition.length > MAX_KEY_ATTRIBUTES) {
      sink.error('ATTRIBUTE_KEYS_COUNT', where, `has ${partition.length} partitionAttributes; DynamoDB takes 1 to ${MAX_KEY_ATTRIBUTES}`,
        partition.length ? `keep the ${MAX_KEY_ATTRIBUTES} that select a partition best; compare the others in sortAttributes or a filter` : 'name at least one attribute');
    }
    if (sort.length > MAX_KEY_ATTRIBUTES) {
      sink.error('ATTRIBUTE_KEYS_COUNT', where, `has ${sort.length} sortAttributes; DynamoDB takes at most ${MAX_KEY_ATTRIBUTES}`,
        `keep the ${MAX_KEY_ATTRIBUTES} leading ones queries compare; filter on the others`);
    }
    const seen = new Set<string>();
    for (const attr of [...partition, ...sort]) {
      if (seen.has(attr)) {
        sink.error('ATTRIBUTE_KEYS_DUPLICATE', where, `names '${attr}' twice in partitionAttributes and sortAttributes; a key schema holds each attribute once`, `remove one '${attr}'`);
      }
      seen.add(attr);
    }
    for (const prop of COMPOSED_ONLY) {
      if (def[prop] === undefined) continue;
      sink.error('ATTRIBUTE_KEYS_MIXED', where, `sets ${prop} beside partitionAttributes; ${prop} belongs to an index with a composed key`,
        prop === 'hasSortKey' ? 'remove hasSortKey: the sort key is sortAttributes (none when it is empty or absent)' : `remove ${prop}: the key attributes are partitionAttributes and sortAttributes`);
    }
    if (def.sharding && partition.length === MAX_KEY_ATTRIBUTES) {
      sink.error('ATTRIBUTE_KEYS_SHARD_SLOT', where,
        `is sharded and has ${partition.length} partitionAttributes; the shard is a partition key attribute of its own (${shardKeyAttributeName(name)}, written last), and DynamoDB takes at most ${MAX_KEY_ATTRIBUTES}`,
        `keep at most ${MAX_KEY_ATTRIBUTES - 1} partitionAttributes (compare the others in sortAttributes or a filter), or remove sharding`);
    }
  }
};

/**
 * A sharded multi-attribute index's shard attribute (`<index>Shard`) is the runtime's: no entity
 * declares an attribute of that name, and no other key or the type attribute has it.
 */
export const attributeKeyShardsAreFree: ManifestRule = (model, _manifest, sink) => {
  for (const index of Object.values(model.indexes)) {
    const shard = index.shards?.keyAttribute;
    if (!shard) continue;
    const where = `index ${index.name}`;
    for (const entity of Object.values(model.entities)) {
      if (!Object.hasOwn(entity.attributes, shard)) continue;
      sink.error('ATTRIBUTE_KEY_SHARD_CLASH', `${where}, entity ${entity.name}`,
        `declares attribute '${shard}', the NUMBER attribute the runtime writes the shard of ${index.name} into on ${populatesIndex(entity, index) ? 'its' : 'the index\'s'} items (and leaves out of every result)`,
        `rename '${shard}' on ${entity.name}, or rename the index (its shard attribute is always '<index name>Shard')`);
    }
    const other = shard === model.typeAttribute ? 'the type attribute'
      : Object.values(model.indexes).find((i) => !i.partitionAttributes && (i.partitionKey === shard || i.sortKey === shard));
    if (other) {
      sink.error('ATTRIBUTE_KEY_SHARD_CLASH', where,
        `writes its shard into attribute '${shard}', which is also ${typeof other === 'string' ? other : `a key attribute of ${other.type === IndexType.TABLE ? 'the table' : `${other.type} ${other.name}`}`}`,
        `rename the index, or the ${typeof other === 'string' ? 'typeAttribute' : 'other key attribute'}`);
    }
  }
};

/**
 * Every key attribute is declared, by every entity that declares it with the same keyable kind,
 * and entities populate the index by their attributes, not by key templates.
 */
export const attributeKeysAreTyped: ManifestRule = (model, manifest, sink) => {
  for (const index of Object.values(model.indexes)) {
    if (index.type !== IndexType.GSI || !index.partitionAttributes) continue;
    const def = own(manifest.globalIndexes, index.name)!;
    const where = `index ${index.name}`;
    const keyNames = attributeKeyNames(index);
    const declaredAnywhere = new Set(Object.values(model.entities).flatMap((e) => Object.keys(e.attributes)));
    for (const attr of keyNames) {
      const declaring = Object.values(model.entities).filter((e) => Object.hasOwn(e.attributes, attr));
      if (declaring.length === 0) {
        const fix = attr === model.typeAttribute
          ? `the type attribute '${attr}' is written by the library and cannot be a key attribute; name an attribute the entities declare`
          : `${didYouMean(attr, declaredAnywhere)}declare '${attr}' (STRING, NUMBER or DATE) on the entities the index serves, or name an attribute they declare`;
        sink.error('ATTRIBUTE_KEY_UNDECLARED', where, `keys on attribute '${attr}', which no entity declares`, fix);
        continue;
      }
      const bad = declaring.filter((e) => !KEYABLE_KINDS.includes(e.attributes[attr].type));
      for (const entity of bad) {
        sink.error('ATTRIBUTE_KEY_KIND', `${where}, entity ${entity.name}`,
          `key attribute '${attr}' is ${entity.attributes[attr].type}; a key attribute is a string, number or binary value, so DynamoDB would reject every write of ${entity.name} that has it`,
          `declare '${attr}' as STRING, NUMBER or DATE on ${entity.name}, or key the index on another attribute`);
      }
      const kinds = [...new Set(declaring.filter((e) => !bad.includes(e)).map((e) => e.attributes[attr].type))];
      if (kinds.length > 1) {
        const byKind = kinds.map((k) => `${k} in ${declaring.filter((e) => e.attributes[attr].type === k).map((e) => e.name).join(', ')}`).join('; ');
        sink.error('ATTRIBUTE_KEY_KIND_MISMATCH', where,
          `key attribute '${attr}' has different kinds (${byKind}); the index stores it with one type, and a write with the other fails or sorts apart`,
          `declare '${attr}' with one kind in every entity, or rename it in the entities whose values are another kind`);
      }
    }
    for (const [entityName, entity] of Object.entries(manifest.entities)) {
      if (own(entity?.indexes, index.name) === undefined) continue;
      const missing = keyNames.filter((n) => !Object.hasOwn(model.entities[entityName]?.attributes ?? {}, n));
      sink.error('ATTRIBUTE_KEY_TEMPLATES', `entity ${entityName}, index ${index.name}`,
        `gives key templates for ${index.name}, which is keyed on the attributes ${keyNames.join(', ')} and composes no key`,
        `remove indexes.${index.name} from ${entityName}; ${missing.length ? `declare ${missing.join(', ')} on ${entityName} to put its items in the index` : `its items are in the index whenever they have ${keyNames.join(', ')}`}`);
    }
    const sort = index.sortAttributes ?? [];
    if (sort.length && sort.every((a) => a.kind === AttributeKind.NUMBER)) {
      for (const pattern of Object.values(model.patterns)) {
        if (pattern.index !== index.name || pattern.sortKeyCondition !== 'BEGINS_WITH') continue;
        sink.error('ATTRIBUTE_KEY_PREFIX_OF_NUMBER', `pattern ${pattern.name}`,
          `is BEGINS_WITH on ${index.name}, whose sort attributes (${sort.map((a) => a.name).join(', ')}) are all NUMBERs; BEGINS_WITH compares a prefix of the last sort attribute given, and DynamoDB's begins_with takes strings only`,
          'use EQUALS to compare the given sort attributes by value, or a range condition (BETWEEN, GREATER_THAN, ...) for a span of numbers');
      }
    }
    const included = (def.include ?? []).filter((a) => keyNames.includes(a));
    for (const attr of included) {
      sink.error('INCLUDE_KEY_ATTRIBUTE', where, `INCLUDE names key attribute '${attr}', which every index projects anyway`, 'remove it from `include`');
    }
    if (index.entities!.length === 0 && declaredAnywhere.size > 0 && keyNames.every((n) => declaredAnywhere.has(n))) {
      sink.warning('ATTRIBUTE_KEYS_UNPOPULATED', where, `no entity declares all of ${keyNames.join(', ')}, so no item is ever in the index`,
        `declare the missing ones on the entity the index serves (${nearest(model, keyNames)})`);
    }
  }
};

/** The entity declaring most of the key attributes, and what it lacks. */
function nearest(model: TableModel, keyNames: string[]): string {
  let best = '';
  let most = -1;
  for (const entity of Object.values(model.entities)) {
    const has = keyNames.filter((n) => Object.hasOwn(entity.attributes, n)).length;
    if (has > most) {
      most = has;
      best = `${entity.name} lacks ${keyNames.filter((n) => !Object.hasOwn(entity.attributes, n)).join(', ')}`;
    }
  }
  return best;
}
