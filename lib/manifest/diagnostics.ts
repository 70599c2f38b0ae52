// Findings about a manifest. Each names where the problem is (entity, index, pattern), what is
// wrong and how to fix it; errors stop the synth, warnings become CDK annotations.

/** How serious a finding is. */
export enum DiagnosticLevel {
  /** DynamoDB or CloudFormation would reject it, or it breaks the library's guarantees. */
  ERROR = 'ERROR',
  /** Works, but risks throttling, cost or a limit DynamoDB enforces later. */
  WARNING = 'WARNING',
}

/** One finding about a manifest. */
export interface ManifestDiagnostic {
  /** Error or warning. */
  readonly level: DiagnosticLevel;
  /** A stable code, e.g. `GSI_NAME_INVALID`. */
  readonly code: string;
  /** Where: `entity Order`, `index GSI1`, `pattern ordersByStatus`, ... */
  readonly location: string;
  /** What is wrong, with the bad value. */
  readonly message: string;
  /** How to fix it. */
  readonly fix: string;
}

/** Formats a diagnostic as one line. */
export function formatDiagnostic(d: ManifestDiagnostic): string {
  return `[${d.code}] ${d.location}: ${d.message}. Fix: ${d.fix}`;
}

/** Thrown by `compileManifest` when the manifest has errors; lists all of them. */
export class ManifestError extends Error {
  /** Every finding, errors and warnings. */
  public readonly diagnostics!: ManifestDiagnostic[];

  constructor(diagnostics: ManifestDiagnostic[]) {
    const errors = diagnostics.filter((d) => d.level === DiagnosticLevel.ERROR);
    super(
      `Invalid single-table manifest (${errors.length} error${errors.length === 1 ? '' : 's'}):\n` +
        errors.map((d) => '  - ' + formatDiagnostic(d)).join('\n'),
    );
    this.name = 'ManifestError';
    // Not enumerable: printed, the error is its message, which lists every error already.
    Object.defineProperty(this, 'diagnostics', { value: diagnostics, enumerable: false });
  }
}

/** Collects findings while a manifest is checked. */
export class DiagnosticSink {
  public readonly all: ManifestDiagnostic[] = [];

  public error(code: string, location: string, message: string, fix: string): void {
    this.all.push({ level: DiagnosticLevel.ERROR, code, location, message, fix });
  }

  public warning(code: string, location: string, message: string, fix: string): void {
    this.all.push({ level: DiagnosticLevel.WARNING, code, location, message, fix });
  }

  public get hasErrors(): boolean {
    return this.all.some((d) => d.level === DiagnosticLevel.ERROR);
  }
}
