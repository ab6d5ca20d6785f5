// The Stop button: what Escape does (stop a streaming search, or a next page on its way), for a pointer or a finger,
// which have no Escape key. It is there only while something can be stopped, once it has run a moment.

/**
 * How long something runs before Stop shows. An answer the service kept comes in about 40 ms: shown at once, the
 * button flashed up and went before it could be read, let alone pressed. 150 ms is the usual delay before a busy
 * sign; Escape, which shows nothing, stops from the first moment.
 */
const SHOW_AFTER_MS = 150;

export class StopControl {
  /**
   * @param button the control; @param focusAfter returns where the keyboard goes on when the control it was on goes
   *   away (what is on the page then decides it) @param stop stops what is running (returns whether anything was)
   */
  constructor(button, focusAfter, stop) {
    this.button = button;
    this.focusAfter = focusAfter;
    this.showing = undefined;
    button.addEventListener('click', () => stop());
  }

  /** Shown once something has run for SHOW_AFTER_MS, hidden as soon as nothing does. */
  showWhile(running) {
    if (running) {
      // Already there, or on its way: what runs now carries on from what ran before.
      if (this.button.hidden && this.showing === undefined) this.showing = setTimeout(() => this.show(), SHOW_AFTER_MS);
      return;
    }
    clearTimeout(this.showing);
    this.showing = undefined;
    if (this.button.hidden) return;
    // Hiding the control that has focus would drop the keyboard to the top of the page: it goes on from nearby.
    const hadFocus = document.activeElement === this.button;
    this.button.hidden = true;
    if (hadFocus) this.focusAfter().focus();
  }

  show() {
    this.showing = undefined;
    this.button.hidden = false;
  }
}
