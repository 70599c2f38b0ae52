// Starts one embedded engine for the whole test run (DynamoDB Local takes seconds to start: once
// per run, not per file) and publishes its endpoint to the test workers through the environment,
// with the folder where the workers keep the run's synthesized templates (./engine.ts). aws-cdk-lib's
// CloudFormation validation is off for the run (about 3 s to load in every test file that
// synthesizes, and more per synth): test/construct/cloudformation-validation.test.ts and the tests
// that run `cdk synth` as a user does turn it on and find nothing. Every temporary file of the run,
// its workers and the processes they start goes to one folder (TMPDIR), which the teardown removes.
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { PROPERTY_CASES_REPORT } from './property-runs';
import { SHARED_ENGINE_ENV, TEMPLATE_CACHE_ENV } from './shared-engine';
import { startEmbeddedEngine } from '../../lib/engine/engine';

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  // The properties' counts of this run only.
  rmSync(PROPERTY_CASES_REPORT, { force: true });
  const temporary = mkdtempSync(join(tmpdir(), 'single-table-test-run-'));
  Object.assign(globalThis, { singleTableTemporary: temporary, singleTableTmpdirBefore: process.env.TMPDIR });
  process.env.TMPDIR = temporary;
  const engine = await startEmbeddedEngine({ engine: (process.env.SINGLE_TABLE_TEST_ENGINE_KIND as never) ?? 'auto' });
  process.env[SHARED_ENGINE_ENV] = `${engine.kind} ${engine.endpoint}`;
  process.env.CDK_VALIDATION = 'false';
  process.env[TEMPLATE_CACHE_ENV] = mkdtempSync(join(temporary, 'single-table-templates-'));
  Object.assign(globalThis, { singleTableEngine: engine });
  process.stderr.write(`\nEngine for the run: ${engine.description}, started in ${Date.now() - started} ms\n`);
}
