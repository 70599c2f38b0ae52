// The `dynamodb:LeadingKeys` patterns of grants. A partition key template becomes its shape: the
// literal segments as they are, `*` for each value, the delimiter between them and, on a sharded
// index, `*` for the shard number. Under tenant isolation the tenant id takes the place of its `*`.
// Encoded values never contain the delimiter, so `TENANT#acme#*` cannot match `TENANT#acme2#...`
// nor a tenant whose id is `acme#x` (encoded `acme$dx`).
import type { TenantIsolation } from './options';
import { encodeSegment } from '../../keys/encoding';
import { guardMark } from '../../keys/unique-guard';
import { AttributeKind } from '../../model/manifest';
import { EntityModel, KeyTemplateModel, TABLE_INDEX, TableModel } from '../../model/model';
import { finding } from '../design-error';

/** An IAM policy variable, e.g. `${aws:PrincipalTag/tenantId}`: inserted without encoding. */
const POLICY_VARIABLE = /^\$\{[^{}$*?]+\}$/;

/** StringLike treats `*` and `?` as wildcards and `${` as a variable: literal ones are escaped. */
export function iamLiteral(text: string): string {
  return text.replace(/[$*?]/g, (c) => '${' + c + '}');
}

/**
 * The LeadingKeys pattern of one partition key template for one tenant, or undefined when the
 * template does not hold the tenant attribute. Throws when a value precedes the tenant id: `*` for
 * it would also match the delimiter, and with it other tenants' keys.
 */
export function tenantKeyPattern(
  model: TableModel,
  template: KeyTemplateModel,
  tenant: TenantIsolation,
  sharded: boolean,
  where: string,
): string | undefined {
  const at = template.segments.findIndex((s) => s.attribute === tenant.attribute);
  if (at < 0) return undefined;
  const value = template.segments.slice(0, at).find((s) => s.literal === undefined);
  if (value) {
    throw finding('TENANT_SEGMENT_NOT_FIRST', where, `tenant isolation needs the tenant attribute '${tenant.attribute}' before any other value in ${template.source}, `
      + `but {${value.attribute}} comes first`, `put the tenant segment first, e.g. TENANT#{${tenant.attribute}}#...`);
  }
  const kind = template.segments[at].kind;
  if (kind !== AttributeKind.STRING) {
    throw finding('TENANT_ATTRIBUTE_NOT_STRING', where, `the tenant attribute '${tenant.attribute}' is ${kind}`, 'isolate tenants on a STRING attribute');
  }
  return shapeOf(model, template, sharded, { attribute: tenant.attribute, pattern: tenantValue(model, tenant) });
}

/**
 * The LeadingKeys pattern that matches every partition key value of a template, e.g.
 * `CATEGORY#*` for `CATEGORY#{category}`, `PLANS` for `PLANS`, `CATEGORY#*#*` on a sharded index.
 * Undefined when the template holds no literal segment: nothing narrower than `*` matches its keys.
 */
export function shapeKeyPattern(model: TableModel, template: KeyTemplateModel, sharded: boolean): string | undefined {
  if (template.segments.every((s) => s.literal === undefined)) return undefined;
  return shapeOf(model, template, sharded);
}

/** Literal segments (IAM wildcards escaped), `*` for values but a bound one, joined by the delimiter; `*` for a shard number. */
function shapeOf(model: TableModel, template: KeyTemplateModel, sharded: boolean, bound?: { attribute: string; pattern: string }): string {
  const parts = template.segments.map((s) => (s.literal !== undefined ? iamLiteral(s.literal) : s.attribute === bound?.attribute ? bound!.pattern : '*'));
  return [...parts, ...(sharded ? ['*'] : [])].join(iamLiteral(model.delimiter));
}

/** Literal segments as a LeadingKeys pattern's start: each with the delimiter after it, IAM wildcards escaped. */
function literalsOf(model: TableModel, segments: KeyTemplateModel['segments']): string {
  return segments.map((s) => iamLiteral(s.literal! + model.delimiter)).join('');
}

function tenantValue(model: TableModel, tenant: TenantIsolation): string {
  if (POLICY_VARIABLE.test(tenant.value)) return tenant.value;
  const encoded = encodeSegment(AttributeKind.STRING, tenant.value, model.escapeChar);
  if (!('segment' in encoded)) {
    const why = 'error' in encoded ? encoded.error : 'is empty';
    throw finding('TENANT_VALUE_INVALID', 'grant options', `tenant isolation: the tenant id ${JSON.stringify(tenant.value)} ${why}`, 'give the tenant id the application writes, or an IAM policy variable such as ${aws:PrincipalTag/tenantId}');
  }
  return iamLiteral(encoded.segment);
}

/**
 * The LeadingKeys patterns of an entity's unique-value guards, one per scope its unique attributes
 * have: `$unique#*` for values unique across the table, the items' prefix up to the scope then
 * `#$unique#*` for a scoped attribute (the tenant's own id under tenant isolation, any value
 * without). Empty when the entity's keys are out of the tenant's reach. Throws when the tenant
 * could write the entity but a unique attribute's guards are shared by every tenant: allowing them
 * would let a tenant see and take other tenants' values.
 */
export function guardKeyPatterns(model: TableModel, entity: EntityModel, tenant: TenantIsolation | undefined): string[] {
  const guards = iamLiteral(guardMark(model.escapeChar) + model.delimiter) + '*';
  const pk = entity.keys[TABLE_INDEX].pk;
  if (tenant && !pk.segments.some((s) => s.attribute === tenant.attribute)) return [];
  const scopes = new Set(entity.unique!.map((u) => entity.uniqueScope?.[u]));
  const shared = tenant && entity.unique!.filter((u) => entity.uniqueScope?.[u] !== tenant.attribute);
  if (shared?.length) {
    throw finding('TENANT_UNIQUE_SHARED', `entity ${entity.name}`, `the values of its unique ${shared.join(', ')} are held by guard items shared by every tenant, `
      + `which tenant isolation on '${tenant!.attribute}' cannot allow without letting one tenant see and take another's values`,
    `declare uniqueScope: { ${shared.map((u) => `${u}: '${tenant!.attribute}'`).join(', ')} } on ${entity.name} (each tenant's values unique among its own items)`);
  }
  return [...scopes].map((scope) => {
    if (scope === undefined) return guards;
    const at = pk.segments.findIndex((s) => s.attribute === scope);
    const prefix = tenant
      ? tenantKeyPattern(model, { ...pk, segments: pk.segments.slice(0, at + 1) }, tenant, false, `entity ${entity.name}`)
      : literalsOf(model, pk.segments.slice(0, at)) + '*';
    return prefix + iamLiteral(model.delimiter) + guards;
  });
}
