// The PutItem input as built, without an engine: every attribute given, in declaration order, then
// the keys and the type attribute; entities with more attributes than setAttribute has store
// statements (values.ts), and several entities through the same statements.
import { compileManifest } from '../../lib/manifest/compile';
import { AttributeKind, defineManifest } from '../../lib/runtime';
import { buildPut } from '../../lib/runtime/items/requests';

const manifest = defineManifest({
  entities: {
    Wide: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        a1: { type: AttributeKind.STRING },
        a2: { type: AttributeKind.NUMBER },
        a3: { type: AttributeKind.BOOLEAN },
        a4: { type: AttributeKind.DATE },
        a5: { type: AttributeKind.STRING },
        a6: { type: AttributeKind.STRING },
        a7: { type: AttributeKind.STRING },
        a8: { type: AttributeKind.STRING },
        a9: { type: AttributeKind.NUMBER },
        a10: { type: AttributeKind.STRING },
      },
      pk: 'WIDE#{id}',
      sk: 'WIDE',
      indexes: { GSI1: { pk: 'A9#{a9}', sk: 'A10#{a10}' } },
    },
    Narrow: {
      attributes: {
        name: { type: AttributeKind.STRING, required: true },
        size: { type: AttributeKind.NUMBER, required: true },
      },
      pk: 'NARROW#{name}',
      sk: 'NARROW',
    },
  },
  globalIndexes: { GSI1: {} },
  localIndexes: { enabled: false },
});
const model = compileManifest(manifest).model;

const wide = { id: 'w1', a1: 'x', a2: 2, a3: true, a4: '2024-01-02T03:04:05.006Z', a5: 'e', a6: 'f', a7: 'g', a8: 'h', a9: 9, a10: 'j' };

test('every attribute in declaration order, then the table key, index keys and type, past 8 attributes too', () => {
  for (let round = 0; round < 200; round++) {
    const item = buildPut(model, 'T', 'Wide', wide).Item!;
    expect(Object.keys(item)).toEqual([...Object.keys(wide), 'PK', 'SK', 'GSI1PK', 'GSI1SK', 'Type']);
    expect(item).toEqual({
      id: { S: 'w1' },
      a1: { S: 'x' },
      a2: { N: '2' },
      a3: { BOOL: true },
      a4: { S: '2024-01-02T03:04:05.006Z' },
      a5: { S: 'e' },
      a6: { S: 'f' },
      a7: { S: 'g' },
      a8: { S: 'h' },
      a9: { N: '9' },
      a10: { S: 'j' },
      PK: { S: 'WIDE#w1' },
      SK: { S: 'WIDE' },
      GSI1PK: { S: 'A9#P5009' },
      GSI1SK: { S: 'A10#j' },
      Type: { S: 'Wide' },
    });
    // Another entity's attributes through the same store statements, and optional ones left out.
    expect(buildPut(model, 'T', 'Narrow', { name: 'n', size: round }).Item).toEqual({
      name: { S: 'n' }, size: { N: String(round) }, PK: { S: 'NARROW#n' }, SK: { S: 'NARROW' }, Type: { S: 'Narrow' },
    });
    const sparse = buildPut(model, 'T', 'Wide', { id: 'w2', a8: 'h', a10: 'j' }).Item!;
    expect(Object.keys(sparse)).toEqual(['id', 'a8', 'a10', 'PK', 'SK', 'Type']);
  }
});

test('errors name the attribute past the eighth as before', () => {
  expect(() => buildPut(model, 'T', 'Wide', { ...wide, a9: 'nine' })).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', attribute: 'a9' }));
  expect(() => buildPut(model, 'T', 'Wide', { ...wide, a11: 1 })).toThrow(expect.objectContaining({ code: 'UNKNOWN_ATTRIBUTE', attribute: 'a11' }));
});
