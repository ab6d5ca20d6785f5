import { describe, expect, it } from 'vitest';
import { Cancellation, type CallerSignal } from '../../src/engine/cancellation.js';
import { SingleFlight, type FlightListener, type FlightOffer } from '../../src/engine/single-flight.js';

/** A run the test drives: what it was given, and how to tell an event or finish it. */
interface DrivenRun {
  signal: CallerSignal;
  tell: ((event: string) => void) | undefined;
  /** What an offering run (offeringWork) offered. */
  offered: OfferedEvents;
  finish(value: string): void;
}

function drivenWork(runs: DrivenRun[]) {
  return (signal: CallerSignal, tell: ((event: string) => void) | undefined) =>
    new Promise<string>((resolve) => runs.push({ signal, tell, offered: new OfferedEvents(), finish: resolve }));
}

/**
 * What a run keeping no events offers in these tests: a stand-in for a fan-out's providers' answers to come, which a
 * caller hears from the start whenever it comes, those already in at once.
 */
class OfferedEvents {
  private readonly told: string[] = [];
  private readonly hearing: Array<FlightListener<string>> = [];

  tell(event: string): void {
    this.told.push(event);
    for (const listener of this.hearing) listener(event, false);
  }

  hear(listener: FlightListener<string>): void {
    this.told.forEach((event, index) => listener(event, index < this.told.length - 1));
    this.hearing.push(listener);
  }
}

const hearOffered = (offered: OfferedEvents, listener: FlightListener<string>): void => offered.hear(listener);

/** A run the test drives that offers what it tells (FlightOffer), as a run whose first caller does not listen may. */
function offeringWork(runs: DrivenRun[]) {
  return (signal: CallerSignal, tell: ((event: string) => void) | undefined, offer: FlightOffer<OfferedEvents>) => {
    offer.offered = new OfferedEvents();
    return new Promise<string>((resolve) => runs.push({ signal, tell, offered: offer.offered!, finish: resolve }));
  };
}

/** A listener that records what it hears, as `event` or `event+` when more follow at once. */
function recorder(heard: string[], name: string) {
  return (event: string, moreAtOnce: boolean) => void heard.push(`${name}:${event}${moreAtOnce ? '+' : ''}`);
}

