import { nearest, suggest } from '../../../src/lib/core/validate.js';

describe('nearest: what a mistyped name most likely meant', () => {
  const iam = [
    'iam create-user-access-key',
    'iam create-machine-user-access-key',
    'iam update-access-key',
    'iam get-access-key',
    'iam list-users',
    'iam list-groups-for-user',
  ];

  test('a typo first, then the longer names with every typed word, then what difflib calls close', () => {
    expect(nearest('iam list-user', iam, 3)).toEqual(['iam list-users', 'iam list-groups-for-user']);
    expect(nearest('iam create-access-key', iam, 3)).toEqual([
      'iam create-user-access-key',
      'iam create-machine-user-access-key',
      'iam get-access-key',
    ]);
  });

  test('a command path is compared after the topic both share', () => {
    const lake = ['datalake describe-datalake', 'datalake resize-datalake', 'datalake restore-datalake'];
    expect(nearest('datalake describe-datalakes', lake, 3)).toEqual(['datalake describe-datalake']);
  });

  test('nothing near: nothing offered; what was typed is never offered back', () => {
    expect(nearest('zzz', ['json', 'yaml'], 3)).toEqual([]);
    expect(nearest('json', ['json', 'jsonl'], 3)).toEqual(['jsonl']);
  });

  test('the message names one, or several closest first', () => {
    expect(suggest('groupNam', ['groupName', 'description'])).toBe(' (did you mean "groupName"?)');
    expect(suggest('iam create-access-key', iam, 2)).toBe(
      ' (did you mean "iam create-user-access-key" or "iam create-machine-user-access-key"?)',
    );
    expect(suggest('x', [])).toBe('');
  });
});
