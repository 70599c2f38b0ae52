// A put's sharded GSI partition key is size-checked with its shard suffix, in UTF-8 bytes: near the
// 2048-byte limit, the put either writes exactly the suffixed key or fails with KEY_TOO_LARGE on it.
// (input-errors checks the suffix on the query side only.)
import fc from 'fast-check';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { buildPut } from '../../lib/runtime/items/requests';
import { propertyRuns } from '../support/property-runs';

const model = compileManifest(manifest).model;

test('sharded GSI partition key near 2048 bytes: the suffixed key, or KEY_TOO_LARGE counting the suffix', () => {
  const gsi2 = model.indexes.GSI2;
  // 3 shards: the suffix is '#' and one digit.
  expect(gsi2.shards!.writeCount).toBe(3);
  // 'ORDER#' (6 bytes) + status + '#' + shard number: statuses of 2020..2054 bytes straddle the limit.
  const status = fc.tuple(fc.integer({ min: 2020, max: 2042 }), fc.array(fc.constantFrom('é', '€', '😀'), { maxLength: 3 }))
    .map(([n, wide]) => 'x'.repeat(n) + wide.join(''));
  fc.assert(fc.property(status, fc.string({ unit: fc.constantFrom('a', 'b', '7'), minLength: 1, maxLength: 8 }), (s, orderId) => {
    const order = { username: 'alice', orderId, status: s, createdAt: '2024-01-01T00:00:00.000Z', amount: 5 };
    const base = `ORDER#${s}#`;
    const bytes = Buffer.byteLength(base) + 1;
    const build = () => buildPut(model, 'T', 'Order', order).Item!;
    if (bytes > 2048) {
      expect(build).toThrow(expect.objectContaining({ code: 'KEY_TOO_LARGE', entity: 'Order', attribute: gsi2.partitionKey }));
      expect(build).toThrow(`key ${gsi2.partitionKey} is ${bytes} bytes of UTF-8; DynamoDB allows 2048`);
    } else {
      const key = build()[gsi2.partitionKey].S!;
      expect(key.slice(0, -1)).toBe(base);
      expect(['0', '1', '2']).toContain(key.slice(-1));
    }
  }), { numRuns: propertyRuns(50) });
});
