// Projection rules: INCLUDE lists name declared data attributes, and all INCLUDE lists together stay
// within DynamoDB's 100 projected attributes per table.
import { ProjectionKind } from '../../lib/model/manifest';
import { edited, findings, theFinding, withOrderAttributes } from '../fixtures/valid-manifest';

describe('TOO_MANY_PROJECTED_ATTRIBUTES', () => {
  // The type attribute counts in every INCLUDE index: 19 listed + Type = 20, the most one index takes.
  const includeIndexes = (count: number, lastListed: number) => edited((m) => {
    const names = withOrderAttributes(m, 19);
    m.globalIndexes!.GSI2.include = names;
    for (let i = 3; i <= count; i++) m.globalIndexes![`GSI${i}`] = { projection: ProjectionKind.INCLUDE, include: names.slice(0, i === count ? lastListed : 19) };
  });

  test('an attribute projected into several indexes counts in each', () => {
    expect(findings(includeIndexes(6, 19))).toEqual([]); // 5 x (19 + Type) = 100
    const d = theFinding(includeIndexes(7, 1), 'TOO_MANY_PROJECTED_ATTRIBUTES'); // 100 + (1 + Type) = 102
    expect(d.location).toBe('manifest');
    expect(d.message).toContain('102 attributes');
    expect(d.message).toContain('GSI2: 20, GSI3: 20, GSI4: 20, GSI5: 20, GSI6: 20, GSI7: 2');
    expect(d.fix).toMatch(/project fewer attributes/);
  });
});

describe('INCLUDE_TOO_MANY_ATTRIBUTES', () => {
  const listing = (count: number) => edited((m) => { m.globalIndexes!.GSI2.include = withOrderAttributes(m, count); });

  test('an index projects at most 20 non-key attributes, the type attribute counted', () => {
    expect(findings(listing(19))).toEqual([]);
    const d = theFinding(listing(20), 'INCLUDE_TOO_MANY_ATTRIBUTES');
    expect(d.location).toBe('index GSI2');
    expect(d.message).toBe("INCLUDE projects 21 non-key attributes (20 listed in `include` plus the type attribute 'Type'); DynamoDB allows 20 per index");
    expect(d.fix).toContain('at most 19 attributes');
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
