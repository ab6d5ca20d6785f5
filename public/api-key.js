// The API key: asked for by its form when the service needs one (or refuses the one given), kept in this tab only
// (sessionStorage, as the form says) and sent as an Authorization header with each request. Never in a URL: an
// address is logged and shared, a header is not.

const KEY_STORAGE = 'fedsearch-api-key';
/** What the key form says before any key was given; every other reason to ask is a refused key. */
const KEY_NEEDED = 'This service needs an API key.';
/** What the page says when the service refuses the key sent: a wrong key, not a missing one. */
export const KEY_REFUSED = 'The API key was refused; enter another.';

export class ApiKey {
  /**
   * @param form the key form; @param input its field; @param page what it needs of the page: say(text, kind),
   *   nextField (where the keyboard goes on once the form hides), asked() (the key is asked for: what waits on it can
   *   say so), given() (a key was entered and kept: try it)
   */
  constructor(form, input, page) {
    this.form = form;
    this.input = input;
    this.page = page;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const key = input.value.trim();
      if (!key) return input.focus();
      sessionStorage.setItem(KEY_STORAGE, key);
      input.value = '';
      page.given();
    });
  }

  /** Whether the page waits for a key: its form is showing, and a search now would be refused. */
  get waiting() {
    return !this.form.hidden;
  }

  /** The headers every request sends: the key, once one was given. */
  headers() {
    const key = sessionStorage.getItem(KEY_STORAGE);
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  /** Forgets the key kept (it was refused, or there is none), shows the form with `message` and goes to its field; returns false. */
  ask(message = KEY_NEEDED) {
    sessionStorage.removeItem(KEY_STORAGE);
    this.form.hidden = false;
    // A refused key marks the field, as a wrong deadline marks its own: a screen reader back on it heard nothing wrong.
    if (message === KEY_NEEDED) this.input.removeAttribute('aria-invalid');
    else this.input.setAttribute('aria-invalid', 'true');
    this.page.asked();
    this.page.say(message, 'error');
    this.input.focus();
    return false;
  }

  /** The service took the key: the form goes. */
  accepted() {
    // Hiding the field that has focus drops it to the top of the page: a keyboard user goes on from the search box.
    const hadFocus = this.form.contains(document.activeElement);
    this.form.hidden = true;
    if (hadFocus) this.page.nextField.focus();
  }
}
