import { closedTextExcludedTerms } from '../domain/excluded-terms.js';
import { findArxivIds, findDois } from '../domain/paper-identifiers.js';
import { withoutSiteTerms } from '../engine/site-terms.js';
import { parseVideoIdOrUndefined } from './video-operations.js';

/**
 * What a query looks like, from plain patterns and word lists: links, identifiers, and words that say
 * "code", "news", "papers", "video" or "discussion". Each signal carries a score in [0, 1] and the words
 * that raised it, so a plan can say why it chose what it chose.
 */
export interface QuerySignals {
  urls: string[];
  youtubeUrls: string[];
  paperIds: string[];
  scores: Record<Topic, number>;
  reasons: Record<Topic, string[]>;
}

export type Topic = 'code' | 'news' | 'papers' | 'biomedical' | 'video' | 'discussion' | 'definition';

const WORDS: Record<Topic, RegExp> = {
  code: /\b(github|gitlab|repo|repository|repositories|library|libraries|package|npm|pypi|pip|crate|cargo|sdk|api|function|class|method|compile[rs]?|bug|stack ?trace|exception|typeerror|segfault|typescript|javascript|python|rust|golang|java|kotlin|swift|c\+\+|regex|docker|kubernetes|framework|open[- ]source|source code)\b/gi,
  // Not a year: "the 2024 Nobel prize" or "best laptops 2025" names a time, and news words ask for the last week.
  // Nor "this year": it asks for this year's papers and pages (question-years.ts), not for the last week's.
  // Nor "update", "release", "current" or "now" alone: "how do I update npm packages", "release a crate", "current
  // density" ask for no news; "latest release of node" has "latest", "node 22 released" has "released".
  news: /\b(news|latest|newest|today|yesterday|this (week|month)|breaking|announced|announces|launch(ed|es)?|released|recent(ly)?|what['’]?s new)\b/gi,
  papers: /\b(paper|papers|study|studies|research|arxiv|journal|preprint|peer[- ]reviewed|meta[- ]analysis|systematic review|survey|citations?|et al|abstract|theorem|proof|dataset|benchmark|doi|pubmed)\b/gi,
  biomedical: /\b(clinical|trial|patients?|disease|cancer|tumou?r|gene|genes|genome|protein|drug|dose|therapy|vaccine|virus|bacteria|covid|diabetes|cardio\w*|neuro\w*|medicine|medical|pharmac\w*|syndrome|rna|dna)\b/gi,
  video: /\b(video|videos|youtube|tutorial|watch|talk|lecture|keynote|webinar|podcast|vlog)\b/gi,
  discussion: /\b(reddit|opinions?|experiences?|recommendations?|recommend|reviews?|forum|thoughts|anyone|should i|vs\.?|versus|worth it)\b/gi,
  // "define entropy", "what's a monad", "what does idempotent mean", "meaning of …", "… definition".
  // Not "what's new in …": that asks for news, not an article.
  definition: /^(what|who|when|where)(['’]s(?! new\b)| (is|are|was|were))\b|^define\b|^what (does|do) \S+( \S+)? mean\b|\b(definition|meaning|history of|biography)\b/gi,
};

/**
 * A how-to question ("how do I install the latest node", "how to update npm packages") asks for instructions, which
 * do not date in a week: its news words (often "latest", "today") do not make it news.
 */
const HOW_TO = /^\s*(how (do|can|could|should|would) (i|we|you|one)|how to)\b/i;

/** A link; not the value of a site: term (`site:https://docs.rs/`), which names where to search, not a page to read. */
const URL_PATTERN = /(?<!site:)\bhttps?:\/\/[^\s<>"']+/gi;
const PMID_PATTERN = /\bpmid:?\s*(\d{1,9})\b/gi;

/** Each matching word raises its topic by 0.35, up to 1. */
const PER_HIT = 0.35;

export function analyseQuery(query: string): QuerySignals {
  // Its site: terms name where to search: `site:https://docs.rs` is no page to fetch, `site:arxiv.org/abs/1706.03762`
  // no paper to read, `site:github.com` no code question.
  const text = withoutSiteTerms(query);
  const urls = [...text.matchAll(URL_PATTERN)].map((match) => match[0].replace(/[).,;]+$/, ''));
  // Links to videos only: a channel or playlist link is a page like any other (video details would refuse it).
  const youtubeUrls = urls.filter((url) => /^https?:\/\/((www|m)\.)?(youtube\.com|youtu\.be)\//i.test(url) && parseVideoIdOrUndefined(url) !== undefined);
  const withoutUrls = text.replace(URL_PATTERN, ' ');
  const paperIds = [
    ...findDois(withoutUrls),
    ...findArxivIds(withoutUrls).map((id) => `arXiv:${id}`),
    ...[...withoutUrls.matchAll(PMID_PATTERN)].map((match) => `PMID:${match[1]}`),
    ...urls.filter((url) => /doi\.org\/|arxiv\.org\/(abs|pdf)\/|pubmed\.ncbi\.nlm\.nih\.gov\/\d/i.test(url)),
  ].filter((id): id is string => typeof id === 'string' && id !== '');
  const scores = {} as Record<Topic, number>;
  const reasons = {} as Record<Topic, string[]>;
  const words = topicWords(text);
  const howTo = HOW_TO.test(words);
  for (const topic of Object.keys(WORDS) as Topic[]) {
    const hits = topic === 'news' && howTo ? [] : [...new Set([...words.matchAll(WORDS[topic])].map((match) => match[0].toLowerCase()))];
    scores[topic] = Math.min(1, hits.length * PER_HIT);
    reasons[topic] = hits;
  }
  return { urls, youtubeUrls, paperIds: [...new Set(paperIds)], scores, reasons };
}

/**
 * The words that say what a query (without its site: terms) is about: not its links, nor its excluded terms (a search
 * for `snakes -python` is not about Python). Read closed first (closedQuery), as every provider reads excluded terms: a
 * NOT that opens a group (`snakes (NOT python)`) excludes, and a group nested past the depth they read is words.
 */
function topicWords(text: string): string {
  return closedTextExcludedTerms(text).rest.replace(URL_PATTERN, ' ');
}

/** The question's frame, in the order it is taken off: "what is", "define", "what does … mean", "meaning of", "… definition". */
const DEFINITION_FRAMES: ReadonlyArray<[RegExp, string]> = [
  [/^(what|who|when|where)(['’]s|\s+(is|are|was|were))\s+/i, ''],
  [/^define\s+/i, ''],
  [/^what\s+(does|do)\s+(.+?)\s+mean\b.*$/i, '$2'],
  // Not "history of": Wikipedia's "History of Rome" is the article such a question asks for.
  [/^(the\s+)?(meaning|definition)\s+of\s+/i, ''],
  [/\s+(definition|meaning)$/i, ''],
];

/**
 * What a definitional question asks about: "who was Ada Lovelace?" → "Ada Lovelace", "define entropy" → "entropy".
 * An encyclopedia's search ranks the article on a subject first when asked for the subject, not for the question
 * around it. The words as they are when no frame is found, or nothing is left without it.
 */
export function definitionSubject(words: string): string {
  let subject = words.trim().replace(/[?!.]+$/, '');
  for (const [frame, replacement] of DEFINITION_FRAMES) subject = subject.replace(frame, replacement).trim();
  subject = subject.replace(/^(a|an|the)\s+/i, '').trim();
  return subject === '' ? words : subject;
}
