/**
 * The console's sign-in pages (console/pages.ts), beyond flows.test's
 * escaping of the login page: one layout with no script or external asset,
 * prose whose {{parts}} are code, the user list (the first chosen, another
 * user by text when there are more, none at all said so and no sign-in
 * button), the device code page with its error announced and tied to the
 * field, the device approval with its deny button, and the end pages.
 */
import { describe, expect, test } from '@jest/globals';
import {
  chooseUserPage,
  deviceCodePage,
  deviceDonePage,
  deviceUserPage,
  escapeHtml,
  layout,
  prose,
} from '../../../../src/lib/emulator/console/pages.js';
import type { UserRecord } from '../../../../src/lib/emulator/services/iam/records.js';

const site = { baseUrl: 'http://localhost:4242', accountId: 'acct-1' };
const user = (n: number, more: Partial<UserRecord> = {}): UserRecord =>
  ({
    userId: `u${n}`,
    crn: `crn:altus:iam:us-west-1:acct-1:user:u${n}`,
    email: `u${n}@example.com`,
    firstName: `First${n}`,
    lastName: `Last${n}`,
    status: 'ACTIVE',
    ...more,
  }) as UserRecord;

describe('text', () => {
  test('escapeHtml escapes the five characters markup needs', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  test('prose sets {{parts}} in <code>, after escaping everything', () => {
    expect(prose('run {{cdpctl login}} as <you>')).toBe('run <code>cdpctl login</code> as &lt;you&gt;');
    expect(prose('{{<b>}}')).toBe('<code>&lt;b&gt;</code>');
  });
});

describe('the layout', () => {
  test('one page in English with its title, the emulator and account named, no script and nothing from elsewhere', () => {
    const html = layout(site, 'A <title>', '<p>body</p>');
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toContain('<title>A &lt;title&gt; · CDP emulator</title>');
    expect(html).toContain('<h1>A &lt;title&gt;</h1>');
    expect(html).toContain('The local emulator at http://localhost:4242, account acct-1. This is not the real console.');
    expect(html).not.toMatch(/<script|src=|https?:\/\/(?!localhost)/);
  });
});

describe('choosing a user', () => {
  const page = (users: UserRecord[], total: number, refuse?: readonly [string, string]) =>
    chooseUserPage(site, 'Sign in', 'intro', { action: '/x', hidden: ['request', 'r1'], users, total, accept: 'signin', refuse });

  test('each user is a labelled radio, the first chosen, admins tagged; accept and refuse are buttons', () => {
    const html = page([user(1, { accountAdmin: true }), user(2)], 2, ['cancel', 'Cancel']);
    expect(html.match(/<input type="radio"/g)).toHaveLength(2);
    expect(html).toContain('id="user-0" name="user" value="crn:altus:iam:us-west-1:acct-1:user:u1" checked autofocus');
    expect(html).not.toContain('id="user-1" name="user" value="crn:altus:iam:us-west-1:acct-1:user:u2" checked');
    expect(html).toContain('<span class="who">First1 Last1<span class="tag">account admin</span></span>');
    expect(html).toContain('<button type="submit" name="action" value="signin">Sign in</button>');
    expect(html).toContain('<button type="submit" name="action" value="cancel" class="secondary">Cancel</button>');
    expect(html).not.toContain('other-user');
  });

  test('with more users than listed, another is named by text; a user without names shows its workload name or id', () => {
    const html = page([user(1, { firstName: '', lastName: '', workloadUsername: 'wl1' }), user(2, { firstName: '', lastName: '' })], 5);
    expect(html).toContain('<label class="field" for="other-user">Or another user (3 more)</label>');
    expect(html).toContain('<span class="who">wl1</span>');
    expect(html).toContain('<span class="who">u2</span>');
  });

  test('no user at all is said so, and there is no sign-in button', () => {
    const html = page([], 0);
    expect(html).toContain('No active user of this account can sign in here.');
    expect(html).not.toContain('value="signin"');
  });
});

describe('device sign-in pages', () => {
  test('the code page: a labelled field; an error is announced and tied to the field, with what was typed kept', () => {
    const plain = deviceCodePage(site);
    expect(plain).toContain('<label class="field" for="user-code">Code</label>');
    expect(plain).toContain('aria-describedby="code-hint"');
    expect(plain).not.toContain('aria-invalid="true"');
    const wrong = deviceCodePage(site, { error: 'The code {{ABCD-EFGH}} is not known.', typed: '"><b>' });
    expect(wrong).toContain('<p id="code-error" class="error" role="alert">The code <code>ABCD-EFGH</code> is not known.</p>');
    expect(wrong).toContain('aria-describedby="code-error code-hint" aria-invalid="true"');
    expect(wrong).toContain('value="&quot;&gt;&lt;b&gt;"');
  });

  test('the approval page names the code and account, and can be denied', () => {
    const html = deviceUserPage(site, { userCode: 'BCDF-GHJK', idp: 'corp-sso', users: [user(1)], total: 1 });
    expect(html).toContain('<code>BCDF-GHJK</code>');
    expect(html).toContain('through the identity provider <code>corp-sso</code>');
    expect(html).toContain('<input type="hidden" name="userCode" value="BCDF-GHJK">');
    expect(html).toContain('value="deny" class="secondary">Deny</button>');
  });

  test('the end page says who was signed in, or that nothing was made', () => {
    expect(deviceDonePage(site, { approved: true, who: 'u1@example.com' })).toContain('signed in as <code>u1@example.com</code>');
    const denied = deviceDonePage(site, { approved: false });
    expect(denied).toContain('<title>Sign-in denied · CDP emulator</title>');
    expect(denied).toContain('no access key was made');
  });
});
