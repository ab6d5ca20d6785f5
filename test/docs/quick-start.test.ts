import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createProviders } from '../../src/providers/registry.js';
import { startupSummary } from '../../src/startup-summary.js';

/**
 * README.md's quick start says what a first run without any setting searches. It once said that needed no network
 * and answered from `local`, while Wikipedia, Hacker News and the paper providers were on as well (and, offline,
 * failed beside it): it must name every provider that is on when nothing is set.
 */

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const quickStart = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';

/** The instances on with no variable set, as the start-up line lists them. */
function onByDefault(): string[] {
  const config = loadConfig({});
  return startupSummary(config, createProviders(config.providers), 'http://127.0.0.1:0').configuration.providers.on;
}

describe('README.md quick start', () => {
  it('is found', () => {
    expect(quickStart).toContain('npm start');
  });

  it.each(onByDefault())('names %s, on without any setting', (name) => {
    expect(quickStart).toContain(`\`${name}\``);
  });
});
