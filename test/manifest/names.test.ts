// Naming and shape rules: what DynamoDB and CloudFormation would reject about names, and clashes
// between data attributes and the attributes the library writes.
import { SingleTableManifest } from '../../lib/model/manifest';
import { edited, findings, theFinding, validManifest } from '../fixtures/valid-manifest';

test('the fixture manifest has no findings', () => {
  expect(findings(validManifest())).toEqual([]);
});

describe('index count and names', () => {
  test('a misspelled GSI declaration (GSl2 for GSI2, used as GSI2) is the fix: rename the declaration, not the uses', () => {
    const misspelled = edited((m) => {
      m.globalIndexes!.GSl2 = m.globalIndexes!.GSI2;
      delete m.globalIndexes!.GSI2;
    });
    const fixes = findings(misspelled).filter((d) => d.level === 'ERROR').map((d) => [d.code, d.fix]);
    expect(fixes).toEqual([
      ['ENTITY_INDEX_UNKNOWN', expect.stringMatching(/^rename the declaration globalIndexes\.GSl2 to GSI2 \(nothing uses 'GSl2'\), or declare it under globalIndexes/)],
      ['PATTERN_INDEX_UNKNOWN', expect.stringMatching(/^rename the declaration globalIndexes\.GSl2 to GSI2 \(nothing uses 'GSl2'\), or use one of/)],
    ]);
    // A use misspelled beside a used declaration: the use is the fix.
    const use = theFinding(edited((m) => { m.accessPatterns!.orderById.index = 'GSl1'; }), 'PATTERN_INDEX_UNKNOWN');
    expect(use.fix).toMatch(/^did you mean 'GSI1'\? use one of/);
  });


  const withGsis = (count: number) => edited((m) => {
    for (let i = 3; i <= count; i++) m.globalIndexes![`GSI${i}`] = {};
  });

  test('TOO_MANY_GSIS: more than 20 GSIs', () => {
    expect(findings(withGsis(20))).toEqual([]);
    const d = theFinding(withGsis(21), 'TOO_MANY_GSIS');
    expect(d.location).toBe('manifest');
    expect(d.message).toContain('21 GSIs');
    expect(d.fix).toMatch(/overload/);
  });

  test('INDEX_NAME_DUPLICATE: a GSI named like an LSI slot or the table', () => {
    const lsi = theFinding(edited((m) => { m.globalIndexes!.LSI3 = {}; }), 'INDEX_NAME_DUPLICATE');
    expect(lsi.location).toBe('index LSI3');
    expect(lsi.message).toContain("'LSI3' duplicates an LSI slot");
    expect(lsi.fix).toMatch(/rename/);
    const table = theFinding(edited((m) => { m.globalIndexes!.table = {}; }), 'INDEX_NAME_DUPLICATE');
    expect(table.message).toContain("'table' duplicates the name that stands for the table");
  });

  test.each([
    ['too short', 'GS'],
    ['too long', 'G'.repeat(256)],
    ['a space', 'By Status'],
    ['a delimiter', 'GSI#1'],
  ])('INDEX_NAME_INVALID: a GSI name with %s', (_why, name) => {
    const d = theFinding(edited((m) => { m.globalIndexes![name] = {}; }), 'INDEX_NAME_INVALID');
    expect(d.location).toBe(`index ${name}`);
    expect(d.message).toContain(name.length > 64 ? `(${name.length} characters)` : JSON.stringify(name));
    expect(d.message).toContain('3-255 characters');
    expect(d.fix).toMatch(/rename/);
  });

  test('index names of 3 and 255 characters are fine', () => {
    // the default key names `<name>PK`/`<name>SK` of a 255-character index would be too long
    const long = { partitionKeyName: 'LongPK', sortKeyName: 'LongSK' };
    expect(findings(edited((m) => { m.globalIndexes!['a.-'] = {}; m.globalIndexes!['x'.repeat(255)] = long; }))).toEqual([]);
  });
});

describe('key attribute names', () => {
  test('KEY_ATTRIBUTE_REUSED: a GSI reusing the table key attribute', () => {
    const d = theFinding(edited((m) => { m.globalIndexes!.GSI2.partitionKeyName = 'PK'; }), 'KEY_ATTRIBUTE_REUSED');
    expect(d.location).toBe('index GSI2');
    expect(d.message).toContain("'PK' is already a key of the table");
    expect(d.fix).toContain('GSI2PK/GSI2SK');
  });

  test('KEY_ATTRIBUTE_NAME_INVALID: a key attribute name with a space', () => {
    const d = theFinding(edited((m) => { m.globalIndexes!.GSI1.sortKeyName = 'GSI1 SK'; }), 'KEY_ATTRIBUTE_NAME_INVALID');
    expect(d.location).toBe('index GSI1');
    expect(d.message).toContain('"GSI1 SK"');
    expect(d.fix).toMatch(/sortKeyName/);
  });
});

