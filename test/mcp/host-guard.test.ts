import { describe, expect, it } from 'vitest';
import { isHostAllowed, isOriginAllowed, originEntryProblem } from '../../src/mcp/host-guard.js';

describe('host guard', () => {
  it.each([
    ['127.0.0.1:8080', ['127.0.0.1'], true],
    ['LOCALHOST:3000', ['localhost'], true],
    ['search.example.com', ['search.example.com:443'], false],
    ['search.example.com:443', ['search.example.com:443'], true],
    ['search.example.com:8443', ['search.example.com:443'], false],
    ['[::1]:8080', ['[::1]'], true],
    ['[::1]:8080', ['[::1]:9090'], false],
    ['evil.example', ['example'], false],
    [undefined, ['localhost'], false],
  ] as const)('host %s against %j: %s', (host, allowed, expected) => {
    expect(isHostAllowed(host, [...allowed])).toBe(expected);
  });

  it.each([
    [undefined, ['https://app.example.com'], true],
    ['https://app.example.com', ['https://app.example.com/'], true],
    ['https://APP.example.com:443', ['https://app.example.com'], true],
    ['http://app.example.com', ['https://app.example.com'], false],
    ['null', ['https://app.example.com'], false],
    ['not a url', ['https://app.example.com'], false],
    // Nothing configured: requests without Origin and pages from this machine only.
    [undefined, [], true],
    ['http://localhost:5173', [], true],
    ['https://localhost', [], true],
    ['http://127.0.0.1:6274', [], true],
    ['http://[::1]:8080', [], true],
    ['http://evil.example', [], false],
    ['http://localhost.evil.example', [], false],
    ['http://127.0.0.1.nip.io', [], false],
    ['file://', [], false],
    ['null', [], false],
    ['https://evil.example', ['*'], true],
  ] as const)('origin %s against %j: %s', (origin, allowed, expected) => {
    expect(isOriginAllowed(origin, [...allowed])).toBe(expected);
  });

  it.each([
    ['https://app.example.com', undefined],
    ['https://app.example.com/', undefined],
    ['http://127.0.0.1:3000', undefined],
    ['*', undefined],
    ['app.example.com', '"app.example.com" is not an origin'],
    ['https://app.example.com/path', '"https://app.example.com/path" is not an origin'],
    ['ftp://app.example.com', '"ftp://app.example.com" is not an origin'],
  ] as const)('MCP_ALLOWED_ORIGINS entry %s: %s', (entry, problem) => {
    expect(originEntryProblem(entry)).toBe(problem);
  });
});
