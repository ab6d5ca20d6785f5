// The view of a document of the embedded index: a result whose address is local:///api.md, which no browser opens.
// Its text is read the way an agent reads it, through fetch_url (the same answer, under the same key, and nothing the
// caller could not read there already), and shown over the page in a modal dialog, as text: a new tab could not send
// the key, and an address serving the index's files would be a second way in to guard.

import { KEY_REFUSED } from './api-key.js';
import { counted, statusWords } from './answer-words.js';
import { element } from './results.js';

/** Characters asked for at a time: fetch_url's most, so that most documents come whole, and a long one in parts. */
const PART_CHARS = 100_000;

export class DocumentView {
  /**
   * @param dialog the view; @param parts its title, source, status line, text and "Show more" button (index.html);
   * @param page what it needs of the page: headers() (the API key's), askForKey(message), fallbackFocus() (where the
   *   keyboard goes on when the result opened is no longer on the page)
   */
  constructor(dialog, parts, page) {
    this.dialog = dialog;
    this.parts = parts;
    this.page = page;
    this.reading = undefined;
    parts.close.addEventListener('click', () => dialog.close());
    // Pressed again while its part loads (aria-disabled), it waits, as More results does: a press that started the
    // reading over sent the request again and left the button looking ready while the second was still out.
    parts.more.addEventListener('click', () => {
      if (this.reading === undefined) void this.read(this.nextOffset);
    });
    dialog.addEventListener('close', () => this.closed());
    // Escape closes the view (the dialog's own cancel) and does only that. Let through to the page's handler (app.js),
    // it stopped a search still streaming in behind the view, unseen, and that handler's preventDefault kept the view open.
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') event.stopPropagation();
    });
  }

  /** Shows the view for the opener (a result's button), the keyboard in it, and reads the document it names. */
  open(opener) {
    this.stopReading();
    this.opener = opener;
    this.url = opener.dataset.document;
    this.title = opener.textContent;
    this.parts.title.textContent = this.title;
    this.parts.source.textContent = this.url;
    this.parts.text.textContent = '';
    this.parts.more.hidden = true;
    if (!this.dialog.open) this.dialog.showModal();
    this.parts.close.focus();
    void this.read(0);
  }

  /** Opens the view when a result's document button is pressed: one listener on the list for every result. */
  connect(list) {
    list.addEventListener('click', (event) => {
      const opener = event.target.closest('button[data-document]');
      if (opener && list.contains(opener)) this.open(opener);
    });
  }

  async read(offset) {
    this.stopReading();
    const reading = new AbortController();
    this.reading = reading;
    const first = offset === 0;
    this.say(first ? 'Loading the document…' : 'Loading more of the document…');
    this.parts.more.setAttribute('aria-disabled', 'true');
    try {
      const response = await fetch('/v1/ops/fetch_url', {
        method: 'POST',
        headers: { ...this.page.headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ url: this.url, offset, max_chars: PART_CHARS }),
        signal: reading.signal,
        cache: 'no-store',
      });
      const body = await response.json().catch(() => ({}));
      if (reading.signal.aborted) return;
      if (response.status === 401) {
        // The keyboard goes to the key's field, not back to the result: the view's close event comes after this.
        this.opener = undefined;
        this.dialog.close();
        return void this.page.askForKey(KEY_REFUSED);
      }
      if (!response.ok) return this.failed(this.refusalWords(response, body));
      this.show(body, first);
    } catch (error) {
      // Closed, or another document opened: not this reading's failure.
      if (reading.signal.aborted) return;
      this.failed(this.cannotOpen(`: ${error.message}`));
    } finally {
      // Only the reading still going on: one stopped for another (a document opened after it) leaves its state alone.
      if (this.reading === reading) {
        this.reading = undefined;
        this.parts.more.removeAttribute('aria-disabled');
      }
    }
  }

  /** The document's text (a part of it): written as text, never as HTML, whatever the document holds. */
  show(page, first) {
    this.parts.text.append(page.text);
    this.nextOffset = page.next_offset;
    const hadFocus = document.activeElement === this.parts.more;
    this.parts.more.hidden = page.next_offset === null;
    const shown = page.next_offset ?? page.total_chars;
    if (page.total_chars === 0) this.say('The document is empty.');
    else if (page.next_offset === null) this.say(first ? `The whole document, ${counted(page.total_chars, 'character')}.` : `The rest of the document: all ${counted(page.total_chars, 'character')} shown.`);
    else this.say(`${shown.toLocaleString()} of ${counted(page.total_chars, 'character')} shown; “Show more” reads on.`);
    // The button went with the last part: the keyboard goes on in the text it showed, not from the top of the page.
    if (hadFocus && this.parts.more.hidden) this.parts.text.focus();
  }

  /** Why the document could not be read, in the page's words; the service's own for what the page cannot know (a rate limit). */
  refusalWords(response, body) {
    if (response.status === 404) return this.cannotOpen(': the index no longer holds ', isolated(this.url), '. Search again to find what it holds now.');
    return this.cannotOpen(`: ${(body.message ?? statusWords(response)).replace(/\.$/, '')}.`);
  }

  /** “Title” could not be opened, then `rest` (text, or isolated parts): the parts of a status line, for say(). */
  cannotOpen(...rest) {
    return ['“', isolated(this.title), '” could not be opened', ...rest];
  }

  failed(message) {
    this.say(message, 'error');
  }

  /** Shows a status line: a text, or its parts (texts, and isolated() parts of a document's own). */
  say(text, kind = 'info') {
    this.parts.status.replaceChildren(...(Array.isArray(text) ? text : [text]));
    this.parts.status.dataset.kind = kind;
  }

  stopReading() {
    this.reading?.abort();
    this.reading = undefined;
  }

  /** Closed (Close or Escape): the reading stops, and the keyboard goes back to the result it came from. */
  closed() {
    this.stopReading();
    const opener = this.opener;
    this.opener = undefined;
    if (!opener) return;
    // The browser puts focus back where it was; the result pressed may have been replaced meanwhile (a new search).
    (opener.isConnected ? opener : this.page.fallbackFocus()).focus();
  }
}

/**
 * A document's own words (its title, its address) in a line of the page's: set apart for the direction of their own
 * letters. Run into the line, a Hebrew or Arabic title's closing `!` or `?` took the line's direction and showed at the
 * wrong end of the title, as results.js says of titles in the list.
 */
function isolated(text) {
  return element('bdi', { text });
}
