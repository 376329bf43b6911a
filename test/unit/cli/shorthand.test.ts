/**
 * Shorthand and list values read as the official CLI reads them. The parse
 * table was produced by cdp 0.9.158's own shorthand parser (cdpcli/shorthand.py)
 * over these inputs; an error entry gives the character where cdp stopped.
 */
import { describe, expect, it } from '@jest/globals';
import { convertFlag, parseShorthand } from '../../../src/lib/cli/input.js';
import { parseShorthandText } from '../../../src/lib/cli/shorthand.js';
import { loadService } from '../../../src/lib/model/index.js';

const CDP_PARSES: ReadonlyArray<readonly [string, unknown]> = [
  ['a=b', { a: 'b' }],
  ['a=b,c', { a: ['b', 'c'] }],
  ['a=b,c=d', { a: 'b', c: 'd' }],
  ['a=b,c,d=e,f', { a: ['b', 'c'], d: ['e', 'f'] }],
  ['instanceIds=i-1,i-2', { instanceIds: ['i-1', 'i-2'] }],
  ['a=', { a: '' }],
  ['a=b,c=', { a: 'b', c: '' }],
  ['a=[b,c],d={e=f,g=[h]}', { a: ['b', 'c'], d: { e: 'f', g: ['h'] } }],
  ["a=\"b,c\",d='e\\'f'", { a: 'b,c', d: "e'f" }],
  ['a=b\\,c', { a: 'b,c' }],
  ['a = b , c = d', { a: 'b', c: 'd' }],
  ['a=b=c', { a: 'b=c' }],
  ['a=x[1],b=y{2}', { error: 5 }],
  ['a=[ b , c ]', { a: ['b', 'c'] }],
  ['a={b=1, c=[x,y]}', { a: { b: '1', c: ['x', 'y'] } }],
  ['name=CUSTOM,coresPerNode=4,memoryLimit=8', { name: 'CUSTOM', coresPerNode: '4', memoryLimit: '8' }],
  ['a=b c', { a: 'b c' }],
  ['a=b,,c', { error: 6 }],
  ['key=team,value=data', { key: 'team', value: 'data' }],
  ['a.b-c_d=1', { 'a.b-c_d': '1' }],
  ['a="x\\\\y"', { a: 'x\\y' }],
  ['a=[]', { a: [] }],
  ['a={}', { a: {} }],
  ['a=[[1,2],[3]]', { a: [['1', '2'], ['3']] }],
  ['a=é,ü', { a: ['é', 'ü'] }],
  ['k=v,', { error: 4 }],
  ['novalue', { error: 7 }],
  ['a=[b', { error: 4 }],
  ['a={b}', { error: 4 }],
  ['=x', { '': 'x' }],
  ['a=b,=c', { a: 'b', '': 'c' }],
];

describe('shorthand syntax', () => {
  it.each(CDP_PARSES)('%s reads as cdp reads it', (text, expected) => {
    const err = (expected as { error?: number }).error;
    if (err === undefined) expect(parseShorthandText(text, '--x')).toEqual(expected);
    else expect(() => parseShorthandText(text, '--x')).toThrow(new RegExp(`at character ${err + 1},`));
  });

  it('types values by the structure: numbers, booleans, one value where a list belongs', async () => {
    const iam = await loadService('iam');
    const policy = { kind: 'ref', ref: 'PasswordPolicy' } as const;
    expect(parseShorthand('minPasswordLength=12,mustIncludeNumbers=TRUE', iam.shapes, policy, '--x')).toEqual({
      minPasswordLength: 12,
      mustIncludeNumbers: true,
    });
    // Anything but true/false stays text (and validation names it), as in cdp.
    expect(parseShorthand('mustIncludeNumbers=yes', iam.shapes, policy, '--x')).toEqual({ mustIncludeNumbers: 'yes' });
    expect(() => parseShorthand('minPasswordLength=twelve', iam.shapes, policy, '--x')).toThrow(/must be an integer/);
    expect(() => parseShorthand('novalue', iam.shapes, policy, '--x')).toThrow(/expected '='/);
    const datalake = await loadService('datalake');
    const repair = datalake.operation('repairDatalake');
    const instances = datalake.requestShape(repair).byName.get('instances');
    if (!instances) throw new Error('no instances field');
    expect(convertFlag(['instanceIds=i-1,i-2'], instances, datalake.shapes, 'instances')).toEqual({ instanceIds: ['i-1', 'i-2'] });
    expect(convertFlag(['instanceIds=i-1'], instances, datalake.shapes, 'instances')).toEqual({ instanceIds: ['i-1'] });
  });
});

describe('list values', () => {
  it('are separate words; a comma is part of a value; one [ starts JSON', async () => {
    const iam = await loadService('iam');
    const groups = iam.requestShape(iam.operation('createUser')).byName.get('groups');
    if (!groups) throw new Error('no groups field');
    expect(convertFlag(['ops', 'dev'], groups, iam.shapes, 'groups')).toEqual(['ops', 'dev']);
    expect(convertFlag(['ops,dev'], groups, iam.shapes, 'groups')).toEqual(['ops,dev']);
    expect(convertFlag(['["a","b"]'], groups, iam.shapes, 'groups')).toEqual(['a', 'b']);
    // JSON only as the one value, as in cdp.
    expect(convertFlag(['["a","b"]', 'c'], groups, iam.shapes, 'groups')).toEqual(['["a","b"]', 'c']);
  });

  it('of structures take one JSON object or shorthand structure per word', async () => {
    const env = await loadService('environments');
    const op = env.operation('createAWSEnvironment');
    const tags = env.requestShape(op).byName.get('tags');
    if (!tags) throw new Error('no tags field');
    expect(convertFlag(['key=a,value=b', 'key=c,value=d'], tags, env.shapes, 'tags')).toEqual([
      { key: 'a', value: 'b' },
      { key: 'c', value: 'd' },
    ]);
    expect(convertFlag(['{"key":"a","value":"b"}', '{"key":"c","value":"d"}'], tags, env.shapes, 'tags')).toEqual([
      { key: 'a', value: 'b' },
      { key: 'c', value: 'd' },
    ]);
    expect(() => convertFlag(['{"key":"a"}', 'key=c'], tags, env.shapes, 'tags')).toThrow(/JSON/);
  });
});
