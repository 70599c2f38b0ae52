// What the item builder of a generated access module calls (`single-table generate --access` writes
// one per entity for its put): straight-line code that reads the item's attributes by their
// names, checks them, joins the keys from their encoded values and writes the stored item as one
// object literal. It stores what the runtime's putItem stores, and throws what it throws, in the
// same order: a fault is named by these helpers, which word it as the runtime's checks do (an
// attribute's fault by convertItem itself).
import { UNPAIRED_SURROGATE, encodeString } from '../../keys/encoding';
import { keyError, shardFor } from '../attributes/item-keys';
import { AttributeSlot, convertItem } from '../attributes/values';
import { SingleTableError } from '../table/errors';

type Owner = { readonly name: string };

/**
 * Whether the item holds no undeclared name with a value, found as convertItem finds one: only
 * where it has more own names than `given` (its declared attributes that hold a value).
 */
export function declaredOnly(item: object, names: readonly string[], given: number): boolean {
  if (Object.keys(item).length === given) return true;
  for (const k in item) if (!names.includes(k) && (item as Record<string, unknown>)[k] !== undefined) return false;
  return true;
}

/**
 * A checked string's key segment: its text escaped; '' where it is absent (undefined or '', which
 * keep an item out of a sparse index); undefined where it holds an unpaired surrogate.
 */
export const textSegment = (v: unknown, escapeChar: string): string | undefined =>
  (v === undefined || v === '' ? '' : encodeString(v as string, escapeChar));

/** Names the fault of an item whose attributes the builder refused: convertItem's error. */
export function attributeFault(entity: Owner, item: unknown, attributes: readonly AttributeSlot[]): never {
  convertItem(entity.name, item as never, attributes, {});
  // Reached only if the item's values changed between the builder's reads and these (getters).
  throw new SingleTableError('INVALID_VALUE', 'the item changed while it was read', { entity: entity.name });
}

/**
 * Names the fault of a key whose segments do not all hold text: the first that does not is absent
 * ('') or holds an unpaired surrogate (undefined). A table key (`key` given) must be complete; an
 * index key may be absent, which keeps the item out of the index (returns).
 */
export function keyFault(entity: Owner, source: string, names: readonly string[], segments: readonly (string | undefined)[], key?: string): void {
  const at = segments.findIndex((s) => !s);
  const r = segments[at] === '' ? { absent: names[at] } : { error: UNPAIRED_SURROGATE, attribute: names[at] };
  if (key) throw keyError({ entity: entity.name }, r, `is needed (non-empty) for key ${key} = ${source}`, ` (key ${key} = ${source})`);
  if ('error' in r) throw keyError({ entity: entity.name }, r, '', ` (key template ${source})`);
}

/** Names the fault of a shard attribute that is absent ('') or holds an unpaired surrogate (undefined). */
export function shardFault(entity: Owner, index: string, attribute: string, segment: string | undefined): never {
  throw shardFor(entity, index, 1, attribute, () => (segment === '' ? undefined : { error: UNPAIRED_SURROGATE }), {}, { pk: '', sk: '' });
}
