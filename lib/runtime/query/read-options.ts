// The read options a query or scan may add: `filter` (made by `where`, compiled to a FilterExpression
// whose placeholders share the request's ExpressionRefs with its key condition and type filter)
// and `attributes` (projection.ts). Checked when the read is planned, before any network call.
// The filter comes made by `where`, which carries the condition compiler: a read without a filter
// does not bundle it.
import type { QueryCommandInput, ScanCommandInput } from '@aws-sdk/client-dynamodb';
import { projectedRead } from './projection';
import type { ResultShape } from './results';
import type { EntityModel, IndexModel, PatternModel, TableModel } from '../../model/model';
import { madeByWhere } from '../expressions/made-by-where';
import { ExpressionRefs } from '../expressions/refs';
import type { Where } from '../expressions/where';
import { SingleTableError } from '../table/errors';
import type { ErrorContext } from '../table/errors';

/** The read options, untyped (the operations type them from the manifest). */
export interface UntypedReadOptions {
  /** Keeps only the items the condition (made by `where`) holds for; evaluated by DynamoDB after `limit` is counted. */
  readonly filter?: unknown;
  /** The only attributes results hold. */
  readonly attributes?: readonly string[];
}

/** A read with its options applied. */
export interface OptionedRead {
  /** Adds the ProjectionExpression and FilterExpression to a built input. */
  readonly finish: (input: QueryCommandInput | ScanCommandInput) => void;
  /** Whether the full items are read with BatchGetItem; undefined when the pattern's own fetch mode applies. */
  readonly fetch?: boolean;
  /** How entries become results; undefined when the pattern's own shape applies. */
  readonly shape?: ResultShape;
}

/**
 * Checks `options` for a read of `entities` from `index` (by `pattern`, for a query); the returned
 * `finish` adds them to each request.
 */
export function optionedRead(
  model: TableModel, index: IndexModel, entities: readonly string[], options: UntypedReadOptions, place: ErrorContext, pattern?: PatternModel,
): OptionedRead {
  const projected = options.attributes === undefined ? undefined : projectedRead(model, index, entities, options.attributes, place);
  if (pattern && projected) checkDeclaredReads(pattern, options.attributes!);
  const filter = options.filter === undefined ? undefined : madeByWhere(options.filter, 'filter', place);
  const models = entities.map((e) => model.entities[e]);
  if (filter !== undefined) checkFilter(index, filter, models, place);
  return {
    fetch: projected?.fetch,
    shape: projected?.shape,
    finish: (input) => {
      const refs = ExpressionRefs.extending(input);
      if (projected) {
        input.ProjectionExpression = projected.names.map((a) => refs.name(a)).join(', ');
        delete input.Select; // the projection names what an LSI fetches
      }
      if (filter !== undefined) {
        const expression = filter.compile(models, refs, 'filter');
        input.FilterExpression = input.FilterExpression ? `(${input.FilterExpression}) AND (${expression})` : expression;
      }
      refs.applyTo(input);
    },
  };
}

/**
 * Compiles the filter once to check it. A GSI that does not project everything holds no other
 * attribute than those it projects: a filter on another one would match no entry, so it is refused.
 */
function checkFilter(index: IndexModel, filter: Where<unknown>, entities: readonly EntityModel[], place: ErrorContext): void {
  const refs = new ExpressionRefs();
  filter.compile(entities, refs, 'filter');
  if (index.type !== 'GSI' || index.projection === 'ALL') return;
  const projected = new Set(index.nonKeyAttributes);
  for (const attribute of Object.values(refs.names)) {
    if (!projected.has(attribute)) {
      throw new SingleTableError('INVALID_CONDITION', `filter names ${attribute}, which GSI ${index.name} does not project (${index.projection}), so no entry would hold it; `
        + 'add it to the index\'s include list, or filter the results after the query', { ...place, attribute });
    }
  }
}

/**
 * A pattern reads only the attributes it declares (`attributes`, every attribute of its entities
 * by default): its index's projection and its cost are planned for those, so asking for another
 * one is refused before any request.
 */
function checkDeclaredReads(pattern: PatternModel, attributes: readonly string[]): void {
  const undeclared = attributes.find((a) => !pattern.attributes.includes(a));
  if (undeclared === undefined) return;
  throw new SingleTableError('UNKNOWN_ATTRIBUTE', `attributes names ${JSON.stringify(undeclared)}, which pattern ${pattern.name} does not declare it reads `
    + `(${pattern.attributes.join(', ')}); add it to accessPatterns.${pattern.name}.attributes, and to its index's projection if the index does not project it`,
  { pattern: pattern.name, attribute: undeclared });
}