describe('the type attribute and data attribute clashes', () => {
  test('TYPE_ATTRIBUTE_INVALID: an empty type attribute name', () => {
    const d = theFinding(edited((m) => { m.typeAttribute = ''; }), 'TYPE_ATTRIBUTE_INVALID');
    expect(d.location).toBe('manifest');
    expect(d.message).toContain('typeAttribute ""');
    expect(d.fix).toContain("'Type'");
  });

  test('TYPE_ATTRIBUTE_CLASH: the type attribute is a key attribute', () => {
    const d = theFinding(edited((m) => { m.typeAttribute = 'GSI1PK'; }), 'TYPE_ATTRIBUTE_CLASH');
    expect(d.message).toContain("'GSI1PK' is also a key attribute (of GSI GSI1)");
    expect(d.fix).toContain('typeAttribute');
  });

  test.each(['PK', 'SK', 'GSI2SK', 'LSI4SK'])('ATTRIBUTE_CLASHES_KEY: a data attribute named %s', (name) => {
    const d = theFinding(edited((m) => { m.entities.Customer.attributes[name] = { type: 'STRING' as never }; }), 'ATTRIBUTE_CLASHES_KEY');
    expect(d.location).toBe(`entity Customer, attribute ${name}`);
    expect(d.message).toContain(`'${name}' is a physical key attribute`);
    expect(d.fix).toMatch(/rename/);
  });

  test('a data attribute named like an LSI key is fine when LSIs are off', () => {
    expect(findings(edited((m) => {
      m.localIndexes = { enabled: false };
      delete m.entities.Order.indexes!.LSI1;
      delete m.accessPatterns!.ordersByDate;
      m.entities.Customer.attributes.LSI1SK = { type: 'STRING' as never };
    }))).toEqual([]);
  });

  test('ATTRIBUTE_CLASHES_TYPE: a data attribute named like the type attribute', () => {
    const d = theFinding(edited((m) => { m.entities.Order.attributes.Type = { type: 'STRING' as never }; }), 'ATTRIBUTE_CLASHES_TYPE');
    expect(d.location).toBe('entity Order, attribute Type');
    expect(d.message).toContain("'Type' is the type attribute");
    expect(d.fix).toMatch(/typeAttribute/);
  });

  test('ATTRIBUTE_NAME_INVALID: an attribute with an empty name', () => {
    const d = theFinding(edited((m) => { m.entities.Order.attributes[''] = { type: 'STRING' as never }; }), 'ATTRIBUTE_NAME_INVALID');
    expect(d.location).toBe("entity Order, attribute ''");
    expect(d.message).toBe('the attribute name is empty');
  });

  test('ATTRIBUTE_TYPE_INVALID: an attribute type that is not an AttributeKind', () => {
    const d = theFinding(edited((m) => { m.entities.Order.attributes.amount = { type: 'DECIMAL' as never }; }), 'ATTRIBUTE_TYPE_INVALID');
    expect(d.location).toBe('entity Order, attribute amount');
    expect(d.message).toContain('"DECIMAL"');
    expect(d.fix).toContain('NUMBER');
  });
});

describe('entities and the manifest itself', () => {
  test('TYPE_VALUE_DUPLICATE: two entities with one type value', () => {
    const d = theFinding(edited((m) => { m.entities.Order.typeValue = 'Customer'; }), 'TYPE_VALUE_DUPLICATE');
    expect(d.location).toBe('entity Order');
    expect(d.message).toContain("typeValue 'Customer' is also entity Customer's");
  });

  test('TYPE_VALUE_EMPTY: an empty type value', () => {
    const d = theFinding(edited((m) => { m.entities.Order.typeValue = ''; }), 'TYPE_VALUE_EMPTY');
    expect(d.location).toBe('entity Order');
  });

  test('NO_ENTITIES: a manifest without entities', () => {
    const d = theFinding({ entities: {} }, 'NO_ENTITIES');
    expect(d.fix).toMatch(/add at least one entity/);
  });

  test('MANIFEST_SHAPE: something that is not a manifest', () => {
    const d = theFinding({} as SingleTableManifest, 'MANIFEST_SHAPE');
    expect(d.message).toContain('`entities`');
  });

  test('DELIMITER_INVALID: a delimiter outside the allowed set', () => {
    const d = theFinding(edited((m) => { m.delimiter = '|'; }), 'DELIMITER_INVALID');
    expect(d.message).toContain('"|"');
    expect(d.fix).toContain("'#'");
  });
});

test('a misspelled required property is one finding, naming the property it meant, not also a missing one', () => {
  const all = findings(edited((m) => {
    (m.entities.Order as unknown as Record<string, unknown>).atributes = m.entities.Order.attributes;
    delete (m.entities.Order as { attributes?: unknown }).attributes;
  }));
  expect(all.map((f) => `${f.code} ${f.location}`)).toEqual(['PROPERTY_UNKNOWN entity Order']);
  expect(all[0].fix).toMatch(/^did you mean 'attributes'\? /);
});
