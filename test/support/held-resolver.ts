import type { HostResolver } from '../../src/fetch/fetch-target.js';

/**
 * A resolver like a DNS zone that never answers: each lookup it is asked for hangs until the test answers it.
 * `started` lists the names in the order their lookups began. Lookups of caller-named hosts share process-wide
 * slots, so a test must answer every held lookup at its end (answerAll) or the next test finds the slots taken.
 */
export class HeldResolver {
  readonly started: string[] = [];
  readonly #answers = new Map<string, () => void>();
  readonly #watchers: Array<{ count: number; reached: () => void }> = [];
  #answerAtOnce = false;

  /** `address`: what every lookup answers once let go. */
  constructor(readonly address = '93.184.216.34') {}

  readonly lookup: HostResolver = (hostname) => {
    this.started.push(hostname);
    for (const watcher of this.#watchers.filter((entry) => entry.count <= this.started.length)) {
      this.#watchers.splice(this.#watchers.indexOf(watcher), 1);
      watcher.reached();
    }
    return new Promise((resolve) => {
      const answer = () => resolve([{ address: this.address, family: 4 }]);
      if (this.#answerAtOnce) answer();
      else this.#answers.set(hostname, answer);
    });
  };

  /** Settles once `count` lookups have begun in all. */
  untilStarted(count: number): Promise<void> {
    if (this.started.length >= count) return Promise.resolve();
    return new Promise((reached) => this.#watchers.push({ count, reached }));
  }

  answer(hostname: string): void {
    const answer = this.#answers.get(hostname);
    if (!answer) throw new Error(`no lookup of ${hostname} is waiting`);
    this.#answers.delete(hostname);
    answer();
  }

  /** Answers every lookup hanging and any still to come, so no slot stays held for the next test (they are process-wide). */
  answerAll(): void {
    this.#answerAtOnce = true;
    for (const hostname of [...this.#answers.keys()]) this.answer(hostname);
  }
}
