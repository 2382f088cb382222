import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, devServerConnectSources } from './content-security-policy';

describe('contentSecurityPolicy', () => {
  it('allows scripts from the app only, no eval, no framing, and the recordings scheme and data: addresses (a shared quote’s sound) for media', () => {
    const policy = contentSecurityPolicy();
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("media-src 'self' verbatim-media: data:");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('leaves out, in a <meta> tag, the one directive a tag cannot carry', () => {
    const policy = contentSecurityPolicy({ metaTag: true });
    expect(policy).not.toContain('frame-ancestors');
    expect(policy).toContain("script-src 'self'");
  });

  it('lets the dev server reach its hot reload socket', () => {
    expect(
      contentSecurityPolicy({ connectSources: devServerConnectSources('http://localhost:5173/') }),
    ).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173");
  });
});
