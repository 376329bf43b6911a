/**
 * The console page as HTML. The server renders every part (the clock, the
 * environments with what runs in them, the request log), escaping every
 * value; the page's small script only asks for parts again and puts them in
 * place, sends the clock and fault changes, and shows a record's JSON as
 * text. So there is one renderer, and it is here.
 */
import type { LogEntry } from '../request-log.js';
import type { ConsoleBoard } from './board.js';
import { chooseUserPage, escapeHtml, layout, type SignInUser, type SiteInfo } from './pages.js';

/** What the page shows: the account as the board reads it, and who is signed in with the token the page sends back. */
export type BoardState = ReturnType<ConsoleBoard['state']> & { readonly user: string; readonly token: string };
type BoardEnvironment = BoardState['environments'][number];

const e = escapeHtml;

/** How a status reads at a glance: failed, at work, up, or resting. */
export function tone(status: string): 'bad' | 'busy' | 'ok' | 'idle' {
  const s = status.toUpperCase().replace(/[^A-Z]/g, '');
  if (/FAIL|ERROR|BAD|BROKEN|CORRUPT/.test(s)) return 'bad';
  if (/PROGRESS|ING$|REQUESTED|STARTED|INITIATED|PENDING|ACCEPTED|NEW$/.test(s)) return 'busy';
  if (/AVAILABLE|RUNNING|HEALTHY|GOODHEALTH|ACTIVE|READY|SUCCE|FINISHED|COMPLETED|ENABLED/.test(s)) return 'ok';
  return 'idle';
}

const badge = (status: string): string => `<span class="badge ${tone(status)}">${e(status || '—')}</span>`;

/** The emulated time and what the clock does. */
export function clockPart(c: BoardState['clock']): string {
  const t = c.now.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  const how = c.paused ? 'paused' : c.timeScale === 1 ? 'running in real time' : `running ${e(String(c.timeScale))}× real time`;
  return `<p class="now" data-paused="${c.paused}"><time datetime="${e(c.now)}">${e(t)}</time> <span class="how">${how}</span></p>`;
}

