// Props errors are raised the way aws-cdk-lib raises them for its own constructs: a ValidationError
// on the construct, which carries its path (`Errors.isValidationError(e)` holds, and the CDK CLI shows
// the construct it relates to), listing every finding with its fix.
import { ValidationError } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { DiagnosticLevel, formatDiagnostic, ManifestDiagnostic } from '../manifest/diagnostics';

/** ValidationError's name parameter is a branded literal type; the brand exists only at compile time. */
type ErrorName = ConstructorParameters<typeof ValidationError>[0];

/** The error for the props errors among `findings` of `construct` (a SingleTable or an imported one). */
export function propsError(construct: IConstruct, findings: readonly ManifestDiagnostic[]): ValidationError {
  const errors = findings.filter((d) => d.level === DiagnosticLevel.ERROR);
  const message = `Invalid props of SingleTable '${construct.node.path}' (${errors.length} error${errors.length === 1 ? '' : 's'}):\n`
    + errors.map((d) => '  - ' + formatDiagnostic(d)).join('\n');
  return new ValidationError('SingleTablePropsInvalid' as ErrorName, message, construct);
}
