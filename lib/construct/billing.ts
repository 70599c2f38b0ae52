// Billing: on-demand by default. Provisioned billing is checked so that no GSI can take fewer
// writes than the table: every table write may also write each GSI, and a throttled GSI throttles
// the table's writes too (back-pressure).
import { Billing, BillingMode, Capacity } from 'aws-cdk-lib/aws-dynamodb';
import type { SingleTableProps } from './single-table';
import type { DiagnosticSink } from '../manifest/diagnostics';
import { IndexModel, IndexType, TableModel } from '../manifest/model';
import { peakEntryWriteUnits } from '../manifest/sizes';

/** Read and write capacity units when provisioned billing is chosen without numbers. */
export const DEFAULT_CAPACITY = 5;

/** Autoscaling keeps consumed capacity near this share of the provisioned capacity (CDK's default). */
export const DEFAULT_TARGET_UTILIZATION = 70;

type BillingProps = Pick<SingleTableProps,
'billingMode' | 'readCapacity' | 'writeCapacity' | 'maxWriteCapacity' | 'maxReadCapacity' | 'targetUtilizationPercent' | 'maxReadRequestUnits' | 'maxWriteRequestUnits'>;

const isUnits = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 1;

export function isProvisioned(props: BillingProps): boolean {
  return props.billingMode === BillingMode.PROVISIONED;
}

type Range = { min: number; max: number };

/** The table's write capacity: from `writeCapacity` up to `maxWriteCapacity`. */
function tableWrites(props: BillingProps): Range {
  const min = props.writeCapacity ?? DEFAULT_CAPACITY;
  return { min, max: props.maxWriteCapacity ?? min };
}

/** The table's read capacity: fixed at `readCapacity` unless `maxReadCapacity` is set. */
function tableReads(props: BillingProps): Range {
  const min = props.readCapacity ?? DEFAULT_CAPACITY;
  return { min, max: props.maxReadCapacity ?? min };
}

/** A GSI's range: from its own floor up to the table's ceiling, or its own floor if higher. */
function indexRange(own: number, table: Range): Range {
  return { min: own, max: Math.max(own, table.max) };
}

function autoscaled(range: Range, props: BillingProps): Capacity {
  const targetUtilizationPercent = props.targetUtilizationPercent ?? DEFAULT_TARGET_UTILIZATION;
  return Capacity.autoscaled({ minCapacity: range.min, maxCapacity: range.max, targetUtilizationPercent });
}

/**
 * Reports capacities that cannot work together: set without provisioned billing, a maximum below
 * its minimum, a GSI below the table's writes. Each value's own range is checked with the props' shape.
 */
export function checkBilling(model: TableModel, props: BillingProps, sink: DiagnosticSink): void {
  const provisioned = isProvisioned(props);
  const check = (location: string, name: string, value: number | undefined): boolean => {
    if (value === undefined) return false;
    if (!provisioned) {
      sink.error('CAPACITY_WITHOUT_PROVISIONED_BILLING', location, `sets ${name} ${value} but billing is on-demand`, `set billingMode: BillingMode.PROVISIONED, or remove ${name}`);
      return false;
    }
    return true;
  };
  check('SingleTable props', 'readCapacity', props.readCapacity);
  check('SingleTable props', 'writeCapacity', props.writeCapacity);
  check('SingleTable props', 'maxWriteCapacity', props.maxWriteCapacity);
  check('SingleTable props', 'maxReadCapacity', props.maxReadCapacity);
  const table = tableWrites(props);
  for (const [kind, range] of [['Write', table], ['Read', tableReads(props)]] as const) {
    if (provisioned && isUnits(range.min) && isUnits(range.max) && range.max < range.min) {
      sink.error('CAPACITY_INVALID', 'SingleTable props', `max${kind}Capacity ${range.max} is below ${kind.toLowerCase()}Capacity ${range.min}`, `set max${kind}Capacity to at least ${range.min}`);
    }
  }
  const target = props.targetUtilizationPercent;
  if (target !== undefined && !provisioned) {
    sink.error('CAPACITY_WITHOUT_PROVISIONED_BILLING', 'SingleTable props', `sets targetUtilizationPercent ${target} but billing is on-demand`, 'set billingMode: BillingMode.PROVISIONED, or remove targetUtilizationPercent');
  }
  for (const index of globalIndexes(model)) {
    const where = `index ${index.name}`;
    check(where, 'readCapacity', index.readCapacity);
    if (check(where, 'writeCapacity', index.writeCapacity) && index.writeCapacity! < table.min) {
      sink.error(
        'GSI_WRITE_CAPACITY_BELOW_TABLE',
        where,
        `writeCapacity ${index.writeCapacity} is below the table's ${table.min}; when the GSI throttles, DynamoDB throttles writes to the table as well`,
        `set writeCapacity on ${index.name} to at least ${table.min}, or remove it to inherit the table's`,
      );
    }
    if (provisioned) checkShardPeak(model, index, indexRange(index.writeCapacity ?? table.min, table).max, sink);
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
    `raise maxWriteCapacity (or the index's writeCapacity) to at least ${units}, or use on-demand billing`,
  );
}

/** The table's billing. */
export function tableBilling(props: BillingProps): Billing {
  if (!isProvisioned(props)) {
    return Billing.onDemand({ maxReadRequestUnits: props.maxReadRequestUnits, maxWriteRequestUnits: props.maxWriteRequestUnits });
  }
  const reads = tableReads(props);
  return Billing.provisioned({
    readCapacity: props.maxReadCapacity === undefined ? Capacity.fixed(reads.min) : autoscaled(reads, props),
    writeCapacity: autoscaled(tableWrites(props), props),
  });
}

/**
 * A GSI's own capacity; undefined inherits the table's. A GSI's writes scale from its own
 * `writeCapacity` up to the table's maximum (or its own, if higher), so it never caps below the
 * table; its reads likewise when the table's reads scale, and are fixed otherwise.
 */
export function globalIndexCapacity(index: IndexModel, props: BillingProps): { readCapacity?: Capacity; writeCapacity?: Capacity } {
  if (!isProvisioned(props)) return {};
  const reads = index.readCapacity;
  const writes = index.writeCapacity;
  return {
    readCapacity: reads === undefined ? undefined : readCapacityFrom(reads, props),
    writeCapacity: writes === undefined ? undefined : autoscaled(indexRange(writes, tableWrites(props)), props),
  };
}

/**
 * Reads of a GSI or a replica with its own floor: fixed when the table's reads are, else scaling
 * from the floor up to the table's ceiling (or the floor, if higher).
 */
export function readCapacityFrom(own: number, props: BillingProps): Capacity {
  return props.maxReadCapacity === undefined ? Capacity.fixed(own) : autoscaled(indexRange(own, tableReads(props)), props);
}

function globalIndexes(model: TableModel): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type === IndexType.GSI);
}
