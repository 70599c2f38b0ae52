// Synthesized templates as the engine reads them: a template file, or the one stack template of a
// cloud assembly folder (cdk.out) that holds a DynamoDB table. Plain files in, plain data out: no
// CDK import, so the CLI and the testing helpers read what `cdk synth` wrote.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { TABLE_RESOURCE_TYPES, TemplateJson } from './create-table';

/** A template with the file name it came from. */
export interface NamedTemplate {
  /** Where it came from, e.g. `SingleTableExample.template.json`. */
  readonly name: string;
  /** The CloudFormation template. */
  readonly template: TemplateJson;
}

/** The one stack template of a cloud assembly folder that declares a DynamoDB table. */
export function templateFromAssembly(dir: string, label: string = dir): NamedTemplate {
  if (!existsSync(dir)) throw new Error(`${label}: no such folder; run \`npx cdk synth\` first (it writes cdk.out), or give the folder it wrote with -o`);
  const withTable = readdirSync(dir)
    .filter((f) => f.endsWith('.template.json'))
    .sort()
    .map((f) => readTemplateFile(join(dir, f)))
    .filter((t) => hasTable(t.template));
  if (withTable.length !== 1) {
    throw new Error(`${label}: expected one stack template with a DynamoDB table, found ${withTable.map((t) => t.name).join(', ') || 'none'}; pass that template (.json)`);
  }
  return withTable[0];
}

/** A template file, parsed. */
export function readTemplateFile(path: string): NamedTemplate {
  if (!existsSync(path)) throw new Error(`${path}: no such template`);
  try {
    return { name: basename(path), template: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (e) {
    throw new Error(`${path}: not valid JSON: ${(e as Error).message}`);
  }
}

function hasTable(template: TemplateJson): boolean {
  return Object.values(template.Resources ?? {}).some((r) => TABLE_RESOURCE_TYPES.includes(r.Type));
}
