// The Stop button: what Escape does (stop a streaming search, or a next page on its way), for a pointer or a finger,
// which have no Escape key. It is there only while something can be stopped.

export class StopControl {
  /**
   * @param button the control; @param focusAfter where the keyboard goes on when the control it was on goes away
   * @param stop stops what is running (returns whether anything was)
   */
  constructor(button, focusAfter, stop) {
    this.button = button;
    this.focusAfter = focusAfter;
    button.addEventListener('click', () => stop());
  }

  /** Shown while something runs, hidden once nothing does. */
  showWhile(running) {
    if (this.button.hidden === !running) return;
    // Hiding the control that has focus would drop the keyboard to the top of the page: it goes on to the results.
    const hadFocus = document.activeElement === this.button;
    this.button.hidden = !running;
    if (hadFocus && !running) this.focusAfter.focus();
  }
}
