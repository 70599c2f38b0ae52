// The Lambda functions of a cloud assembly (cdk.out) as a local run needs them: the folder of the
// bundle each template names (through the stack's asset manifest, never a guess among the
// `asset.*` folders a series of synths leaves), the folders of its layers (what Lambda unpacks
// into /opt), its handler, timeout and environment. Plain files in, plain data out: no CDK import.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A function of the assembly, with the folders its code and layers were staged in. */
export interface AssemblyFunction {
  /** Its construct path, e.g. `Shop/Orders` (the function construct, not its `Resource`). */
  readonly path: string;
  /** Its logical id in the stack template. */
  readonly logicalId: string;
  /** The stack's artifact id. */
  readonly stack: string;
  /** `index.handler`: the module, then the exported function. */
  readonly handler: string;
  /** The Lambda runtime, e.g. `nodejs22.x`. */
  readonly runtime: string;
  /** The folder holding the code Lambda unpacks (its bundle). */
  readonly codeDir: string;
  /** The folders of its layers in the template's order; a later one wins in /opt, as in Lambda. */
  readonly layerDirs: readonly string[];
  /** Its environment as the template has it: strings, or intrinsics (`{ Ref: ... }`) resolved at deploy. */
  readonly environment: Readonly<Record<string, unknown>>;
  /** Seconds before Lambda stops an invocation (the template's `Timeout`, else Lambda's 3). */
  readonly timeoutSeconds: number;
  /** Megabytes (the template's `MemorySize`, else Lambda's 128). */
  readonly memorySize: number;
}

type Resource = { readonly Type: string; readonly Properties?: Record<string, any>; readonly Metadata?: Record<string, unknown> };

interface StackArtifact {
  readonly id: string;
  readonly template: { Resources?: Record<string, Resource> };
  /** Logical id -> construct path of the resource. */
  readonly paths: ReadonlyMap<string, string>;
  /** S3 object key -> staged folder (absolute). */
  readonly assets: ReadonlyMap<string, { readonly dir: string; readonly packaging: string }>;
}

/**
 * Every `AWS::Lambda::Function` of the assembly's stacks (nested assemblies of stages included).
 * A function whose code is not a staged folder (inline code, a container image, a prebuilt zip)
 * cannot run locally: `unusable` holds it, by path, with the reason.
 */
export function assemblyFunctions(dir: string): { functions: AssemblyFunction[]; unusable: Record<string, string> } {
  const functions: AssemblyFunction[] = [];
  const unusable: Record<string, string> = {};
  for (const stack of stackArtifacts(resolve(dir))) {
    const resources = stack.template.Resources ?? {};
    for (const [logicalId, resource] of Object.entries(resources)) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const path = stack.paths.get(logicalId) ?? `${stack.id}/${logicalId}`;
      const props = resource.Properties ?? {};
      const code = stagedFolder(stack, props.Code);
      if (typeof code !== 'string') {
        unusable[path] = code.reason;
        continue;
      }
      const layerDirs = (props.Layers ?? []).flatMap((layer: unknown) => {
        const id = (layer as { Ref?: unknown })?.Ref;
        const content = typeof id === 'string' && resources[id]?.Type === 'AWS::Lambda::LayerVersion' ? resources[id].Properties?.Content : undefined;
        const folder = content && stagedFolder(stack, content);
        return typeof folder === 'string' ? [folder] : [];
      });
      functions.push({
        path,
        logicalId,
        stack: stack.id,
        handler: props.Handler ?? 'index.handler',
        runtime: props.Runtime ?? '',
        codeDir: code,
        layerDirs,
        environment: props.Environment?.Variables ?? {},
        timeoutSeconds: typeof props.Timeout === 'number' ? props.Timeout : 3,
        memorySize: typeof props.MemorySize === 'number' ? props.MemorySize : 128,
      });
    }
  }
  return { functions, unusable };
}

/**
 * The function a name designates: its construct path (`Shop/Orders`), that path without the stack
 * (`Orders`), its construct id (the path's last part) or its logical id. Throws naming what was
 * looked for and every function path of the assembly.
 */
