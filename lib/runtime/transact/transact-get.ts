// TransactGetItems: up to 100 items of any entities read as one snapshot (no write commits between
// the reads), at twice the read units of strongly consistent reads. Results in request order.
import { MAX_TRANSACT_ITEMS } from './plan';
import { sendTransaction, TransactItemRef } from './send';
import type { EntityName, TaggedItem } from '../../model/infer';
import { TABLE_INDEX } from '../../model/model';
import { entityOf, valuesText } from '../attributes/values';
import { keyFromInput } from '../items/requests';
import { toItem } from '../query/results';
import type { Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import { TransactGetItemsCommand } from '../table/sdk';
import type { BatchGetRequest } from '../types';

/** Reads up to 100 items atomically; results in request order, undefined where there is none. */
export async function transactGet<M>(
  table: Table<M>, requests: readonly BatchGetRequest<M>[],
): Promise<(TaggedItem<M, EntityName<M>> | undefined)[]> {
  const { model, tableName } = table;
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > MAX_TRANSACT_ITEMS) {
    throw new SingleTableError('TRANSACTION_TOO_LARGE', `a transactGet reads 1 to ${MAX_TRANSACT_ITEMS} items, got ${Array.isArray(requests) ? requests.length : 'no list'}: split it`);
  }
  const { partitionKey: pk, sortKey: sk } = model.indexes[TABLE_INDEX];
  const seen = new Set<string>();
  const refs: TransactItemRef[] = [];
  const items = requests.map((r, action) => {
    const entity = entityOf(model, r.entity);
    const Key = keyFromInput(model, entity, r.key);
    const id = JSON.stringify([Key[pk].S, Key[sk!].S]);
    if (seen.has(id)) {
      throw new SingleTableError('DUPLICATE_TRANSACTION_ITEM', `reads the item ${valuesText(r.key, Object.keys(r.key))} twice; DynamoDB rejects that, read it once`, { entity: entity.name });
    }
    seen.add(id);
    refs.push({ action, entity: entity.name, key: { ...r.key } });
    return { Get: { TableName: tableName, Key } };
  });
  const out = await sendTransaction(table, refs, () => table.dynamodb.send(new TransactGetItemsCommand({ TransactItems: items })));
  return (out.Responses ?? []).map((response, i) => {
    const item = toItem(response.Item, table.strip);
    return item && { entity: requests[i].entity, item } as TaggedItem<M, EntityName<M>>;
  });
}
