// A generated access module writes an entity whose attributes the runtime maintains (a version,
// timestamps, unique values) with the runtime's putItem, which keeps them (with the table's
// maintainedWrites, as the runtime's own table takes them); the others with their item builder.
import { accessModule } from '../../lib/generate/access-module';
import { resolveModel } from '../../lib/manifest/resolve';
import { AttributeKind, defineManifest, ProjectionKind } from '../../lib/runtime';
import { shardedTournamentManifest } from '../fixtures/tournament';

const attributes = { id: { type: AttributeKind.STRING, required: true }, email: { type: AttributeKind.STRING } };
const entity = (extra: object) => ({ attributes, pk: 'X#{id}', sk: 'X', ...extra });

const model = resolveModel(defineManifest({
  entities: {
    Plain: entity({ pk: 'PLAIN#{id}' }),
    Versioned: entity({ pk: 'V#{id}', version: {} }),
    Stamped: entity({ pk: 'S#{id}', timestamps: {} }),
    Unique: entity({ pk: 'U#{id}', unique: ['email'] }),
  },
}));
const source = accessModule(model, { file: '/app/manifest.access.ts', manifestFile: '/app/manifest.ts' });

test('the maintained entities have no item builder and are written by the runtime\'s putItem; the others by theirs', () => {
  expect(source).toContain('const puts = { "Plain": PlainPut, "Versioned": undefined, "Stamped": undefined, "Unique": undefined };');
  expect(source).toContain('  return put ? putWith(table, put, item, options as never, collectionsOf) : runtimePutItem(table, entity, item, options);');
  expect(source).toMatch(/^import \{ putItem as runtimePutItem \} from "cdk-single-table\/runtime";$/m);
  expect(source).toContain('export const PlainPut: ItemPut = {');
  for (const name of ['Versioned', 'Stamped', 'Unique']) expect(source).not.toContain(`${name}Put`);
  // No model file: the runtime's putItem reads the whole model the table loads.
  expect(source).not.toContain('model.json');
});

test('a model without maintained entities writes every entity with its builder, and imports nothing of the runtime\'s main entry but types', () => {
  const plainSource = accessModule(resolveModel(defineManifest({
    entities: { Plain: entity({ pk: 'PLAIN#{id}', indexes: { GSI1: { pk: 'ALL', sk: 'X#{id}' } } }) },
    globalIndexes: { GSI1: { projection: ProjectionKind.KEYS_ONLY } },
    accessPatterns: { everything: { index: 'GSI1', entities: ['Plain'] } },
  })), { file: '/app/manifest.access.ts', manifestFile: '/app/manifest.ts' });
  expect(plainSource).toContain('  return putWith(table, put, item, options as never, collectionsOf);');
  expect(plainSource).not.toMatch(/^import \{[^}]*\} from "cdk-single-table\/runtime";$/m);
  expect(plainSource).toContain('  return pagedQuery(table, () => named("pattern", patterns, pattern), input as never, options as never, readPattern) as never;');
});

test('an entity on a sharded multi-attribute index is written by the runtime\'s putItem, which writes its shard; results leave the shard out', () => {
  const sharded = accessModule(resolveModel(shardedTournamentManifest({ shardCount: 4 })), { file: '/app/manifest.access.ts', manifestFile: '/app/manifest.ts' });
  expect(sharded).toContain('const puts = { "Match": undefined };');
  expect(sharded).toMatch(/keyAttributes: \[[^\]]*"ByStatusShard"\]/);
  const unsharded = accessModule(resolveModel(shardedTournamentManifest()), { file: '/app/manifest.access.ts', manifestFile: '/app/manifest.ts' });
  expect(unsharded).toContain('const puts = { "Match": MatchPut };');
});
