// Names that are also built-in object properties, end to end on the engine: an entity, attribute,
// index and pattern named that way work exactly like any other name, and an undeclared one is an
// unknown name, never something found on Object.prototype.
import { AttributeKind, ProjectionKind, SingleTableManifest, SortKeyCondition } from '../../lib/model/manifest';
import { createClient, SingleTableError } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine, synthesizedTemplate } from '../support/engine';

const manifest: SingleTableManifest = {
  entities: {
    constructor: {
      typeValue: 'hasOwnProperty',
      attributes: {
        toString: { type: AttributeKind.STRING, required: true },
        valueOf: { type: AttributeKind.NUMBER, required: true },
        hasOwnProperty: { type: AttributeKind.STRING },
      },
      pk: 'C#{toString}',
      sk: 'V#{valueOf}',
      indexes: { isPrototypeOf: { pk: 'H#{hasOwnProperty}', sk: 'V#{valueOf}' } },
    },
  },
  globalIndexes: { isPrototypeOf: { projection: ProjectionKind.KEYS_ONLY } },
  localIndexes: { enabled: false },
  accessPatterns: {
    toString: { entities: ['constructor'], sortKeyCondition: SortKeyCondition.GREATER_THAN_OR_EQUAL },
    propertyIsEnumerable: { entities: ['constructor'], index: 'isPrototypeOf' },
  },
};

let engine: Engine;
let db: ReturnType<typeof createClient>;
type Loose = { [method: string]: (...args: unknown[]) => Promise<any> };
const loose = () => db as unknown as Loose;

beforeAll(async () => {
  engine = await startEngine(synthesizedTemplate(manifest));
  db = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName: await engine.createTable() });
});
afterAll(() => engine.stop());

test('put, get and both patterns of an entity named constructor with attributes named toString, valueOf and hasOwnProperty', async () => {
  const items = [1, 2].map((n) => ({ toString: 'a', valueOf: n, hasOwnProperty: 'h' }));
  for (const item of items) await loose().putItem('constructor', item);
  expect(await loose().getItem('constructor', { toString: 'a', valueOf: 2 })).toEqual(items[1]);
  const table = await loose().query('toString', { toString: 'a', valueOf: 2 });
  expect(table.items).toEqual([{ entity: 'constructor', item: items[1] }]);
  const index = await loose().query('propertyIsEnumerable', { hasOwnProperty: 'h' });
  expect(index.items.map((r: { entity: string; item: { valueOf: number } }) => [r.entity, r.item.valueOf])).toEqual([['constructor', 1], ['constructor', 2]]);
});

test.each([
  ['an entity named toString', () => loose().putItem('toString', { toString: 'a', valueOf: 1 }), 'UNKNOWN_ENTITY'],
  ['an entity named __proto__', () => loose().getItem('__proto__', { toString: 'a', valueOf: 1 }), 'UNKNOWN_ENTITY'],
  ['a pattern named valueOf', () => loose().query('valueOf', { toString: 'a' }), 'UNKNOWN_PATTERN'],
  ['a pattern named __proto__', () => loose().query('__proto__', { toString: 'a' }), 'UNKNOWN_PATTERN'],
])('%s that is not declared: rejected as unknown', async (_what, call, code) => {
  const error = await call().then(() => undefined, (e: Error) => e);
  expect(error).toBeInstanceOf(SingleTableError);
  expect((error as SingleTableError).code).toBe(code);
});
