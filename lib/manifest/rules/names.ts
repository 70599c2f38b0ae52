// Naming rules: what CloudFormation and DynamoDB reject about index and attribute names.
import type { ManifestRule } from './rule';
import type { SingleTableManifest } from '../../model/manifest';
import { IndexModel, IndexType, LSI_SLOTS, TABLE_INDEX } from '../../model/model';
import { describeValue, own } from '../values';

const INDEX_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;

/**
 * Index names: 3-255 characters of [a-zA-Z0-9_.-], and not `table` or, while the LSIs exist, an
 * LSI slot's name (with local indexes off, `LSI1` is a free GSI name).
 */
export const indexNamesAreValid: ManifestRule = (model, manifest, sink) => {
  for (const name of Object.keys(manifest.globalIndexes ?? {})) {
    if (name === '__proto__') {
      sink.error('INDEX_NAME_INVALID', `index ${name}`, "'__proto__' cannot be a name: JavaScript objects cannot hold it as an ordinary property", "rename it, e.g. 'GSI1' or 'ByStatus'");
    } else if (!INDEX_NAME.test(name)) {
      sink.error('INDEX_NAME_INVALID', `index ${name}`, `name ${describeValue(name)} is not 3-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, "rename it, e.g. 'GSI1' or 'ByStatus'");
    }
    if (name === TABLE_INDEX || (model.localIndexesEnabled && LSI_SLOTS.includes(name))) {
      sink.error('INDEX_NAME_DUPLICATE', `index ${name}`, `GSI name '${name}' duplicates ${name === TABLE_INDEX ? 'the name that stands for the table' : 'an LSI slot'}`, "rename the GSI, e.g. 'GSI1'");
    }
  }
};

/** At most 20 GSIs per table (the default DynamoDB quota). */
export const atMostTwentyGlobalIndexes: ManifestRule = (model, _manifest, sink) => {
  const gsis = Object.values(model.indexes).filter((i) => i.type === IndexType.GSI);
  if (gsis.length > 20) {
    sink.error('TOO_MANY_GSIS', 'manifest', `declares ${gsis.length} GSIs; DynamoDB allows 20 per table`, 'overload GSIs: let several entities share one GSI through generic GSI1PK/GSI1SK keys');
  }
};

/**
 * Every index has its own physical key attributes (a GSI's key attributes are never reused by another index), its
 * partition and sort key are two attributes, and none is the type attribute. The table's and the
 * LSIs' names are fixed, so a clash is always blamed on the GSI that chose its names.
 */
export const keyAttributeNamesAreUnique: ManifestRule = (model, manifest, sink) => {
  const owner = new Map<string, string>();
  const fixedFirst = Object.values(model.indexes).sort((a, b) => Number(a.type === IndexType.GSI) - Number(b.type === IndexType.GSI));
  for (const index of fixedFirst) {
    // A multi-attribute index keys on declared data attributes, which several such indexes may share.
    if (index.partitionAttributes) continue;
    const attrs = index.type === IndexType.LSI ? [index.sortKey] : [index.partitionKey, index.sortKey];
    if (index.sortKey !== undefined && index.sortKey === index.partitionKey) {
      sink.error('INDEX_KEY_ATTRIBUTES_SAME', `index ${index.name}`, `partition key and sort key are both attribute '${index.sortKey}'; DynamoDB needs two different attributes`, `give sortKeyName another name (default ${index.name}SK), or declare the index with hasSortKey: false`);
      continue;
    }
    for (const attr of attrs) {
      if (attr === undefined) continue;
      if (!/^[A-Za-z0-9_.-]{1,255}$/.test(attr)) {
        sink.error('KEY_ATTRIBUTE_NAME_INVALID', `index ${index.name}`, `key attribute name ${describeValue(attr)} is not 1-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, 'choose another partitionKeyName/sortKeyName');
        continue;
      }
      // Whoever chose the name is blamed: the GSI's explicit key name, else the typeAttribute (typeAttributeIsValid).
      if (index.type === IndexType.GSI && attr === model.typeAttribute && namedExplicitly(manifest, index.name, attr)) {
        sink.error('KEY_ATTRIBUTE_CLASHES_TYPE', `index ${index.name}`, `key attribute '${attr}' is the type attribute, which holds each item's entity type`, `choose another ${attr === index.partitionKey ? 'partitionKeyName' : 'sortKeyName'} (default ${index.name}${attr === index.partitionKey ? 'PK' : 'SK'})`);
        continue;
      }
      const other = owner.get(attr);
      if (other !== undefined && other !== index.name) {
        const otherName = other === TABLE_INDEX ? 'the table' : `${model.indexes[other].type === IndexType.LSI ? 'LSI' : 'index'} ${other}`;
        sink.error('KEY_ATTRIBUTE_REUSED', `index ${index.name}`, `key attribute '${attr}' is already a key of ${otherName}`, `give ${index.name} its own key attributes (default ${index.name}PK/${index.name}SK)`);
      } else {
        owner.set(attr, index.name);
      }
    }
  }
};

