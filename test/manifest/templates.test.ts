// Key template rules: templates name declared attributes, table keys can always be composed, every
// index slot gets the templates it needs, and no two entities can produce the same key.
import { AttributeKind, ShardStrategy } from '../../lib/model/manifest';
import { edited, findings, ManifestDraft, theFinding } from '../fixtures/valid-manifest';

describe('TEMPLATE_INVALID', () => {
  test('a template naming an undeclared attribute', () => {
    const d = theFinding(edited((m) => { m.entities.Order.indexes!.GSI2.sk = '{createdOn}'; }), 'TEMPLATE_INVALID');
    expect(d.location).toBe('entity Order, index GSI2 sk');
    expect(d.message).toContain('"{createdOn}"');
    expect(d.message).toContain("undeclared attribute 'createdOn'");
    expect(d.fix).toBe("did you mean 'createdAt'? write \"{createdAt}\", or declare 'createdOn' in the entity's attributes");
  });

  test('an undeclared attribute close to no declared one: the fix lists the declared ones', () => {
    const d = theFinding(edited((m) => { m.entities.Order.sk = 'ORDER#{lineNumber}'; }), 'TEMPLATE_INVALID');
    expect(d.fix).toBe("declare 'lineNumber' in the entity's attributes, or name one it declares: username, orderId, status, createdAt, amount");
  });

  test.each([
    ['the table pk', (m: ManifestDraft) => { m.entities.Order.pk = 'CUSTOMER#{usrname}'; }],
    ['an index template', (m: ManifestDraft) => { m.entities.Order.indexes!.GSI2.pk = 'ORDER#{stauts}'; }],
  ])('a misspelled attribute in %s is one finding: the patterns on its index are not reported as a second cause', (_where, change) => {
    const all = findings(edited(change));
    expect(all.map((f) => f.code)).toEqual(['TEMPLATE_INVALID']);
    expect(all[0].fix).toMatch(/^did you mean '(username|status)'\?/);
  });

  test('a slot naming a misspelled index is one finding, suggesting the index', () => {
    const all = findings(edited((m) => { m.entities.Order.indexes!.GSI = m.entities.Order.indexes!.GSI2; delete m.entities.Order.indexes!.GSI2; }));
    expect(all.map((f) => f.code)).toEqual(['ENTITY_INDEX_UNKNOWN']);
    expect(all[0].fix).toMatch(/^did you mean 'GSI1'\? declare it under globalIndexes/);
  });

  test('a table template mixing a literal and a placeholder in one segment', () => {
    const d = theFinding(edited((m) => { m.entities.Order.sk = 'ORDER{orderId}'; }), 'TEMPLATE_INVALID');
    expect(d.location).toBe('entity Order, table sk');
    expect(d.message).toContain("segment 'ORDER{orderId}'");
  });

  test('a literal holding an unpaired surrogate (no UTF-8 encoding); a whole emoji is fine', () => {
    const d = theFinding(edited((m) => { m.entities.Order.sk = 'ORDER\ud83d#{orderId}'; }), 'TEMPLATE_INVALID');
    expect(d.location).toBe('entity Order, table sk');
    expect(d.message).toContain('holds an unpaired UTF-16 surrogate');
    expect(findings(edited((m) => { m.entities.Order.sk = 'ORDER\u{1F600}#{orderId}'; })).filter((f) => f.code === 'TEMPLATE_INVALID')).toEqual([]);
  });

  test('a template using a LIST attribute', () => {
    const d = theFinding(edited((m) => {
      m.entities.Order.attributes.tags = { type: AttributeKind.LIST };
      m.entities.Order.indexes!.LSI1.sk = 'TAGS#{tags}';
    }), 'TEMPLATE_INVALID');
    expect(d.location).toBe('entity Order, index LSI1 sk');
    expect(d.message).toContain('of type LIST');
  });
});

describe('KEY_COLLISION', () => {
  test('two entities whose table keys can be equal', () => {
    const d = theFinding(edited((m) => {
      m.entities.Return = { attributes: { username: { type: AttributeKind.STRING, required: true }, returnId: { type: AttributeKind.STRING, required: true } }, pk: 'CUSTOMER#{username}', sk: 'ORDER#{returnId}' };
    }), 'KEY_COLLISION');
    expect(d.location).toBe('index table');
    expect(d.message).toContain('Order (CUSTOMER#{username} / ORDER#{orderId}) and Return (CUSTOMER#{username} / ORDER#{returnId})');
    expect(d.message).toContain('on the table');
    expect(d.fix).toContain("'RETURN#...'");
  });

  test('two entities overloading a GSI with keys that can be equal', () => {
    const d = theFinding(edited((m) => { m.entities.Customer.indexes!.GSI1 = { pk: 'ORDER#{email}', sk: 'ORDER#{username}' }; }), 'KEY_COLLISION');
    expect(d.location).toBe('index GSI1');
    expect(d.message).toContain('Customer (ORDER#{email} / ORDER#{username}) and Order (ORDER#{orderId} / ORDER#{orderId})');
  });

  test('keys told apart by a literal, or by a literal no number can encode to, never collide', () => {
    expect(findings(edited((m) => {
      m.entities.Invoice = {
        attributes: { username: { type: AttributeKind.STRING, required: true }, number: { type: AttributeKind.NUMBER, required: true } },
        pk: 'CUSTOMER#{username}',
        sk: 'INVOICE#{number}',
        maxItemsPerPartition: 100,
      };
      m.entities.Note = { attributes: { username: { type: AttributeKind.STRING, required: true } }, pk: 'CUSTOMER#{username}', sk: 'INVOICE#draft' };
    }))).toEqual([]);
  });

  test('on a sharded GSI both partition keys get the shard segment, so same shapes still collide', () => {
    const d = theFinding(edited((m) => {
      m.globalIndexes!.GSI2.sharding = { shardCount: 4, strategy: ShardStrategy.RANDOM };
      m.entities.Customer.indexes!.GSI2 = { pk: 'ORDER#{email}', sk: '{username}' };
    }), 'KEY_COLLISION');
    expect(d.location).toBe('index GSI2');
  });
});

