// The shard attribute of an ATTRIBUTE-sharded GSI is encoded like a key segment to pick the shard.
// A value that cannot be encoded (an unpaired UTF-16 surrogate) is a bad value, INVALID_VALUE as in
// a key template, not MISSING_ATTRIBUTE: it was given. An empty one is still missing.
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, defineManifest, ShardStrategy } from '../../lib/runtime';
import { buildPut } from '../../lib/runtime/items/requests';
import { buildUpdate } from '../../lib/runtime/items/update';

const attributes = {
  id: { type: AttributeKind.STRING, required: true },
  status: { type: AttributeKind.STRING, required: true },
  region: { type: AttributeKind.STRING, required: true },
} as const;
const manifest = defineManifest({
  entities: {
    // The shard attribute in no key template.
    Order: { attributes, pk: 'ORDER#{id}', sk: 'ORDER', indexes: { GSI1: { pk: 'STATUS#{status}', sk: 'ORDER#{id}' } } },
    // The shard attribute in the index sort key only: the shard is chosen before the sort key is composed.
    Shipment: { attributes, pk: 'SHIPMENT#{id}', sk: 'SHIPMENT', indexes: { GSI2: { pk: 'STATUS#{status}', sk: 'REGION#{region}' } } },
  },
  globalIndexes: {
    GSI1: { sharding: { shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'region' } },
    GSI2: { sharding: { shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'region' } },
  },
  localIndexes: { enabled: false },
});
const model = compileManifest(manifest).model;

test.each(['Order', 'Shipment'])('%s: a shard attribute value with an unpaired surrogate is INVALID_VALUE on put and update', (entity) => {
  for (const region of ['eu\ud800', '\udc00', 'a\ud83db']) {
    const item = { id: 'x1', status: 'OPEN', region };
    for (const build of [() => buildPut(model, 'T', entity, item), () => buildUpdate(model, 'T', entity, item)]) {
      expect(build).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', entity, attribute: 'region' }));
      expect(build).toThrow(/unpaired UTF-16 surrogate/);
    }
  }
  // A surrogate pair is fine, and an empty value is still a missing one.
  expect(buildPut(model, 'T', entity, { id: 'x1', status: 'OPEN', region: 'eu\u{1F600}' }).Item!.Type).toEqual({ S: entity });
  expect(() => buildPut(model, 'T', entity, { id: 'x1', status: 'OPEN', region: '' }))
    .toThrow(expect.objectContaining({ code: 'MISSING_ATTRIBUTE', attribute: 'region', message: expect.stringMatching(/is the shard attribute of GSI\d and must be given/) }));
});
