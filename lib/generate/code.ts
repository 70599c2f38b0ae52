// A small syntax tree of the TypeScript the generator writes (access-module.ts in this folder), and its
// printer. Code is text and nodes: a name imported from the runtime (`Ref`), a name local to one
// declaration (`Local`), and a value written once wherever it is used more than once (`Shared`). The
// printer writes the module's imports from the names its code refers to, a local name so that it
// hides none of them, and a shared value as a constant where two or more places use it.
import { relative, dirname } from 'node:path';
import type * as runtime from '../runtime';
import type * as access from '../runtime/access';

/**
 * A value `cdk-single-table/runtime/access` exports, as the runtime's module declares it (a type-only
 * import: the generator does not load the runtime), so generated code refers to no other.
 */
export type AccessValue = keyof typeof access & string;
/** A value `cdk-single-table/runtime` exports. */
export type RuntimeValue = keyof typeof runtime & string;

/** A name the module imports: a value or a type, from the runtime's main entry or its `/access` entry. */
export interface Ref {
  readonly kind: 'ref';
  readonly name: string;
  /** What the module calls it, where its own name is taken. @default - its name */
  readonly alias?: string;
  readonly from: 'runtime' | 'access';
  readonly type: boolean;
}

/** A value written as a constant (`${prefix}N`) where more than one place uses it, inline where one does. */
export interface Shared {
  readonly kind: 'shared';
  /** What tells two uses of the same value: equal keys, one constant. */
  readonly key: string;
  readonly prefix: string;
  readonly value: Code;
}

/**
 * A name the generated code declares within one declaration: printed as is, or with a number after
 * it where the declaration also refers to a runtime name so spelled.
 */
export interface Local {
  readonly kind: 'local';
  readonly name: string;
}

/** Code whose every new line is indented by two more spaces. */
export interface Indented {
  readonly kind: 'indented';
  readonly code: Code;
}

/** Generated code: text, nodes, and lists of them in order. */
export type Code = string | Ref | Local | Shared | Indented | readonly Code[];

/** A runtime value of the generated code's helpers (`cdk-single-table/runtime/access`). */
export const helper = (name: AccessValue): Ref => ({ kind: 'ref', name, from: 'access', type: false });
/** A type of the generated code's helpers. */
export const helperType = (name: string): Ref => ({ kind: 'ref', name, from: 'access', type: true });
/** A value of the runtime's main entry, under `alias` where the module has its own of that name. */
export const runtimeValue = (name: RuntimeValue, alias?: string): Ref => ({ kind: 'ref', name, alias, from: 'runtime', type: false });
/** A type of the runtime's main entry. */
export const runtimeType = (name: string): Ref => ({ kind: 'ref', name, from: 'runtime', type: true });

/** A name local to the declaration (see Local). */
export const local = (name: string): Local => ({ kind: 'local', name });

/** `code` with each new line indented two more spaces. */
export const indented = (inner: Code): Indented => ({ kind: 'indented', code: inner });

/** A value shared by its key (see Shared). */
export const shared = (prefix: string, key: string, value: Code): Shared => ({ kind: 'shared', key, prefix, value });

/** A literal: JSON of the value. */
export const lit = (value: unknown): string => JSON.stringify(value);

/** Code from a template, e.g. `code\`${helper('named')}("entity", puts, entity)\``; a number is its text. */
export function code(strings: TemplateStringsArray, ...parts: (Code | number)[]): Code[] {
  return strings.flatMap((s, i) => (i < parts.length ? [s, typeof parts[i] === 'number' ? String(parts[i]) : parts[i] as Code] : [s]));
}

/** The items separated by `separator`. */
export function join(items: readonly Code[], separator: string): Code[] {
  return items.flatMap((item, i) => (i === 0 ? [item] : [separator, item]));
}

/** A declaration of the module: its doc comment (one line or several), and its code. */
export interface Declaration {
  readonly doc?: string | readonly string[];
  readonly code: Code;
}

/** A generated module: the lines above its imports, its imports' sources, the lines between them and the body. */
export interface ModuleTree {
  readonly header: readonly string[];
  /** The specifier of the runtime's main entry; `/access` is appended for the helpers. */
  readonly runtime: string;
  /** Import lines after the runtime's (type-only imports of the manifest, a JSON module). */
  readonly imports: readonly string[];
  /**
   * Whether the module re-exports everything the runtime's main entry exports: the names it
   * declares itself are its own (a module's declarations win over a star re-export).
   */
  readonly reexportsRuntime?: boolean;
  /** The declarations before the shared constants. */
  readonly head: readonly Declaration[];
  /** The doc comment of each prefix's shared constants. */
  readonly sharedDocs: Readonly<Record<string, string>>;
  readonly body: readonly Declaration[];
}

