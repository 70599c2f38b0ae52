// The generated access module composes keys; a pattern on a GSI keyed on the items' own attributes
// has none, so generating a module for such a manifest is refused, naming the pattern and the fix.
import { compileManifest } from '../../lib/manifest/compile';
import { accessModule } from '../../lib/model/access-module';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';

test('a pattern on a multi-attribute GSI is refused, naming it and the runtime function that serves it', () => {
  const { model } = compileManifest(attributeKeyedManifest());
  expect(() => accessModule(model, { file: '/app/m.access.ts', manifestFile: '/app/m.ts' }))
    .toThrow(/the access module cannot serve pattern invoicesByStatus \(on ByStatus\), .*pattern documentsByRegion \(on ByRegion\): .*query such patterns with the runtime's query \(openTable\)/);
});

test('without such patterns the module is generated; writes compose nothing for the index', () => {
  const manifest = attributeKeyedManifest();
  const patterns = Object.fromEntries(Object.entries(manifest.accessPatterns!).filter(([, p]) => !p.index?.startsWith('By')));
  const { model } = compileManifest({ ...manifest, accessPatterns: patterns });
  const source = accessModule(model, { file: '/app/m.access.ts', manifestFile: '/app/m.ts' });
  expect(source).toContain('invoiceById');
  expect(source).not.toContain('ByStatus');
});
