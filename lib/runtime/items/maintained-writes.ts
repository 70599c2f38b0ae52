// What single-item writes add for entities with a version, timestamps or unique attributes. An
// application whose model has such an entity opens its table with these hooks
// (`openTable({ maintainedWrites })`; createClient and transactions take them themselves);
// every other handler leaves this module, and its wording of version conflicts, out of its bundle.
import { uniqueWrite } from './unique-write';
import { versionTimestampHooks } from './version-timestamps';
import type { MaintainedWrites } from '../table/context';

// Marked pure so a bundle that never uses the hooks drops them (a spread would keep them).
/** The hooks to pass as `maintainedWrites` when the model has a versioned, timestamped or unique entity. */
export const maintainedWrites: MaintainedWrites = /* @__PURE__ */ Object.assign({ unique: uniqueWrite }, versionTimestampHooks);
