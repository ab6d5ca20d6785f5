/**
 * What a search auto_research plans is sent: the question's words, less those its providers cannot use.
 *
 * - `as-asked`: web engines read natural language, so web_search gets the question as it came, and so does
 *   reddit_search: most of its engines are asked unfiltered and their answers kept to reddit.com afterwards, and
 *   "reddit" in the words is what brings reddit threads into those answers.
 * - `relevance`: an engine that ranks by relevance (YouTube's `q`) is not hurt by small words, but a question
 *   frame ("find me", "what are") or a word naming the source the step already is ("video", "youtube") only pulls
 *   results towards videos that say those words.
 * - `all-terms`: providers that match every word: arXiv (its clauses are ANDed, src/providers/arxiv.ts), PubMed
 *   and OpenAlex (words without operators are ANDed), GitHub repository search (every word in the name,
 *   description or topics), Hacker News (Algolia). "recent papers on protein folding" found nothing on arXiv
 *   for "recent", "papers" and "on"; these get the subject words alone. Time words go too: the plan turns them
 *   into filters (year_from, time_range) where the operation has one, and so do the years a question names
 *   ("since 2023", question-years.ts), which the plan takes out before shaping.
 *
 * Quoted phrases are kept whole, and so are names and identifiers: a word in capitals (WHO, IT), with digits
 * (2024, gpt-4) or inner punctuation (node.js, c++) is never dropped.
 */
export type QueryShape = 'as-asked' | 'relevance' | 'all-terms';

/** Words naming a kind of source (papers, repositories, videos, a site) rather than a subject: the step chosen is that source. */
const SOURCE_PHRASES = /\b(hacker ?news|open[- ]source|source code|peer[- ]reviewed|et al\b\.?|on (reddit|youtube|github|arxiv|hn)\b)/gi;
const SOURCE_WORDS = new Set([
  'paper', 'papers', 'preprint', 'preprints', 'article', 'articles', 'publication', 'publications', 'study', 'studies',
  'research', 'literature', 'journal', 'journals', 'arxiv', 'pubmed', 'scholarly', 'academic',
  'github', 'gitlab', 'repo', 'repos', 'repository', 'repositories', 'library', 'libraries', 'package', 'packages',
  'video', 'videos', 'youtube', 'reddit', 'subreddit', 'subreddits', 'forum', 'forums', 'hn', 'news',
]);

/** A question's frame before its subject: "find me", "what are the", "how do I", "is there a", "what's new in". */
const FRAME = new RegExp(
  '^(' +
    [
      'please',
      '(can|could|would) you( please)?',
      "(i'?m|i am|we'?re|we are) (looking|searching) for",
      '(i|we) (want|need)( to (find|see|read|watch))?',
      '(find|show|give|get|list|recommend|suggest|search( for)?|look( for)?|looking for|tell)( me| us)?( about| some| any)?',
      "what['’]?s new (in|with|for)",
      "(what|which|who)(['’]s| (is|are|were|was))( the| a| an| some| any)?",
      // Not "how to": a video or a page that answers such a question is titled so ("how to bake bread").
      '(how|where|when|why) (do|does|did|can|could|should|would)( i| we| you| one)?',
      '(is|are) there( an?| any| some)?',
      'any',
    ].join('|') +
    ')\\s+',
  'i',
);

/** Words that say when, turned into filters by the plan: a provider matching every word would demand them in the text. */
const TIME_PHRASES = /\b(this (week|month|year)|right now|up[- ]to[- ]date|these days)\b/gi;
const TIME_WORDS = new Set(['latest', 'newest', 'recent', 'recently', 'current', 'currently', 'today', 'yesterday', 'nowadays', 'now']);

/** Words a provider that matches every word would demand in a title or an abstract, where they rarely are. */
const STOP_WORDS = new Set([
  'a', 'an', 'the', 'of', 'on', 'in', 'for', 'to', 'with', 'about', 'and', 'or', 'by', 'from', 'into', 'at', 'as', 'via',
  'is', 'are', 'was', 'were', 'be', 'been', 'do', 'does', 'did', 'can', 'could', 'should', 'would', 'will',
  'how', 'what', 'which', 'who', 'why', 'when', 'where', 'i', 'me', 'my', 'we', 'our', 'you', 'your', 'it', 'its',
  'that', 'this', 'these', 'those', 'there', 'any', 'some', 'using', 'vs', 'versus',
  'best', 'good', 'great', 'top', 'popular', 'most', 'new', 'opinions', 'opinion', 'thoughts', 'recommendations', 'anyone', 'anybody',
  "what's", "it's", "i'm", "i've", "don't", "there's",
]);

/** A word that names something: capitals (WHO, IT, US), digits (2024, gpt-4) or inner punctuation other than an apostrophe (node.js, c++, covid-19). */
function isNameOrIdentifier(word: string): boolean {
  return /^\p{Lu}{2,}$/u.test(word) || /\d/.test(word) || /[^\p{L}\p{M}'’]/u.test(word);
}

/** A word without the sentence punctuation around it: "folding?" → "folding", "(2024)," → "2024". */
function bare(word: string): string {
  return word.replace(/^[("'“‘[]+/, '').replace(/[)"'”’\],.;:?!]+$/, '');
}

function shapeUnquoted(text: string, shape: Exclude<QueryShape, 'as-asked'>): string[] {
  let rest = text.replace(SOURCE_PHRASES, ' ');
  if (shape === 'all-terms') rest = rest.replace(TIME_PHRASES, ' ');
  return rest
    .split(/\s+/)
    .map(bare)
    .filter((word) => word !== '')
    .filter((word) => {
      if (isNameOrIdentifier(word)) return true;
      const lower = word.toLowerCase().replace(/’/g, "'");
      if (SOURCE_WORDS.has(lower)) return false;
      return shape === 'relevance' || (!TIME_WORDS.has(lower) && !STOP_WORDS.has(lower));
    });
}

/** Takes off every leading frame ("please find me …", "what are the …"), outside quotes only. */
function withoutFrame(words: string): string {
  let rest = words.trim();
  for (let previous = ''; previous !== rest; ) {
    previous = rest;
    rest = rest.replace(FRAME, '').trim();
  }
  return rest;
}

/**
 * The query a planned step sends, shaped for its providers. The words as they are when nothing would be left
 * (a query of frame and source words alone, "latest papers"): a search for nothing answers nothing.
 */
export function plannedQuery(words: string, shape: QueryShape): string {
  if (shape === 'as-asked') return words;
  const kept: string[] = [];
  // Quoted text (a phrase the caller wants as it is) alternates with the rest; an unclosed quote runs to the end.
  for (const [index, part] of withoutFrame(words).split(/("[^"]*"?)/).entries()) {
    if (index % 2 === 1) {
      if (part.replace(/"/g, '').trim() !== '') kept.push(part.endsWith('"') && part.length > 1 ? part : `${part}"`);
    } else {
      kept.push(...shapeUnquoted(part, shape));
    }
  }
  return kept.length > 0 ? kept.join(' ') : words;
}
