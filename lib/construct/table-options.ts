// Checks of the construct's own table options that CloudFormation, DynamoDB or TableV2 would reject
// late or obscurely, or that would silently never work (a TTL attribute that is not a number never
// expires anything).
import { Token } from 'aws-cdk-lib';
import type { SingleTableProps } from './single-table';
import type { DiagnosticSink } from '../manifest/diagnostics';
import type { TableModel } from '../manifest/model';
import { AttributeKind } from '../manifest/structs';

/** A table name DynamoDB accepts. */
export const TABLE_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;

type OptionProps = Pick<SingleTableProps, 'tableName' | 'timeToLiveAttribute' | 'encryptionKey'>;

/** Reports a table name DynamoDB rejects, a customer-managed key without a region and a TTL attribute that cannot expire items. */
export function checkTableOptions(model: TableModel, props: OptionProps, region: string, sink: DiagnosticSink): void {
  const name = props.tableName;
  if (name !== undefined && !Token.isUnresolved(name) && !TABLE_NAME.test(name)) {
    sink.error('TABLE_NAME_INVALID', 'SingleTable props', `tableName ${JSON.stringify(name)} is not 3-255 characters of a-z, A-Z, 0-9, '_', '-', '.'`, "rename the table, e.g. 'app-table', or leave tableName out to let CloudFormation name it");
  }
  if (props.encryptionKey && Token.isUnresolved(region)) {
    // TableV2 names the key per replica region, so the region must be known at synth
    sink.error('ENCRYPTION_KEY_NEEDS_REGION', 'SingleTable props', 'encryptionKey is set but the stack has no region', "give the stack an explicit region: new Stack(app, 'Id', { env: { region: 'eu-west-1' } })");
  }
  const ttl = props.timeToLiveAttribute;
  if (ttl === undefined) return;
  if (ttl === model.typeAttribute || model.keyAttributes.includes(ttl)) {
    sink.error('TTL_ATTRIBUTE_CLASH', 'SingleTable props', `timeToLiveAttribute '${ttl}' is ${ttl === model.typeAttribute ? 'the type attribute' : 'a key attribute'}, which holds strings`, "use a data attribute of type NUMBER, e.g. 'expiresAt'");
    return;
  }
  for (const entity of Object.values(model.entities)) {
    const attr = entity.attributes[ttl];
    if (attr && attr.type !== AttributeKind.NUMBER) {
      sink.error('TTL_ATTRIBUTE_NOT_NUMBER', `entity ${entity.name}, attribute ${ttl}`, `is the TTL attribute but has type ${attr.type}; DynamoDB only expires items whose TTL attribute is a number (epoch seconds)`, `declare '${ttl}' as AttributeKind.NUMBER holding epoch seconds`);
    }
  }
}
