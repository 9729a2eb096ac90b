/**
 * Secret scrubbing for the HTTP trace and for error messages (docs/architecture.md "Output and interaction": `--debug`
 * shows the trace with Authorization, tokens, codes and passwords redacted; secrets never reach an error).
 */

export const REDACTED = '[REDACTED]';

/** Header names whose values are secrets (compared lower-case). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/**
 * Names of JSON properties and query parameters whose values are secrets: API keys, tokens, authorization codes,
 * PKCE verifiers, passwords, client secrets, session tokens.
 */
const SECRET_NAME =
  /^(?:authorization|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|session[-_]?token|state[-_]?token|token|code|code[-_]?verifier|password|new[-_]?password|client[-_]?secret|secret)$/i;

/** True when a header, JSON property or query parameter of this name carries a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase()) || SECRET_NAME.test(name);
}

/** Copy of `headers` with every secret header value replaced by `[REDACTED]`. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = isSecretName(name) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const JSON_PAIR = /("([A-Za-z_-]+)"\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
const QUERY_PAIR = /([?&])([A-Za-z_.-]+)=([^&#\s]*)/g;

/**
 * Scrubs free text (a URL, a JSON body, an error message): every exact occurrence of a known secret value,
 * `"password":"..."`-style JSON pairs and `?code=...`-style query pairs whose name is a secret name.
 * Secrets shorter than 4 characters are not replaced by value (they would mangle ordinary words).
 *
 * @param text   any string
 * @param secrets the credential values this client holds (API key, access token, ...)
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  // `"code"` inside JSON is nearly always an error code (applicationError.code), which must stay readable;
  // authorization codes travel as `?code=` in redirect URLs, which the query pass below covers.
  out = out.replace(JSON_PAIR, (whole, prefix: string, name: string) =>
    name !== 'code' && isSecretName(name) ? `${prefix}"${REDACTED}"` : whole,
  );
  out = out.replace(QUERY_PAIR, (whole, sep: string, name: string) =>
    isSecretName(name.split('.').pop() ?? name) ? `${sep}${name}=${REDACTED}` : whole,
  );
  return out;
}
