// The one compile entry: a manifest into the frozen table model, resolution (./resolve.ts) then
// every check that needs the whole resolved picture, one function per rule in ./rules. The
// construct, the CLI and the reports call these functions; `ManifestCompiler` offers the same two
// to Python, Java and .NET users.
import { DiagnosticSink, ManifestDiagnostic, ManifestError } from './diagnostics';
import { resolveManifest } from './resolve';
import { ALL_RULES } from './rules';
import { checkShape, MANIFEST_SHAPE } from './shape';
import { deepFreeze } from '../model/freeze';
import type { SingleTableManifest } from '../model/manifest';
import type { TableModel } from '../model/model';

/** The result of compiling: the model and every warning. */
export interface CompiledManifest {
  /** The frozen model. */
  readonly model: TableModel;
  /** Warnings (errors throw). */
  readonly diagnostics: ManifestDiagnostic[];
}

/** Compiles and validates a manifest; throws `ManifestError` listing every error. */
export function compileManifest(manifest: SingleTableManifest): CompiledManifest {
  const { model, diagnostics } = checkManifest(manifest);
  if (!model || diagnostics.some((d) => d.level === 'ERROR')) throw new ManifestError(diagnostics);
  return { model, diagnostics };
}

/** Compiles without throwing: every finding, and the model when there is no error. */
export function checkManifest(manifest: SingleTableManifest): { model?: TableModel; diagnostics: ManifestDiagnostic[] } {
  const sink = new DiagnosticSink();
  // Nothing reads a manifest of the wrong shape: each wrong property is one finding, and resolution
  // (which the Lambda runs without this check) can rely on the types.
  const shaped = typeof manifest !== 'object' || manifest === null || Array.isArray(manifest) || manifest.entities === undefined
    || checkShape(manifest, MANIFEST_SHAPE, { location: 'manifest', path: '' }, sink);
  const draft = shaped ? resolveManifest(manifest, sink) : undefined;
  if (!draft) return { diagnostics: sink.all };
  for (const rule of ALL_RULES) rule(draft, manifest, sink);
  if (sink.hasErrors) return { diagnostics: sink.all };
  return { model: deepFreeze(draft), diagnostics: sink.all };
}

// jsii does not export free functions: this class is how Python, Java and .NET users validate or
// compile a manifest without creating a construct.
/** Validates and compiles access-pattern manifests. */
export class ManifestCompiler {
  /**
   * Every finding about a manifest, errors and warnings; never throws.
   * An empty list means the manifest compiles without warnings.
   */
  public static check(manifest: SingleTableManifest): ManifestDiagnostic[] {
    return checkManifest(manifest).diagnostics;
  }

  /**
   * The compiled, frozen table model. Throws an error listing every problem (code, location,
   * bad value and fix) when the manifest has errors.
   */
  public static compile(manifest: SingleTableManifest): TableModel {
    return compileManifest(manifest).model;
  }

  private constructor() {}
}
