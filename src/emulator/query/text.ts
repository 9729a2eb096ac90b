/**
 * Free-text part of a services search: `search: {expression, fields, fuzzy, mode}` (docs/wire.md §6).
 * The expression is split into lower-case words; `mode` OR (default) keeps documents where any word matches,
 * AND where every word does. A word matches when a searched field contains it; with `fuzzy`, a word of four
 * or more letters also matches a field word at edit distance 1.
 */
import { ValidationFailure } from '../errors.js';
import { compilePath, resolve } from './values.js';
import type { Predicate } from './filter.js';

/** Fields searched when the request names none. */
export const DEFAULT_SEARCH_FIELDS = ['name', 'description'];

/** A free-text search as asked: lower-case words, the fields searched, OR or AND, fuzzy or not. */
export interface TextSearch {
  words: string[];
  fields: readonly string[];
  mode: 'OR' | 'AND';
  fuzzy: boolean;
}

/**
 * Validates the request's `search.search` object.
 * @returns the search, or undefined when it matches everything (no object, or no words in the expression)
 * @throws ValidationFailure on a non-string expression, a bad mode or non-string fields.
 */
export function parseTextSearch(search: unknown, field = 'search.search'): TextSearch | undefined {
  if (search === undefined || search === null) return undefined;
  if (typeof search !== 'object' || Array.isArray(search)) throw ValidationFailure.field(field, 'must be an object');
  const s = search as { expression?: unknown; fields?: unknown; fuzzy?: unknown; mode?: unknown };
  if (s.expression !== undefined && typeof s.expression !== 'string') {
    throw ValidationFailure.field(`${field}.expression`, 'must be a string');
  }
  const mode = s.mode ?? 'OR';
  if (mode !== 'OR' && mode !== 'AND') {
    throw ValidationFailure.field(`${field}.mode`, 'must be OR or AND', 'INVALID_ENUM_VALUE');
  }
  let fields = DEFAULT_SEARCH_FIELDS;
  if (s.fields !== undefined) {
    if (!Array.isArray(s.fields) || s.fields.some((f) => typeof f !== 'string')) {
      throw ValidationFailure.field(`${field}.fields`, 'must be an array of field paths');
    }
    if (s.fields.length > 0) fields = s.fields as string[];
  }
  const words = tokenize(s.expression ?? '');
  if (words.length === 0) return undefined;
  return { words, fields, mode, fuzzy: s.fuzzy === true };
}

/**
 * @param search the request's `search.search` object, or undefined (matches everything).
 * @throws ValidationFailure on a non-string expression, a bad mode or non-string fields.
 */
export function compileTextSearch(search: unknown, field = 'search.search'): Predicate {
  const parsed = parseTextSearch(search, field);
  return parsed ? textPredicate(parsed) : () => true;
}

/** The test of a parsed search on a document (see the module comment). */
export function textPredicate({ words, fields, mode, fuzzy }: TextSearch): Predicate {
  const paths = fields.map(compilePath);
  return (doc) => {
    const text = paths
      .flatMap((p) => resolve(doc, p).values)
      .filter((v): v is string => typeof v === 'string')
      .join(' ')
      .toLowerCase();
    const textWords = fuzzy ? tokenize(text) : [];
    const hit = (w: string) => text.includes(w) || (fuzzy && w.length >= 4 && textWords.some((t) => withinOneEdit(w, t)));
    return mode === 'AND' ? words.every(hit) : words.some(hit);
  };
}

function tokenize(s: string): string[] {
  return s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** True when a and b differ by at most one insertion, deletion or substitution. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (a.length < b.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
