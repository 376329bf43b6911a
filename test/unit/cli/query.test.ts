/** JMESPath literals as the Python library takes them. */
import { describe, expect, it } from '@jest/globals';
import { lenientLiterals } from '../../../src/lib/cli/query.js';

describe('JMESPath literals as the Python library takes them', () => {
  it('turns backtick text that is not JSON into a string literal, and leaves JSON and quoted text alone', () => {
    expect(lenientLiterals('users[?email==`a@example.com`]')).toBe('users[?email==`"a@example.com"`]');
    expect(lenientLiterals('a[?x==` spaced`]')).toBe('a[?x==`"spaced"`]');
    expect(lenientLiterals('a[?x==`1`] | b[?y==`"s"`] | `[1, 2]`')).toBe('a[?x==`1`] | b[?y==`"s"`] | `[1, 2]`');
    expect(lenientLiterals("a[?x=='`not`']")).toBe("a[?x=='`not`']");
    expect(lenientLiterals('"`quoted`".x')).toBe('"`quoted`".x');
  });
});
