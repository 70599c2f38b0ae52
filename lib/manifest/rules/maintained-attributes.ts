// Version and timestamp attributes: the runtime writes them, so an entity does not declare them,
// gives each its own name, and keeps them out of its table key (a table key identifies the item,
// and these change with every write or are only known once the item is written).
import type { ManifestRule } from './rule';
import { TABLE_INDEX } from '../../model/model';
import { maintainedAttributes } from '../maintained';

/** Maintained attributes are undeclared, distinct, and not in the table key templates. */
export const maintainedAttributesFit: ManifestRule = (model, manifest, sink) => {
  for (const [name, def] of Object.entries(manifest.entities ?? {})) {
    const maintained = maintainedAttributes(def);
    const seen = new Set<string>();
    for (const [attr, kind] of maintained) {
      const where = `entity ${name}, attribute ${attr}`;
      const role = kind === 'NUMBER' ? 'the version attribute' : 'a timestamp attribute';
      if (seen.has(attr)) {
        sink.error('MAINTAINED_ATTRIBUTES_SAME', where, `'${attr}' names two of the version and timestamp attributes`, 'give the version, createdAt and updatedAt attributes different names');
        continue;
      }
      seen.add(attr);
      if (Object.hasOwn(def.attributes ?? {}, attr)) {
        sink.error('MAINTAINED_ATTRIBUTE_DECLARED', where, `'${attr}' is declared under attributes and is also ${role}, which the runtime writes (as a ${kind})`,
          `remove '${attr}' from attributes, or give ${role === 'the version attribute' ? 'version.attribute' : 'timestamps'} another name`);
      }
      const keys = model.entities[name]?.keys[TABLE_INDEX];
      if (keys && [...keys.pk.attributes, ...(keys.sk?.attributes ?? [])].includes(attr)) {
        sink.error('MAINTAINED_ATTRIBUTE_IN_TABLE_KEY', where, `'${attr}' is ${role} and part of the table key (${keys.pk.source} / ${keys.sk?.source}); the runtime changes it, and a table key must identify the item`,
          'compose the table key from attributes the caller knows; a secondary index key may use it');
      }
    }
  }
};
