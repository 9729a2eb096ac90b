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
  main { box-sizing: border-box; max-width: 452px; margin: 64px auto; background: #fff; border-radius: 12px; padding: 32px 36px;
         box-shadow: 0 4px 24px rgba(20, 24, 40, .08); }
  h1 { font-size: 22px; margin: 0 0 6px; }
  p.sub { color: #5c6070; margin: 0 0 22px; font-size: 14px; }
  label { display: block; font-size: 13px; font-weight: 600; margin: 14px 0 6px; }
  input { width: 100%; box-sizing: border-box; padding: 10px 12px; font-size: 16px; border: 1px solid #c9ccd6; border-radius: 8px; }
  input:focus { outline: 2px solid #3b5bdb; border-color: #3b5bdb; }
  .actions { display: flex; gap: 10px; margin-top: 22px; }
  button { flex: 1; padding: 11px; font-size: 15px; border-radius: 8px; border: 0; cursor: pointer; font-weight: 600; }
  button.primary { background: #3b5bdb; color: #fff; }
  button.secondary { background: #e9ebf2; color: #1c1d22; }
  button:focus-visible, a:focus-visible { outline: 2px solid #1c1d22; outline-offset: 2px; }
  .error { background: #fdecec; color: #a61b1b; border-radius: 8px; padding: 10px 12px; font-size: 14px; margin-bottom: 12px; }
  .info { background: #eaf2ff; color: #1d3f8f; border-radius: 8px; padding: 10px 12px; font-size: 14px; margin-bottom: 12px; }
  .foot { margin-top: 18px; font-size: 14px; color: #5c6070; text-align: center; }
  .foot a + a { margin-left: 14px; }
  a { color: #3b5bdb; }
  .code { font-family: ui-monospace, monospace; font-size: 22px; letter-spacing: 3px; text-transform: uppercase; }
  footer { text-align: center; font-size: 12px; color: #8a8fa0; margin: -40px 16px 24px; }
  @media (max-width: 480px) {
    main { margin: 16px; padding: 24px 20px; }
    footer { margin-top: 0; }
  }
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
 * The sign-in page: who asks ("<App> on <Site> asks you to sign in" when the app is known, else "to <Site>"),
 * e-mail, password, "Sign in" and "Cancel", then "Forgot password?" and a link to register. "Sign in" is the
 * form's first submit button and is drawn first (left): a browser submits a form with its first button when
 * Enter is pressed in a field, so Enter signs in rather than cancels, and Tab reaches the buttons in the order
 * they are seen. Every page with two actions keeps its primary one first. The first empty field has the focus.
 */
export function signInPage(o: { action: string; fields: Record<string, string | undefined>; siteName: string; appName?: string; email?: string; error?: string; info?: string; registerHref?: string; forgotHref?: string; captcha?: boolean }): string {
  const asker = o.appName ? `${esc(o.appName)} on ${esc(o.siteName)} asks you to sign in` : `to ${esc(o.siteName)}`;
  const links = [o.forgotHref ? `<a href="${esc(o.forgotHref)}">Forgot password?</a>` : '', o.registerHref ? `<a href="${esc(o.registerHref)}">Create an account</a>` : ''].filter(Boolean);
  return page(
    `Sign in to ${o.siteName}`,
    `<h1>Sign in</h1><p class="sub">${asker}</p>${notice(o.error, o.info)}
<form method="post" action="${esc(o.action)}">${hidden(o.fields)}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(o.email)}"${o.email ? '' : ' autofocus'}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${o.email ? ' autofocus' : ''}>
${o.captcha ? `<label for="captcha">Captcha token</label><input id="captcha" name="captcha" type="text">` : ''}
<div class="actions"><button class="primary" type="submit" name="action" value="signin">Sign in</button><button class="secondary" type="submit" name="action" value="cancel" formnovalidate>Cancel</button></div>
</form>${links.length ? `<p class="foot">${links.join('')}</p>` : ''}`,
  );
}

/**
 * The "forgot password" page: an e-mail field and "Send link" (a recovery e-mail through identity.ts
 * `sendRecovery`, read in the emulator's outbox); with `sent`, the same neutral notice whether or not an
 * account uses the address (no account enumeration), and the link back to the sign-in.
 */
export function forgotPage(o: { action: string; fields: Record<string, string | undefined>; siteName: string; email?: string; sent?: boolean; backHref?: string }): string {
  const sent = o.sent
    ? `If an account on ${o.siteName} signs in with ${o.email ?? 'this address'}, a link to set a new password is on its way. (The emulator keeps e-mail in its outbox: sitectl emulator mail.)`
    : undefined;
  return page(
    'Reset your password',
    `<h1>Reset your password</h1><p class="sub">Enter the e-mail you sign in to ${esc(o.siteName)} with: we send it a link to set a new password.</p>${notice(undefined, sent)}
<form method="post" action="${esc(o.action)}">${hidden(o.fields)}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(o.email)}" autofocus>
<div class="actions"><button class="primary" type="submit">${o.sent ? 'Send again' : 'Send link'}</button></div>
</form>${o.backHref ? `<p class="foot"><a href="${esc(o.backHref)}">Back to sign in</a></p>` : ''}`,
  );
}

/** The registration page. */
export function registerPage(o: { action: string; fields: Record<string, string | undefined>; siteName: string; email?: string; error?: string; signInHref?: string }): string {
  return page(
    `Create an account on ${o.siteName}`,
    `<h1>Create an account</h1><p class="sub">on ${esc(o.siteName)}</p>${notice(o.error)}
<form method="post" action="${esc(o.action)}">${hidden(o.fields)}
<label for="nickname">Name</label><input id="nickname" name="nickname" type="text" autocomplete="name" autofocus>
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
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<div class="actions"><button class="primary" type="submit">Verify</button></div></form>`,
  );
}

/**
 * The device-approval page: the code the terminal shows (filled in from the complete verification URI, RFC
 * 8628 section 3.3.1), who asks when the code is known, then e-mail and password, "Approve" (first: Enter
 * approves) or "Deny". The focus is on the code when it is empty, else on the e-mail.
 */
export function devicePage(o: { action: string; userCode?: string; siteName?: string; appName?: string; error?: string; info?: string; done?: string }): string {
  if (o.done) return page('Device sign-in', `<h1>Device sign-in</h1>${notice(undefined, o.done)}<p class="sub">You can close this window and return to your terminal.</p>`);
  const asker = o.siteName ? (o.appName ? `${esc(o.appName)} on ${esc(o.siteName)} asks you to sign in on a device. ` : `Sign in to ${esc(o.siteName)} on a device. `) : '';
  return page(
    'Sign in on a device',
    `<h1>Sign in on a device</h1><p class="sub">${asker}Check that the code matches the one in your terminal.</p>${notice(o.error, o.info)}
<form method="post" action="${esc(o.action)}">
<label for="user_code">Code</label><input id="user_code" name="user_code" class="code" required autocomplete="off" autocapitalize="characters" spellcheck="false" value="${esc(o.userCode)}"${o.userCode ? '' : ' autofocus'}>
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username"${o.userCode ? ' autofocus' : ''}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<div class="actions"><button class="primary" type="submit" name="action" value="approve">Approve</button><button class="secondary" type="submit" name="action" value="deny" formnovalidate>Deny</button></div>
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

/** The password recovery page (the link of a recovery e-mail): a new password, "Save". `redirect` rides along in the form. */
export function recoverPage(o: { action: string; token: string; redirect?: string; error?: string }): string {
  return page(
    'Set a new password',
    `<h1>Set a new password</h1>${notice(o.error)}<form method="post" action="${esc(o.action)}">${hidden({ token: o.token, redirect: o.redirect || undefined })}
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="6" autofocus>
<div class="actions"><button class="primary" type="submit">Save</button></div></form>`,
  );
}

/**
 * A refusal in words for a hosted page: the platform's sign-in and registration codes (docs/wire.md §22) in plain
 * words, field violations joined, else the platform's description. Anything else is rethrown (a bug, not a refusal).
 */
export function failureText(err: unknown): string {
  if (err instanceof ApplicationFailure) {
    switch (err.code) {
      // One answer for both: which addresses have an account is not for anyone with the page to find out.
      case '-19976':
      case '-19999':
        return 'Wrong e-mail or password.';
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
