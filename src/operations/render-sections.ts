import { cutText } from '../domain/cut-text.js';
import type { SearchResponse } from '../engine/search-service.js';
import { MAX_RENDERED_CHARS, renderSearch } from './render.js';
import { searchFailure } from './search-failure.js';

/** Several searches answered together (company research, auto research): titled, each with its reason. */
export interface SearchSection {
  title: string;
  reason?: string;
  response: SearchResponse;
}

/** Sections one after the other, each given an equal share of the character budget. */
export function renderSections(sections: SearchSection[], preface = ''): string {
  const budget = Math.floor((MAX_RENDERED_CHARS - preface.length) / Math.max(1, sections.length)) - 100;
  const parts = sections.map((section) => {
    const heading = `## ${section.title}${section.reason ? `\n(${section.reason})` : ''}`;
    // A search no provider answered says so first, as it does alone: "No results." beside answered sections misleads.
    const failure = searchFailure(section.response);
    const body = failure === undefined ? renderSearch(section.response) : `${failure}\n\n${renderSearch(section.response)}`;
    return `${heading}\n${body.length > budget ? cutText(body, budget) : body}`;
  });
  return `${preface}${parts.join('\n\n')}`;
}
