// The provider chips: one checkbox per provider of the search's kind, and the folded list of what each searches.

import { element } from './results.js';
import { AUTO_PROVIDERS, asksForAuto } from './search-state.js';

const chips = document.getElementById('provider-chips');
const providerAbout = document.getElementById('provider-about');
const providerDescriptions = document.getElementById('provider-descriptions');

/**
 * One checkbox per provider of the kind: the ones named in the URL, else every configured one, start on. What each
 * searches (and what an unconfigured one needs) is listed under them, folded away, and is each checkbox's description.
 * providers=auto is a chip of its own, first: on for a link that asks for it, the others off (the service chooses, and
 * says whom), and there to be chosen by hand too. Shown for a link only, the page offered less than its API.
 */
export function renderChips(catalogue, kind, selected) {
  const providers = catalogue.filter((provider) => provider.kind === kind);
  const auto = asksForAuto(selected);
  const chosen = new Set(auto ? [] : selected?.length ? selected : providers.filter((provider) => provider.configured).map((provider) => provider.name));
  chips.replaceChildren(
    ...(providers.length > 0 ? autoChip(auto) : []),
    ...providers.flatMap((provider, index) => {
      // By place, not by name: an instance's name is the operator's to choose, and need not make a valid id.
      const aboutId = `provider-about-${index}`;
      const input = element('input', { attributes: { type: 'checkbox', name: 'providers', value: provider.name, 'aria-describedby': aboutId } });
      input.checked = chosen.has(provider.name);
      const note = provider.configured ? '' : ' (not configured)';
      // A copy of its entry in the list below, hidden: a description inside a closed <details> is no description at all
      // (Chromium reads it only while the list is open), while a hidden element's text is. Beside the label, not in it:
      // a label's text is the checkbox's name to tools that find a control by its label.
      const about = element('span', { text: aboutProvider(provider), attributes: { id: aboutId, hidden: '' } });
      return [element('label', { className: `chip${provider.configured ? '' : ' unconfigured'}` }, [input, element('span', { text: `${provider.name}${note}` })]), about];
    }),
  );
  providerDescriptions.replaceChildren(
    ...providers.flatMap((provider) => [element('dt', { text: provider.name }), element('dd', { text: aboutProvider(provider) })]),
  );
  providerAbout.hidden = providers.length === 0;
  if (providers.length === 0) showChipsNote('No providers of this kind.');
}

/** The chip of providers=auto, and its description, as each provider's: checked, it is the search's one entry. */
function autoChip(checked) {
  const input = element('input', { attributes: { type: 'checkbox', name: 'providers', value: AUTO_PROVIDERS, 'aria-describedby': 'provider-about-auto' } });
  input.checked = checked;
  const about = element('span', {
    text: 'The service chooses the providers that suit the query, and its answer says which and why.',
    attributes: { id: 'provider-about-auto', hidden: '' },
  });
  return [element('label', { className: 'chip' }, [input, element('span', { text: 'auto: the service chooses by the query' })]), about];
}

// auto and named providers are not one search: the service refuses "auto" beside a name. Checking one clears the other.
chips.addEventListener('change', (event) => {
  const changed = event.target;
  if (!changed.checked) return;
  const isAuto = (input) => input.value === AUTO_PROVIDERS;
  for (const other of chips.querySelectorAll('input:checked')) if (isAuto(other) !== isAuto(changed)) other.checked = false;
});

/** The names of the providers checked. */
export function checkedProviders() {
  return [...chips.querySelectorAll('input:checked')].map((input) => input.value);
}

/** A line in the chips' place, when there are none to show. */
export function showChipsNote(text) {
  chips.replaceChildren(element('span', { className: 'muted', text }));
}

function aboutProvider(provider) {
  return provider.configured ? provider.description : `${provider.description} Not configured: needs ${provider.missing.join(', ')}.`;
}
