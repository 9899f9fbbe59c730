import { checkProjected, type EntityProjection, topLevelKeys } from '@bo/domain/shared/entity/entity-projection';
import { describe, expect, it } from 'vitest';

/**
 * The output check of a record made by PostgreSQL reads its top-level keys without parsing it
 * whole; it must read exactly the keys JSON.parse would, in order, whatever the values hold.
 */
describe('the output check reads a record’s top-level keys as JSON.parse would, without building it', () => {
  const cases = [
    '{}',
    ' {"a":1}',
    '{"id":"x","name":"a, b: {c} [d]","nested":{"id":1,"deep":{"k":[1,{"z":2}]}},"list":[{"a":1},{"b":"}"}],"last":null}',
    '{"esc\\"aped":"q\\"uote\\\\","b":"back\\\\","c":"\\u007b","d":[],"e":{}}',
    '{"emoji":"😀 ü","ü":true,"n":-1.5e3,"t":false}',
    '{"a":{"b":{"c":{"d":{}}}},"e":[[[]]],"f":"[{"}',
  ];
  it.each(cases)('%s', (text) => {
    expect(topLevelKeys(text)).toEqual(Object.keys(JSON.parse(text) as object));
  });

  it('what is not an object has no keys: an array, a string, a number, null', () => {
    for (const text of ['[{"a":1}]', '"{\\"a\\":1}"', '1', 'null']) expect(topLevelKeys(text)).toBeNull();
  });

  it('a key repeated is read as often as it comes (the check then refuses the record)', () => {
    expect(topLevelKeys('{"a":1,"b":2,"a":3}')).toEqual(['a', 'b', 'a']);
  });

  it('a record whose keys are not its projection’s, or not in its order, is refused; its own keys pass', () => {
    const projection = { keys: ['id', 'name'], entity: { type: 'organization' } } as unknown as EntityProjection;
    expect(() => checkProjected(projection, ['{"id":"o","name":"N"}'], true)).not.toThrow();
    expect(() => checkProjected(projection, ['{"name":"N","id":"o"}'], true)).toThrow(/not its projection/);
    expect(() => checkProjected(projection, ['{"id":"o"}'], true)).toThrow(/not its projection/);
    expect(() => checkProjected(projection, ['{"id":"o","name":"N","x":1}'], true)).toThrow(/not its projection/);
    expect(() => checkProjected(projection, ['[{"id":"o","name":"N"}]'], true)).toThrow(/not its projection/);
    // only the first item of a page, unless every item is asked for
    expect(() => checkProjected(projection, ['{"id":"o","name":"N"}', '{"x":1}'], false)).not.toThrow();
    expect(() => checkProjected(projection, ['{"id":"o","name":"N"}', '{"x":1}'], true)).toThrow(/not its projection/);
  });
});
