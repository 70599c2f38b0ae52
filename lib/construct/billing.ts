// Billing: on-demand by default, given as TableV2's `Billing`. Provisioned billing is checked so
// that no GSI can take fewer writes than the table: every table write may also write each GSI, and
// a throttled GSI throttles the table's writes too (back-pressure).
import { Billing, BillingMode, Capacity } from 'aws-cdk-lib/aws-dynamodb';
import { PROPS_LOCATION as WHERE } from './table-options';
import type { DiagnosticSink } from '../manifest/diagnostics';
import { MAX_CAPACITY_UNITS } from '../manifest/shape';
import { peakEntryWriteUnits } from '../manifest/sizes';
import { describeType, describeValue } from '../manifest/values';
import { IndexModel, IndexType, TableModel } from '../model/model';

/** The table's billing when the props give none. */
export const DEFAULT_BILLING = Billing.onDemand();

/** Autoscaling keeps consumed capacity near this share of the provisioned capacity (CDK's default). */
const DEFAULT_TARGET_UTILIZATION = 70;

/** A provisioned capacity as numbers: fixed when `max` equals `min` and `target` is undefined. */
interface Range { readonly min: number; readonly max: number; readonly target?: number }

/** What the checks and the GSI capacities need to know of a `Billing`. */
export interface BillingFacts {
  readonly mode: BillingMode;
  /** Provisioned only. Undefined when the capacity could not be read (reported). */
  readonly reads?: Range;
  readonly writes?: Range;
  /** On-demand only: the table's maxima. */
  readonly maxReadRequestUnits?: unknown;
  readonly maxWriteRequestUnits?: unknown;
}

const BILLING_FIX = 'use Billing.onDemand() or Billing.provisioned({ readCapacity: Capacity.fixed(5), writeCapacity: Capacity.autoscaled({ maxCapacity: 10 }) }) from aws-cdk-lib/aws-dynamodb';

/** TableV2's rendering of a capacity, as CloudFormation's GlobalTable takes it. */
interface RenderedCapacity {
  readonly readCapacityUnits?: number;
  readonly readCapacityAutoScalingSettings?: RenderedScaling;
  readonly writeCapacityAutoScalingSettings?: RenderedScaling;
}
interface RenderedScaling {
  readonly minCapacity: number;
  readonly maxCapacity: number;
  readonly targetTrackingScalingPolicyConfiguration: { readonly targetValue: number };
}

function rangeOf(rendered: RenderedCapacity | undefined): Range | undefined {
  if (rendered?.readCapacityUnits !== undefined) return { min: rendered.readCapacityUnits, max: rendered.readCapacityUnits };
  const scaling = rendered?.readCapacityAutoScalingSettings ?? rendered?.writeCapacityAutoScalingSettings;
  if (scaling === undefined) return undefined;
  return { min: scaling.minCapacity, max: scaling.maxCapacity, target: scaling.targetTrackingScalingPolicyConfiguration.targetValue };
}

/**
 * Reads a `Billing`'s mode and numbers, reporting a value that is not a `Billing` and a fixed write
 * capacity (a global table's writes are provisioned through autoscaling only).
 *
 * `Billing` exposes only its mode publicly; its capacities and maxima are read through the
 * `_renderReadCapacity` / `_renderWriteCapacity` methods TableV2 itself calls (aws-cdk-lib internals).
 */
