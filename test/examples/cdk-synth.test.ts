// `cdk synth` of the example app through the pinned CLI and cdk.json, as a user would run it:
// offline, with telemetry and the version check off, into a temporary output directory.
import { execFileSync, spawnSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const CDK = path.join(ROOT, 'node_modules', '.bin', 'cdk');

test('npx cdk synth writes the example template, which CloudFormation\'s validation finds nothing in', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'cdk-single-table-synth-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1', CDK_DISABLE_VERSION_CHECK: '1' };
    delete env.CDK_VALIDATION; // on, as in a user's synth
    execFileSync(CDK, ['synth', '--quiet', '-o', out], {
      cwd: ROOT,
      env,
      stdio: 'pipe',
    });
    // The report lists what each validation (cdk-nag's, CloudFormation's) found; that CloudFormation's
    // runs and fails on a finding is shown by test/construct/cloudformation-validation.test.ts.
    const report = JSON.parse(readFileSync(path.join(out, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports.flatMap((r: { violations: unknown[] }) => r.violations)).toEqual([]);
    const templateFile = path.join(out, 'SingleTableExample.template.json');
    expect(existsSync(templateFile)).toBe(true);
    const template = JSON.parse(readFileSync(templateFile, 'utf8'));
    const types = Object.values(template.Resources).map((r: any) => r.Type);
    expect(types).toContain('AWS::DynamoDB::GlobalTable');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('npx cdk synth of an app with a misspelled template attribute: the finding once, against the construct, no trace into the library', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'cdk-single-table-synth-'));
  try {
    const app = 'node -r ts-node/register/transpile-only test/fixtures/misspelled-app.ts';
    const r = spawnSync(CDK, ['synth', '--quiet', '--app', app, '-o', out], {
      cwd: ROOT,
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1', CDK_DISABLE_VERSION_CHECK: '1' },
      encoding: 'utf8',
    });
    expect(r.status).not.toBe(0);
    const finding = "[TEMPLATE_INVALID] entity Order, table sk: template \"ORDER#{ordrId}\" names undeclared attribute 'ordrId'. "
      + "Fix: did you mean 'orderId'? write \"ORDER#{orderId}\", or declare 'ordrId' in the entity's attributes";
    expect(r.stderr).toContain(`SingleTableDesignInvalid: Misspelled/Table: 1 error to fix:\n  - ${finding}\n`);
    expect(r.stderr.split('[TEMPLATE_INVALID]').length).toBe(2);
    // The trace is the app's line that built the table, then the construct tree.
    expect(r.stderr).toMatch(/^ {4}at .*misspelled-app\.ts:\d+:\d+\)?\nRelates to construct:\n/m);
    expect(r.stderr).not.toMatch(/[/\\]lib[/\\].*\.[jt]s:\d+|node_modules[/\\]aws-cdk-lib|diagnostics:|PATTERN_INDEX_NOT_POPULATED/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 300_000);