/** Every environment, with what every service runs in it. */
export function resourcesPart(envs: readonly BoardEnvironment[]): string {
  if (envs.length === 0)
    return '<p class="empty">This account has no environments yet (an emulator started with <code>--empty</code> makes none).</p>';
  return envs
    .map((env) => {
      const rows = env.resources.map(
        (r) =>
          `<tr><td>${e(r.service)}</td><td>${e(r.noun)}</td><td><button type="button" class="link" data-ref="${e(r.ref)}">${e(r.name)}</button></td><td>${badge(r.status)}</td></tr>`,
      );
      return `<article class="env">
<h3><button type="button" class="link" data-ref="${e(env.ref)}">${e(env.name)}</button> ${badge(env.status)}</h3>
<p class="meta">${e(env.cloudPlatform)} · ${e(env.region)}</p>
${
  rows.length > 0
    ? `<table><thead><tr><th scope="col">service</th><th scope="col">kind</th><th scope="col">name</th><th scope="col">status</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '<p class="empty">Nothing runs here yet.</p>'
}
</article>`;
    })
    .join('\n');
}

/** An actor CRN as the log shows it: `user:8a2814bb…`, `machineUser:etl/…` (the whole CRN is its title). */
function actorOf(crn: string): string {
  if (crn === '-') return '-';
  const tail = crn.split(':').slice(5).join(':') || crn;
  const [kind, id = ''] = tail.split(/:(.*)/s);
  return kind && id ? `${kind}:${id.length > 13 ? `${id.slice(0, 12)}…` : id}` : tail;
}

/** The request log's rows, newest first. */
export function logPart(entries: readonly LogEntry[]): string {
  if (entries.length === 0) return '<p class="empty">No request matches.</p>';
  const rows = entries.map((r) => {
    const status = r.status === 0 ? 'dropped' : String(r.status);
    const cls = r.status === 0 || r.status >= 500 ? 'bad' : r.status >= 400 ? 'busy' : 'ok';
    return `<tr><td class="num"><time datetime="${e(r.time)}">${e(r.time.slice(11, 23))}</time></td><td>${e(r.service)}</td><td>${e(r.operation)}</td><td><span class="badge ${cls}">${e(status)}</span>${r.code ? ` <span class="code">${e(r.code)}</span>` : ''}</td><td title="${e(r.caller)}">${e(actorOf(r.caller))}</td><td class="num">${e(r.durationMs.toFixed(1))} ms</td></tr>`;
  });
  return `<table><thead><tr><th scope="col">time (UTC)</th><th scope="col">service</th><th scope="col">operation</th><th scope="col">status</th><th scope="col">actor</th><th scope="col" class="num">took</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const STYLE = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#55606b;--line:#d3d9df;--accent:#0a58a8;--bg:#f4f6f8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.bar{display:flex;justify-content:space-between;align-items:center;gap:1rem;background:#16202b;color:#fff;padding:.6rem 1.25rem}
.bar p{margin:0;font-weight:600}.bar span{font-weight:400;opacity:.85}
.bar .who{font-size:.9em;opacity:.9}
.bar button{font:inherit;font-size:.85em;background:transparent;color:#fff;border:1px solid #ffffff80;border-radius:5px;padding:.2rem .6rem;cursor:pointer}
.wrap{max-width:78rem;margin:1.25rem auto;padding:0 1.25rem;display:grid;grid-template-columns:minmax(0,1fr) 24rem;gap:1.25rem}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin-bottom:1.25rem}
h2{font-size:1.05rem;margin:0 0 .75rem}h3{font-size:1rem;margin:0;display:flex;align-items:center;gap:.5rem}
.env{border-top:1px solid var(--line);padding:.75rem 0}.env:first-of-type{border-top:0;padding-top:0}
.meta{color:var(--muted);margin:.15rem 0 .5rem;font-size:.9em}
table{width:100%;border-collapse:collapse;font-size:.92em}
th{text-align:left;font-weight:600;color:var(--muted);border-bottom:1px solid var(--line);padding:.3rem .4rem}
td{border-bottom:1px solid #eef1f4;padding:.3rem .4rem;vertical-align:top;overflow-wrap:anywhere}
.num{text-align:right;white-space:nowrap}
.badge{display:inline-block;border-radius:999px;padding:0 .5rem;font-size:.82em;font-weight:600;white-space:nowrap}
.badge.ok{background:#e3f4e8;color:#17602c}.badge.busy{background:#fff1d6;color:#7a4b00}.badge.bad{background:#fde4e4;color:#9b1c1c}.badge.idle{background:#eceff2;color:#46505a}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;color:var(--muted)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.empty{color:var(--muted);margin:.25rem 0}
.now{font-size:1.15rem;margin:0 0 .75rem}.now time{font-variant-numeric:tabular-nums;font-weight:600}.how{display:block;color:var(--muted);font-size:.85em}
.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.4rem 0}
button.act,select,input{font:inherit;font-size:.92em;padding:.3rem .6rem;border:1px solid #7b8590;border-radius:5px;background:#fff}
button.act{border-color:var(--accent);color:var(--accent);font-weight:600;cursor:pointer}button.act.primary{background:var(--accent);color:#fff}
button.link{font:inherit;background:none;border:0;padding:0;color:var(--accent);cursor:pointer;text-align:left;text-decoration:underline;text-underline-offset:2px}
label{font-size:.9em;color:var(--muted)}
input[type=number]{width:6rem}input[type=text]{width:9rem}
.filters{display:flex;flex-wrap:wrap;gap:.5rem;margin-bottom:.6rem}
.note{color:var(--muted);font-size:.85em;margin:.4rem 0 0}
.msg{min-height:1.2em;font-size:.85em;color:#9b1c1c;margin:.3rem 0 0}
dialog{border:1px solid var(--line);border-radius:8px;max-width:min(60rem,92vw);width:60rem;padding:0}
dialog header{display:flex;justify-content:space-between;align-items:center;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
dialog h2{margin:0;font-size:1rem;overflow-wrap:anywhere}
dialog pre{margin:0;padding:1rem;max-height:70vh;overflow:auto;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
:focus-visible{outline:3px solid #f0a400;outline-offset:2px}
@media (max-width:60rem){.wrap{grid-template-columns:1fr}}
`;

/** The whole console page, every part rendered now; app.js keeps it live. */
export function boardPage(site: SiteInfo, s: BoardState, log: readonly LogEntry[], services: readonly string[]): string {
  const f = s.faults;
  const kinds = (['503', '429', 'reset'] as const)
    .map((k) => `<label><input type="checkbox" name="kind" value="${k}"${f.kinds.includes(k) ? ' checked' : ''}> ${k}</label>`)
    .join(' ');
  const serviceOptions = [
    '<option value="">every service</option>',
    ...services.map((x) => `<option value="${e(x)}">${e(x)}</option>`),
  ].join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="console-token" content="${e(s.token)}">
<link rel="icon" href="data:,">
<title>Console · CDP emulator</title>
<style>${STYLE}</style>
<script src="/console/app.js" defer></script>
</head>
<body>
<header class="bar"><p>CDP emulator <span>· console · account ${e(s.accountId)}</span></p><p class="who">signed in as ${e(s.user)} <button type="button" id="signout">Sign out</button></p></header>
<div class="wrap">
<main>
<section aria-labelledby="h-resources">
<h2 id="h-resources">Resources by environment</h2>
<div id="resources" aria-live="polite">${resourcesPart(s.environments)}</div>
</section>
<section aria-labelledby="h-log">
<h2 id="h-log">Requests</h2>
<form class="filters" id="log-filters">
<label>service <select name="service">${serviceOptions}</select></label>
<label>operation <input type="text" name="operation" placeholder="e.g. create"></label>
<label>status <select name="status"><option value="">any</option><option value="2xx">2xx</option><option value="4xx">4xx</option><option value="5xx">5xx</option><option value="error">any failure</option></select></label>
<label>actor <input type="text" name="actor" placeholder="user or machine user"></label>
</form>
<div id="log">${logPart(log)}</div>
</section>
</main>
<aside>
<section aria-labelledby="h-clock">
<h2 id="h-clock">Clock</h2>
<div id="clock">${clockPart(s.clock)}</div>
<div class="row"><button type="button" class="act" data-clock="pause">Pause</button><button type="button" class="act" data-clock="resume">Resume</button></div>
<div class="row"><label for="advance">advance by</label><select id="advance"><option>1m</option><option>5m</option><option selected>15m</option><option>1h</option><option>6h</option><option>1d</option></select><button type="button" class="act primary" data-clock="advance">Advance</button></div>
<p class="msg" id="clock-msg" role="status"></p>
</section>
<section aria-labelledby="h-faults">
<h2 id="h-faults">Faults</h2>
<form id="faults">
<div class="row"><label for="rate">share of requests</label><input type="number" id="rate" name="rate" min="0" max="1" step="0.05" value="${e(String(f.rate))}"></div>
<div class="row">${kinds}</div>
<div class="row"><label for="latency">added latency (ms)</label><input type="number" id="latency" name="latencyMs" min="0" max="60000" step="50" value="${e(String(f.latencyMs))}"></div>
<div class="row"><button type="submit" class="act primary">Apply</button><button type="button" class="act" id="faults-off">Off</button></div>
<p class="msg" id="faults-msg" role="status"></p>
</form>
<p class="note">Injected faults answer API requests with 503 or 429 (with Retry-After), or drop the connection; the console itself is never faulted.</p>
</section>
</aside>
</div>
<dialog id="json" aria-labelledby="json-title"><header><h2 id="json-title">Resource</h2><form method="dialog"><button class="act">Close</button></form></header><pre id="json-text"></pre></dialog>
</body>
</html>
`;
}

/** Choose the user to sign in to the console as. */
export function boardSignInPage(
  site: SiteInfo,
  p: { requestId: string; users: readonly SignInUser[]; total: number; error?: string },
): string {
  if (p.error)
    return layout(site, 'Console', `<p role="alert" class="error">${e(p.error)}</p><p><a href="/console/signin">Sign in again</a></p>`);
  return chooseUserPage(
    site,
    'Sign in to the console',
    'Choose who you are in this emulated account. The console shows what the account holds, the requests it answers, and its clock.',
    { ...p, action: '/console/signin', hidden: ['request', p.requestId], accept: 'signin' },
  );
}

/**
 * The page's script: asks for the live parts again every second (the
 * server renders them), sends clock and fault changes with the page's
 * token, and shows a record's JSON as text. No value is ever set as markup
 * here: markup comes whole from the server, which escapes every value.
 */
export const APP_SCRIPT = `'use strict';
(() => {
  const token = document.querySelector('meta[name="console-token"]').content;
  const byId = (id) => document.getElementById(id);
  const filters = byId('log-filters');
  const say = (id, text) => { byId(id).textContent = text; };
  async function part(name, query) {
    const r = await fetch('/console/part/' + name + (query ? '?' + query : ''), { headers: { accept: 'text/html' } });
    if (r.status === 401) { location.href = '/console/signin'; return undefined; }
    return r.ok ? r.text() : undefined;
  }
  async function post(path, body) {
    const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-token': token }, body: JSON.stringify(body) });
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(answer.message || ('HTTP ' + r.status));
    return answer;
  }
  let busy = false;
  async function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const [clock, resources, log] = await Promise.all([part('clock'), part('resources'), part('log', new URLSearchParams(new FormData(filters)).toString())]);
      if (clock !== undefined) byId('clock').innerHTML = clock;
      if (resources !== undefined) byId('resources').innerHTML = resources;
      if (log !== undefined) byId('log').innerHTML = log;
    } finally {
      busy = false;
    }
  }
  setInterval(refresh, 1000);
  filters.addEventListener('input', refresh);
  filters.addEventListener('submit', (ev) => ev.preventDefault());
  document.addEventListener('click', async (ev) => {
    const t = ev.target.closest('button');
    if (!t) return;
    if (t.dataset.ref) {
      const r = await fetch('/console/api/resource?ref=' + encodeURIComponent(t.dataset.ref));
      const body = await r.json();
      say('json-title', t.textContent);
      say('json-text', JSON.stringify(body, null, 2));
      byId('json').showModal();
    } else if (t.dataset.clock) {
      const change = t.dataset.clock === 'advance' ? { advance: byId('advance').value } : { [t.dataset.clock]: true };
      try { await post('/console/api/clock', change); say('clock-msg', ''); } catch (err) { say('clock-msg', err.message); }
      refresh();
    } else if (t.id === 'faults-off') {
      try { await post('/console/api/faults', { rate: 0, latencyMs: 0, kinds: [] }); say('faults-msg', 'no faults'); byId('rate').value = '0'; byId('latency').value = '0'; } catch (err) { say('faults-msg', err.message); }
    } else if (t.id === 'signout') {
      await fetch('/console/signout', { method: 'POST', headers: { 'x-console-token': token } });
      location.href = '/console/signin';
    }
  });
  byId('faults').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const form = new FormData(ev.target);
    const body = { rate: Number(form.get('rate')), latencyMs: Number(form.get('latencyMs')), kinds: form.getAll('kind') };
    try {
      const now = await post('/console/api/faults', body);
      say('faults-msg', now.rate > 0 || now.latencyMs > 0 ? 'applied' : 'no faults');
    } catch (err) { say('faults-msg', err.message); }
  });
})();
`;
