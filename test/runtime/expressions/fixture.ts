// A manifest whose attribute names are DynamoDB reserved words (status, count, name, size) or hold
// expression syntax, with one attribute of every kind: conditions over it must use placeholders.
import { AttributeKind, defineManifest } from '../../../lib/runtime';

export const conditionManifest = defineManifest({
  entities: {
    Doc: {
      attributes: {
        'id': { type: AttributeKind.STRING, required: true },
        'status': { type: AttributeKind.STRING },
        'name': { type: AttributeKind.STRING },
        'count': { type: AttributeKind.NUMBER },
        'at': { type: AttributeKind.DATE },
        'flag': { type: AttributeKind.BOOLEAN },
        'size': { type: AttributeKind.STRING_SET },
        'nums': { type: AttributeKind.NUMBER_SET },
        'items': { type: AttributeKind.LIST },
        'meta': { type: AttributeKind.MAP },
        'a) OR (b': { type: AttributeKind.STRING },
      },
      pk: 'DOC#{id}',
      sk: 'DOC',
    },
    Note: {
      attributes: {
        id: { type: AttributeKind.STRING, required: true },
        count: { type: AttributeKind.STRING },
        body: { type: AttributeKind.STRING },
      },
      pk: 'NOTE#{id}',
      sk: 'NOTE',
    },
  },
  localIndexes: { enabled: false },
});
