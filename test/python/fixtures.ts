// What the Python runtime's tests get from the Node.js side: the conformance corpus (corpus.ts),
// and per model the compiled model file, its synthesized template and that table's CreateTable
// input: the example stack's, a manifest whose entity keeps a version, timestamps and a unique
// value, and the README quick start's (docs/python.md's app).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpus } from './corpus';
import exampleDocument from '../../examples/manifest.model.json';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import * as runtime from '../../lib/runtime';
import { createTableInputFromTemplate } from '../../lib/testing';
import { synthesizedTemplate } from '../support/engine';

/** Accounts with a version, timestamps and a unique email; their devices in the same partition. */
export const maintainedManifest = runtime.defineManifest({
  entities: {
    Account: {
      attributes: {
        id: { type: runtime.AttributeKind.STRING, required: true },
        email: { type: runtime.AttributeKind.STRING },
        name: { type: runtime.AttributeKind.STRING },
      },
      pk: 'ACCOUNT#{id}',
      sk: 'ACCOUNT',
      version: {},
      timestamps: {},
      unique: ['email'],
    },
    Device: {
      attributes: { id: { type: runtime.AttributeKind.STRING, required: true }, token: { type: runtime.AttributeKind.STRING, required: true } },
      pk: 'ACCOUNT#{id}',
      sk: 'DEVICE#{token}',
    },
  },
  localIndexes: { enabled: false },
  accessPatterns: { devices: { entities: ['Device'], sortKeyCondition: runtime.SortKeyCondition.BEGINS_WITH } },
});

/**
 * The README quick start's manifest, as its `manifest.ts` block declares it (plain JavaScript once its
 * import line names the runtime module): the design docs/python.md writes as a CDK Python app.
 */
export function quickStartManifest(): runtime.SingleTableManifest {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const block = /<!-- quick-start: file manifest\.ts -->\n```ts\n([\s\S]*?)```/.exec(readme)![1];
  const body = block.replace(/^import \{([^}]*)\} from 'cdk-single-table\/runtime';/m, 'const {$1} = runtime;').replace('export const', 'const');
  return new Function('runtime', `${body}\nreturn manifest;`)(runtime);
}

/** The environment the Python tests read their fixtures from (python/tests/conftest.py). */
export interface PythonFixtures {
  readonly SINGLE_TABLE_CORPUS: string;
  readonly SINGLE_TABLE_TABLE_DEFINITION: string;
  readonly SINGLE_TABLE_ENDPOINT: string;
}

/** Writes the corpus and the tables' definitions to a new folder; `endpoint` is the engine the Python tests create tables on. */
export function writePythonFixtures(endpoint: string): PythonFixtures & { readonly dir: string; readonly counts: Record<string, number> } {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-python-'));
  const corpus = join(dir, 'corpus.json');
  const tables = join(dir, 'tables.json');
  try {
    const counts = writeCorpus(corpus);
    const fixture = (model: object, template: object) => ({ model, template, table: createTableInputFromTemplate(template as never, 'placeholder') });
    const quickStart = quickStartManifest();
    writeFileSync(tables, JSON.stringify({
      example: fixture(exampleDocument, synthesizedTemplate()),
      maintained: fixture(modelDocument(resolveModel(maintainedManifest)), synthesizedTemplate(maintainedManifest)),
      quickStart: fixture(modelDocument(resolveModel(quickStart)), synthesizedTemplate(quickStart)),
    }));
    return { dir, counts, SINGLE_TABLE_CORPUS: corpus, SINGLE_TABLE_TABLE_DEFINITION: tables, SINGLE_TABLE_ENDPOINT: endpoint };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
