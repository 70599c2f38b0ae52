// Writes a manifest the way users keep theirs: JSON, or a TypeScript/JavaScript module exporting
// `manifest` with the library's enums spelled out, so the file reads and diffs like one written by hand.
import { extname } from 'node:path';
import { CliError, EXIT } from './io';
import type { SingleTableManifest } from '../model/manifest';

// The manifest properties whose values are enum members, by property name.
const ENUMS: { [property: string]: string } = {
  type: 'AttributeKind', projection: 'ProjectionKind', sortKeyCondition: 'SortKeyCondition', order: 'SortOrder', strategy: 'ShardStrategy',
};

/** The file text of `manifest` for `file`: JSON for .json, a module for .ts and .js. */
export function manifestFileText(manifest: SingleTableManifest, file: string): string {
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return JSON.stringify(manifest, null, 2) + '\n';
  if (ext !== '.ts' && ext !== '.js') throw new CliError(`${file}: write the manifest to a .json, .ts or .js file`, EXIT.USAGE);
  const used = new Set<string>();
  const body = literal(manifest, '', undefined, used);
  const imports = [...used, 'defineManifest'].sort();
  if (ext === '.ts') {
    return `import { ${imports.join(', ')} } from 'cdk-single-table/runtime';\n\nexport const manifest = defineManifest(${body});\n`;
  }
  return `const { ${imports.join(', ')} } = require('cdk-single-table/runtime');\n\nexports.manifest = defineManifest(${body});\n`;
}

function literal(value: unknown, indent: string, property: string | undefined, used: Set<string>): string {
  if (typeof value === 'string' && property && ENUMS[property]) {
    used.add(ENUMS[property]);
    return `${ENUMS[property]}.${value}`;
  }
  if (Array.isArray(value)) {
    const items = value.map((v) => literal(v, indent, undefined, used));
    return items.join(', ').length < 80 ? `[${items.join(', ')}]` : `[\n${items.map((i) => `${indent}  ${i},`).join('\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    const parts = entries.map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, inner, k, used)}`);
    const flat = `{ ${parts.join(', ')} }`;
    return flat.length + indent.length < 100 && !flat.includes('\n') ? flat : `{\n${parts.map((p) => `${inner}${p},`).join('\n')}\n${indent}}`;
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return JSON.stringify(value);
}
