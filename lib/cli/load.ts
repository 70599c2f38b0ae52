// Loads the manifest (or sample items) a command is pointed at: a JSON file, or a JS/TS module
// exporting it. TypeScript is compiled with ts-node when the project has it (it is a dev tool, not a
// dependency of this package); otherwise the message says how to get JS or JSON instead.
import { existsSync, readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { CliError, CliIo, progress } from './io';
import { resolveFromProject } from './project';
import { SingleTableManifest } from '../manifest/structs';

const TS_EXTENSIONS = ['.ts', '.cts', '.mts'];
const JS_EXTENSIONS = ['.js', '.cjs'];

/** Loads a manifest: named export `manifest`, else the default export, else the only export. */
export function loadManifest(file: string, io: CliIo): SingleTableManifest {
  const value = loadValue(file, io, 'manifest', 'the manifest');
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError(`${file}: the manifest must be an object with an \`entities\` map, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as SingleTableManifest;
}

/** Loads sample items by entity name: export `sampleItems`, else the default export, else the only export. */
export function loadSamples(file: string, io: CliIo): { [entity: string]: { [attribute: string]: any } } {
  const value = loadValue(file, io, 'sampleItems', 'sample items');
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError(`${file}: sample items must be an object mapping entity names to one item each`);
  }
  return value as { [entity: string]: { [attribute: string]: any } };
}

/** Loads a JSON file or a module and picks the export named `exportName` (else default, else the only one). */
export function loadValue(file: string, io: CliIo, exportName: string, what: string): unknown {
  const path = resolve(io.cwd, file);
  if (!existsSync(path)) throw new CliError(`${file}: no such file (looked for ${path})`);
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return readJson(file, path);
  if (ext === '.mjs' || ext === '.mts') {
    throw new CliError(`${file}: ES modules cannot be loaded; export ${what} from a CommonJS .js/.ts module or write it as JSON`);
  }
  if (TS_EXTENSIONS.includes(ext)) ensureTypeScript(file, io);
  else if (!JS_EXTENSIONS.includes(ext)) throw new CliError(`${file}: expected a .json, .js or .ts file`);
  let mod: unknown;
  try {
    // A user's module at a path known only at run time: require, not import.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(path);
  } catch (e) {
    throw new CliError(`${file}: loading failed: ${loadFailure(e as Error)}`);
  }
  return pickExport(file, mod, exportName, what);
}

/**
 * Why a module did not load. A TypeScript compiler error (ts-node's TSError, ts-jest's) lists one
 * diagnostic per line after a heading that alone says nothing, so all of them are kept; any other
 * error's first line says what went wrong.
 */
function loadFailure(e: Error): string {
  // eslint-disable-next-line no-control-regex
  const message = String(e?.message ?? e).replace(/\u001b\[[0-9;]*m/g, '');
  if (!/\berror TS\d+/.test(message)) return message.split('\n')[0];
  const diagnostics = message.split('\n').filter((line) => line.trim() !== '' && !/Unable to compile TypeScript/.test(line));
  return `TypeScript cannot compile it:\n${diagnostics.map((line) => `  ${line.trim()}`).join('\n')}`;
}

function readJson(file: string, path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new CliError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
}

function pickExport(file: string, mod: unknown, exportName: string, what: string): unknown {
  if (!mod || typeof mod !== 'object') return mod;
  const exports = mod as { [name: string]: unknown };
  if (exports[exportName] !== undefined) return exports[exportName];
  if (exports.default !== undefined) return exports.default;
  const names = Object.keys(exports).filter((n) => n !== '__esModule');
  if (names.length === 1) return exports[names[0]];
  throw new CliError(
    `${file}: cannot tell which export is ${what}: ` +
      (names.length === 0 ? 'the module exports nothing' : `found ${names.join(', ')}`) +
      `; export it as \`${exportName}\` or as the default export`,
  );
}

/** Makes `require` compile .ts files, unless something (e.g. `ts-node lib/cli/index.ts`) already does. */
function ensureTypeScript(file: string, io: CliIo): void {
  if (require.extensions['.ts']) return;
  const tsNode = resolveFromProject('ts-node', io);
  if (!tsNode) {
    throw new CliError(
      `${file}: loading a .ts module needs ts-node, which is not installed here. ` +
        'Install it (npm install --save-dev ts-node typescript), compile it to JavaScript (tsc), ' +
        'or write it as JSON (e.g. node -e "console.log(JSON.stringify(require(\'./manifest.js\').manifest))" > manifest.json)',
    );
  }
  progress(io, `Compiling ${file} with ts-node...`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(tsNode).register({ transpileOnly: true });
}
