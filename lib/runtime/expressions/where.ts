// A condition made ready for a write, a transaction action or a read's filter. The operations take
// it made this way, not as plain data, so a handler that states no condition bundles no condition
// compiler: only the code that calls `where` reaches it.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { compileCondition, Condition } from './condition';
import { ExpressionRefs } from './refs';
import type { EntityModel } from '../../model/model';

/** The parts of a write's SDK input a condition adds to. */
export interface ConditionalInput {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, AttributeValue>;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

/** A condition made by `where`: of a put, update, delete or transaction action, or a query's or scan's filter. */
export interface Where<Item> {
  /**
   * Carries the item type; never set. A parameter's place, so a condition on some attributes fits
   * an item that has them among others (`where({ attr: 'tier', ... })` for any item with a tier).
   */
  readonly itemType?: (item: Partial<Item>) => void;
  /**
   * Compiles the condition over `entities` (a filter may name an attribute of any of them), its
   * placeholders added to `refs`; `place` names it in errors (`condition`, `filter`, `actions[0].condition`).
   */
  compile(entities: readonly EntityModel[], refs: ExpressionRefs, place: string): string;
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
 * A condition, e.g. `where({ attr: 'status', eq: 'OPEN' })`: what a write or a transaction action
 * must meet, or what a query's or scan's results must hold. Typed by the item where it is taken.
 */
export function where<Item>(condition: Condition<Item>): Where<Item> {
  return {
    compile: (entities, refs, place) => compileCondition(entities, condition, refs, place),
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
