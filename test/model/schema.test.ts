// The compiled model file is what lib/model/schema.json documents: the example app's model as
// `single-table generate` writes it validates, and the validator catches a file that does not.
import { readFileSync } from 'fs';
import * as path from 'path';
import { manifest as benchManifest } from '../../bench/model/manifest';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { modelJson } from '../../lib/model/document';
import { MODEL_FORMAT, MODEL_FORMAT_VERSION } from '../../lib/model/format';
import { ShardStrategy } from '../../lib/model/manifest';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { shardedOrders } from '../fixtures/sharded-orders';
import { validate } from '../support/json-schema';

const schema = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'lib', 'model', 'schema.json'), 'utf8'));
const documentOf = (m: Parameters<typeof compileManifest>[0]) => JSON.parse(modelJson(compileManifest(m).model));

test.each([
  ['the example app', manifest],
  ['the benchmark Order', benchManifest],
  ['a sharded index with an ATTRIBUTE strategy', shardedOrders({ shardCount: 4, previousShardCounts: [2], strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'customerId' })],
  ['GSIs keyed on the items\' own attributes', attributeKeyedManifest()],
])('the compiled model of %s validates against the schema', (_name, m) => {
  expect(validate(schema, documentOf(m as never))).toEqual([]);
});

test('the schema states the format and version the package writes', () => {
  expect(schema.properties.format.const).toBe(MODEL_FORMAT);
  expect(schema.properties.formatVersion.const).toBe(MODEL_FORMAT_VERSION);
});

test('a file that breaks the schema is reported with the place and the rule', () => {
  const doc = documentOf(manifest);
  doc.formatVersion = 5;
  doc.model.entities.Order.attributes.amount.type = 'DECIMAL';
  doc.model.patterns.ordersByStatus.pk.segments.push({ literal: 'X', attribute: 'status' });
  delete doc.model.fingerprint;
  doc.model.extra = true;
  expect(validate(schema, doc)).toEqual(expect.arrayContaining([
    '$.formatVersion: expected 4, got 5',
    '$.model.entities.Order.attributes.amount.type: "DECIMAL" is not one of STRING, NUMBER, BOOLEAN, DATE, LIST, MAP, STRING_SET, NUMBER_SET',
    expect.stringMatching(/^\$\.model\.patterns\.ordersByStatus\.pk\.segments\[2\]: matches 0 of the oneOf/),
    '$.model: missing fingerprint',
    '$.model.extra: not allowed',
  ]));
});
