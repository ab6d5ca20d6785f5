import { describe, expect, it } from 'vitest';
import type { ProviderOutcome } from '../../src/domain/outcome.js';
import { ProviderHealth } from '../../src/engine/provider-health.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const failure = (extra: Partial<ProviderOutcome> = {}): ProviderOutcome => ({
  provider: 'p',
  status: 'error',
  count: 0,
  latency_ms: 20,
  code: 'PROVIDER_HTTP',
  message: 'HTTP 500',
  ...extra,
});
const success = (latency = 10): ProviderOutcome => ({ provider: 'p', status: 'ok', count: 3, latency_ms: latency });

describe('ProviderHealth', () => {
  it('does not count failures their caller caused, and a probe that ends in one leaves the next call to probe', () => {
    const time = clock();
    const health = new ProviderHealth({ failureThreshold: 2, cooldownMs: 1000, maxCooldownMs: 8000, now: time.now });
    const callerTimeout = failure({ status: 'timeout', code: 'PROVIDER_TIMEOUT', message: 'no answer within 100 ms' });
    for (let call = 0; call < 5; call += 1) health.record(callerTimeout, true);
    expect(health.state).toBe('closed');
    expect(health.snapshot()).toMatchObject({ consecutive_failures: 0, recent_calls: 0 });
    expect(health.snapshot().last_error).toBeUndefined();

    health.record(failure());
    health.record(failure());
    time.advance(1000);
    expect(health.admit()).toEqual({ allowed: true, probe: true });
    health.record(callerTimeout, true, true);
    // Still half-open, with no probe in flight: the next call is let through.
    expect(health.state).toBe('half-open');
    expect(health.admit()).toEqual({ allowed: true, probe: true });
  });

  it('lets one probe through at a time though calls admitted before the circuit opened end unused meanwhile', () => {
    const time = clock();
    const health = new ProviderHealth({ failureThreshold: 1, cooldownMs: 1000, maxCooldownMs: 8000, now: time.now });
    // Four calls admitted while closed; the first fails and opens the circuit, the others still wait here.
    for (let call = 0; call < 4; call += 1) expect(health.admit()).toEqual({ allowed: true });
    health.record(failure());
    time.advance(1000);
    expect(health.admit()).toMatchObject({ allowed: true });
    // The stragglers end without reaching the upstream: our rate limit, a timeout spent waiting here, a cancel.
    health.record({ provider: 'p', status: 'rate_limited', count: 0, latency_ms: 0, retry_after_ms: 500 });
    health.record(failure({ status: 'timeout', code: 'PROVIDER_TIMEOUT' }), true);
    health.record(failure({ code: 'REQUEST_CANCELLED' }));
    expect(health.admit()).toMatchObject({ allowed: false, reason: 'suspended: a probe request is in flight' });
    health.record(success(), false, true);
    expect(health.state).toBe('closed');
  });

  it('opens after N consecutive failures, probes once after the cooldown, and closes on success', () => {
    const time = clock();
    const health = new ProviderHealth({ failureThreshold: 3, cooldownMs: 1000, maxCooldownMs: 8000, now: time.now });
    health.record(failure());
    health.record(failure());
    expect(health.admit()).toEqual({ allowed: true });
    health.record(failure());
    expect(health.state).toBe('open');
    expect(health.admit()).toMatchObject({ allowed: false, retryAfterMs: 1000, reason: 'suspended after 3 consecutive failures' });
    time.advance(1000);
    expect(health.state).toBe('half-open');
    expect(health.admit()).toEqual({ allowed: true, probe: true });
    // Only one probe at a time.
    expect(health.admit().allowed).toBe(false);
    health.record(success(), false, true);
    expect(health.state).toBe('closed');
    expect(health.admit()).toEqual({ allowed: true });
  });

  it('doubles the cooldown after each failed probe, up to the maximum', () => {
    const time = clock();
    const health = new ProviderHealth({ failureThreshold: 1, cooldownMs: 1000, maxCooldownMs: 3000, now: time.now });
    health.record(failure());
    const pauses: number[] = [];
    for (let probe = 0; probe < 3; probe += 1) {
      const admission = health.admit();
      if (admission.allowed) throw new Error('expected suspension');
      pauses.push(admission.retryAfterMs);
      time.advance(admission.retryAfterMs);
      expect(health.admit()).toEqual({ allowed: true, probe: true });
      health.record(failure(), false, true);
    }
    expect(pauses).toEqual([1000, 2000, 3000]);
  });

  it("opens a host's breaker (forHost) on its own failures alone, and holds every host for any one's Retry-After", () => {
    const time = clock();
    const instance = new ProviderHealth({ failureThreshold: 2, cooldownMs: 1000, maxCooldownMs: 8000, now: time.now });
    const german = instance.forHost('de.wikipedia.org');
    const french = instance.forHost('fr.wikipedia.org');
    german.record(failure());
    german.record(failure());
    expect(german.admit()).toMatchObject({ allowed: false, retryAfterMs: 1000, reason: 'suspended after 2 consecutive failures at de.wikipedia.org' });
    expect(instance.admit()).toEqual({ allowed: true });
    expect(french.admit()).toEqual({ allowed: true });

    french.record(failure({ code: 'PROVIDER_RATE_LIMITED', retry_after_ms: 5000 }));
    for (const health of [instance, french]) {
      expect(health.admit()).toMatchObject({ allowed: false, retryAfterMs: 5000, reason: 'suspended: the upstream asked to wait (Retry-After)' });
    }
    time.advance(5000);
    expect(instance.admit()).toEqual({ allowed: true });
    // The French breaker, opened for the wait it heard, lets one probe through once the wait is over.
    expect(french.admit()).toEqual({ allowed: true, probe: true });
  });

  it('suspends for exactly the Retry-After an upstream sends', () => {
    const time = clock();
    const health = new ProviderHealth({ failureThreshold: 5, cooldownMs: 1000, maxCooldownMs: 8000, now: time.now });
    health.record(failure({ code: 'PROVIDER_RATE_LIMITED', retry_after_ms: 7000 }));
    expect(health.admit()).toMatchObject({ allowed: false, retryAfterMs: 7000 });
    expect(health.snapshot()).toMatchObject({ state: 'open', retry_after_ms: 7000 });
  });

  it('reports over the last 100 calls only: older ones leave the window as new ones come', () => {
    const health = new ProviderHealth({ failureThreshold: 1000, cooldownMs: 1000, maxCooldownMs: 8000, now: clock().now });
    for (let call = 0; call < 150; call += 1) health.record(failure({ latency_ms: 1000 }));
    for (let call = 1; call <= 60; call += 1) health.record(success(call));
    // The window holds the last 40 failures (1000 ms each) and the 60 successes (1..60 ms).
    expect(health.snapshot()).toMatchObject({ recent_calls: 100, success_rate: 0.6, latency_p50_ms: 51 });
    for (let call = 61; call <= 100; call += 1) health.record(success(call));
    expect(health.snapshot()).toMatchObject({ recent_calls: 100, success_rate: 1, latency_p50_ms: 51, latency_p95_ms: 96 });
  });

  it('ignores cancelled calls and reports percentiles, success rate and the last error', () => {
    const time = clock();
    const health = new ProviderHealth({ failureThreshold: 2, cooldownMs: 1000, maxCooldownMs: 8000, now: time.now });
    health.record(failure({ code: 'REQUEST_CANCELLED' }));
    health.record(failure({ code: 'REQUEST_CANCELLED' }));
    expect(health.state).toBe('closed');
    for (const latency of [10, 20, 30, 40]) health.record(success(latency));
    health.record(failure({ latency_ms: 100, message: 'HTTP 502' }));
    expect(health.snapshot()).toEqual({
      state: 'closed',
      consecutive_failures: 1,
      success_rate: 0.8,
      latency_p50_ms: 30,
      latency_p95_ms: 100,
      recent_calls: 5,
      last_error: { message: 'HTTP 502', at: new Date(1_000_000).toISOString() },
    });
  });
});
