// The one way the constructs report a design or props error, the way aws-cdk-lib's own constructs
// do: a ValidationError on the construct (`Errors.isValidationError(e)` holds; the CDK CLI shows the
// construct it relates to), listing every finding with its code, place and fix. The checks below the
// constructs throw `finding`s; the construct's public entry catches them and throws `designError`.
// Its trace holds only the caller's frames: the findings say what to fix, the library's frames
// would only lead into it.
import { sep } from 'node:path';
import { ValidationError } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { DiagnosticLevel, DiagnosticSink, formatDiagnostic, ManifestDiagnostic, ManifestError } from '../manifest/diagnostics';
import { checkShape, Shape } from '../manifest/shape';

/** ValidationError's name parameter is a branded literal type; the brand exists only at compile time. */
type ErrorName = ConstructorParameters<typeof ValidationError>[0];

/** The folder the library's code runs from (lib/ from source, out/ compiled). */
const LIBRARY_ROOT = __dirname.slice(0, __dirname.lastIndexOf(sep) + 1);

/** One error found by a check below a construct, to throw; the construct reports it with `designError`. */
export function finding(code: string, location: string, message: string, fix: string): ManifestError {
  return new ManifestError([{ level: DiagnosticLevel.ERROR, code, location, message, fix }]);
}

/** The error `construct` throws for the errors among `findings`: each on a line with its code, place and fix. */
export function designError(construct: IConstruct, findings: readonly ManifestDiagnostic[]): ValidationError {
  const errors = findings.filter((d) => d.level === DiagnosticLevel.ERROR);
  const message = `${construct.node.path}: ${errors.length} error${errors.length === 1 ? '' : 's'} to fix:\n`
    + errors.map((d) => '  - ' + formatDiagnostic(d)).join('\n');
  const error = new ValidationError('SingleTableDesignInvalid' as ErrorName, message, construct);
  const related = error.stack?.indexOf('\nRelates to construct:') ?? -1;
  error.stack = `${error.name}: ${message}\n${callerFrames().join('\n')}${related < 0 ? '' : error.stack!.slice(related)}`;
  return error;
}

/** Runs a check of `construct`'s design; the findings it throws become its `designError`. */
export function checked<T>(construct: IConstruct, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof ManifestError) throw designError(construct, e.diagnostics);
    throw e;
  }
}

/**
 * Throws the findings of options (a struct `shape`) that do not have their shape: unknown options
 * with the name meant, wrong types, values out of range. `location` names them, e.g. `monitor options`.
 */
export function checkOptions(options: unknown, shape: Shape, location: string): void {
  const sink = new DiagnosticSink();
  checkShape(options, shape, { location, path: '' }, sink);
  if (sink.hasErrors) throw new ManifestError(sink.all);
}

/** The stack frames of the code that called into the library: its own, aws-cdk-lib's and Node's left out. */
function callerFrames(): string[] {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder);
  return (holder.stack ?? '').split('\n').filter((line) => {
    const frame = line.trimStart();
    return frame.startsWith('at ') && !frame.includes(LIBRARY_ROOT) && !frame.includes(`${sep}node_modules${sep}`) && !frame.includes('node:');
  });
}
