import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * docker-compose.yml read as compose reads it, with no engine: `${NAME:-default}` filled from the environment
 * `docker compose up` would see, then the YAML parsed.
 */

export type ComposePort = string | { host_ip?: string; published?: string | number; target?: number };
export type ComposeService = { ports?: ComposePort[]; environment?: Record<string, string>; network_mode?: string };
export type Compose = { services: Record<string, ComposeService> };

export const composeText = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8');

/** Compose's interpolation for the forms a compose file uses: ${NAME}, ${NAME:-default} and ${NAME-default}. */
function interpolate(text: string, shell: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z0-9_]+)(?:(:?-)([^}]*))?\}/g, (_match, name: string, operator?: string, fallback?: string) => {
    const value = shell[name];
    if (operator === ':-') return value ? value : (fallback ?? '');
    if (operator === '-') return value ?? fallback ?? '';
    return value ?? '';
  });
}

export function readCompose(shell: Record<string, string> = {}): Compose {
  return parse(interpolate(composeText, shell)) as Compose;
}