export function findFunction(dir: string, name: string): AssemblyFunction {
  const { functions, unusable } = assemblyFunctions(dir);
  const clean = name.replace(/^\/+|\/+$/g, '');
  const matches = (f: { path: string; logicalId?: string }) =>
    f.path === clean || f.logicalId === clean || f.path.endsWith(`/${clean}`);
  const found = functions.filter(matches);
  if (found.length === 1) return found[0];
  const paths = functions.map((f) => f.path);
  if (found.length > 1) {
    throw new Error(`${dir}: '${name}' names ${found.length} functions (${found.map((f) => f.path).join(', ')}); give the construct path`);
  }
  const reason = Object.entries(unusable).find(([path]) => matches({ path }));
  if (reason) throw new Error(`${dir}: the function ${reason[0]} cannot run locally: ${reason[1]}`);
  throw new Error(`${dir}: no Lambda function '${name}'; the assembly has ${paths.length ? paths.join(', ') : 'no functions with staged code'}`
    + (Object.keys(unusable).length ? ` (and, without staged code, ${Object.keys(unusable).join(', ')})` : '')
    + '. Run `npx cdk synth` after changing the app');
}

/** The absolute folder a `Code` or layer `Content` property was staged in, or why there is none. */
function stagedFolder(stack: StackArtifact, code: Record<string, unknown> | undefined): string | { reason: string } {
  if (!code || code.ZipFile !== undefined) return { reason: 'its code is inline (Code.fromInline); only staged code runs locally' };
  if (code.ImageUri !== undefined) return { reason: 'it is a container image' };
  const key = code.S3Key;
  const asset = typeof key === 'string' ? stack.assets.get(key) : undefined;
  if (!asset) return { reason: `its code ${JSON.stringify(key)} is not an asset of ${stack.id}'s asset manifest` };
  if (asset.packaging !== 'zip') return { reason: `its code asset ${asset.dir} is a prebuilt file, not a folder` };
  if (!existsSync(asset.dir)) return { reason: `its code folder ${asset.dir} is missing; run \`npx cdk synth\` again` };
  return asset.dir;
}

/** The stack artifacts of an assembly and of the assemblies nested in it. */
function stackArtifacts(dir: string): StackArtifact[] {
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${dir}: no manifest.json; is it a cloud assembly (the folder \`npx cdk synth\` writes, cdk.out)?`);
  const manifest = readJson(manifestFile);
  const artifacts: Record<string, any> = manifest.artifacts ?? {};
  return Object.entries(artifacts).flatMap(([id, artifact]): StackArtifact[] => {
    if (artifact.type === 'cdk:cloud-assembly') return stackArtifacts(join(dir, artifact.properties.directoryName));
    if (artifact.type !== 'aws:cloudformation:stack') return [];
    const metadata: Record<string, { type: string; data: unknown }[]> = {
      ...(artifact.metadata ?? {}),
      ...(artifact.additionalMetadataFile ? readJson(join(dir, artifact.additionalMetadataFile)) : {}),
    };
    const paths = new Map<string, string>();
    for (const [path, entries] of Object.entries(metadata)) {
      const logicalId = entries.find((e) => e.type === 'aws:cdk:logicalId')?.data;
      if (typeof logicalId === 'string') paths.set(logicalId, path.replace(/^\//, '').replace(/\/Resource$/, ''));
    }
    const assets = new Map<string, { dir: string; packaging: string }>();
    for (const dependency of artifact.dependencies ?? []) {
      const assetArtifact = artifacts[dependency];
      if (assetArtifact?.type !== 'cdk:asset-manifest') continue;
      const files: Record<string, any> = readJson(join(dir, assetArtifact.properties.file)).files ?? {};
      for (const file of Object.values(files)) {
        for (const destination of Object.values<any>(file.destinations ?? {})) {
          assets.set(destination.objectKey, { dir: join(dir, file.source.path), packaging: file.source.packaging ?? 'file' });
        }
      }
    }
    return [{ id, template: readJson(join(dir, artifact.properties.templateFile)), paths, assets }];
  });
}

function readJson(file: string): any {
  return JSON.parse(readFileSync(file, 'utf8'));
}
