// A condition made ready for a write. The operations take it compiled this way, not as plain data,
// so a handler whose writes carry no condition bundles no condition compiler: only the code that
// calls `where` reaches it (createClient, which carries everything, takes plain data and calls it).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { compileCondition, Condition } from './condition';
import { ExpressionRefs } from './refs';
import type { EntityModel } from '../../manifest/model';

/** The parts of a write's SDK input a condition adds to. */
export interface ConditionalInput {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, AttributeValue>;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

/** The caller's condition of a put, update or delete, made by `where`. */
export interface WriteCondition<Item> {
  /** Carries the item type; never set. */
  readonly itemType?: Item;
  /**
   * Validates the condition against the entity and adds it to the write's input, ANDed with the
   * condition the write has (existence, version). A failed write then returns the stored item.
   */
  addTo(input: ConditionalInput, entity: EntityModel): void;
  /**
   * Why a write with this condition was refused, from its input and the item DynamoDB returned
   * (undefined: none); undefined when the item's existence is what failed (a create finding an
   * item, or a write needing one finding none).
   */
  failed(input: { readonly ConditionExpression?: string }, stored: unknown): string | undefined;
}

/**
 * The condition a write must meet, e.g. `where({ attr: 'status', eq: 'OPEN' })`: typed by the
 * entity's item where the write takes it.
 */
export function where<Item>(condition: Condition<Item>): WriteCondition<Item> {
  return {
    addTo(input, entity) {
      const refs = ExpressionRefs.extending(input);
      const expression = compileCondition([entity], condition, refs);
      input.ConditionExpression = input.ConditionExpression ? `(${input.ConditionExpression}) AND (${expression})` : expression;
      input.ReturnValuesOnConditionCheckFailure = 'ALL_OLD';
      refs.applyTo(input);
    },
    failed: (input, stored) => input.ConditionExpression!.includes(stored ? 'attribute_not_exists(#pk)' : 'attribute_exists(#pk)') ? undefined
      : `the caller's condition is false for ${stored ? 'the item as stored (the error\'s `item`)' : 'the item: there is none with this key'}`,
  };
}
