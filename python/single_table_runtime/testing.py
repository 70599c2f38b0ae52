"""For tests of handlers: the table a synthesized CloudFormation template declares, created on a
local engine (DynamoDB Local) exactly as the stack declares it, as the Node.js package's
``createTableInputFromTemplate`` (lib/engine/create-table.ts) does."""
from __future__ import annotations

import uuid
from typing import Any

TABLE_RESOURCE_TYPES = ('AWS::DynamoDB::GlobalTable', 'AWS::DynamoDB::Table')


def create_table_input(template: dict[str, Any], table_name: str, logical_id: str | None = None) -> dict[str, Any]:
    """The CreateTable input of the one table in ``template`` (name it by logical id, or its prefix, when there are several)."""
    tables = [(i, r) for i, r in (template.get('Resources') or {}).items()
              if r.get('Type') in TABLE_RESOURCE_TYPES and (not logical_id or i.startswith(logical_id))]
    if len(tables) != 1:
        found = ', '.join(i for i, _ in tables) or 'none'
        raise ValueError(f"expected exactly one DynamoDB table resource{f' with logical id {logical_id!r}' if logical_id else ''} in the template, "
                         f'found {found}; pass the logical id')
    resource = tables[0][1]
    props = resource.get('Properties') or {}
    is_global = resource['Type'] == 'AWS::DynamoDB::GlobalTable'
    provisioned = props.get('BillingMode', 'PAY_PER_REQUEST' if is_global else 'PROVISIONED') == 'PROVISIONED'
    replica = (props.get('Replicas') or [{}])[0] if is_global else {}

    def capacity(settings: dict[str, Any] | None, kind: str) -> int:
        settings = settings or {}
        if f'{kind}CapacityUnits' in settings:
            return settings[f'{kind}CapacityUnits']
        auto = settings.get(f'{kind}CapacityAutoScalingSettings') or {}
        if 'MinCapacity' in auto:
            return auto['MinCapacity']
        raise ValueError(f'provisioned table without {kind.lower()} capacity in the template')

    def throughput(read: Any, write: Any, legacy: Any) -> dict[str, int] | None:
        if not provisioned:
            return None
        if not is_global:
            return {'ReadCapacityUnits': legacy['ReadCapacityUnits'], 'WriteCapacityUnits': legacy['WriteCapacityUnits']}
        return {'ReadCapacityUnits': capacity(read, 'Read'), 'WriteCapacityUnits': capacity(write, 'Write')}

    def key_schema(schema: Any) -> list[dict[str, str]]:
        return [{'AttributeName': k['AttributeName'], 'KeyType': k['KeyType']} for k in schema or []]

    def projection(p: Any) -> dict[str, Any]:
        out: dict[str, Any] = {'ProjectionType': (p or {}).get('ProjectionType', 'ALL')}
        if (p or {}).get('NonKeyAttributes'):
            out['NonKeyAttributes'] = list(p['NonKeyAttributes'])
        return out

    request: dict[str, Any] = {
        'TableName': table_name,
        'KeySchema': key_schema(props.get('KeySchema')),
        'AttributeDefinitions': [{'AttributeName': a['AttributeName'], 'AttributeType': a['AttributeType']} for a in props.get('AttributeDefinitions') or []],
        'BillingMode': 'PROVISIONED' if provisioned else 'PAY_PER_REQUEST',
    }
    table_throughput = throughput(replica.get('ReadProvisionedThroughputSettings'), props.get('WriteProvisionedThroughputSettings'),
                                  props.get('ProvisionedThroughput'))
    if table_throughput:
        request['ProvisionedThroughput'] = table_throughput
    if props.get('GlobalSecondaryIndexes'):
        indexes = []
        for g in props['GlobalSecondaryIndexes']:
            replica_index = next((r for r in replica.get('GlobalSecondaryIndexes') or [] if r.get('IndexName') == g['IndexName']), {})
            index: dict[str, Any] = {'IndexName': g['IndexName'], 'KeySchema': key_schema(g.get('KeySchema')), 'Projection': projection(g.get('Projection'))}
            read = replica_index.get('ReadProvisionedThroughputSettings') or replica.get('ReadProvisionedThroughputSettings')
            t = throughput(read, g.get('WriteProvisionedThroughputSettings'), g.get('ProvisionedThroughput'))
            if t:
                index['ProvisionedThroughput'] = t
            indexes.append(index)
        request['GlobalSecondaryIndexes'] = indexes
    if (props.get('StreamSpecification') or {}).get('StreamViewType'):
        request['StreamSpecification'] = {'StreamEnabled': True, 'StreamViewType': props['StreamSpecification']['StreamViewType']}
    if props.get('LocalSecondaryIndexes'):
        request['LocalSecondaryIndexes'] = [{'IndexName': i['IndexName'], 'KeySchema': key_schema(i.get('KeySchema')), 'Projection': projection(i.get('Projection'))}
                                            for i in props['LocalSecondaryIndexes']]
    return request


def create_table(client: Any, template: dict[str, Any], table_name: str | None = None, logical_id: str | None = None) -> str:
    """Creates the template's table with ``client`` (a boto3 DynamoDB client of a local engine); returns its name (a fresh one by default)."""
    name = table_name or f'single-table-{uuid.uuid4().hex[:12]}'
    client.create_table(**create_table_input(template, name, logical_id))
    client.get_waiter('table_exists').wait(TableName=name, WaiterConfig={'Delay': 0.2, 'MaxAttempts': 50})
    return name
