// Loads the manifest (or sample items) a command is pointed at: a JSON file, or a JS/TS module
// exporting it. TypeScript is loaded with the project's esbuild or ts-node (dev tools, not
// dependencies of this package); without either, the message says what to install or how to get
// JS or JSON instead.
import { existsSync, readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { CliError, CliIo, progress } from './io';
import { resolveFromProject } from './project';
import { SingleTableManifest } from '../model/manifest';

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
 * Why a module did not load. A TypeScript error (esbuild's transform error, ts-node's TSError,
 * ts-jest's) lists one diagnostic per line after a heading that alone says nothing, so all of them
 * are kept; any other error's first line says what went wrong.
 */
function loadFailure(e: Error): string {
  // eslint-disable-next-line no-control-regex
  const message = String(e?.message ?? e).replace(/\u001b\[[0-9;]*m/g, '');
  if (!/\berror TS\d+|^Transform failed with/.test(message)) return message.split('\n')[0];
  const diagnostics = message.split('\n').filter((line) => line.trim() !== '' && !/Unable to compile TypeScript|^Transform failed with/.test(line));
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

/**
 * Makes `require` load .ts files, unless something (e.g. `ts-node lib/cli/index.ts`) already does:
 * with esbuild's transform when the project has it (types are stripped, never checked, so any
 * TypeScript version or none will do), else with the project's ts-node (transpile only).
 */
function ensureTypeScript(file: string, io: CliIo): void {
  if (require.extensions['.ts']) return;
  const esbuild = resolveFromProject('esbuild', io);
  if (esbuild) {
    progress(io, `Loading ${file} with esbuild...`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { transformSync } = require(esbuild) as typeof import('esbuild');
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(readFileSync(filename, 'utf8'), { loader: 'ts', format: 'cjs', sourcefile: filename, target: `node${process.versions.node.split('.')[0]}` });
      (module as unknown as { _compile(code: string, filename: string): void })._compile(code, filename);
    };
    return;
  }
  const tsNode = resolveFromProject('ts-node', io);
  if (!tsNode) {
    throw new CliError(
      `${file}: loading a .ts module needs esbuild (or ts-node), and neither is installed here. ` +
        'Install esbuild (npm install --save-dev esbuild: it strips the types without checking them, so any TypeScript version will do), ' +
        'compile the module to JavaScript (tsc), or write it as JSON ' +
        '(e.g. node -e "console.log(JSON.stringify(require(\'./manifest.js\').manifest))" > manifest.json)',
    );
  }
  progress(io, `Loading ${file} with ts-node...`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(tsNode).register({ transpileOnly: true });
}
