// Billing: on-demand by default. Provisioned billing is checked so that no GSI can take fewer
// writes than the table: every table write may also write each GSI, and a throttled GSI throttles
// the table's writes too (seed 004, back-pressure).
import { Billing, BillingMode, Capacity } from 'aws-cdk-lib/aws-dynamodb';
import type { SingleTableProps } from './single-table';
import type { DiagnosticSink } from '../manifest/diagnostics';
import { IndexModel, IndexType, TableModel } from '../manifest/model';

/** Read and write capacity units when provisioned billing is chosen without numbers. */
export const DEFAULT_CAPACITY = 5;

type BillingProps = Pick<SingleTableProps, 'billingMode' | 'readCapacity' | 'writeCapacity' | 'maxWriteCapacity'>;

const isUnits = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 1;

function isProvisioned(props: BillingProps): boolean {
  return props.billingMode === BillingMode.PROVISIONED;
}

/** The table's write capacity: TableV2 only autoscales writes, from `writeCapacity` up to `maxWriteCapacity`. */
function tableWrites(props: BillingProps): { min: number; max: number } {
  const min = props.writeCapacity ?? DEFAULT_CAPACITY;
  return { min, max: props.maxWriteCapacity ?? min };
}

/** Reports capacities that cannot work: set without provisioned billing, not whole units, or below the table's writes. */
export function checkBilling(model: TableModel, props: BillingProps, sink: DiagnosticSink): void {
  const provisioned = isProvisioned(props);
  const check = (location: string, name: string, value: number | undefined): boolean => {
    if (value === undefined) return false;
    if (!provisioned) {
      sink.error('CAPACITY_WITHOUT_PROVISIONED_BILLING', location, `sets ${name} ${value} but billing is on-demand`, `set billingMode: BillingMode.PROVISIONED, or remove ${name}`);
      return false;
    }
    if (!isUnits(value)) {
      sink.error('CAPACITY_INVALID', location, `${name} ${JSON.stringify(value)} is not a whole number of capacity units of at least 1`, `set ${name} to a whole number of at least 1`);
      return false;
    }
    return true;
  };
  check('SingleTable props', 'readCapacity', props.readCapacity);
  check('SingleTable props', 'writeCapacity', props.writeCapacity);
  check('SingleTable props', 'maxWriteCapacity', props.maxWriteCapacity);
  const table = tableWrites(props);
  if (provisioned && isUnits(table.min) && isUnits(table.max) && table.max < table.min) {
    sink.error('CAPACITY_INVALID', 'SingleTable props', `maxWriteCapacity ${table.max} is below writeCapacity ${table.min}`, `set maxWriteCapacity to at least ${table.min}`);
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
  }
}

/** The table's billing. */
export function tableBilling(props: BillingProps): Billing {
  if (!isProvisioned(props)) return Billing.onDemand();
  const writes = tableWrites(props);
  return Billing.provisioned({
    readCapacity: Capacity.fixed(props.readCapacity ?? DEFAULT_CAPACITY),
    writeCapacity: Capacity.autoscaled({ minCapacity: writes.min, maxCapacity: writes.max }),
  });
}

/**
 * A GSI's own capacity; undefined inherits the table's. A GSI's writes scale from its own
 * `writeCapacity` up to the table's maximum (or its own, if higher), so it never caps below the table.
 */
export function globalIndexCapacity(index: IndexModel, props: BillingProps): { readCapacity?: Capacity; writeCapacity?: Capacity } {
  if (!isProvisioned(props)) return {};
  const writes = index.writeCapacity;
  return {
    readCapacity: index.readCapacity === undefined ? undefined : Capacity.fixed(index.readCapacity),
    writeCapacity:
      writes === undefined ? undefined : Capacity.autoscaled({ minCapacity: writes, maxCapacity: Math.max(writes, tableWrites(props).max) }),
  };
}

function globalIndexes(model: TableModel): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type === IndexType.GSI);
}
