// The validation corpus: every invalid manifest or props is rejected by each path a user takes
// (compileManifest, `single-table check`, `new SingleTable`, `compileModelFile` of the testing
// module) with one finding that names the place, shows the bad value and says how to fix it; no
// TypeError ever escapes. Every valid edge case is accepted by all of them, and the runtime's
// `createClient` opens its compiled model file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Errors, Stack } from 'aws-cdk-lib';
import { fixture, InvalidCase, Loose, toSource } from './corpus/case';
import { INVALID_CASES } from './corpus/invalid-cases';
import { VALID_CASES } from './corpus/valid-cases';
import { SingleTable } from '../../lib/construct/single-table';
import { checkManifest } from '../../lib/manifest/compile';
import { DiagnosticLevel, ManifestError } from '../../lib/manifest/diagnostics';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { run } from '../cli/run';

const dir = mkdtempSync(join(tmpdir(), 'single-table-corpus-'));
let files = 0;

/** The manifest as a CommonJS module, so NaN, Infinity and `__proto__` entries reach the CLI as written. */
function manifestFile(manifest: Loose): string {
  const file = join(dir, `manifest-${files++}.js`);
  writeFileSync(file, `module.exports = { manifest: ${toSource(manifest)} };\n`);
  return file;
}

function synthesize(manifest: Loose, props: Loose = {}): SingleTable {
  return new SingleTable(new Stack(new App(), 'Corpus'), 'Table', { manifest, ...props } as never);
}

/** What a call threw, or undefined. */
function thrown(call: () => unknown): Error | undefined {
  try {
    call();
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

test('the corpus holds at least 100 invalid and 20 valid cases', () => {
  expect(INVALID_CASES.length).toBeGreaterThanOrEqual(100);
  expect(VALID_CASES.length).toBeGreaterThanOrEqual(20);
  expect(new Set(INVALID_CASES.map((c) => c.title)).size).toBe(INVALID_CASES.length);
});

describe.each(INVALID_CASES.map((c) => [c.title, c] as const))('rejects %s', (_title, c: InvalidCase) => {
  const manifest = fixture(c.manifest);
  const line = `[${c.code}] ${c.where}: `;
  const numeric = /\b(NaN|Infinity)\b/.exec(c.shows)?.[1];

  if (!c.props) {
    test('compileManifest: exactly one finding of that code, at that place, with the value and a fix', () => {
      const { model, diagnostics } = checkManifest(manifest as never);
      expect(model).toBeUndefined();
      const found = diagnostics.filter((d) => d.code === c.code);
      expect(found.map((d) => d.location)).toEqual([c.where]);
      const [d] = found;
      expect(d.level).toBe(DiagnosticLevel.ERROR);
      expect(d.message).toContain(c.shows);
      expect(d.fix.length).toBeGreaterThan(5);
      if (c.suggests) expect(d.fix).toContain(`did you mean '${c.suggests}'?`);
      if (numeric) expect(d.message).not.toMatch(/\bnull\b/);
    });
  }

  if (!c.props && !c.skip?.includes('cli')) {
    test('single-table check: exit 1, the finding on its line', async () => {
      const r = await run('check', manifestFile(manifest));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`error ${line}`);
      expect(r.stdout).toContain(c.shows);
    });
  }

  test('new SingleTable: the synth fails with the finding, not a TypeError', () => {
    const error = thrown(() => synthesize(manifest, c.props));
    // Manifest and props errors alike fail as aws-cdk-lib's constructs do.
    expect(Errors.isValidationError(error)).toBe(true);
    expect(error!.message).toContain(line);
    expect(error!.message).toContain(c.shows);
  });

  if (!c.props) {
    test('compileModelFile: a ManifestError with the finding, never a TypeError', () => {
      const error = thrown(() => compileModelFile(manifest as never));
      expect(error).toBeInstanceOf(ManifestError);
      expect(error!.message).toContain(line);
      expect(error!.message).toContain(c.shows);
    });
  }
});

describe.each(VALID_CASES.map((c) => [c.title, c] as const))('accepts %s', (_title, c) => {
  const manifest = fixture(c.manifest);

  test('compileManifest, single-table check, new SingleTable, compileModelFile and createClient all accept it', async () => {
    const { model, diagnostics } = checkManifest(manifest as never);
    expect(diagnostics.filter((d) => d.level === DiagnosticLevel.ERROR)).toEqual([]);
    c.then?.(model as Loose);
    const r = await run('check', manifestFile(manifest));
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(synthesize(manifest, c.props).model.fingerprint).toBe(model!.fingerprint);
    expect(createClient({ model: compileModelFile(manifest as never), tableName: 'corpus' }).table.model.fingerprint).toBe(model!.fingerprint);
  });
});
