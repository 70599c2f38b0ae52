// Resolution alone (what the Lambda runtime runs): the same model compileManifest builds, no
// validation rules, and still a loud failure on a manifest it cannot resolve.
import { manifest as exampleManifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { ManifestError } from '../../lib/manifest/diagnostics';
import { resolveModel } from '../../lib/manifest/resolve';
import { SingleTableManifest } from '../../lib/model/manifest';
import { validManifest } from '../fixtures/valid-manifest';

const codesOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestError);
    return (error as ManifestError).diagnostics.map((d) => d.code);
  }
  throw new Error('expected a ManifestError');
};

test('the example manifest resolves to exactly the model compileManifest builds, frozen', () => {
  const model = resolveModel(exampleManifest);
  expect(model).toEqual(compileManifest(exampleManifest).model);
  expect(Object.isFrozen(model.entities.Order.keys.table.pk.segments)).toBe(true);
});

test('an unparsable template fails with the diagnostic compileManifest gives', () => {
  const m = validManifest();
  m.entities.Order.sk = 'ORDER#{orderId';
  expect(codesOf(() => resolveModel(m as SingleTableManifest))).toEqual(['TEMPLATE_INVALID']);
  expect(() => resolveModel(m as SingleTableManifest)).toThrow(/entity Order, table sk: template "ORDER#\{orderId" /);
});

test('a manifest without entities, and a pattern that names an unknown entity, fail', () => {
  expect(codesOf(() => resolveModel({} as SingleTableManifest))).toEqual(['MANIFEST_SHAPE']);
  const m = validManifest();
  m.accessPatterns = { ...m.accessPatterns, lost: { entities: ['Invoice'] } };
  expect(codesOf(() => resolveModel(m as SingleTableManifest))).toEqual(['PATTERN_UNRESOLVED']);
});

test('validation rules do not run: a key collision resolves here and fails compileManifest', () => {
  const m = validManifest();
  m.entities.Order.sk = 'CUSTOMER#{orderId}';
  expect(() => resolveModel(m as SingleTableManifest)).not.toThrow();
  expect(() => compileManifest(m as SingleTableManifest)).toThrow(/KEY_COLLISION/);
});

test.each([NaN, Infinity, 2.5, -1])('a shard count of %p never reaches a shard key: SHARD_COUNT_INVALID', (shardCount) => {
  const m = validManifest();
  m.globalIndexes!.GSI2.sharding = { shardCount };
  expect(codesOf(() => resolveModel(m as SingleTableManifest))).toEqual(['SHARD_COUNT_INVALID']);
});

test('a manifest of another shape than the synth validates fails as a ManifestError, never a TypeError', () => {
  const m = validManifest() as unknown as { globalIndexes: { GSI2: { include: unknown } } };
  m.globalIndexes.GSI2.include = 5;
  expect(codesOf(() => resolveModel(m as unknown as SingleTableManifest))).toEqual(['MANIFEST_SHAPE']);
  expect(() => resolveModel(m as unknown as SingleTableManifest)).toThrow(/\[MANIFEST_SHAPE\] manifest: cannot be resolved \(.*not iterable.*\)\. Fix: run `single-table check`/);
});
