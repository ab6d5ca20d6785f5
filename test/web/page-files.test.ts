import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../mcp/mcp-client.js';
import { request, startService, type RunningService } from '../support/service.js';

/** The page's files over plain HTTP, behind API keys: what a browser (or a proxy) fetches before any script runs. */
describe('the search page files', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ API_KEYS: 'page-files-key-0123456789', LOG_LEVEL: 'warn' });
  });
  afterAll(() => service.stop());

  it('serves the page at / without a key, under a CSP that allows only its own files', async () => {
    const response = await request(service.origin, '/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves every module the page imports, from the service itself', async () => {
    const pending = ['/web/app.js'];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const path = pending.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const response = await request(service.origin, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toContain('javascript');
      const source = await response.text();
      expect(source, path).not.toMatch(/from ['"]https?:/);
      for (const [, imported] of source.matchAll(/^import .* from '\.\/([\w-]+\.js)';$/gm)) pending.push(`/web/${imported}`);
    }
    expect([...seen].sort()).toEqual([
      '/web/address-filters.js',
      '/web/address-problem.js',
      '/web/answer-words.js',
      '/web/api-key.js',
      '/web/app.js',
      '/web/document-view.js',
      '/web/event-stream.js',
      '/web/more-results.js',
      '/web/provider-catalogue.js',
      '/web/provider-chips.js',
      '/web/providers-panel.js',
      '/web/query-length.js',
      '/web/results.js',
      '/web/search-filters.js',
      '/web/search-form.js',
      '/web/search-state.js',
      '/web/search-stream.js',
      '/web/skip-link.js',
      '/web/steady-results.js',
      '/web/stop-control.js',
      '/web/waterfall.js',
    ]);
    const css = await request(service.origin, '/web/style.css');
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  it('sends the page CSP with every file below /web/: the page is also /web/index.html, and there it ran without one', async () => {
    const page = await request(service.origin, '/');
    for (const path of ['/web/index.html', '/web/app.js', '/web/style.css']) {
      const response = await request(service.origin, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe(page.headers.get('content-security-policy'));
    }
    // The API's answers keep their own headers (no CSP: a JSON answer runs nothing); /docs has its own (docs-page.test.ts).
    expect((await request(service.origin, '/openapi.json')).headers.get('content-security-policy')).toBeNull();
  });

  it('serves nothing else below /web/, and the API behind it still needs the key', async () => {
    // No way out of public/, however the dots are written (a client may resolve them first: then it is a 401).
    for (const path of ['/web/../package.json', '/web/%2e%2e/package.json', '/web/..%2fpackage.json', '/web/%2e%2e%2fpackage.json']) {
      const response = await rawRequest(service.origin, path);
      expect([401, 404], path).toContain(response.status);
      expect(response.body, path).not.toContain('"dependencies"');
    }
    expect((await request(service.origin, '/web/')).status).toBe(404);
    expect((await request(service.origin, '/v1/providers')).status).toBe(401);
  });
});
