/**
 * The hosted pages' HTML (sign-in, registration, e-mail code, device approval, logout, password recovery):
 * plain forms that work without script, every value escaped. What a person expects: an e-mail field, a
 * password field and a submit button, a link to register, errors shown above the form.
 */
import { ApplicationFailure, ValidationFailure } from '../errors.js';

/** Escapes text for HTML content and attribute values. */
export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f3f4f8; margin: 0; color: #1c1d22; }
  main { max-width: 380px; margin: 64px auto; background: #fff; border-radius: 12px; padding: 32px 36px;
         box-shadow: 0 4px 24px rgba(20, 24, 40, .08); }
  h1 { font-size: 22px; margin: 0 0 6px; }
  p.sub { color: #5c6070; margin: 0 0 22px; font-size: 14px; }
  label { display: block; font-size: 13px; font-weight: 600; margin: 14px 0 6px; }
  input { width: 100%; box-sizing: border-box; padding: 10px 12px; font-size: 15px; border: 1px solid #c9ccd6; border-radius: 8px; }
  input:focus { outline: 2px solid #3b5bdb; border-color: #3b5bdb; }
  .actions { display: flex; gap: 10px; margin-top: 22px; }
  .actions.reverse { flex-direction: row-reverse; }
  button { flex: 1; padding: 11px; font-size: 15px; border-radius: 8px; border: 0; cursor: pointer; font-weight: 600; }
  button.primary { background: #3b5bdb; color: #fff; }
  button.secondary { background: #e9ebf2; color: #1c1d22; }
  .error { background: #fdecec; color: #a61b1b; border-radius: 8px; padding: 10px 12px; font-size: 14px; margin-bottom: 12px; }
  .info { background: #eaf2ff; color: #1d3f8f; border-radius: 8px; padding: 10px 12px; font-size: 14px; margin-bottom: 12px; }
  .foot { margin-top: 18px; font-size: 14px; color: #5c6070; text-align: center; }
  a { color: #3b5bdb; }
  .code { font-family: ui-monospace, monospace; font-size: 22px; letter-spacing: 3px; }
  footer { text-align: center; font-size: 12px; color: #8a8fa0; margin-top: -40px; }
`;

/** A whole page. `body` is HTML already escaped. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main><footer>sitectl local emulator: hosted pages</footer></body></html>`;
}

const notice = (error?: string, info?: string) => `${error ? `<div class="error" role="alert">${esc(error)}</div>` : ''}${info ? `<div class="info">${esc(info)}</div>` : ''}`;
const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');

/**
 * The sign-in page: e-mail, password, "Sign in" and "Cancel", a link to register. "Sign in" is the first submit
 * button of the form (shown on the right): a browser submits a form with its first button when Enter is pressed
 * in a field, so Enter signs in rather than cancels. Every page with two actions keeps its primary one first.
 */
export function signInPage(o: { action: string; fields: Record<string, string | undefined>; siteName: string; email?: string; error?: string; info?: string; registerHref?: string; captcha?: boolean }): string {
  return page(
    `Sign in to ${o.siteName}`,
    `<h1>Sign in</h1><p class="sub">to ${esc(o.siteName)}</p>${notice(o.error, o.info)}
<form method="post" action="${esc(o.action)}">${hidden(o.fields)}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(o.email)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
${o.captcha ? `<label for="captcha">Captcha token</label><input id="captcha" name="captcha" type="text">` : ''}
<div class="actions reverse"><button class="primary" type="submit" name="action" value="signin">Sign in</button><button class="secondary" type="submit" name="action" value="cancel" formnovalidate>Cancel</button></div>
</form>${o.registerHref ? `<p class="foot">New here? <a href="${esc(o.registerHref)}">Create an account</a></p>` : ''}`,
  );
}

/** The registration page. */
export function registerPage(o: { action: string; fields: Record<string, string | undefined>; siteName: string; email?: string; error?: string; signInHref?: string }): string {
  return page(
    `Create an account on ${o.siteName}`,
    `<h1>Create an account</h1><p class="sub">on ${esc(o.siteName)}</p>${notice(o.error)}
<form method="post" action="${esc(o.action)}">${hidden(o.fields)}
<label for="nickname">Name</label><input id="nickname" name="nickname" type="text" autocomplete="name">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(o.email)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="6">
<div class="actions"><button class="primary" type="submit" name="action" value="register">Create account</button></div>
</form>${o.signInHref ? `<p class="foot">Have an account? <a href="${esc(o.signInHref)}">Sign in</a></p>` : ''}`,
  );
}

/** The e-mail code page of a sign-in that requires verification. */
export function codePage(o: { action: string; fields: Record<string, string | undefined>; email: string; error?: string }): string {
  return page(
    'Check your e-mail',
    `<h1>Check your e-mail</h1><p class="sub">We sent a code to ${esc(o.email)}</p>${notice(o.error)}
<form method="post" action="${esc(o.action)}">${hidden(o.fields)}
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<div class="actions"><button class="primary" type="submit">Verify</button></div></form>`,
  );
}

/** The device-approval page: the code the terminal shows, then e-mail and password, "Approve" (first: Enter approves) or "Deny". */
export function devicePage(o: { action: string; userCode?: string; siteName?: string; error?: string; info?: string; done?: string }): string {
  if (o.done) return page('Device sign-in', `<h1>Device sign-in</h1>${notice(undefined, o.done)}<p class="sub">You can close this window and return to your terminal.</p>`);
  return page(
    'Sign in on a device',
    `<h1>Sign in on a device</h1><p class="sub">Check that the code matches the one in your terminal${o.siteName ? `, then sign in to ${esc(o.siteName)}` : ''}.</p>${notice(o.error, o.info)}
<form method="post" action="${esc(o.action)}">
<label for="user_code">Code</label><input id="user_code" name="user_code" class="code" required value="${esc(o.userCode)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<div class="actions reverse"><button class="primary" type="submit" name="action" value="approve">Approve</button><button class="secondary" type="submit" name="action" value="deny" formnovalidate>Deny</button></div>
</form>`,
  );
}

/** A page with one message (signed out, done, errors that end a flow). */
export function messagePage(title: string, message: string, o: { error?: boolean; href?: string; hrefText?: string } = {}): string {
  return page(title, `<h1>${esc(title)}</h1>${o.error ? notice(message) : notice(undefined, message)}${o.href ? `<p class="foot"><a href="${esc(o.href)}">${esc(o.hrefText ?? 'Continue')}</a></p>` : ''}`);
}

/** The page that hands a code to the opener by web message (`responseMode: web_message`). */
export function webMessagePage(origin: string, data: Record<string, string>): string {
  return `<!doctype html><html><body><script>window.parent.postMessage(${JSON.stringify(data).replace(/</g, '\\u003c')}, ${JSON.stringify(origin).replace(/</g, '\\u003c')});</script></body></html>`;
}

/** The password recovery page. */
export function recoverPage(o: { action: string; token: string; error?: string }): string {
  return page(
    'Set a new password',
    `<h1>Set a new password</h1>${notice(o.error)}<form method="post" action="${esc(o.action)}">${hidden({ token: o.token })}
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="6">
<div class="actions"><button class="primary" type="submit">Save</button></div></form>`,
  );
}

/**
 * A refusal in words for a hosted page: the platform's sign-in and registration codes (spec 001 section 8) in plain
 * words, field violations joined, else the platform's description. Anything else is rethrown (a bug, not a refusal).
 */
export function failureText(err: unknown): string {
  if (err instanceof ApplicationFailure) {
    switch (err.code) {
      case '-19976':
        return 'Wrong e-mail or password.';
      case '-19999':
        return 'No account uses this e-mail address.';
      case '-19971':
        return 'Please complete the captcha.';
      case '-19970':
        return 'The captcha is not valid.';
      case '-19995':
        return 'An account with this e-mail exists already. Sign in instead.';
      case 'BAD_CODE':
        return 'That code is not correct.';
      default:
        return err.description;
    }
  }
  if (err instanceof ValidationFailure) return err.fieldViolations.map((v) => `${v.field}: ${v.description}`).join('; ');
  throw err;
}
