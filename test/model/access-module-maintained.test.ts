// A generated access module writes an entity whose attributes the runtime maintains (a version,
// timestamps, unique values) through the full runtime's putItem, which keeps them; the small
// put (putWith with the item builder, putEntity by name) writes the item as given and would skip them.
import { resolveModel } from '../../lib/manifest/resolve';
import { accessModule } from '../../lib/model/access-module';
import { AttributeKind, defineManifest, ProjectionKind } from '../../lib/runtime';

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

test.each(['Versioned', 'Stamped', 'Unique'])('put%s goes through the full runtime', (name) => {
  expect(source).toContain(`return putItem(fullRuntime(table), "${name}", item, options);`);
  expect(source).toContain('import modelFile from "./manifest.model.json";');
});

test('an entity without maintained attributes keeps the small put, with its item builder; the maintained ones have none', () => {
  expect(source).toContain('return putWith(table, PlainPut, item, options');
  expect(source).not.toContain('putItem(fullRuntime(table), "Plain"');
  expect(source).toContain('export const PlainPut: ItemPut = {');
  for (const name of ['Versioned', 'Stamped', 'Unique']) expect(source).not.toContain(`${name}Put`);
});

test('put by name sends the entities with maintained attributes through the full runtime, the others through the small put', () => {
  expect(source).toContain('  const access = named(\'entity\', puts, entity);\n'
    + '  return entity === "Versioned" || entity === "Stamped" || entity === "Unique" ? putItem(fullRuntime(table), entity, item as never, options) : putEntity(table, access, item as never, options, collectionsOf);');
});

test('the full runtime of a model with maintained entities opens with maintainedWrites; a model without needs neither it nor the model file', () => {
  expect(source).toMatch(/^import \{[^}]*\bmaintainedWrites\b[^}]*\} from "cdk-single-table\/runtime";$/m);
  expect(source).toContain('openModelFile<M>({ ...table.options, model: modelFile, client: table.dynamodb, tableName: table.tableName, maintainedWrites })');
  // A keys-only pattern reads through its own slice (it fetches), and no entity keeps anything: no model file, no hooks, none of their code.
  const plainSource = accessModule(resolveModel(defineManifest({
    entities: { Plain: entity({ pk: 'PLAIN#{id}', indexes: { GSI1: { pk: 'ALL', sk: 'X#{id}' } } }) },
    globalIndexes: { GSI1: { projection: ProjectionKind.KEYS_ONLY } },
    accessPatterns: { everything: { index: 'GSI1', entities: ['Plain'] } },
  })), { file: '/app/manifest.access.ts', manifestFile: '/app/manifest.ts' });
  expect(plainSource).toContain('export function queryEverything(');
  expect(plainSource).not.toContain('openModelFile');
  expect(plainSource).not.toContain('manifest.model.json');
  expect(plainSource).not.toContain('maintainedWrites');
});
