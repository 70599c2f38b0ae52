// Naming rules: what CloudFormation and DynamoDB reject about index and attribute names.
import { IndexType, LSI_SLOTS, TABLE_INDEX } from '../model';
import type { ManifestRule } from './rule';

const INDEX_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;

/** Index names: 3-255 characters of [a-zA-Z0-9_.-], and not a reserved slot name. */
export const indexNamesAreValid: ManifestRule = (_model, manifest, sink) => {
  for (const name of Object.keys(manifest.globalIndexes ?? {})) {
    if (!INDEX_NAME.test(name)) {
      sink.error('INDEX_NAME_INVALID', `index ${name}`, `name ${JSON.stringify(name)} is not 3-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, "rename it, e.g. 'GSI1' or 'ByStatus'");
    }
    if (name === TABLE_INDEX || LSI_SLOTS.includes(name)) {
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

/** Every index has its own physical key attributes (seed 000: never reuse GSI key attributes). */
export const keyAttributeNamesAreUnique: ManifestRule = (model, _manifest, sink) => {
  const owner = new Map<string, string>();
  for (const index of Object.values(model.indexes)) {
    const attrs = index.type === IndexType.LSI ? [index.sortKey] : [index.partitionKey, index.sortKey];
    for (const attr of attrs) {
      if (attr === undefined) continue;
      if (!/^[A-Za-z0-9_.-]{1,255}$/.test(attr)) {
        sink.error('KEY_ATTRIBUTE_NAME_INVALID', `index ${index.name}`, `key attribute name ${JSON.stringify(attr)} is not 1-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, 'choose another partitionKeyName/sortKeyName');
      }
      const other = owner.get(attr);
      if (other !== undefined && other !== index.name) {
        sink.error('KEY_ATTRIBUTE_REUSED', `index ${index.name}`, `key attribute '${attr}' is already a key of ${other === TABLE_INDEX ? 'the table' : 'index ' + other}`, `give ${index.name} its own key attributes (default ${index.name}PK/${index.name}SK)`);
      } else {
        owner.set(attr, index.name);
      }
    }
  }
};

/** The type attribute is a plain attribute name, not a key attribute. */
export const typeAttributeIsValid: ManifestRule = (model, _manifest, sink) => {
  const t = model.typeAttribute;
  if (typeof t !== 'string' || !/^[A-Za-z0-9_.-]{1,255}$/.test(t)) {
    sink.error('TYPE_ATTRIBUTE_INVALID', 'manifest', `typeAttribute ${JSON.stringify(t)} is not 1-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, "use e.g. 'Type'");
  } else if (model.keyAttributes.includes(t)) {
    sink.error('TYPE_ATTRIBUTE_CLASH', 'manifest', `typeAttribute '${t}' is also a key attribute`, "choose another typeAttribute, e.g. 'Type'");
  }
};

/** Data attributes never clash with key attributes or the type attribute. */
export const dataAttributesDoNotClash: ManifestRule = (model, _manifest, sink) => {
  for (const entity of Object.values(model.entities)) {
    for (const attr of Object.keys(entity.attributes)) {
      if (attr.length === 0) {
        sink.error('ATTRIBUTE_NAME_EMPTY', `entity ${entity.name}`, 'declares an attribute with an empty name', 'give the attribute a name');
      } else if (attr === model.typeAttribute) {
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