export function readBilling(value: unknown, sink: DiagnosticSink): BillingFacts | undefined {
  const billing = (value ?? DEFAULT_BILLING) as Billing;
  const modes = Object.values(BillingMode) as unknown[];
  if (billing === null || typeof billing !== 'object' || !modes.includes(billing.mode) || typeof billing._renderReadCapacity !== 'function') {
    sink.error('BILLING_INVALID', WHERE, `billing is ${describeType(value)}, not a Billing`, BILLING_FIX);
    return undefined;
  }
  if (billing.mode === BillingMode.PAY_PER_REQUEST) {
    return { mode: billing.mode, maxReadRequestUnits: billing._renderReadCapacity(), maxWriteRequestUnits: billing._renderWriteCapacity() };
  }
  let writes: Range | undefined;
  try {
    writes = rangeOf(billing._renderWriteCapacity());
  } catch {
    // Capacity.fixed refuses to render as write capacity
    sink.error('CAPACITY_INVALID', WHERE, "billing's writeCapacity is Capacity.fixed, but a table's writes are provisioned through autoscaling only",
      'use Capacity.autoscaled({ minCapacity: 5, maxCapacity: 5 }) for writes that stay at 5 units, or a higher maxCapacity to let them scale');
  }
  const reads = rangeOf(billing._renderReadCapacity());
  const readsInRange = checkRange(sink, "billing's readCapacity", reads);
  const inRange = checkRange(sink, "billing's writeCapacity", writes) && readsInRange;
  return { mode: billing.mode, reads: inRange ? reads : undefined, writes: inRange ? writes : undefined };
}

const CAPACITY_UNITS = `a whole number of capacity units from 1 to ${MAX_CAPACITY_UNITS}`;

/** Capacity units and target utilization CloudFormation accepts (Capacity checks their order only). */
function checkRange(sink: DiagnosticSink, path: string, range: Range | undefined): boolean {
  if (range === undefined) return true;
  const fixed = range.target === undefined;
  const values: [string, number, boolean, string][] = fixed
    ? [[path, range.min, isCapacityUnits(range.min), CAPACITY_UNITS]]
    : [
      [`${path}.minCapacity`, range.min, isCapacityUnits(range.min), CAPACITY_UNITS],
      [`${path}.maxCapacity`, range.max, isCapacityUnits(range.max), CAPACITY_UNITS],
      [`${path}.targetUtilizationPercent`, range.target!, Number.isInteger(range.target) && range.target! >= 20 && range.target! <= 90, 'a whole number from 20 to 90'],
    ];
  let ok = true;
  for (const [label, value, valid, what] of values) {
    if (valid) continue;
    sink.error('CAPACITY_INVALID', WHERE, `${label} is ${describeType(value)}, not ${what}`, `set ${label} to ${what}`);
    ok = false;
  }
  return ok;
}

const isCapacityUnits = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= MAX_CAPACITY_UNITS;

/** A Capacity's mode, for a value that must be one: reports anything else. */
export function checkCapacity(sink: DiagnosticSink, path: string, value: unknown): boolean {
  const mode = (value as Capacity | null)?.mode;
  if (value !== null && typeof value === 'object' && (mode === 'FIXED' || mode === 'AUTOSCALED')) return true;
  sink.error('CAPACITY_INVALID', WHERE, `${path} is ${describeType(value)}, not a Capacity`, `write ${path} as Capacity.fixed(5) or Capacity.autoscaled({ maxCapacity: 10 })`);
  return false;
}

/** A GSI's range: from its own floor up to the table's ceiling, or its own floor if higher. */
function indexRange(own: number, table: Range): Range {
  return { min: own, max: Math.max(own, table.max), target: table.target };
}

function capacity(range: Range): Capacity {
  if (range.target === undefined && range.min === range.max) return Capacity.fixed(range.min);
  const targetUtilizationPercent = range.target ?? DEFAULT_TARGET_UTILIZATION;
  return Capacity.autoscaled({ minCapacity: range.min, maxCapacity: range.max, targetUtilizationPercent });
}

/**
 * Reports capacities that cannot work together: a GSI's capacity without provisioned billing, a
 * GSI below the table's writes, and (a warning) a sharded GSI whose declared peak its capacity
 * cannot reach.
 */
