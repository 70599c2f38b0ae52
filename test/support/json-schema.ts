// A small JSON Schema validator for the keywords lib/model/schema.json uses (type, const, enum,
// required, properties, additionalProperties, items, minItems, minLength, maxLength, minimum,
// pattern, oneOf, local $ref). Enough to check that what the generator writes is what the schema
// documents, without a validator dependency.

type Schema = { [keyword: string]: any } | boolean;

/** Every violation of `schema` by `value`, as `path: problem`; empty when it validates. */
export function validate(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  check(root, root, value, '$', errors);
  return errors;
}

function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  return ref.slice(2).split('/').reduce((node: any, part) => node[part], root);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function check(root: Schema, schema: Schema, value: unknown, path: string, errors: string[]): void {
  if (schema === true) return;
  if (schema === false) {
    errors.push(`${path}: not allowed`);
    return;
  }
  if (schema.$ref) check(root, resolveRef(root, schema.$ref), value, path, errors);
  const type = typeOf(value);
  if (schema.type !== undefined) {
    const ok = schema.type === type || (schema.type === 'number' && type === 'integer');
    if (!ok) {
      errors.push(`${path}: expected ${schema.type}, got ${type}`);
      return;
    }
  }
  if ('const' in schema && value !== schema.const) errors.push(`${path}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${path}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) errors.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${path}: does not match ${schema.pattern}`);
  }
  if (typeof value === 'number' && schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below ${schema.minimum}`);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: fewer than ${schema.minItems} items`);
    if (schema.items) value.forEach((v, i) => check(root, schema.items, v, `${path}[${i}]`, errors));
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in object)) errors.push(`${path}: missing ${name}`);
    for (const [name, v] of Object.entries(object)) {
      if (schema.properties && name in schema.properties) check(root, schema.properties[name], v, `${path}.${name}`, errors);
      else if (schema.additionalProperties !== undefined) check(root, schema.additionalProperties, v, `${path}.${name}`, errors);
    }
  }
  if (schema.oneOf) {
    const passing = schema.oneOf.filter((branch: Schema) => {
      const found: string[] = [];
      check(root, branch, value, path, found);
      return found.length === 0;
    }).length;
    if (passing !== 1) errors.push(`${path}: matches ${passing} of the oneOf schemas, not exactly one`);
  }
}