describe('SingleFlight with callers that listen', () => {
  it('tells a caller that joins late what it missed at once, the last of it marked as such, then the rest as it comes', async () => {
    const flights = new SingleFlight<string, string>();
    const runs: DrivenRun[] = [];
    const work = drivenWork(runs);
    const heard: string[] = [];
    const first = flights.run('key', new Cancellation(), work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'first'));
    runs[0]!.tell!('a');
    runs[0]!.tell!('b');
    const second = flights.run('key', new Cancellation(), work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'second'));
    const plain = flights.run('key', undefined, work);
    expect(runs).toHaveLength(1);
    runs[0]!.tell!('c');
    expect(heard).toEqual(['first:a', 'first:b', 'second:a+', 'second:b', 'first:c', 'second:c']);
    runs[0]!.finish('answer');
    await expect(Promise.all([first, second, plain])).resolves.toEqual(['answer', 'answer', 'answer']);
    expect(flights.size).toBe(0);
  });

  it('lets a listener join a run that keeps nothing (its first caller did not listen), hearing from what it offered: what it missed at once, then the rest', async () => {
    const flights = new SingleFlight<string, string, OfferedEvents>();
    const runs: DrivenRun[] = [];
    const work = offeringWork(runs);
    const heard: string[] = [];
    const plain = flights.run('key', undefined, work);
    expect(runs[0]!.tell).toBeUndefined();
    runs[0]!.offered.tell('a');
    runs[0]!.offered.tell('b');
    const listening = flights.run('key', new Cancellation(), work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'listening'), hearOffered);
    // No run of their own: the one run is asked once.
    expect(runs).toHaveLength(1);
    expect(heard).toEqual(['listening:a+', 'listening:b']);
    runs[0]!.offered.tell('c');
    expect(heard).toEqual(['listening:a+', 'listening:b', 'listening:c']);
    // One that cannot hear what was offered joins all the same, and is given the value.
    const deaf = flights.run('key', undefined, work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'deaf'));
    runs[0]!.offered.tell('d');
    runs[0]!.finish('answer');
    await expect(Promise.all([plain, listening, deaf])).resolves.toEqual(['answer', 'answer', 'answer']);
    expect(heard).toEqual(['listening:a+', 'listening:b', 'listening:c', 'listening:d']);
    expect(runs).toHaveLength(1);
    expect(flights.size).toBe(0);
  });

  it('keeps a run that keeps nothing going for the others when a listener that joined it leaves, and fails only a listener that throws', async () => {
    const flights = new SingleFlight<string, string, OfferedEvents>();
    const runs: DrivenRun[] = [];
    const work = offeringWork(runs);
    const heard: string[] = [];
    const plainGone = new Cancellation();
    const plain = flights.run('key', plainGone, work);
    const listenerGone = new Cancellation();
    const leaving = flights.run('key', listenerGone, work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'leaving'), hearOffered);
    const broken = new Error('listener bug');
    const throwsOnHearing = (): void => {
      throw broken;
    };
    const throwing = flights.run('key', undefined, work, 0, Number.POSITIVE_INFINITY, throwsOnHearing, hearOffered);
    const staying = flights.run('key', undefined, work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'staying'), hearOffered);
    runs[0]!.offered.tell('one');
    await expect(throwing).rejects.toBe(broken);
    listenerGone.abort('listener left');
    await expect(leaving).rejects.toBe('listener left');
    plainGone.abort('plain left');
    await expect(plain).rejects.toBe('plain left');
    expect(runs[0]!.signal.aborted).toBe(false);
    // What the run offers goes on telling those that left: they no longer hear it.
    runs[0]!.offered.tell('two');
    runs[0]!.finish('answer');
    await expect(staying).resolves.toBe('answer');
    expect(heard).toEqual(['leaving:one', 'staying:one', 'staying:two']);
  });

  it('aborts a run that keeps nothing once every caller, listening or not, has left', async () => {
    const flights = new SingleFlight<string, string, OfferedEvents>();
    const runs: DrivenRun[] = [];
    const work = offeringWork(runs);
    const plainGone = new Cancellation();
    const listenerGone = new Cancellation();
    const plain = flights.run('key', plainGone, work);
    const listening = flights.run('key', listenerGone, work, 0, Number.POSITIVE_INFINITY, () => undefined, hearOffered);
    plainGone.abort('plain left');
    await expect(plain).rejects.toBe('plain left');
    expect(runs[0]!.signal.aborted).toBe(false);
    listenerGone.abort('listener left');
    await expect(listening).rejects.toBe('listener left');
    expect(runs[0]!.signal).toMatchObject({ aborted: true, reason: 'listener left' });
    expect(flights.size).toBe(0);
  });

  it('stops telling a caller that left, and aborts the run only when the last one leaves', async () => {
    const flights = new SingleFlight<string, string>();
    const runs: DrivenRun[] = [];
    const work = drivenWork(runs);
    const heard: string[] = [];
    const firstGone = new Cancellation();
    const secondGone = new Cancellation();
    const first = flights.run('key', firstGone, work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'first'));
    const second = flights.run('key', secondGone, work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'second'));
    firstGone.abort('first left');
    await expect(first).rejects.toBe('first left');
    runs[0]!.tell!('after');
    expect(heard).toEqual(['second:after']);
    expect(runs[0]!.signal.aborted).toBe(false);
    secondGone.abort('second left');
    await expect(second).rejects.toBe('second left');
    expect(runs[0]!.signal).toMatchObject({ aborted: true, reason: 'second left' });
  });

  it('fails only the caller whose listener throws, and aborts the run with the fault reason when nobody else waits', async () => {
    const fault = Symbol('a listener failed');
    const flights = new SingleFlight<string, string>(fault);
    const runs: DrivenRun[] = [];
    const work = drivenWork(runs);
    const heard: string[] = [];
    const broken = new Error('listener bug');
    const failing = flights.run('key', new Cancellation(), work, 0, Number.POSITIVE_INFINITY, () => {
      throw broken;
    });
    const healthy = flights.run('key', new Cancellation(), work, 0, Number.POSITIVE_INFINITY, recorder(heard, 'healthy'));
    runs[0]!.tell!('one');
    await expect(failing).rejects.toBe(broken);
    runs[0]!.tell!('two');
    expect(heard).toEqual(['healthy:one', 'healthy:two']);
    expect(runs[0]!.signal.aborted).toBe(false);
    runs[0]!.finish('answer');
    await expect(healthy).resolves.toBe('answer');

    // A joiner whose listener throws on what it missed fails at once; alone on the run, it aborts it with the fault reason.
    const alone = flights.run('other', new Cancellation(), work, 0, Number.POSITIVE_INFINITY, () => undefined);
    runs[1]!.tell!('missed');
    const late = flights.run('other', new Cancellation(), work, 0, Number.POSITIVE_INFINITY, () => {
      throw broken;
    });
    await expect(late).rejects.toBe(broken);
    expect(runs[1]!.signal.aborted).toBe(false);
    const throwsNow = flights.run('third', undefined, work, 0, Number.POSITIVE_INFINITY, () => {
      throw broken;
    });
    runs[2]!.tell!('event');
    await expect(throwsNow).rejects.toBe(broken);
    expect(runs[2]!.signal).toMatchObject({ aborted: true, reason: fault });
    runs[1]!.finish('other answer');
    await expect(alone).resolves.toBe('other answer');
  });
});