export function checkBilling(model: TableModel, billing: BillingFacts, sink: DiagnosticSink): void {
  const provisioned = billing.mode === BillingMode.PROVISIONED;
  const table = billing.writes;
  for (const index of globalIndexes(model)) {
    const at = `index ${index.name}`;
    for (const [name, value] of [['readCapacity', index.readCapacity], ['writeCapacity', index.writeCapacity]] as const) {
      if (value !== undefined && !provisioned) {
        sink.error('CAPACITY_WITHOUT_PROVISIONED_BILLING', at, `sets ${name} ${value} but billing is on-demand`,
          `give the SingleTable billing: Billing.provisioned({ ... }), or remove ${name} from ${index.name}`);
      }
    }
    if (!provisioned || table === undefined) continue;
    if (index.writeCapacity !== undefined && index.writeCapacity < table.min) {
      sink.error(
        'GSI_WRITE_CAPACITY_BELOW_TABLE',
        at,
        `writeCapacity ${index.writeCapacity} is below the table's ${table.min}; when the GSI throttles, DynamoDB throttles writes to the table as well`,
        `set writeCapacity on ${index.name} to at least ${table.min}, or remove it to inherit the table's`,
      );
    }
    checkShardPeak(model, index, indexRange(index.writeCapacity ?? table.min, table).max, sink);
  }
  if (billing.mode === BillingMode.PAY_PER_REQUEST) {
    checkRequestUnits(sink, true, "billing's maxReadRequestUnits", billing.maxReadRequestUnits);
    checkRequestUnits(sink, true, "billing's maxWriteRequestUnits", billing.maxWriteRequestUnits);
  }
}

const isUnits = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/** An on-demand maximum: whole request units of at least 1, only with on-demand billing. */
export function checkRequestUnits(sink: DiagnosticSink, onDemand: boolean, path: string, value: unknown): void {
  if (value === undefined) return;
  if (!onDemand) {
    sink.error('THROUGHPUT_LIMIT_WITHOUT_ON_DEMAND', WHERE, `sets ${path} ${describeValue(value)} but billing is provisioned, where capacity already caps throughput`, `remove ${path}, or use Billing.onDemand()`);
  } else if (!isUnits(value)) {
    sink.error('THROUGHPUT_LIMIT_INVALID', WHERE, `${path} ${describeValue(value)} is not a whole number of request units of at least 1`, `set ${path} to a whole number of at least 1, or leave it out for no maximum`);
  }
}

/**
 * A sharded GSI's declared peak in write units (peak writes x units of its largest entry) above
 * the most write capacity it can scale to: the shards spread the load, but the index as a whole
 * throttles, and with it the table's writes.
 */
function checkShardPeak(model: TableModel, index: IndexModel, ceiling: number, sink: DiagnosticSink): void {
  const peak = index.shards?.peakWritesPerSecond;
  if (peak === undefined || !isUnits(ceiling)) return;
  const units = peak * peakEntryWriteUnits(index, model.entities, model.indexes, model.typeAttribute);
  if (units <= ceiling) return;
  sink.warning(
    'SHARD_PEAK_ABOVE_CAPACITY',
    `index ${index.name}`,
    `the declared peak of ${peak} writes per second needs ${units} write units per second, but the index can scale only to ${ceiling}; `
      + 'its throttles would also throttle writes to the table',
    `raise the maxCapacity of the billing's writeCapacity (or the index's writeCapacity) to at least ${units}, or use Billing.onDemand()`,
  );
}

/**
 * A GSI's own capacity; undefined inherits the table's. A GSI's writes scale from its own
 * `writeCapacity` up to the table's maximum (or its own, if higher), so it never caps below the
 * table; its reads likewise when the table's reads scale, and are fixed otherwise.
 */
export function globalIndexCapacity(index: IndexModel, billing: BillingFacts): { readCapacity?: Capacity; writeCapacity?: Capacity } {
  if (billing.mode !== BillingMode.PROVISIONED) return {};
  return {
    readCapacity: index.readCapacity === undefined ? undefined : readCapacityFrom(index.readCapacity, billing),
    writeCapacity: index.writeCapacity === undefined || billing.writes === undefined
      ? undefined : capacity(indexRange(index.writeCapacity, billing.writes)),
  };
}

/**
 * Reads of a GSI with its own floor: fixed when the table's reads are, else scaling from the floor
 * up to the table's ceiling (or the floor, if higher).
 */
export function readCapacityFrom(own: number, billing: BillingFacts): Capacity {
  const table = billing.reads;
  return table === undefined || table.target === undefined ? Capacity.fixed(own) : capacity(indexRange(own, table));
}

function globalIndexes(model: TableModel): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type === IndexType.GSI);
}