function visit(node: Code, at: (node: Ref | Local | Shared) => boolean): void {
  if (typeof node === 'string') return;
  if (Array.isArray(node)) {
    for (const n of node) visit(n, at);
    return;
  }
  const n = node as Ref | Local | Shared | Indented;
  if (n.kind === 'indented') visit(n.code, at);
  else if (at(n) && n.kind === 'shared') visit(n.value, at);
}

/**
 * What each local name of a declaration is printed as: its name, or where the declaration refers
 * to a runtime name so spelled, the name with the first number after it that no other name has.
 */
function localNames(declaration: Code): Map<string, string> {
  const refs = new Set<string>();
  const locals = new Set<string>();
  visit(declaration, (n) => {
    if (n.kind === 'ref') refs.add(n.alias ?? n.name);
    else if (n.kind === 'local') locals.add(n.name);
    return n.kind === 'shared';
  });
  const printed = new Map<string, string>();
  for (const name of locals) {
    let as = name;
    for (let n = 2; refs.has(as) || (as !== name && locals.has(as)); n++) as = `${name}${n}`;
    printed.set(name, as);
    refs.add(as);
  }
  return printed;
}

/** Prints a module: imports of what its code refers to, shared values used twice or more as constants after `head`. */
export function printModule(tree: ModuleTree): string {
  const all = [...tree.head, ...tree.body];
  const uses = new Map<string, { node: Shared; count: number }>();
  const refs = new Map<string, Ref>();
  for (const d of all) {
    visit(d.code, (n) => {
      if (n.kind === 'local') return false;
      if (n.kind === 'ref') {
        refs.set(`${n.from} ${n.type} ${n.name} ${n.alias ?? ''}`, n);
        return false;
      }
      const use = uses.get(n.key);
      if (use) use.count++;
      else uses.set(n.key, { node: n, count: 1 });
      // The value's own references count once, where it is written.
      return !use;
    });
  }
  // Constants numbered per prefix in the order of first use.
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const [key, { node, count }] of uses) {
    if (count < 2) continue;
    const n = (counts.get(node.prefix) ?? 0) + 1;
    counts.set(node.prefix, n);
    names.set(key, `${node.prefix}${n}`);
  }
  const print = (node: Code, locals?: Map<string, string>): string => {
    if (typeof node === 'string') return node;
    if (Array.isArray(node)) return node.map((n) => print(n, locals)).join('');
    const n = node as Ref | Local | Shared | Indented;
    if (n.kind === 'ref') return n.alias ?? n.name;
    if (n.kind === 'local') return locals?.get(n.name) ?? n.name;
    if (n.kind === 'indented') return print(n.code, locals).replace(/\n/g, '\n  ');
    return names.get(n.key) ?? print(n.value, locals);
  };
  const declaration = (d: Declaration) => {
    const doc = d.doc === undefined ? [] : typeof d.doc === 'string' ? [`/** ${d.doc} */`] : ['/**', ...d.doc.map((l) => ` * ${l}`), ' */'];
    return [...doc, print(d.code, localNames(d.code)), ''];
  };
  const constants: string[] = [];
  for (const prefix of Object.keys(tree.sharedDocs)) {
    const of = [...uses].filter(([key, { node }]) => node.prefix === prefix && names.has(key));
    if (of.length === 0) continue;
    constants.push(`/** ${tree.sharedDocs[prefix]} */`, ...of.map(([key, { node }]) => `const ${names.get(key)} = ${print(node.value)};`), '');
  }
  const importLine = (from: Ref['from'], type: boolean) => {
    const named = [...refs.values()].filter((r) => r.from === from && r.type === type)
      .map((r) => (r.alias ? `${r.name} as ${r.alias}` : r.name))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const source = lit(from === 'access' ? `${tree.runtime}/access` : tree.runtime);
    return named.length ? [`import ${type ? 'type ' : ''}{ ${named.join(', ')} } from ${source};`] : [];
  };
  const reexports = tree.reexportsRuntime ? [`export * from ${lit(tree.runtime)};`] : [];
  return [
    ...tree.header,
    ...importLine('runtime', false),
    ...importLine('access', false),
    ...importLine('runtime', true),
    ...importLine('access', true),
    ...tree.imports,
    '',
    ...reexports.length ? [...reexports, ''] : [],
    ...tree.head.flatMap(declaration),
    ...constants,
    ...tree.body.flatMap(declaration),
  ].join('\n').replace(/\n*$/, '\n');
}

/** A relative module specifier from the folder of `from` to `to`, without the .ts extension of a TypeScript module. */
export function specifier(from: string, to: string): string {
  const path = relative(dirname(from), to).replace(/\\/g, '/').replace(/\.ts$/, '');
  return path.startsWith('.') ? path : './' + path;
}