/** Whether a GSI's key attribute name is written in the manifest (not the `<index>PK`/`<index>SK` default). */
function namedExplicitly(manifest: SingleTableManifest, indexName: string, attr: string): boolean {
  const def = own(manifest.globalIndexes, indexName);
  return def?.partitionKeyName === attr || def?.sortKeyName === attr;
}

/** The type attribute is a plain attribute name, not a key attribute. */
export const typeAttributeIsValid: ManifestRule = (model, manifest, sink) => {
  const t = model.typeAttribute;
  if (typeof t !== 'string' || !/^[A-Za-z0-9_.-]{1,255}$/.test(t)) {
    sink.error('TYPE_ATTRIBUTE_INVALID', 'manifest', `typeAttribute ${describeValue(t)} is not 1-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, "use e.g. 'Type'");
  } else {
    const blamesType = (i: IndexModel) => !i.partitionAttributes &&
      (i.partitionKey === t || i.sortKey === t) && !(i.type === IndexType.GSI && namedExplicitly(manifest, i.name, t));
    const index = Object.values(model.indexes).find(blamesType);
    if (index) {
      sink.error('TYPE_ATTRIBUTE_CLASH', 'manifest', `typeAttribute '${t}' is also a key attribute (of ${index.type === IndexType.TABLE ? 'the table' : `${index.type} ${index.name}`})`, "choose another typeAttribute, e.g. 'Type'");
    }
  }
};

/** Data attributes never clash with key attributes or the type attribute. */
export const dataAttributesDoNotClash: ManifestRule = (model, _manifest, sink) => {
  for (const entity of Object.values(model.entities)) {
    for (const attr of Object.keys(entity.attributes)) {
      if (attr === model.typeAttribute) {
        sink.error('ATTRIBUTE_CLASHES_TYPE', `entity ${entity.name}, attribute ${attr}`, `'${attr}' is the type attribute, which the library writes`, 'rename the attribute, or set typeAttribute to another name');
      } else if (model.keyAttributes.includes(attr)) {
        sink.error('ATTRIBUTE_CLASHES_KEY', `entity ${entity.name}, attribute ${attr}`, `'${attr}' is a physical key attribute, which the library composes from templates`, 'rename the data attribute');
      }
    }
  }
};

/** Type values identify entities: non-empty and unique. */
export const typeValuesAreUnique: ManifestRule = (model, _manifest, sink) => {
  const seen = new Map<string, string>();
  for (const entity of Object.values(model.entities)) {
    if (!entity.typeValue) {
      sink.error('TYPE_VALUE_EMPTY', `entity ${entity.name}`, 'has an empty typeValue', 'remove typeValue (defaults to the entity name) or set a non-empty one');
      continue;
    }
    const other = seen.get(entity.typeValue);
    if (other) {
      sink.error('TYPE_VALUE_DUPLICATE', `entity ${entity.name}`, `typeValue '${entity.typeValue}' is also entity ${other}'s`, 'give each entity its own typeValue');
    }
    seen.set(entity.typeValue, entity.name);
  }
  if (Object.keys(model.entities).length === 0) {
    sink.error('NO_ENTITIES', 'manifest', 'declares no entities', 'add at least one entity');
  }
};
