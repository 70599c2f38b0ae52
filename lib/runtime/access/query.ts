// Query for a generated access module, with the same checks, request, results and cursors as
// `queryShards`: one partition of an index whose entries carry the type attribute here, the
// others (sharded, fetched, keys decoded) through the pattern's slice reader (./slice-read.ts). The key
// condition is the pattern's own function: `partitionCondition` for a pattern without a sort-key
// condition, `sortKeyCondition` (the runtime's full key condition) for the others, so a handler
// whose patterns have none carries none of the range code.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '../sdk';
import type { AccessModel, AccessTable } from './table';
import { composeParts, TemplateParts } from '../../keys/template';
import type { IndexModel, PatternModel } from '../../manifest/model';
import { decodeCursor, encodeCursor } from '../cursor';
import { checkInput, composeError, KeyCondition, keyConditionFor, KeyedPattern } from '../key-condition';
import { fromItem } from '../marshall';
import type { SliceReader } from './slice-read';
import { BoundQuery, buildQueryInput, checkKeySizes, QueryOptions, queryBinding, readOptions } from '../query';
import type { EntityItem } from '../results';
import { send } from '../send';

type Input = Readonly<Record<string, unknown>>;

/** What a pattern's generated query reads of it. */
export interface PatternAccess extends Pick<PatternModel, 'name' | 'index' | 'order' | 'consistentRead' | 'fetch'> {
  /** The index it queries. */
  readonly slot: Pick<IndexModel, 'name' | 'type' | 'partitionKey' | 'sortKey' | 'shards'>;
  /** Entity name by type value, of the entities it returns. */
  readonly types: Readonly<Record<string, string>>;
  /** The type values a filter keeps, where other entities share the index. @default - no filter */
  readonly typeFilter?: string[];
  /** Its key condition from the input. */
  readonly condition: (model: AccessModel, input: Input) => KeyCondition;
  /** Reads a page of a sharded, fetched or key-decoded pattern. @default - one Query of one partition, results named by the type attribute */
  readonly read?: SliceReader;
}

/** The key condition of a pattern without a sort-key condition: the partition key, composed from its template's parts. */
export function partitionCondition(
  pattern: Pick<PatternModel, 'name' | 'sortKeyCondition'> & { readonly pk: { readonly source: string; readonly attributes: string[] }; readonly sk?: { readonly source: string; readonly attributes: string[] } },
  parts: TemplateParts,
): PatternAccess['condition'] {
  return (model, input) => {
    checkInput(pattern, input);
    const pk = composeParts(parts, input, model.escapeChar);
    if (typeof pk !== 'string') throw composeError(pattern, pk, `is needed for the partition key ${pattern.pk.source}`);
    return { pk };
  };
}

/** The key condition of a pattern with a sort-key condition (see keyConditionFor). */
export function sortKeyCondition(pattern: KeyedPattern): PatternAccess['condition'] {
  return (model, input) => keyConditionFor(model, pattern, input);
}

/** Runs an access pattern: one page of typed results, and a cursor when there may be more. */
export async function queryPattern(
  table: AccessTable<unknown>, pattern: PatternAccess, input: Input, options: QueryOptions = {},
): Promise<{ items: EntityItem[]; cursor?: string }> {
  const { model } = table;
  const { consistent, descending } = readOptions(pattern, pattern.slot, options);
  const condition = pattern.condition(model, input);
  checkKeySizes(pattern, pattern.slot, condition);
  const plan: BoundQuery = { pattern, index: pattern.slot, condition, descending, consistent, limit: options.limit, typeFilter: pattern.typeFilter };
  const start = options.cursor === undefined ? undefined : decodeCursor(pattern.name, queryBinding(model, plan), options.cursor);
  if (pattern.read) {
    const page = await pattern.read(table, plan, input, start);
    return { items: page.items, cursor: page.next === undefined ? undefined : encodeCursor(pattern.name, queryBinding(model, plan), page.next) };
  }
  const request = buildQueryInput(model, table.tableName, plan, condition.pk, start as Record<string, AttributeValue> | undefined);
  const out = await send(table, () => table.dynamodb.send(new QueryCommand(request)));
  const items: EntityItem[] = [];
  for (const raw of out.Items ?? []) {
    const type = raw[model.typeAttribute]?.S ?? '';
    // Left out: another entity's item, and the `<` floor's own key (BETWEEN is inclusive).
    if (!Object.hasOwn(pattern.types, type)) continue;
    if (condition.excludeEqual !== undefined && raw[pattern.slot.sortKey!]?.S === condition.excludeEqual) continue;
    items.push({ entity: pattern.types[type], item: fromItem(raw, table.strip) });
  }
  return { items, cursor: out.LastEvaluatedKey && encodeCursor(pattern.name, queryBinding(model, plan), out.LastEvaluatedKey) };
}
