// The benchmark compares like with like: every library's builder must produce the same stored
// keys and attributes for an order, and the same key condition for the status query, as the
// hand-written reference, both from their sources and bundled as the bench times them. A
// correctness test only; timings never run in `npm test`.
import type { AttributeValue, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { sampleOrders, STATUSES, TABLE_NAME } from '../../bench/model/order';
import { OURS, OURS_GENERIC, Peer, PEERS, REFERENCE } from '../../bench/peers';
import { bundledPeers } from '../../bench/peers/bundled';

const reference = PEERS.find((p) => p.name === REFERENCE)!;
const BUNDLED = bundledPeers().PEERS;
const others = ([['', PEERS], [' (bundled)', BUNDLED]] as const).flatMap(([how, peers]: readonly [string, readonly Peer[]]) =>
  peers.filter((p) => p.name !== REFERENCE || how).map((p) => [p.name + how, p] as const));

test.each([OURS, OURS_GENERIC])('%s bundled refuses a bad order with the error it gives from its sources', (name) => {
  const refusal = (peer: Peer) => {
    try {
      void peer.buildPut({ ...sampleOrders(1)[0], amount: Number.NaN });
    } catch (e) {
      return [(e as { code?: string }).code, (e as Error).message];
    }
    return undefined;
  };
  const fromSources = refusal(PEERS.find((p) => p.name === name)!);
  expect(fromSources?.[0]).toBe('INVALID_VALUE');
  expect(refusal(BUNDLED.find((p) => p.name === name)!)).toEqual(fromSources);
});
const STORED = ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'username', 'orderId', 'status', 'createdAt', 'amount'];

/** The key condition as `attribute -> value` pairs, whatever placeholders a library picks. */
function keyCondition(input: QueryCommandInput): Record<string, AttributeValue> {
  const conditions = input.KeyConditionExpression!.split(/\s+AND\s+/i);
  return Object.fromEntries(conditions.map((c) => {
    const match = /^\(?\s*(#[\w]+)\s*=\s*(:[\w]+)\s*\)?$/.exec(c.trim());
    if (!match) throw new Error(`not an equality condition: ${c}`);
    return [input.ExpressionAttributeNames![match[1]], input.ExpressionAttributeValues![match[2]]];
  }));
}

describe.each(others)('%s builds the same inputs as the hand-written reference', (_, peer) => {
  const orders = sampleOrders(50);

  test('PutItem: same table, keys on PK/SK/GSI1/GSI2 and attribute values', async () => {
    for (const order of orders) {
      const expected = (await reference.buildPut(order)).Item!;
      const actual = await peer.buildPut(order);
      expect(actual.TableName).toBe(TABLE_NAME);
      expect(actual.ConditionExpression).toBeUndefined(); // an unconditional put everywhere
      for (const name of STORED) expect([name, actual.Item![name]]).toEqual([name, expected[name]]);
    }
  });

  test.each(STATUSES)('Query %s: same table, index and key condition values', async (status) => {
    const expected = await reference.buildQuery(status);
    const actual = await peer.buildQuery(status);
    expect(actual.TableName).toBe(TABLE_NAME);
    expect(actual.IndexName).toBe('GSI2');
    expect(keyCondition(actual)).toEqual(keyCondition(expected));
    expect(actual.ScanIndexForward).not.toBe(false);
  });
});

test('the reference stores the keys the shared model defines', async () => {
  const [order] = sampleOrders(1);
  expect((await reference.buildPut(order)).Item).toMatchObject({
    PK: { S: 'CUSTOMER#user0' },
    SK: { S: 'ORDER#o-000000' },
    GSI1PK: { S: 'ORDER#o-000000' },
    GSI1SK: { S: 'ORDER#o-000000' },
    GSI2PK: { S: 'ORDER#PLACED' },
    GSI2SK: { S: '2024-01-01T00:00:00.000Z' },
  });
  expect(keyCondition(await reference.buildQuery('SHIPPED'))).toEqual({ GSI2PK: { S: 'ORDER#SHIPPED' } });
});
