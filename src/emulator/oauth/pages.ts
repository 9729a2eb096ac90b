/**
 * The hosted pages' HTML (sign-in, registration, e-mail code, device approval, logout, password recovery):
 * plain forms that work without script, every value escaped. What a person expects: an e-mail field, a
 * password field and a submit button, a link to register, errors shown above the form.
 */
import { esc, hostedPage, notice } from '../../api/hosted-page.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';

export { esc };

/** A whole page of the emulator (api/hosted-page.ts's layout and look). `body` is HTML already escaped. */
export function page(title: string, body: string): string {
  return hostedPage(title, body, 'sitectl local emulator: hosted pages');
}

const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');

/**
 * The sign-in page, as the site's owner would word it: "Sign in to <Site>", then, for an app of the site's own
 * (not its default headless app, which to a person is the site itself), "to continue to <App>" below it; then
 * e-mail, password, "Sign in" and "Cancel", then "Forgot password?" and a link to register. "Sign in" is the
 * form's first submit button and is drawn first (left): a browser submits a form with its first button when
 * Enter is pressed in a field, so Enter signs in rather than cancels, and Tab reaches the buttons in the order
 * they are seen. Every page with two actions keeps its primary one first. The first empty field has the focus.
 */
export function signInPage(o: { action: string; fields: Record<string, string | undefined>; siteName: string; appName?: string; email?: string; error?: string; info?: string; registerHref?: string; forgotHref?: string; captcha?: boolean }): string {
  const links = [o.forgotHref ? `<a href="${esc(o.forgotHref)}">Forgot password?</a>` : '', o.registerHref ? `<a href="${esc(o.registerHref)}">Create an account</a>` : ''].filter(Boolean);
  return page(
    `Sign in to ${o.siteName}`,
    `<h1>Sign in to ${esc(o.siteName)}</h1>${o.appName ? `<p class="sub">to continue to ${esc(o.appName)}</p>` : ''}${notice(o.error, o.info)}
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

/**
 * The code page of a sign-in that requires one: the e-mail's (verification), or with `phone` a second factor's
 * sent by SMS or a call (`phone.hint`: where, as the challenge shows it).
 */
export function codePage(o: { action: string; fields: Record<string, string | undefined>; email: string; error?: string; phone?: { factorType: string; hint?: string } }): string {
  const title = o.phone ? 'Check your phone' : 'Check your e-mail';
  const sub = o.phone ? `We sent a code ${o.phone.factorType === 'CALL' ? 'by a phone call' : 'by SMS'}${o.phone.hint ? ` to ${esc(o.phone.hint)}` : ''}` : `We sent a code to ${esc(o.email)}`;
  return page(
    title,
    `<h1>${title}</h1><p class="sub">${sub}</p>${notice(o.error)}
<form method="post" action="${esc(o.action)}">${hidden(o.fields)}
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<div class="actions"><button class="primary" type="submit">Verify</button></div></form>`,
  );
}

/** The field of the device page a refusal is about: the code (not valid, expired) or the password (the sign-in). */
export type DeviceField = 'user_code' | 'password';

/**
 * The device-approval page: the code the terminal shows (filled in from the complete verification URI, RFC
 * 8628 section 3.3.1), who asks when the code is known ("Sign in to <Site> on a device", then "To continue to
 * <App>" for an app of the site's own), then e-mail and password, "Approve" (first: Enter approves) or "Deny". The e-mail
 * typed stays after a refusal, and the focus goes to the field the refusal is about (`invalid`: the code, or
 * the password); without a refusal it is on the code when that is empty, else on the e-mail.
 */
export function devicePage(o: { action: string; userCode?: string; email?: string; siteName?: string; appName?: string; error?: string; info?: string; invalid?: DeviceField; done?: string }): string {
  if (o.done) return page('Device sign-in', `<h1>Device sign-in</h1><div class="done" role="status">${esc(o.done)}</div><p class="sub">You can close this tab and return to your terminal.</p>`);
  const heading = o.siteName ? `Sign in to ${esc(o.siteName)} on a device` : 'Sign in on a device';
  const asker = o.siteName && o.appName ? `To continue to ${esc(o.appName)}. ` : '';
  const focus: DeviceField | 'email' = o.invalid ?? (o.userCode ? 'email' : 'user_code');
  const attrs = (id: DeviceField | 'email') => `${focus === id ? ' autofocus' : ''}${o.invalid === id ? ' aria-invalid="true" aria-describedby="problem"' : ''}`;
  const problem = o.error ? `<div class="error" id="problem" role="alert">${esc(o.error)}</div>` : '';
  return page(
    'Sign in on a device',
    `<h1>${heading}</h1><p class="sub">${asker}Check that the code matches the one in your terminal.</p>${problem}${notice(undefined, o.info)}
<form method="post" action="${esc(o.action)}">
<label for="user_code">Code</label><input id="user_code" name="user_code" class="code" required autocomplete="off" autocapitalize="characters" spellcheck="false" value="${esc(o.userCode)}"${attrs('user_code')}>
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" value="${esc(o.email)}"${attrs('email')}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password"${attrs('password')}>
<div class="actions"><button class="primary" type="submit" name="action" value="approve">Approve</button><button class="secondary" type="submit" name="action" value="deny" formnovalidate>Deny</button></div>
</form>`,
  );
}

/**
 * A page with one message (signed out, done, errors that end a flow). `href` adds a link below it; `actions`
 * (links) are drawn as buttons instead, the first one as the primary.
 */
export function messagePage(title: string, message: string, o: { error?: boolean; href?: string; hrefText?: string; actions?: readonly { href: string; text: string }[] } = {}): string {
  const actions = o.actions?.length ? `<div class="actions">${o.actions.map((a, i) => `<a class="button ${i === 0 ? 'primary' : 'secondary'}" href="${esc(a.href)}">${esc(a.text)}</a>`).join('')}</div>` : '';
  const link = o.href ? `<p class="foot"><a href="${esc(o.href)}">${esc(o.hrefText ?? 'Continue')}</a></p>` : '';
  return page(title, `<h1>${esc(title)}</h1>${o.error ? notice(message) : notice(undefined, message)}${actions}${link}`);
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
      case 'VERIFICATION_FAILED':
        return 'That code is not correct.';
      default:
        return err.description;
    }
  }
  if (err instanceof ValidationFailure) return err.fieldViolations.map((v) => `${v.field}: ${v.description}`).join('; ');
  throw err;
}
