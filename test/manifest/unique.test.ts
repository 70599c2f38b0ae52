// Unique attribute rules: declared, keyable, listed once; guard items' type value is reserved.
import { resolveModel } from '../../lib/manifest/resolve';
import { AttributeKind } from '../../lib/model/manifest';
import { edited, findings, theFinding } from '../fixtures/valid-manifest';

describe('unique attributes', () => {
  test('a valid unique attribute compiles into the entity model; an entity without one has none', () => {
    const manifest = edited((m) => { m.entities.Customer.unique = ['email']; });
    expect(findings(manifest).filter((f) => f.code.startsWith('UNIQUE'))).toEqual([]);
    const model = resolveModel(manifest);
    expect(model.entities.Customer.unique).toEqual(['email']);
    expect(model.entities.Order.unique).toBeUndefined();
  });

  test('a uniqueScope written as the scope attribute alone is answered with the map it takes', () => {
    const d = theFinding(edited((m) => {
      m.entities.Customer.unique = ['email'];
      (m.entities.Customer as { uniqueScope?: unknown }).uniqueScope = 'username';
    }), 'PROPERTY_TYPE_INVALID');
    expect(d.message).toBe('`uniqueScope` is the string "username", not an object mapping each unique attribute to the attribute its values are unique within');
    expect(d.fix).toBe("write an object mapping each unique attribute to the attribute its values are unique within, e.g. { email: 'tenantId' }");
  });

  test('UNIQUE_ATTRIBUTE_UNDECLARED names the attribute and the declared ones', () => {
    const d = theFinding(edited((m) => { m.entities.Customer.unique = ['mail']; }), 'UNIQUE_ATTRIBUTE_UNDECLARED');
    expect(d.location).toBe('entity Customer, unique');
    expect(d.message).toContain('"mail"');
    expect(d.fix).toContain('username, email');
  });

  test('UNIQUE_ATTRIBUTE_KIND: a boolean, list or map cannot be unique', () => {
    for (const type of [AttributeKind.BOOLEAN, AttributeKind.LIST, AttributeKind.MAP]) {
      const d = theFinding(edited((m) => {
        m.entities.Customer.attributes.flag = { type };
        m.entities.Customer.unique = ['flag'];
      }), 'UNIQUE_ATTRIBUTE_KIND');
      expect(d.location).toBe('entity Customer, attribute flag');
      expect(d.message).toContain(`of type ${type}`);
    }
  });

  test('UNIQUE_ATTRIBUTE_DUPLICATE', () => {
    expect(theFinding(edited((m) => { m.entities.Customer.unique = ['email', 'email']; }), 'UNIQUE_ATTRIBUTE_DUPLICATE').message).toBe("lists 'email' twice");
  });

  test('UNIQUE_GUARD_TYPE_RESERVED: an entity may not carry the guard items\' type value', () => {
    const d = theFinding(edited((m) => {
      m.entities.Customer.unique = ['email'];
      m.entities.Order.typeValue = '$unique';
    }), 'UNIQUE_GUARD_TYPE_RESERVED');
    expect(d.location).toBe('entity Order');
    // Without unique attributes there are no guard items, and the value is free.
    expect(findings(edited((m) => { m.entities.Order.typeValue = '$unique'; })).filter((f) => f.code.startsWith('UNIQUE'))).toEqual([]);
  });

  test('UNIQUE_TOO_MANY: a write changing every value must fit one transaction', () => {
    const d = theFinding(edited((m) => {
      const names = Array.from({ length: 50 }, (_, i) => `u${i}`);
      for (const n of names) m.entities.Customer.attributes[n] = { type: AttributeKind.STRING };
      m.entities.Customer.unique = names;
    }), 'UNIQUE_TOO_MANY');
    expect(d.message).toContain('101 transaction actions');
  });

  test('a unique list that is not a list of strings is a shape finding', () => {
    expect(findings(edited((m) => { (m.entities.Customer as { unique: unknown }).unique = 'email'; })).map((f) => f.code)).toContain('PROPERTY_TYPE_INVALID');
  });

  test('UNIQUE_SCOPE_NOT_LEADING and UNIQUE_SCOPE_WITHOUT_UNIQUE: each scope is a partition key attribute after literals only, of a unique attribute', () => {
    const notInKey = theFinding(edited((m) => {
      m.entities.Customer.unique = ['email'];
      m.entities.Customer.uniqueScope = { email: 'email' };
    }), 'UNIQUE_SCOPE_NOT_LEADING');
    expect(notInKey.location).toBe('entity Customer, uniqueScope.email');
    expect(notInKey.message).toContain('"email" is not in the table partition key');
    const m2 = edited((m) => {
      m.entities.Order.unique = ['total'];
      m.entities.Order.uniqueScope = { total: 'orderId' };
      m.entities.Order.pk = 'CUSTOMER#{username}#ORDER#{orderId}';
    });
    expect(theFinding(m2, 'UNIQUE_SCOPE_NOT_LEADING').message).toContain('comes after {username}');
    const notUnique = theFinding(edited((m) => {
      m.entities.Customer.unique = ['email'];
      m.entities.Customer.uniqueScope = { name: 'username' };
    }), 'UNIQUE_SCOPE_WITHOUT_UNIQUE');
    expect(notUnique.location).toBe('entity Customer, uniqueScope.name');
    expect(notUnique.message).toContain('scopes "name" by "username", but the entity lists only email');
    expect(notUnique.fix).toBe("add 'name' to unique, or remove it from uniqueScope");
    expect(findings(edited((m) => { (m.entities.Customer as { uniqueScope: unknown }).uniqueScope = 'username'; })).map((f) => f.code)).toContain('PROPERTY_TYPE_INVALID');
    // One attribute unique per scope value, another across the table.
    const scoped = edited((m) => {
      m.entities.Customer.attributes.handle = { type: AttributeKind.STRING };
      m.entities.Customer.unique = ['email', 'handle'];
      m.entities.Customer.uniqueScope = { email: 'username' };
    });
    expect(findings(scoped).filter((f) => f.code.startsWith('UNIQUE'))).toEqual([]);
    expect(resolveModel(scoped).entities.Customer.uniqueScope).toEqual({ email: 'username' });
  });
});
