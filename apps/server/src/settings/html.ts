/** Server-rendered pages of the settings: plain HTML, no script, labels on every field. */

export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
header,main{max-width:60rem;margin:0 auto;padding:1rem}
header{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid #ccc}
h1{font-size:1.5rem;margin:.5rem 0}
label{display:block;font-weight:600;margin-top:.75rem}
input,select{font:inherit;padding:.4rem;min-width:18rem;border:1px solid #555;border-radius:4px}
button{font:inherit;padding:.4rem .9rem;margin-top:.75rem;border:1px solid #1a4d8f;background:#1f5fae;color:#fff;border-radius:4px;cursor:pointer}
button.danger{background:#a3161a;border-color:#7a1013}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
table{border-collapse:collapse;width:100%;margin-top:1rem;background:#fff}
caption{text-align:left;font-weight:600;padding:.5rem 0}
th,td{border:1px solid #ccc;padding:.4rem .6rem;text-align:left;vertical-align:top}
.notice{border:2px solid #2e7d32;background:#eef7ee;padding:1rem;margin:1rem 0}
.error{border:2px solid #a3161a;background:#fdeeee;padding:1rem;margin:1rem 0}
code{font-size:1rem;word-break:break-all;background:#fff;padding:.1rem .3rem;border:1px solid #ddd}
form.inline{display:inline;margin:0}
form.inline button{margin:0}
`;

export function page(opts: { title: string; environment: string; body: string; signedInAs?: string; csrf?: string }): string {
  const signedIn = opts.signedInAs
    ? `<form method="post" action="/settings/api/logout" class="inline">
         <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
         <span>Signed in as ${esc(opts.signedInAs)}</span>
         <button type="submit">Log out everywhere</button>
       </form>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(opts.title)} · ${esc(opts.environment)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><span>Settings of <strong>${esc(opts.environment)}</strong></span>${signedIn}</header>
<main id="main">
${opts.body}
</main>
</body>
</html>`;
}

export function message(kind: 'notice' | 'error', html: string): string {
  return `<div class="${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${html}</div>`;
}

export function loginForm(opts: { csrf: string; email?: string; error?: string }): string {
  return `<h1>Sign in to the API settings</h1>
${opts.error ? message('error', esc(opts.error)) : ''}
<form method="post" action="/settings/api/login">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${esc(opts.email)}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <div><button type="submit">Sign in</button></div>
</form>`;
}

export interface TokenRow {
  id: string;
  key: string;
  userEmail: string;
  label: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  active: boolean;
}

const when = (d: Date | null) =>
  d ? `<time datetime="${d.toISOString()}">${d.toISOString().replace('T', ' ').slice(0, 16)} UTC</time>` : 'never';

export function tokensPage(opts: {
  csrf: string;
  tokens: TokenRow[];
  users: { id: string; email: string }[];
  canWrite: boolean;
  created?: { key: string; secret: string; userEmail: string };
  notice?: string;
  error?: string;
}): string {
  const created = opts.created
    ? message(
        'notice',
        `<h2>Token created for ${esc(opts.created.userEmail)}</h2>
         <p>Copy the secret now: it is shown this once and never again.</p>
         <p><strong>Key:</strong> <code id="new-key">${esc(opts.created.key)}</code></p>
         <p><strong>Secret:</strong> <code id="new-secret">${esc(opts.created.secret)}</code></p>`,
      )
    : '';
  const rows = opts.tokens
    .map(
      (t) => `<tr>
  <td>${esc(t.userEmail)}</td>
  <td><code>${esc(t.key)}</code>${t.label ? `<br>${esc(t.label)}` : ''}</td>
  <td>${when(t.createdAt)}</td>
  <td>${when(t.lastUsedAt)}</td>
  <td>${t.active ? 'Active' : 'Deleted'}</td>
  <td>${
    t.active && opts.canWrite
      ? `<form method="post" action="/settings/api/tokens/${encodeURIComponent(t.id)}/delete" class="inline">
      <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
      <button type="submit" class="danger" aria-label="Delete token ${esc(t.key)} of ${esc(t.userEmail)}">Delete</button>
    </form>`
      : ''
  }</td>
</tr>`,
    )
    .join('\n');
  const form = opts.canWrite
    ? `<h2>Create a token</h2>
<form method="post" action="/settings/api/tokens">
  <input type="hidden" name="csrf" value="${esc(opts.csrf)}">
  <label for="user">User</label>
  <select id="user" name="user_id" required>
    ${opts.users.map((u) => `<option value="${esc(u.id)}">${esc(u.email)}</option>`).join('')}
  </select>
  <label for="label">Label (optional)</label>
  <input id="label" name="label" type="text" maxlength="100">
  <div><button type="submit">Create token</button></div>
</form>`
    : '<p>You may look at the tokens; creating and deleting them needs the settings write right.</p>';
  return `<h1>API tokens</h1>
${opts.notice ? message('notice', esc(opts.notice)) : ''}
${opts.error ? message('error', esc(opts.error)) : ''}
${created}
${form}
<table>
  <caption>Tokens of this environment (${opts.tokens.length})</caption>
  <thead><tr><th scope="col">User</th><th scope="col">Key and label</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col">Action</th></tr></thead>
  <tbody>
${rows || '<tr><td colspan="6">No tokens yet.</td></tr>'}
  </tbody>
</table>`;
}

export function linkForm(token: string): string {
  return `<h1>Sign in with a one-time link</h1>
<form method="post" action="/settings/api/link">
  <input type="hidden" name="token" value="${esc(token)}">
  <p>This link signs you in once. It cannot be used again afterwards.</p>
  <button type="submit">Sign in</button>
</form>`;
}
