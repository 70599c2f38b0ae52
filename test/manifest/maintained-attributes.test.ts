// Version and timestamp entity options: compiled into the model as attributes the runtime writes,
// and rejected at synth when they are declared too, share a name, or sit in the table key.
import { resolveModel } from '../../lib/manifest/resolve';
import { entityChart } from '../../lib/reports/entity-chart';
import { edited, findings, theFinding, validManifest } from '../fixtures/valid-manifest';

const first = (m: ReturnType<typeof validManifest>) => Object.keys(m.entities)[0];

test('version and timestamps become a NUMBER and two DATE attributes of the entity, with their names', () => {
  const manifest = edited((m) => {
    const e = m.entities[first(m)] as { version?: object; timestamps?: object };
    e.version = {};
    e.timestamps = { createdAt: 'born' };
  });
  expect(findings(manifest)).toEqual([]);
  const entity = resolveModel(manifest).entities[first(manifest)];
  expect(entity.version).toBe('version');
  expect(entity.timestamps).toEqual({ createdAt: 'born', updatedAt: 'updatedAt' });
  expect(entity.attributes.version).toMatchObject({ type: 'NUMBER', required: false });
  expect(entity.attributes.born).toMatchObject({ type: 'DATE', required: false });
});

test('MAINTAINED_ATTRIBUTE_DECLARED: the version attribute is also declared', () => {
  const d = theFinding(edited((m) => {
    const e = m.entities[first(m)] as { version?: object; attributes: Record<string, object> };
    e.version = { attribute: 'rev' };
    e.attributes.rev = { type: 'NUMBER' };
  }), 'MAINTAINED_ATTRIBUTE_DECLARED');
  expect(d.message).toContain("'rev' is declared under attributes and is also the version attribute");
  expect(d.fix).toContain("remove 'rev' from attributes");
});

test('MAINTAINED_ATTRIBUTES_SAME: createdAt and updatedAt share a name', () => {
  const d = theFinding(edited((m) => {
    (m.entities[first(m)] as { timestamps?: object }).timestamps = { createdAt: 'at', updatedAt: 'at' };
  }), 'MAINTAINED_ATTRIBUTES_SAME');
  expect(d.location).toContain('attribute at');
});

test('MAINTAINED_ATTRIBUTE_IN_TABLE_KEY: a timestamp in the table key', () => {
  const d = theFinding(edited((m) => {
    const e = m.entities[first(m)] as { timestamps?: object; sk: string };
    e.timestamps = {};
    e.sk = `${e.sk}#{createdAt}`;
  }), 'MAINTAINED_ATTRIBUTE_IN_TABLE_KEY');
  expect(d.message).toContain("'createdAt' is a timestamp attribute and part of the table key");
});

test('the entity chart notes the version and timestamp attributes', () => {
  const manifest = edited((m) => {
    const e = m.entities[first(m)] as { version?: object; timestamps?: object };
    e.version = { attribute: 'rev' };
    e.timestamps = {};
  });
  const row = entityChart(resolveModel(manifest)).rows.find((r) => r[0] === first(manifest))!;
  expect(row[5]).toContain('versioned: `rev` checked and incremented by every write');
  expect(row[5]).toContain('timestamps: `createdAt` on create, `updatedAt` on every write');
  expect(entityChart(resolveModel(validManifest())).rows.some((r) => /versioned|timestamps/.test(r[5]))).toBe(false);
});
