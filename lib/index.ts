export * from './manifest/structs';
export * from './manifest/model';
export { DiagnosticLevel, ManifestDiagnostic } from './manifest/diagnostics';
export { compileManifest, checkManifest } from './manifest/compile';
export * from './manifest/manifest-compiler';
export * from './construct/single-table';
export * from './reports';
