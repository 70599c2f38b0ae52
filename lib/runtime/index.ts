// `cdk-single-table/runtime`: what Lambda code imports. Never imports aws-cdk-lib or constructs.
export * from '../manifest/structs';
export { compileManifest, checkManifest } from '../manifest/compile';
export type { TableModel } from '../manifest/model';
export * from '../manifest/infer';
