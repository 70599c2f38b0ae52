// `cdk synth` of the example app through the pinned CLI and cdk.json, as a user would run it:
// offline, with telemetry and the version check off, into a temporary output directory.
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const CDK = path.join(ROOT, 'node_modules', '.bin', 'cdk');

test('npx cdk synth writes the example template', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'cdk-single-table-synth-'));
  try {
    execFileSync(CDK, ['synth', '--quiet', '-o', out], {
      cwd: ROOT,
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1', CDK_DISABLE_VERSION_CHECK: '1' },
      stdio: 'pipe',
    });
    const templateFile = path.join(out, 'SingleTableExample.template.json');
    expect(existsSync(templateFile)).toBe(true);
    const template = JSON.parse(readFileSync(templateFile, 'utf8'));
    const types = Object.values(template.Resources).map((r: any) => r.Type);
    expect(types).toContain('AWS::DynamoDB::GlobalTable');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
