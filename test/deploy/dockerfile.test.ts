import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The Dockerfile's instructions of its last stage (the image that runs), continuation lines joined. */
function runtimeInstructions(): Array<{ keyword: string; argument: string }> {
  const text = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8').replace(/\\\n/g, ' ');
  const instructions = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, argument] = /^(\S+)\s*(.*)$/.exec(line)!;
      return { keyword: keyword!.toUpperCase(), argument: argument! };
    });
  const lastStage = instructions.map((instruction) => instruction.keyword).lastIndexOf('FROM');
  return instructions.slice(lastStage);
}

function only(keyword: string): string {
  const found = runtimeInstructions().filter((instruction) => instruction.keyword === keyword);
  expect(found.length).toBe(1);
  return found[0]!.argument;
}

/** A Go duration as Docker writes one in HEALTHCHECK flags (30s, 1m30s, 500ms), in seconds. */
function seconds(duration: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  expect(parts.map((part) => part[0]).join('')).toBe(duration);
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * units[unit!]!, 0);
}

function healthcheckFlags(): Map<string, string> {
  const [flags] = only('HEALTHCHECK').split(/\sCMD\s/);
  return new Map([...flags!.matchAll(/--([a-z-]+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

describe("the image's user", () => {
  // Kubernetes' runAsNonRoot cannot look a name up in the image and refuses to start the pod; a number it checks.
  it('is a numeric uid:gid other than root, so runAsNonRoot can verify it', () => {
    const user = /^(\d+):(\d+)$/.exec(only('USER'));
    expect(user, 'USER uid:gid in numbers').not.toBeNull();
    expect(Number(user![1])).toBeGreaterThan(0);
    expect(Number(user![2])).toBeGreaterThan(0);
  });
});

describe("the image's HEALTHCHECK", () => {
  // Docker's first probe comes one interval after the start: until then the container is "starting", and
  // CapRover or compose's `condition: service_healthy` waits.
  it('first probes within 10 s of the start', () => {
    expect(seconds(healthcheckFlags().get('interval') ?? '30s')).toBeLessThanOrEqual(10);
  });

  // Engines before Docker 25 (Debian bookworm's docker.io 20.10) stop the build at "Unknown flag: start-interval".
  it('uses only flags every Docker engine accepts', () => {
    const everywhere = ['interval', 'timeout', 'start-period', 'retries'];
    expect([...healthcheckFlags().keys()].filter((flag) => !everywhere.includes(flag))).toEqual([]);
  });

  it('still takes about 90 s of failed probes to call a container unhealthy, as before the interval was shortened', () => {
    const flags = healthcheckFlags();
    expect(seconds(flags.get('interval')!) * Number(flags.get('retries'))).toBeGreaterThanOrEqual(90);
  });
});
