// Expression placeholders. DynamoDB expressions name attributes and values through
// ExpressionAttributeNames (`#n0`) and ExpressionAttributeValues (`:v0`), so attribute names that
// are reserved words (`status`, `size`) and values holding expression syntax (`) OR (`) are never
// part of the expression text. One ExpressionRefs serves a whole request: a condition, an update
// expression, a key condition and a filter share its placeholders without clashing.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** The placeholder maps of a request, as the SDK input holds them. */
export interface ExpressionPlaceholders {
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, AttributeValue>;
}

/** Collects the placeholders of one request's expressions. */
export class ExpressionRefs {
  /**
   * Refs that continue the placeholders a request already has (e.g. a builder's `#pk`): names
   * already mapped are reused, new placeholders never take a taken one.
   */
  public static extending(input: ExpressionPlaceholders): ExpressionRefs {
    const refs = new ExpressionRefs();
    Object.assign(refs.names, input.ExpressionAttributeNames);
    Object.assign(refs.values, input.ExpressionAttributeValues);
    for (const ref in refs.names) refs.byName.set(refs.names[ref], ref);
    return refs;
  }

  /** ExpressionAttributeNames: placeholder to attribute name. */
  public readonly names: Record<string, string> = {};
  /** ExpressionAttributeValues: placeholder to value. */
  public readonly values: Record<string, AttributeValue> = {};
  private readonly byName = new Map<string, string>();
  private nextName = 0;
  private nextValue = 0;

  /** The placeholder of an attribute name; one per name, however often it is used. */
  public name(attribute: string): string {
    let ref = this.byName.get(attribute);
    if (ref === undefined) {
      do ref = `#n${this.nextName++}`; while (Object.hasOwn(this.names, ref));
      this.names[ref] = attribute;
      this.byName.set(attribute, ref);
    }
    return ref;
  }

  /** A new placeholder for a value. */
  public value(value: AttributeValue): string {
    let ref: string;
    do ref = `:v${this.nextValue++}`; while (Object.hasOwn(this.values, ref));
    this.values[ref] = value;
    return ref;
  }

  /**
   * Writes the placeholders into an SDK input, merged with those it already has (refs made with
   * `extending(input)` hold those already). An empty map is left out: DynamoDB rejects an empty
   * ExpressionAttributeValues.
   */
  public applyTo<T extends ExpressionPlaceholders>(input: T): T {
    for (const ref in input.ExpressionAttributeNames) {
      if (Object.hasOwn(this.names, ref) && this.names[ref] !== input.ExpressionAttributeNames[ref]) throw new Error(`placeholder ${ref} is taken: build the refs with ExpressionRefs.extending(input)`);
    }
    for (const ref in input.ExpressionAttributeValues) {
      if (Object.hasOwn(this.values, ref) && this.values[ref] !== input.ExpressionAttributeValues[ref]) throw new Error(`placeholder ${ref} is taken: build the refs with ExpressionRefs.extending(input)`);
    }
    const names = { ...input.ExpressionAttributeNames, ...this.names };
    const values = { ...input.ExpressionAttributeValues, ...this.values };
    if (Object.keys(names).length) input.ExpressionAttributeNames = names;
    if (Object.keys(values).length) input.ExpressionAttributeValues = values;
    return input;
  }
}
