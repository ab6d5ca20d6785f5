// The longest query a search takes, as the search box's maxlength says it (index.html; the service's own limit, checked
// against it by test/web/page-query-length.test.ts). Typing stops there, visibly; the page says the rest in its words.

/**
 * What is wrong with a query over the limit, or undefined when it is within it. A link or a history entry can carry
 * one (maxlength bounds only what is typed), and the service's refusal named "q", a word the page shows nowhere.
 */
export function queryTooLong(query, box) {
  // Counted as the service counts it: composed (NFC), so an accent typed as a letter and a mark counts once.
  const length = query.normalize('NFC').length;
  if (length <= box.maxLength) return undefined;
  return `The search is ${length} characters long; at most ${box.maxLength} are allowed. Shorten it to search.`;
}

/** Line breaks, which Chromium's one-line box turns into a space each as it takes a paste (\r\n into one). */
const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * Says on `note` (a polite live region beside the box) when a paste or a drop into `box` is cut at its maxlength:
 * the browser cuts it without a word, and the search is for less than the user meant. The note goes with the next
 * change that is not cut.
 */
export function connectPasteNote(box, note) {
  let cut = false;
  box.addEventListener('beforeinput', (event) => {
    if (event.inputType !== 'insertFromPaste' && event.inputType !== 'insertFromDrop') return void (cut = false);
    const inserted = (event.data ?? event.dataTransfer?.getData('text/plain') ?? '').replace(LINE_BREAK, ' ');
    const replaced = (box.selectionEnd ?? 0) - (box.selectionStart ?? 0);
    cut = box.value.length - replaced + inserted.length > box.maxLength;
  });
  box.addEventListener('input', () => {
    note.textContent = cut ? `Cut to ${box.maxLength} characters, the most a search takes.` : '';
  });
}
