// BatchGetItem over any number of keys of any entities, results in request order.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { batchGetItems, BatchEntry, keyId } from './send-batches';
import type { EntityName, TaggedItem } from '../../model/infer';
import { TABLE_INDEX } from '../../model/model';
import { entityOf } from '../attributes/values';
import { keyFromInput } from '../items/requests';
import { toItem } from '../query/results';
import type { Table } from '../table/context';
import type { BatchGetRequest } from '../types';

type Item = Record<string, AttributeValue>;

/** Options of `batchGet`. */
export interface BatchGetOptions {
  /** Strongly consistent reads. @default false */
  readonly consistent?: boolean;
}

/** Reads many items; results in request order, undefined where there is none. */
export async function batchGet<M>(
  table: Table<M>,
  requests: readonly BatchGetRequest<M>[],
  options: BatchGetOptions = {},
): Promise<(TaggedItem<M, EntityName<M>> | undefined)[]> {
  const { model } = table;
  const { partitionKey: pk, sortKey } = model.indexes[TABLE_INDEX];
  const idOf = (key: Item) => keyId(key, pk, sortKey!);
  const ids: string[] = [];
  const entries = new Map<string, BatchEntry<Item, BatchGetRequest<M>>>();
  for (const r of requests) {
    const key = keyFromInput(model, entityOf(model, r.entity), r.key);
    const id = idOf(key);
    ids.push(id);
    entries.set(id, { id, request: key, source: r });
  }
  const found = await batchGetItems(table.dynamodb, table.tableName, [...entries.values()], idOf, table.options.retry ?? {}, options.consistent);
  return ids.map((id, i) => {
    const item = found.get(id);
    return item && { entity: requests[i].entity, item: toItem(item, table.strip)! } as TaggedItem<M, EntityName<M>>;
  });
}
