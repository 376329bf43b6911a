/**
 * Our INI reader and writer against Python's configparser (what the
 * official CLI reads its files with). The expected readings below were
 * taken from python3's configparser.RawConfigParser on these same texts
 * (`read_string`, then `dict(items(section))`); CI cannot run Python, so
 * they are pinned here.
 */
import { describe, expect, test } from '@jest/globals';
import { IniDocument, IniError, parseIni } from '../../../src/lib/core/ini.js';

/** Text -> what configparser.RawConfigParser reads from it (python3, pinned). */
const READINGS: Array<[string, string, Record<string, Record<string, string>>]> = [
  [
    '; and # inside a value are kept',
    '[default]\nkey = a;b # not a comment\nother = x ; y\n',
    { default: { key: 'a;b # not a comment', other: 'x ; y' } },
  ],
  ['comment lines start with # or ;', '[default]\n# comment\n; comment\nk = v\n', { default: { k: 'v' } }],
  [
    'an indented line continues the value; ":" also separates',
    '[default]\nk = first\n  second\nj: colon\n',
    { default: { k: 'first\nsecond', j: 'colon' } },
  ],
  ['[DEFAULT] values show in every section', '[DEFAULT]\nregion = eu-1\n[p]\nk = v\n', { p: { region: 'eu-1', k: 'v' } }],
  ['keys are lower-cased', '[default]\nCDP_Region = us-west-1\n', { default: { cdp_region: 'us-west-1' } }],
  ['the first = or : separates', '[default]\nk = a=b:c\n', { default: { k: 'a=b:c' } }],
  ['an empty value', '[default]\nk =\n', { default: { k: '' } }],
  ["Python's whitespace around keys and values", '[default]\n\x1ck\u3000=\xa0v\x85\n', { default: { k: 'v' } }],
  ['a line indented by a no-break space continues the value', '[default]\nk = a\n\xa0b\n', { default: { k: 'a\nb' } }],
];

/** Texts configparser refuses (MissingSectionHeaderError, DuplicateOptionError, DuplicateSectionError). */
const REFUSED = ['k = v\n', '[a]\nk=1\nk=2\n', '[a]\n[a]\n'];

describe('reading as configparser reads', () => {
  test.each(READINGS)('%s', (_, text, expected) => {
    expect(parseIni(text)).toEqual(expected);
  });

  test.each(REFUSED)('refuses %j as configparser does', (text) => {
    expect(() => parseIni(text)).toThrow(IniError);
  });
});

describe('writing so that configparser reads it back', () => {
  test.each(['a;b', 'x ; y', 'a # b', '#start', ';start', 'p=q:r', 'multi\nline'])('the value %j round-trips', (value) => {
    const doc = IniDocument.parse('[default]\nk = old\n');
    doc.set('default', 'k', value);
    expect(parseIni(doc.toString()).default?.k).toBe(value);
  });

  test('an edit keeps comments, order and other keys', () => {
    const text = '# mine\n[default]\ncdp_region = us-west-1 ; the region\n\n[other]\nk = v\n';
    const doc = IniDocument.parse(text);
    doc.set('default', 'output', 'table');
    doc.set('other', 'k', 'w');
    expect(doc.toString()).toBe('# mine\n[default]\ncdp_region = us-west-1 ; the region\noutput = table\n\n[other]\nk = w\n');
    expect(doc.unset('default', 'output')).toBe(true);
    expect(doc.unset('default', 'output')).toBe(false);
    expect(parseIni(doc.toString()).default).toEqual({ cdp_region: 'us-west-1 ; the region' });
  });

  test('a value that could not read back the same is refused, not written', () => {
    const doc = IniDocument.parse('[default]\n');
    expect(() => doc.set('default', 'k', ' leading space')).toThrow(IniError);
    expect(doc.toString()).toBe('[default]\n');
  });
});
