// Projection rules: INCLUDE lists name declared data attributes, and all INCLUDE lists together stay
// within DynamoDB's 100 projected attributes per table.
import { edited, findings, theFinding, withOrderAttributes } from './manifest-fixture';
import { ProjectionKind } from '../../lib/manifest/structs';

describe('TOO_MANY_PROJECTED_ATTRIBUTES', () => {
  // GSI2 of the fixture projects orderId and status; the type attribute counts in every INCLUDE index.
  const twoIncludeIndexes = (extra: number) => edited((m) => {
    const names = withOrderAttributes(m, extra);
    m.globalIndexes!.GSI2.include = names;
    m.globalIndexes!.GSI3 = { projection: ProjectionKind.INCLUDE, include: names };
  });

  test('an attribute projected into two indexes counts twice', () => {
    expect(findings(twoIncludeIndexes(49))).toEqual([]); // (49 + Type) x 2 = 100
    const d = theFinding(twoIncludeIndexes(50), 'TOO_MANY_PROJECTED_ATTRIBUTES'); // (50 + Type) x 2 = 102
    expect(d.location).toBe('manifest');
    expect(d.message).toContain('102 attributes');
    expect(d.message).toContain('GSI2: 51, GSI3: 51');
    expect(d.fix).toMatch(/project fewer attributes/);
  });
});

test('INCLUDE_ATTRIBUTE_UNDECLARED: INCLUDE naming an attribute no entity declares', () => {
  const d = theFinding(edited((m) => { m.globalIndexes!.GSI2.include!.push('totl'); }), 'INCLUDE_ATTRIBUTE_UNDECLARED');
  expect(d.location).toBe('index GSI2');
  expect(d.message).toContain("'totl'");
  expect(d.fix).toMatch(/declare the attribute/);
});

test('INCLUDE_WITHOUT_INCLUDE_PROJECTION: an include list on an ALL index', () => {
  const d = theFinding(edited((m) => { m.globalIndexes!.GSI1.include = ['status']; }), 'INCLUDE_WITHOUT_INCLUDE_PROJECTION');
  expect(d.location).toBe('index GSI1');
  expect(d.message).toContain('projection is ALL');
  expect(d.fix).toContain('ProjectionKind.INCLUDE');
});

test('INCLUDE_KEY_ATTRIBUTE: INCLUDE naming a key attribute', () => {
  const d = theFinding(edited((m) => {
    m.globalIndexes!.GSI2.include!.push('GSI1PK');
    m.entities.Order.attributes.GSI1PK = { type: 'STRING' as never };
  }), 'INCLUDE_KEY_ATTRIBUTE');
  expect(d.location).toBe('index GSI2');
  expect(d.message).toContain("'GSI1PK'");
});

test('INCLUDE_TYPE_ATTRIBUTE: INCLUDE naming the type attribute', () => {
  const d = theFinding(edited((m) => { m.globalIndexes!.GSI2.include!.push('Type'); }), 'INCLUDE_TYPE_ATTRIBUTE');
  expect(d.location).toBe('index GSI2');
  expect(d.message).toContain("'Type'");
  expect(d.fix).toMatch(/remove it/);
});
