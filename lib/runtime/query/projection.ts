// The `attributes` option of a read: which attributes the request names in its
// ProjectionExpression, whether the page still needs a BatchGetItem of the full items, and what the
// results keep. The expression always names the key attributes and the type attribute: the runtime
// tells entities apart by them, decodes key values from them, fetches by them and resumes a
// fan-out after them. Reached only from reads given `attributes`.
import type { ResultShape } from './results';
import { indexAnswers } from '../../keys/index-attributes';
import { didYouMean } from '../../model/closest-name';
import { attributeKeyNames, IndexModel, TABLE_INDEX, TableModel } from '../../model/model';
import { ErrorContext, SingleTableError } from '../table/errors';

/** How a read with `attributes` is sent and decoded. */
export interface ProjectedRead {
  /** Attribute names of the ProjectionExpression. */
  readonly names: string[];
  /** Whether the entries lack some of the attributes, so the full items are read with BatchGetItem. */
  readonly fetch: boolean;
  /** How the entries (or the fetched items) become results. */
  readonly shape: ResultShape;
}

/**
 * The read of `attributes` of `entities` from `index`. Nothing is fetched when every entity's
 * requested attributes are projected or inside its keys; an LSI fetches unprojected attributes
 * itself, within the Query.
 */
export function projectedRead(
  model: TableModel, index: IndexModel, entities: readonly string[], attributes: readonly unknown[], place: ErrorContext,
): ProjectedRead {
  const requested = checkAttributes(model, entities, attributes, place);
  const fetch = index.type === 'GSI' && !entities.every((e) => indexAnswers(model.entities[e], index, requested));
  const table = model.indexes[TABLE_INDEX];
  // A multi-attribute key is several attributes, which its entries hold as themselves.
  const attributeKeys = attributeKeyNames(index);
  const names = new Set([table.partitionKey, table.sortKey!, index.partitionKey, ...attributeKeys]);
  if (index.sortKey) names.add(index.sortKey);
  if (index.projection !== 'KEYS_ONLY') names.add(model.typeAttribute);
  if (!fetch) {
    // Attributes the entries hold as themselves; the rest come from decoding the keys.
    const held = index.type === 'GSI' && index.projection !== 'ALL' ? new Set([...index.nonKeyAttributes, ...attributeKeys]) : undefined;
    for (const a of requested) if (!held || held.has(a)) names.add(a);
  }
  return {
    names: [...names],
    fetch,
    shape: { index: index.name, decodeKeys: index.projection !== 'ALL' && !fetch, keep: new Set(requested) },
  };
}

/** The requested attribute names, each declared by at least one of `entities`. */
function checkAttributes(model: TableModel, entities: readonly string[], attributes: readonly unknown[], place: ErrorContext): string[] {
  if (!Array.isArray(attributes) || attributes.length === 0) {
    throw new SingleTableError('INVALID_QUERY_INPUT', `attributes must be a non-empty list of attribute names, got ${JSON.stringify(attributes)}`, place);
  }
  for (const a of attributes) {
    if (typeof a !== 'string' || !entities.some((e) => Object.hasOwn(model.entities[e].attributes, a))) {
      const known = [...new Set(entities.flatMap((e) => Object.keys(model.entities[e].attributes)))];
      throw new SingleTableError('UNKNOWN_ATTRIBUTE', `attributes names ${JSON.stringify(a)}, which none of ${entities.join(', ')} declares; `
        + `${didYouMean(String(a), known)}declared attributes: ${known.join(', ')}`, { ...place, attribute: String(a) });
    }
  }
  return attributes as string[];
}
