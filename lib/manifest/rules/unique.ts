// Unique attribute rules: each names a declared attribute of a kind a guard key can hold, once,
// no entity's type value is the one guard items carry, and each scope is a leading partition key attribute
// of a unique attribute's.
import type { ManifestRule } from './rule';
import { guardMark } from '../../keys/unique-guard';
import { didYouMean } from '../../model/closest-name';
import { AttributeKind } from '../../model/manifest';
import { EntityModel, TABLE_INDEX } from '../../model/model';
import { describeValue } from '../values';

/** Kinds whose values a guard key encodes: a boolean has two values, lists, maps and sets none that keys hold. */
const UNIQUE_KINDS: ReadonlySet<string> = new Set([AttributeKind.STRING, AttributeKind.NUMBER, AttributeKind.DATE]);

/**
 * A write of an entity with n unique attributes is one transaction of up to 1 + 2n actions (the
 * item, a delete of each old guard, a put of each new one); DynamoDB takes 100.
 */
export const MAX_UNIQUE_ATTRIBUTES = 49;

/** Every unique attribute is declared, a STRING, NUMBER or DATE, and listed once. */
export const uniqueAttributesAreKeyable: ManifestRule = (model, _manifest, sink) => {
  const anyUnique = Object.values(model.entities).some((e) => e.unique);
  for (const entity of Object.values(model.entities)) {
    const where = `entity ${entity.name}`;
    if (anyUnique && entity.typeValue === guardMark(model.escapeChar)) {
      sink.error('UNIQUE_GUARD_TYPE_RESERVED', where, `typeValue ${describeValue(entity.typeValue)} is the type value of unique-attribute guard items`, 'choose another typeValue');
    }
    const names = entity.unique ?? [];
    if (names.length > MAX_UNIQUE_ATTRIBUTES) {
      sink.error('UNIQUE_TOO_MANY', where, `lists ${names.length} unique attributes; a write changing all of them needs ${1 + 2 * names.length} transaction actions and DynamoDB allows 100`,
        `keep at most ${MAX_UNIQUE_ATTRIBUTES}`);
    }
    const seen = new Set<string>();
    for (const name of names) {
      const attr = Object.prototype.hasOwnProperty.call(entity.attributes, name) ? entity.attributes[name] : undefined;
      if (seen.has(name)) {
        sink.error('UNIQUE_ATTRIBUTE_DUPLICATE', `${where}, unique`, `lists '${name}' twice`, `list '${name}' once`);
      } else if (!attr) {
        sink.error('UNIQUE_ATTRIBUTE_UNDECLARED', `${where}, unique`, `names ${describeValue(name)}, which is not an attribute of ${entity.name}`,
          `${didYouMean(String(name), Object.keys(entity.attributes))}declare it in the entity's attributes, or remove it from unique (declared: ${Object.keys(entity.attributes).join(', ')})`);
      } else if (!UNIQUE_KINDS.has(attr.type)) {
        sink.error('UNIQUE_ATTRIBUTE_KIND', `${where}, attribute ${name}`, `is unique but of type ${attr.type}; a guard key holds a STRING, NUMBER or DATE value`,
          `remove '${name}' from unique, or make it a STRING (e.g. a canonical text of the value)`);
      }
      seen.add(name);
    }
    for (const [attribute, scope] of Object.entries(entity.uniqueScope ?? {})) checkScope(entity, attribute, scope, sink);
  }
};

/**
 * The scope of a unique attribute is an attribute of the table partition key preceded only by
 * literals: its guards then share the items' partition key prefix (what tenant isolation's
 * LeadingKeys match). It scopes an attribute the entity lists as unique.
 */
function checkScope(entity: EntityModel, attribute: string, scope: string, sink: Parameters<ManifestRule>[2]): void {
  const where = `entity ${entity.name}, uniqueScope.${attribute}`;
  if (!entity.unique?.includes(attribute)) {
    const listed = entity.unique ? `lists only ${entity.unique.join(', ')}` : 'lists no unique attributes';
    sink.error('UNIQUE_SCOPE_WITHOUT_UNIQUE', where, `scopes ${describeValue(attribute)} by ${describeValue(scope)}, but the entity ${listed}`,
      `add '${attribute}' to unique, or remove it from uniqueScope`);
    return;
  }
  const pk = entity.keys[TABLE_INDEX].pk;
  const at = pk.segments.findIndex((s) => s.attribute === scope);
  const before = pk.segments.slice(0, Math.max(at, 0)).find((s) => s.literal === undefined);
  if (at < 0 || before) {
    const why = at < 0 ? 'is not in' : `comes after {${before!.attribute}} in`;
    sink.error('UNIQUE_SCOPE_NOT_LEADING', where, `${describeValue(scope)} ${why} the table partition key ${pk.source}`,
      `scope by an attribute the partition key starts with after its literals, e.g. TENANT#{${scope}}#..., or remove ${attribute} from uniqueScope`);
  }
}
