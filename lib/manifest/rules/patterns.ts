// Access pattern rules: every pattern can be served by the index it names, as declared.
import type { ManifestRule } from './rule';
import { didYouMean } from '../../model/closest-name';
import { SingleTableManifest, SortKeyCondition } from '../../model/manifest';
import { attributeKeyNames, IndexType, populatesIndex, TABLE_INDEX, TableModel } from '../../model/model';
import { undeclaredIndexFix } from '../index-name-fix';

/** A pattern names known entities, a known index, and an index each of its entities populates. */
export const patternsNameWhatExists: ManifestRule = (model, manifest, sink) => {
  for (const [name, def] of Object.entries(manifest.accessPatterns ?? {})) {
    const where = `pattern ${name}`;
    const indexName = def?.index ?? TABLE_INDEX;
    if (!def?.entities || def.entities.length === 0) {
      sink.error('PATTERN_NO_ENTITY', where, 'names no entity', 'list the entity or entities it returns under `entities`');
      continue;
    }
    const index = model.indexes[indexName];
    if (!index) {
      sink.error('PATTERN_INDEX_UNKNOWN', where, `uses index '${indexName}', which does not exist`,
        undeclaredIndexFix(indexName, manifest, Object.keys(model.indexes), `use one of: ${Object.keys(model.indexes).join(', ')}`));
    }
    for (const entityName of def.entities) {
      const entity = model.entities[entityName];
      if (!entity) {
        sink.error('PATTERN_ENTITY_UNKNOWN', where, `names entity '${entityName}', which is not declared`, `${didYouMean(entityName, Object.keys(model.entities))}use one of: ${Object.keys(model.entities).join(', ')}`);
      } else if (index?.partitionAttributes && !populatesIndex(entity, index)) {
        const missing = attributeKeyNames(index).filter((a) => !Object.hasOwn(entity.attributes, a));
        sink.error('PATTERN_INDEX_NOT_POPULATED', where, `queries ${indexName} for ${entityName}, but ${entityName} does not declare ${missing.join(', ')}, which ${indexName} keys on`,
          `declare ${missing.join(', ')} on ${entityName}, or query another index`);
      } else if (index && !index.partitionAttributes && !entity.keys[indexName] && !keysAlreadyReported(model, manifest, entityName, indexName)) {
        sink.error('PATTERN_INDEX_NOT_POPULATED', where, `queries ${indexName} for ${entityName}, but ${entityName} does not populate ${indexName}`, `add ${indexName} key templates to entity ${entityName}, or query another index`);
      }
    }
  }
};

/**
 * Whether an entity's keys on an index are missing because of a finding already reported: its
 * table keys (every entity has them), a template it declares for the index, or a slot naming an
 * index that does not exist (likely the one meant). Reporting the pattern too would be a second
 * cause for one mistake.
 */
function keysAlreadyReported(model: TableModel, manifest: SingleTableManifest, entityName: string, indexName: string): boolean {
  const slots = Object.keys(manifest.entities[entityName]?.indexes ?? {});
  return indexName === TABLE_INDEX || slots.includes(indexName) || slots.some((slot) => slot === TABLE_INDEX || !model.indexes[slot]);
}

/** A collection pattern's entities share the partition key template on its index. */
export const collectionsSharePartitionKey: ManifestRule = (model, _manifest, sink) => {
  for (const pattern of Object.values(model.patterns)) {
    // On a multi-attribute index every entity shares the key attributes by definition.
    if (!pattern.pk) continue;
    for (const entityName of pattern.entities.slice(1)) {
      const keys = model.entities[entityName]?.keys[pattern.index];
      if (!keys) continue;
      const same = keys.pk.segments.length === pattern.pk.segments.length &&
        keys.pk.segments.every((s, i) => s.literal === pattern.pk!.segments[i].literal && s.attribute === pattern.pk!.segments[i].attribute);
      if (!same) {
        sink.error('COLLECTION_PK_MISMATCH', `pattern ${pattern.name}`, `returns ${pattern.entities[0]} (pk ${pattern.pk.source}) and ${entityName} (pk ${keys.pk.source}) from one query, but their partition keys on ${pattern.index} differ`, 'give the entities the same pk template on this index, or split the pattern');
      }
    }
  }
};

/**
 * A collection pattern with a sort-key condition: its entities' sort keys share a leading segment.
 * The condition is built on that shared prefix (a parent `X#{id}` and its children
 * `X#{id}#CHILD#{date}` share `X#{id}`); with none, no one condition selects all of them, and
 * building it from one entity's key would silently leave the others out.
 */
export const collectionsShareSortKeyPrefix: ManifestRule = (model, _manifest, sink) => {
  for (const pattern of Object.values(model.patterns)) {
    const index = model.indexes[pattern.index];
    const condition = pattern.sortKeyCondition;
    const conditionUsesSortKey = condition !== SortKeyCondition.NONE && Object.values(SortKeyCondition).includes(condition);
    if (pattern.entities.length < 2 || pattern.sk || !index?.sortKey || index.partitionAttributes || !conditionUsesSortKey) continue;
    const templates = pattern.entities.map((e) => `${e} ${model.entities[e]?.keys[pattern.index]?.sk?.source ?? '(none)'}`).join(', ');
    sink.error('COLLECTION_SK_NO_SHARED_PREFIX', `pattern ${pattern.name}`,
      `uses ${pattern.sortKeyCondition} on ${index.sortKey} for ${pattern.entities.join(', ')}, but their sort keys on ${pattern.index} (${templates}) ` +
      'share no leading segment, so no one condition selects all of them',
      'use SortKeyCondition.NONE to read the whole partition, start the sort keys with a shared segment (a parent X#{id} and its children X#{id}#CHILD#{date}), or split the pattern');
  }
};

/** The sort-key condition, order and consistency are possible on the index. */
export const patternQueriesArePossible: ManifestRule = (model, manifest, sink) => {
  for (const [name, def] of Object.entries(manifest.accessPatterns ?? {})) {
    const where = `pattern ${name}`;
    const index = model.indexes[def?.index ?? TABLE_INDEX];
    const condition = def?.sortKeyCondition ?? SortKeyCondition.NONE;
    if (index && !index.sortKey && condition !== SortKeyCondition.NONE) {
      sink.error('PATTERN_CONDITION_WITHOUT_SORT_KEY', where, `uses ${condition} on ${index.name}, which has no sort key`, 'use SortKeyCondition.NONE, or give the index a sort key');
    }
    if (def?.consistentRead && index?.type === IndexType.GSI) {
      sink.error('PATTERN_CONSISTENT_READ_ON_GSI', where, `requires strongly consistent reads from GSI ${index.name}; GSIs are only eventually consistent`, 'read from the table or an LSI, or accept eventual consistency');
    }
  }
};

/** The attributes a pattern needs are declared by the entities it returns. */
export const patternAttributesAreDeclared: ManifestRule = (model, _manifest, sink) => {
  for (const pattern of Object.values(model.patterns)) {
    const declared = new Set(pattern.entities.flatMap((e) => Object.keys(model.entities[e]?.attributes ?? {})));
    for (const attr of pattern.attributes) {
      if (!declared.has(attr)) {
        sink.error('PATTERN_ATTRIBUTE_UNDECLARED', `pattern ${pattern.name}`, `needs attribute '${attr}', which none of ${pattern.entities.join(', ')} declares`, `${didYouMean(attr, declared)}remove it from \`attributes\`, or declare it`);
      }
    }
  }
};
