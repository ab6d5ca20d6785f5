import { z } from 'zod';

/** The longest search text any surface accepts. */
export const MAX_QUERY_LENGTH = 500;

const ALLOWED = 'text with at least one visible character, no control characters (tabs and line breaks are fine)';

/** C0 and C1 control characters, NUL among them; tab, line feed and carriage return are ordinary whitespace. */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

/** Something a reader would see: not whitespace, a control, or an invisible format character (zero-width space, joiners, BOM, direction marks). */
const VISIBLE_CHARACTER = /[^\s\p{Cc}\p{Cf}\p{Z}]/u;

/** In a `u` pattern a paired surrogate is one code point, so this finds only lone (ill-formed) halves. */
const LONE_SURROGATE = /\p{Cs}/u;

function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why a search text cannot be sent to providers, as "<what is wrong>; <what is allowed>"; undefined when it can. */
export function queryTextProblem(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return `is not valid Unicode (it holds a lone surrogate); allowed: ${ALLOWED}`;
  const control = CONTROL_CHARACTER.exec(text);
  if (control) return `holds the control character ${codePoint(control[0])} at position ${control.index + 1}; allowed: ${ALLOWED}`;
  if (!VISIBLE_CHARACTER.test(text)) return `has no visible character (only spaces, zero-width or formatting characters); allowed: ${ALLOWED}`;
  return undefined;
}

/** Text with a character outside ASCII: only such text can have another Unicode form. */
const BEYOND_ASCII = /[^\u0000-\u007f]/;

/**
 * The text in Unicode's composed form (NFC): `café` typed with a combining accent (`e` + U+0301, as macOS and some
 * keyboards write it) and with `é` are one search. Without it they were two answer-cache entries, and the
 * providers, some of which compare bytes, were sent whichever form came. ASCII text, nearly every query, is its own
 * NFC and is returned as it is, with no call.
 */
export function composedText(text: string): string {
  return BEYOND_ASCII.test(text) ? text.normalize('NFC') : text;
}

/**
 * The search text of every search surface (REST `q`, the operations' `query`, so MCP too): trimmed, composed
 * (composedText), 1–500 characters, and text a provider can be asked about. NUL, control characters and
 * invisible-only strings used to reach providers and come back as empty or odd answers; here they are a 400 naming
 * the field.
 */
export function searchText(description: string) {
  return z
    .string()
    .trim()
    .overwrite(composedText)
    .min(1)
    .max(MAX_QUERY_LENGTH)
    .superRefine((text, context) => {
      refuseUnsendableText(text, context);
    })
    .describe(description);
}

/** Refines a trimmed text: adds an issue saying why it cannot be sent to providers (queryTextProblem), and says whether it can. */
export function refuseUnsendableText(text: string, context: z.RefinementCtx): boolean {
  const problem = text === '' ? undefined : queryTextProblem(text);
  if (problem) context.addIssue({ code: 'custom', message: problem, input: text });
  return problem === undefined;
}

/**
 * White space between words, as one search reads it: a run of it (spaces, tabs, line breaks, a no-break or an
 * ideographic space) is one space. Not U+FEFF, which JavaScript's `\s` counts: a zero-width no-break space joins the
 * letters around it (Unicode's word boundaries pass over it), so `data\uFEFFbase` is no search for `data base`.
 */
const SPACE_RUN = /[^\S\uFEFF]+/g;

/**
 * The text with each run of white space as one space (SPACE_RUN): what providers are sent and the answer is kept
 * under (engine/cached-answer.ts cacheKey), so two texts one key joins are one search to every provider too, down to
 * the length a provider's limit judges. The text itself, with no copy, when it has nothing to collapse (nearly every
 * one: words with single spaces, in any script).
 */
export function singleSpaced(text: string): string {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (!isWhiteSpace(code)) continue;
    if (code === 0x20 && !isWhiteSpace(text.charCodeAt(index + 1))) continue;
    return text.replace(SPACE_RUN, ' ');
  }
  return text;
}

/** Whether a code unit is one SPACE_RUN matches (JavaScript's white space and line terminators, but U+FEFF). */
function isWhiteSpace(code: number): boolean {
  if (code < 0x7f) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code >= 0x2000 && code <= 0x200a) return true;
  return code === 0xa0 || code === 0x1680 || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}
