/**
 * Text that came from a server or a file is escaped before it reaches a terminal (docs/architecture.md "Safety rules"):
 * an error message or a service name carrying `ESC[2J` must not clear the user's screen. JSON output is left
 * as it is (JSON escapes control characters itself).
 */

// C0 controls except tab and newline, DEL, and the C1 range (U+0080-U+009F, which terminals also obey).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with control characters shown as `\x1b`-style escapes (tab and newline are kept). */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** One line: control characters escaped, newlines and tabs folded into single spaces. */
export function oneLine(text: string): string {
  return escapeControl(text).replace(/\s*[\r\n\t]+\s*/g, ' ').trim();
}

/** An entity id as a terminal shows it (8 characters, like a short git hash); piped output keeps whole ids. */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}
