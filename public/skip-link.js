// "Skip to results": from the search box, the kind, the switches and a checkbox per provider stood between a
// keyboard user and the first result, about ten Tab stops. The link jumps them, and is there only while there are
// results to jump to.

/** Shows `skipLink` while `list` holds results; following it puts keyboard focus on `heading`, the results' start. */
export function connectSkipLink(skipLink, list, heading) {
  const showWhenListed = () => {
    skipLink.hidden = list.children.length === 0;
  };
  // Results come and go in several places (each streamed event, More results, a new search, Back): watch the list.
  new MutationObserver(showWhenListed).observe(list, { childList: true });
  showWhenListed();
  skipLink.addEventListener('click', (event) => {
    // Focus moved by hand, not by the browser following #results-title: that adds a history entry, and the page
    // runs the address bar's search again on every step back.
    event.preventDefault();
    heading.focus();
  });
}