describe('table keys', () => {
  test('TABLE_KEY_OPTIONAL_ATTRIBUTE: a table key from an optional attribute', () => {
    const d = theFinding(edited((m) => { m.entities.Order.attributes.orderId.required = false; }), 'TABLE_KEY_OPTIONAL_ATTRIBUTE');
    expect(d.location).toBe('entity Order, table sk');
    expect(d.message).toContain("'orderId'");
    expect(d.fix).toContain("mark 'orderId' required: true");
  });

  test('TABLE_KEY_BOOLEAN: a table key from a boolean', () => {
    const d = theFinding(edited((m) => {
      m.entities.Order.attributes.open = { type: AttributeKind.BOOLEAN, required: true };
      m.entities.Order.sk = 'ORDER#{orderId}#{open}';
    }), 'TABLE_KEY_BOOLEAN');
    expect(d.location).toBe('entity Order, table sk');
    expect(d.message).toContain("boolean 'open'");
  });

  test('TABLE_KEY_MISSING: an entity without a table sort key', () => {
    const d = theFinding(edited((m) => { delete (m.entities.Customer as { sk?: string }).sk; }), 'TABLE_KEY_MISSING');
    expect(d.location).toBe('entity Customer');
    expect(d.message).toBe('`sk` is missing');
    expect(d.fix).toContain("sk: 'ORDER#{orderId}'");
  });
});

describe('index slots of an entity', () => {
  test('ENTITY_INDEX_UNKNOWN: populating an undeclared GSI', () => {
    const d = theFinding(edited((m) => { m.entities.Customer.indexes!.GSI9 = { pk: 'X#{email}', sk: 'Y#{email}' }; }), 'ENTITY_INDEX_UNKNOWN');
    expect(d.location).toBe('entity Customer, index GSI9');
    expect(d.message).toContain("'GSI9', which is not declared");
    expect(d.fix).toContain('GSI1, GSI2, LSI1');
  });

  test('ENTITY_INDEX_UNKNOWN: populating an LSI slot while LSIs are off', () => {
    const d = theFinding(edited((m) => { m.localIndexes = { enabled: false }; delete m.accessPatterns!.ordersByDate; }), 'ENTITY_INDEX_UNKNOWN');
    expect(d.location).toBe('entity Order, index LSI1');
    expect(d.message).toContain('local indexes are disabled');
  });

  test('LSI_PK_TEMPLATE: an LSI slot with its own partition key template', () => {
    const d = theFinding(edited((m) => { m.entities.Order.indexes!.LSI1.pk = 'X#{orderId}'; }), 'LSI_PK_TEMPLATE');
    expect(d.location).toBe('entity Order, index LSI1');
    expect(d.message).toContain('"X#{orderId}"');
  });

  test('INDEX_PK_TEMPLATE_MISSING: a GSI slot without a partition key template', () => {
    const d = theFinding(edited((m) => { delete m.entities.Order.indexes!.GSI2.pk; }), 'INDEX_PK_TEMPLATE_MISSING');
    expect(d.location).toBe('entity Order, index GSI2');
  });

  test('INDEX_SK_TEMPLATE_MISSING: a GSI slot without the sort key template its index needs', () => {
    const d = theFinding(edited((m) => { delete m.entities.Order.indexes!.GSI2.sk; }), 'INDEX_SK_TEMPLATE_MISSING');
    expect(d.location).toBe('entity Order, index GSI2');
    expect(d.fix).toContain('hasSortKey: false');
  });

  test('INDEX_SK_TEMPLATE_UNUSED: a sort key template on a GSI without a sort key', () => {
    const d = theFinding(edited((m) => { m.globalIndexes!.GSI2.hasSortKey = false; delete m.accessPatterns!.ordersByStatus; }), 'INDEX_SK_TEMPLATE_UNUSED');
    expect(d.location).toBe('entity Order, index GSI2');
    expect(d.message).toContain('"{createdAt}"');
  });
});
