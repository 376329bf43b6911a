/**
 * The console's sign-in pages as plain HTML: one layout, labelled form
 * controls in fieldsets, everything reachable by keyboard, no script and no
 * external assets (the styles are inline, the icon is empty).
 */
import type { ActorView } from '../world/contracts.js';

/**
 * A user a sign-in page offers: what it shows of one (a user of iam, as the
 * world's `identities` tells it: its id is `id`; iam's own record names it
 * `userId`).
 */
export type SignInUser = Pick<ActorView, 'crn' | 'workloadUsername'> &
  Partial<Pick<ActorView, 'id' | 'email' | 'firstName' | 'lastName' | 'accountAdmin'>> & { readonly userId?: string };

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Text with `{{code}}` parts set in <code>; everything escaped. */
export function prose(text: string): string {
  return escapeHtml(text).replace(/\{\{(.*?)\}\}/g, '<code>$1</code>');
}

const STYLE = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#4f5863;--line:#c9d0d8;--accent:#0a58a8;--accent-ink:#fff;--bad:#a4161a;--bg:#f4f6f8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{background:#16202b;color:#fff;padding:.75rem 1.25rem}
header p{margin:0;font-weight:600;letter-spacing:.01em}
header span{font-weight:400;opacity:.85}
main{max-width:36rem;margin:2rem auto;padding:1.5rem 1.75rem;background:#fff;border:1px solid var(--line);border-radius:8px}
h1{font-size:1.45rem;margin:0 0 .75rem}
p{margin:.5rem 0 1rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em;background:#eef1f4;padding:.05em .3em;border-radius:3px;white-space:nowrap}
@media (max-width:32rem){code{white-space:normal;overflow-wrap:anywhere}}
fieldset{border:0;margin:0 0 1rem;padding:0}
legend{font-weight:600;margin-bottom:.5rem;padding:0}
.choice{display:flex;align-items:flex-start;gap:.6rem;border:1px solid var(--line);border-radius:6px;padding:.6rem .75rem;margin-bottom:.5rem}
.choice:has(input:checked){border-color:var(--accent);background:#f0f6fd}
.choice input{margin-top:.3rem;width:1.1rem;height:1.1rem;flex:none}
.choice label{flex:1;cursor:pointer}
.who{display:block;font-weight:600}
.email{display:block;color:var(--muted);font-size:.95em;overflow-wrap:anywhere}
.tag{display:inline-block;margin-left:.4rem;padding:0 .4rem;border:1px solid var(--accent);border-radius:999px;color:var(--accent);font-size:.8em;font-weight:500;vertical-align:.1em}
label.field{display:block;font-weight:600;margin-bottom:.3rem}
input[type=text]{font:inherit;width:100%;padding:.5rem .6rem;border:1px solid #7b8590;border-radius:6px}
input.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1.3rem;letter-spacing:.12em;text-transform:uppercase;max-width:14rem}
.hint{color:var(--muted);font-size:.95em;margin-top:.3rem}
.error{color:var(--bad);font-weight:600}
input[aria-invalid=true]{border-color:var(--bad)}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;padding:.55rem 1.2rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer}
button.secondary{background:#fff;color:var(--accent)}
:focus-visible{outline:3px solid #f0a400;outline-offset:2px}
footer{max-width:36rem;margin:0 auto 2rem;padding:0 1.75rem;color:var(--muted);font-size:.85em}
`;

export interface SiteInfo {
  readonly baseUrl: string;
  readonly accountId: string;
}

export function layout(site: SiteInfo, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · CDP emulator</title>
<style>${STYLE}</style>
</head>
<body>
<header><p>CDP emulator <span>· console sign-in</span></p></header>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
<footer><p>The local emulator at ${escapeHtml(site.baseUrl)}, account ${escapeHtml(site.accountId)}. This is not the real console.</p></footer>
</body>
</html>
`;
}

const displayName = (u: SignInUser): string =>
  [u.firstName, u.lastName].filter(Boolean).join(' ') || u.workloadUsername || (u.id ?? u.userId ?? '');

/** The radio list of users; the first is chosen, so Enter signs in at once. */
function userChoices(users: readonly SignInUser[], total: number): string {
  if (users.length === 0) return '<p class="error" role="alert">No active user of this account can sign in here.</p>';
  const items = users.map(
    (
      u,
      i,
    ) => `<div class="choice"><input type="radio" id="user-${i}" name="user" value="${escapeHtml(u.crn)}"${i === 0 ? ' checked autofocus' : ''}>
<label for="user-${i}"><span class="who">${escapeHtml(displayName(u))}${u.accountAdmin ? '<span class="tag">account admin</span>' : ''}</span><span class="email">${escapeHtml(u.email ?? '')}</span></label></div>`,
  );
  const more =
    total > users.length
      ? `<p><label class="field" for="other-user">Or another user (${total - users.length} more)</label>
<input type="text" id="other-user" name="otherUser" autocomplete="off" spellcheck="false" aria-describedby="other-hint">
<span id="other-hint" class="hint">An email address, user ID or CRN; it wins over the choice above.</span></p>`
      : '';
  return `<fieldset>\n<legend>Sign in as</legend>\n${items.join('\n')}\n</fieldset>\n${more}`;
}

/** A page whose form chooses the user to sign in as: accept signs in, the other button (when there is one) refuses. */
export function chooseUserPage(
  site: SiteInfo,
  title: string,
  intro: string,
  f: {
    action: string;
    hidden: readonly [string, string];
    users: readonly SignInUser[];
    total: number;
    accept: string;
    refuse?: readonly [string, string];
  },
): string {
  return layout(
    site,
    title,
    `<p>${intro}</p>
<form method="post" action="${f.action}">
<input type="hidden" name="${f.hidden[0]}" value="${escapeHtml(f.hidden[1])}">
${userChoices(f.users, f.total)}
<div class="actions">
${f.total > 0 ? `<button type="submit" name="action" value="${f.accept}">Sign in</button>` : ''}
${f.refuse ? `<button type="submit" name="action" value="${f.refuse[0]}" class="secondary">${f.refuse[1]}</button>` : ''}
</div>
</form>`,
  );
}

export function loginPage(
  site: SiteInfo,
  p: { requestId: string; returnHost: string; idp?: string; users: readonly SignInUser[]; total: number },
): string {
  const intro = prose(
    `A command line on this computer asked to sign in to account {{${site.accountId}}}${p.idp ? ` through the identity provider {{${p.idp}}}` : ''}. The user you choose gets a new access key, which the console sends to {{${p.returnHost}}}.`,
  );
  return chooseUserPage(site, 'Sign in to the command line', intro, {
    ...p,
    action: '/consoleauth/login',
    hidden: ['request', p.requestId],
    accept: 'signin',
    refuse: ['cancel', 'Cancel'],
  });
}

export function deviceCodePage(site: SiteInfo, p: { error?: string; typed?: string } = {}): string {
  const described = p.error ? 'code-error code-hint' : 'code-hint';
  return layout(
    site,
    'Sign in a device',
    `<p>Enter the code your terminal shows, to sign in the command line that asked for it.</p>
<form method="post" action="/consoleauth/device">
${p.error ? `<p id="code-error" class="error" role="alert">${prose(p.error)}</p>` : ''}
<label class="field" for="user-code">Code</label>
<input type="text" class="code" id="user-code" name="userCode" value="${escapeHtml(p.typed ?? '')}" required autofocus autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="16" aria-describedby="${described}"${p.error ? ' aria-invalid="true"' : ''}>
<p id="code-hint" class="hint">Eight letters, such as BCDF-GHJK; the dash is optional.</p>
<div class="actions"><button type="submit">Continue</button></div>
</form>`,
  );
}

export function deviceUserPage(site: SiteInfo, p: { userCode: string; idp?: string; users: readonly SignInUser[]; total: number }): string {
  const intro = prose(
    `The code {{${p.userCode}}} asks to sign in a command line to account {{${site.accountId}}}${p.idp ? ` through the identity provider {{${p.idp}}}` : ''}. Choose the user; the command line gets a new access key for them. Deny if you did not start this.`,
  );
  return chooseUserPage(site, 'Confirm the device sign-in', intro, {
    ...p,
    action: '/consoleauth/device/approve',
    hidden: ['userCode', p.userCode],
    accept: 'approve',
    refuse: ['deny', 'Deny'],
  });
}

export function deviceDonePage(site: SiteInfo, p: { approved: boolean; who?: string }): string {
  return p.approved
    ? layout(
        site,
        'Device signed in',
        `<p>${prose(`The command line is signed in as {{${p.who ?? ''}}}. Return to your terminal; you can close this window.`)}</p>`,
      )
    : layout(site, 'Sign-in denied', '<p>The command line was not signed in, and no access key was made. You can close this window.</p>');
}

export function errorPage(site: SiteInfo, title: string, message: string, next?: { href: string; text: string }): string {
  return layout(
    site,
    title,
    `<p role="alert">${prose(message)}</p>${next ? `\n<p><a href="${escapeHtml(next.href)}">${escapeHtml(next.text)}</a></p>` : ''}`,
  );
}
