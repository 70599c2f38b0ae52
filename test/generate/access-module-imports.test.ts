// A generated module imports from the runtime only names the runtime exports, from the entry it
// imports each from (`cdk-single-table/runtime` or its `/access` entry), a value as a value: the
// generator names the helpers by the access entry's own exports (a name it does not export does
// not compile), and this holds for the types it names too, over modules of every shape (sharded,
// fetched, key-decoded and attribute-keyed patterns, LSIs, maintained attributes, every kind).
import { join } from 'node:path';
import { manifest as bench } from '../../bench/model/manifest';
import { manifest as example } from '../../examples/manifest';
import { accessModule } from '../../lib/generate/access-module';
import { helper, runtimeValue } from '../../lib/generate/code';
import { resolveModel } from '../../lib/manifest/resolve';
import { ShardStrategy, SingleTableManifest } from '../../lib/runtime';
import { manifest as slices } from '../fixtures/access-slice-manifest';
import { notesOnLsi } from '../fixtures/advice-designs';
import { attributeKeyedManifest } from '../fixtures/attribute-keyed';
import { manifest as comparisons } from '../fixtures/comparisons-manifest';
import { shardedOrders } from '../fixtures/sharded-orders';
import { uniqueManifest } from '../fixtures/unique-manifest';
import { exportsOf } from '../support/module-exports';

const ROOT = join(__dirname, '..', '..');
const [runtime, access] = exportsOf(join(ROOT, 'lib', 'runtime', 'index.ts'), join(ROOT, 'lib', 'runtime', 'access', 'index.ts'));
const ENTRIES = { 'cdk-single-table/runtime': runtime, 'cdk-single-table/runtime/access': access };

const MANIFESTS: Record<string, SingleTableManifest> = {
  bench,
  example,
  slices,
  notesOnLsi,
  comparisons,
  unique: uniqueManifest,
  attributeKeyed: attributeKeyedManifest(),
  sharded: shardedOrders({ shardCount: 4 }),
  shardedByAttribute: shardedOrders({ shardCount: 4, strategy: ShardStrategy.ATTRIBUTE, shardAttribute: 'customerId' }),
};

/** The names each import line of a module names, by the specifier it imports from, values and types apart. */
function importsOf(source: string): { from: string; name: string; type: boolean }[] {
  return [...source.matchAll(/^import (type )?\{ ([^}]*) \} from "([^"]+)";$/gm)].flatMap(([, type, names, from]) =>
    names.split(', ').map((n) => ({ from, name: n.split(' as ')[0], type: !!type })));
}

test.each(Object.keys(MANIFESTS))('the module of %s imports only names the runtime exports, each from its entry', (name) => {
  const source = accessModule(resolveModel(MANIFESTS[name]), { file: '/app/manifest.access.ts', manifestFile: '/app/manifest.ts' });
  const imports = importsOf(source).filter((i) => i.from.startsWith('cdk-single-table/'));
  expect(imports.length).toBeGreaterThan(10);
  const missing = imports.filter(({ from, name: n, type }) => !ENTRIES[from as keyof typeof ENTRIES]?.some((e) => e.name === n && (type || e.value)));
  expect(missing).toEqual([]);
  // Everything else of the runtime passes through, the module's own functions in its place.
  expect(source).toContain('\nexport * from "cdk-single-table/runtime";\n');
});

test('a runtime name the generator refers to is one the runtime declares: another does not compile', () => {
  expect(helper('textSegment')).toMatchObject({ name: 'textSegment', from: 'access' });
  // @ts-expect-error the access entry exports no such value
  expect(helper('textSegments').name).toBe('textSegments');
  // @ts-expect-error the runtime's main entry exports no such value
  expect(runtimeValue('putItems').name).toBe('putItems');
});
