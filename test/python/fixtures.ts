// What the Python runtime's tests get from the Node.js side: the conformance corpus (corpus.ts)
// and the CreateTable input of the example stack's synthesized table, written to one folder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpus } from './corpus';
import { createTableInputFromTemplate } from '../../lib/testing';
import { synthesizedTemplate } from '../support/engine';

/** The environment the Python tests read their fixtures from (python/tests/conftest.py). */
export interface PythonFixtures {
  readonly SINGLE_TABLE_CORPUS: string;
  readonly SINGLE_TABLE_TABLE_DEFINITION: string;
  readonly SINGLE_TABLE_ENDPOINT: string;
}

/** Writes the corpus and the table definition to a new folder; `endpoint` is the engine the Python tests create tables on. */
export function writePythonFixtures(endpoint: string): PythonFixtures & { readonly dir: string; readonly counts: Record<string, number> } {
  const dir = mkdtempSync(join(tmpdir(), 'single-table-python-'));
  const corpus = join(dir, 'corpus.json');
  const table = join(dir, 'table.json');
  const counts = writeCorpus(corpus);
  writeFileSync(table, JSON.stringify(createTableInputFromTemplate(synthesizedTemplate() as never, 'placeholder')));
  return { dir, counts, SINGLE_TABLE_CORPUS: corpus, SINGLE_TABLE_TABLE_DEFINITION: table, SINGLE_TABLE_ENDPOINT: endpoint };
}
