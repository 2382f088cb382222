/**
 * The renderer's Content-Security-Policy, shared by Electron and the web host. Scripts only
 * from the app itself, no eval, no plugins, no framing. `connectSources` adds the few
 * origins a transport needs: the Vite dev server in development, the web host's socket.
 */
export function contentSecurityPolicy(
  options: { connectSources?: string[]; metaTag?: boolean } = {},
): string {
  const connect = ["'self'", ...(options.connectSources ?? [])];
  // A <meta> policy cannot say frame-ancestors (browsers ignore it there, with a warning).
  const framing = options.metaTag ? [] : ["frame-ancestors 'none'"];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    // A shared quote's sound comes from the newsroom as a data: address (reviews.clip).
    "media-src 'self' verbatim-media: data:",
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ...framing,
  ].join('; ');
}

/** What the Vite dev server needs to be reachable for hot reload. */
export function devServerConnectSources(devServerUrl: string | undefined): string[] {
  if (!devServerUrl) return [];
  const url = new URL(devServerUrl);
  return [url.origin, `ws://${url.host}`];
}

/**
 * A page the app writes itself with nothing to run (the upgrade window): the renderer's policy
 * without scripts, fonts, media or connections, its styles inline in the page.
 */
export function staticPagePolicy(): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
