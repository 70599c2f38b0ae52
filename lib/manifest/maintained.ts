// Attributes the runtime maintains for an entity that asks for them: a version number (optimistic
// locking) and creation / last-write timestamps. The model holds them as attributes of the entity,
// so conditions, key templates and reports see them like declared ones.
import { AttributeKind, EntityDefinition } from '../model/manifest';

/** Default name of an entity's version attribute. */
export const DEFAULT_VERSION_ATTRIBUTE = 'version';
/** Default names of an entity's timestamp attributes. */
export const DEFAULT_CREATED_AT = 'createdAt';
export const DEFAULT_UPDATED_AT = 'updatedAt';

/** The attributes the runtime maintains for an entity (version, timestamps) and their kinds. */
export function maintainedAttributes(def: EntityDefinition | undefined): [string, AttributeKind][] {
  const out: [string, AttributeKind][] = [];
  if (def?.version) out.push([def.version.attribute ?? DEFAULT_VERSION_ATTRIBUTE, AttributeKind.NUMBER]);
  if (def?.timestamps) {
    out.push([def.timestamps.createdAt ?? DEFAULT_CREATED_AT, AttributeKind.DATE]);
    out.push([def.timestamps.updatedAt ?? DEFAULT_UPDATED_AT, AttributeKind.DATE]);
  }
  return out;
}
