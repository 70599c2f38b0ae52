// The compiler as a class with static methods: jsii does not export free functions, so this is how
// Python, Java and .NET users validate or compile a manifest without creating a construct.
import { checkManifest, compileManifest } from './compile';
import type { ManifestDiagnostic } from './diagnostics';
import type { SingleTableManifest } from '../model/manifest';
import type { TableModel } from '../model/model';

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
