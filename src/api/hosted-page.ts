/**
 * The look of the pages a person meets in a browser during a sign-in or a checkout: the emulator's hosted pages
 * (src/emulator/oauth/pages.ts, src/emulator/checkout-page/html.ts) and the page the CLI's own callback server
 * answers at the end of a browser sign-in (src/commands/login/callback.ts). One stylesheet and one layout, so
 * the last page of a sign-in looks like the ones before it. It lives here because the emulator may import only
 * src/api and the CLI may not import the emulator (docs/architecture.md "Layout and dependency direction"); it
 * imports nothing. Plain HTML that works without script, sized for a phone (a viewport tag) and a laptop alike.
 */

/** Escapes text for HTML content and attribute values. */
export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The stylesheet of every page: a white card (`main`) on a grey page, with margins kept on a phone. */
export const PAGE_STYLE = `
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f3f4f8; margin: 0; color: #1c1d22; }
  main { box-sizing: border-box; max-width: 452px; margin: 64px auto; background: #fff; border-radius: 12px; padding: 32px 36px;
         box-shadow: 0 4px 24px rgba(20, 24, 40, .08); }
  h1 { font-size: 22px; margin: 0 0 6px; }
  p.sub { color: #5c6070; margin: 0 0 22px; font-size: 14px; }
  label { display: block; font-size: 13px; font-weight: 600; margin: 14px 0 6px; }
  input { width: 100%; box-sizing: border-box; padding: 10px 12px; font-size: 16px; border: 1px solid #c9ccd6; border-radius: 8px; }
  input:focus { outline: 2px solid #3b5bdb; border-color: #3b5bdb; }
  input[aria-invalid="true"] { border-color: #a61b1b; }
  input[aria-invalid="true"]:focus { outline-color: #a61b1b; }
  .actions { display: flex; gap: 10px; margin-top: 22px; }
  button { flex: 1; padding: 11px; font-size: 15px; border-radius: 8px; border: 0; cursor: pointer; font-weight: 600; }
  button.primary { background: #3b5bdb; color: #fff; }
  button.secondary { background: #e9ebf2; color: #1c1d22; }
  a.button { display: block; flex: 1; text-align: center; text-decoration: none; padding: 11px; font-size: 15px; border-radius: 8px; font-weight: 600; }
  a.button.primary { background: #3b5bdb; color: #fff; }
  a.button.secondary { background: #e9ebf2; color: #1c1d22; }
  button:focus-visible, a:focus-visible { outline: 2px solid #1c1d22; outline-offset: 2px; }
  .error { background: #fdecec; color: #a61b1b; border-radius: 8px; padding: 10px 12px; font-size: 14px; margin-bottom: 12px; }
  .info { background: #eaf2ff; color: #1d3f8f; border-radius: 8px; padding: 10px 12px; font-size: 14px; margin-bottom: 12px; }
  .done { background: #e8f6ee; color: #175c36; border-radius: 8px; padding: 10px 12px; font-size: 14px; margin-bottom: 12px; }
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

/**
 * A whole page: `<main>` holding `body` (HTML already escaped), then a small `footer` line (text) naming what
 * serves it. The head has the charset, the viewport tag (a phone lays the page out at its own width) and
 * {@link PAGE_STYLE}.
 */
export function hostedPage(title: string, body: string, footer: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${PAGE_STYLE}</style></head>
<body><main>${body}</main><footer>${esc(footer)}</footer></body></html>`;
}

/** An error box (`role="alert"`) and an info box, each only when given (text, escaped here). */
export function notice(error?: string, info?: string): string {
  return `${error ? `<div class="error" role="alert">${esc(error)}</div>` : ''}${info ? `<div class="info" role="status">${esc(info)}</div>` : ''}`;
}
