// The environment variables that connect a function to its table. `SingleTable.connect` sets
// them in the stack; the runtime reads them at cold start. One definition for both sides, beside
// the model they deliver, in a file with no imports, so the runtime bundle stays free of aws-cdk-lib.

/** Holds the table's name; `createClient` uses it when no `tableName` is passed. */
export const TABLE_NAME_ENV = 'TABLE_NAME';

/** Holds the fingerprint of the manifest the stack deployed the table with. */
export const FINGERPRINT_ENV = 'SINGLE_TABLE_FINGERPRINT';

/**
 * Holds the absolute path of the compiled model file (`/opt/...`, in the model layer `connect`
 * adds); `deployedModel` reads it.
 */
export const MODEL_PATH_ENV = 'SINGLE_TABLE_MODEL';
