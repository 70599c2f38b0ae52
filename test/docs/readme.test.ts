// What the README shows beyond the quick start holds: the table it says the construct creates by
// default, the throwaway trial table its props make, and the CLI's output on the quick start's
// manifest, line for line.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { blocksOf, checkedFiles, DocBlock, ROOT, writeModule } from './doc-blocks';
import { SingleTable } from '../../lib';
import { main } from '../../lib/cli';

const readme = blocksOf('README.md');
const quickStart = (name: string) => readme.find((b) => b.marker === `<!-- quick-start: file ${name} -->`)!.text;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cdk-single-table-readme-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The table the construct synthesizes, as CloudFormation holds it. */
function tableOf(stack: Stack) {
  const tables = Template.fromStack(stack).findResources('AWS::DynamoDB::GlobalTable');
  expect(Object.keys(tables)).toHaveLength(1);
  return Object.values(tables)[0] as { DeletionPolicy: string; Properties: Record<string, any> };
}

test('the defaults the README lists, and the trial table its props make', () => {
  writeModule(dir, 'manifest.ts', quickStart('manifest.ts'));
  const trial = checkedFiles(readme).get('trial-stack.ts')!.text;
  // The README's blocks run as written, loaded as CommonJS modules.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { stack } = require(writeModule(dir, 'trial-stack.ts', `${trial}\nexport { stack };\n`)) as { stack: Stack };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { manifest } = require(join(dir, 'manifest.js'));

  const defaults = tableOf((() => {
    const s = new Stack(new App(), 'Shop');
    new SingleTable(s, 'Table', { manifest });
    return s;
  })());
  expect(defaults.DeletionPolicy).toBe('Retain');
  const replica = defaults.Properties.Replicas[0];
  expect(replica.DeletionProtectionEnabled).toBe(true);
  expect(replica.PointInTimeRecoverySpecification).toMatchObject({ PointInTimeRecoveryEnabled: true });
  expect(defaults.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
  expect(defaults.Properties.LocalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName)).toEqual(['LSI1', 'LSI2', 'LSI3', 'LSI4', 'LSI5']);

  const table = tableOf(stack);
  expect(table.DeletionPolicy).toBe('Delete');
  expect(table.Properties.Replicas[0].DeletionProtectionEnabled).toBe(false);
  expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled ?? false).toBe(false);
  expect(table.Properties.SSESpecification?.SSEEnabled ?? false).toBe(false);
});

test('the CLI screen shows what the commands print on the quick start manifest', async () => {
  const marker = '<!-- the block below is run by test/docs/readme.test.ts -->';
  const block: DocBlock = readme.find((b) => b.marker === marker)!;
  writeFileSync(join(dir, 'manifest.ts'), quickStart('manifest.ts').replace("'cdk-single-table/runtime'", JSON.stringify(join(ROOT, 'lib', 'runtime'))));
  const commands = block.text.split(/^\$ /m).filter(Boolean);
  expect(commands.map((c) => c.split('\n')[0])).toEqual([
    'npx single-table check manifest.ts', 'npx single-table cost manifest.ts', 'npx single-table docs manifest.ts --format html --out design',
  ]);
  for (const command of commands) {
    const [line, ...shown] = command.trimEnd().split('\n');
    let out = '';
    const code = await main(line.split(' ').slice(2), { out: (t) => (out += t), err: (t) => (out += t), cwd: dir, progress: false });
    expect(code).toBe(0);
    // The lines shown appear in the output in that order; `...` stands for lines left out.
    const printed = out.split('\n');
    let at = 0;
    for (const expected of shown.filter((l) => l !== '...')) {
      const found = printed.indexOf(expected, at);
      expect({ command: line, line: expected, found: found >= 0 }).toEqual({ command: line, line: expected, found: true });
      at = found + 1;
    }
  }
  expect(existsSync(join(dir, 'design', 'design.html'))).toBe(true);
});
