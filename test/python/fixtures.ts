// What the Python runtime's tests get from the Node.js side: the conformance corpus (corpus.ts),
// and per model the compiled model file and the CreateTable input of its synthesized table: the
// example stack's, and a manifest whose entity keeps a version, timestamps and a unique value.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpus } from './corpus';
import exampleDocument from '../../examples/manifest.model.json';
import { resolveModel } from '../../lib/manifest/resolve';
import { modelDocument } from '../../lib/model/document';
import { AttributeKind, defineManifest, SortKeyCondition } from '../../lib/runtime';
import { createTableInputFromTemplate } from '../../lib/testing';
import { synthesizedTemplate } from '../support/engine';

/** Accounts with a version, timestamps and a unique email; their sessions in the same partition. */
export const maintainedManifest = defineManifest({
  entities: {
    Account: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        email: { type: AttributeKind.STRING },
        name: { type: AttributeKind.STRING },
      },
      pk: 'ACCOUNT#{id}',
      sk: 'ACCOUNT',
      version: {},
      timestamps: {},
      unique: ['email'],
    },
    Session: {
      attributes: { id: { type: AttributeKind.STRING, required: true }, token: { type: AttributeKind.STRING, required: true } },
      pk: 'ACCOUNT#{id}',
      sk: 'SESSION#{token}',
    },
  },
  localIndexes: { enabled: false },
  accessPatterns: { sessions: { entities: ['Session'], sortKeyCondition: SortKeyCondition.BEGINS_WITH } },
});

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
  const counts = writeCorpus(corpus);
  const definition = (template: object) => createTableInputFromTemplate(template as never, 'placeholder');
  writeFileSync(tables, JSON.stringify({
    example: { model: exampleDocument, table: definition(synthesizedTemplate()) },
    maintained: { model: modelDocument(resolveModel(maintainedManifest)), table: definition(synthesizedTemplate(maintainedManifest)) },
  }));
  return { dir, counts, SINGLE_TABLE_CORPUS: corpus, SINGLE_TABLE_TABLE_DEFINITION: tables, SINGLE_TABLE_ENDPOINT: endpoint };
}
