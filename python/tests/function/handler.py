"""A Python Lambda handler connected to the example table (test/python/python.test.ts synthesizes the
stack): it imports the runtime from its model layer and opens the table from the environment, as a
deployed handler does. Each event names an operation of the table and its arguments as JSON."""
import single_table_runtime
from single_table_runtime import open_table

table = open_table()


def handler(event, context):
    op = event['op']
    if op == 'runtime':  # where the package was imported from: the layer, not the repository
        return single_table_runtime.__file__
    if op == 'query':
        page = table.query(event['pattern'], event['input'], **event.get('options', {}))
        return {'items': [{'entity': r.entity, 'item': r.item} for r in page.items], 'cursor': page.cursor}
    return getattr(table, op)(*event['args'], **event.get('options', {}))
