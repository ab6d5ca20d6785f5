/**
 * Hears one event of a shared run. `moreAtOnce` is true when more follows at once: a caller that joined late is
 * told what it missed in one go, and work done for each event (fusing a stream's results so far) can wait for the last.
 * So is one that joined a run keeping no events, from what that run offered (SingleFlight's `hearOffered`).
 */
export type FlightListener<E> = (event: E, moreAtOnce: boolean) => void;

/**
 * What a shared run has told, kept while it runs so that a caller joining it late hears everything from the start.
 * It holds one event per step of the run (a search's: one per provider asked), and goes with the run.
 */
export class FlightEvents<E> {
  private readonly told: E[] = [];
  private listeners: Array<FlightListener<E>> = [];

  tell(event: E): void {
    this.told.push(event);
    // A listener may stop listening while it hears (its caller failed): each one listening now hears it, once.
    for (const listener of this.listeners.slice()) listener(event, false);
  }

  /** Tells `listener` everything told so far, then each event as it comes. */
  listen(listener: FlightListener<E>): void {
    this.listeners.push(listener);
    const missed = this.told.slice();
    for (let index = 0; index < missed.length; index += 1) listener(missed[index]!, index < missed.length - 1);
  }

  stopListening(listener: FlightListener<E>): void {
    this.listeners = this.listeners.filter((candidate) => candidate !== listener);
  }
}
