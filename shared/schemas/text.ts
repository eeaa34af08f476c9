import { z } from 'zod';

/** Control characters (C0, DEL, C1): never part of a name, and a newline could forge a log line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Invisible format characters and white space: a name made only of these is empty. */
const INVISIBLE = /[\p{Cf}\p{Z}\s]/gu;

function isWellFormed(s: string): boolean {
  // Lone surrogates cannot be stored as UTF-8 and break CSV/JSON consumers.
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

/**
 * A visible, single-line human text (a donor's name, a recipient):
 * trimmed, required, bounded, no control characters or lone surrogates.
 */
export function humanText(opts: { required: string; max: number; tooLong: string }) {
  return z
    .string({ error: opts.required })
    .trim()
    .max(opts.max, { error: opts.tooLong })
    .refine((s) => s.replace(INVISIBLE, '').length > 0, { error: opts.required })
    .refine((s) => !CONTROL.test(s), { error: 'Only letters, numbers and punctuation are allowed' })
    .refine(isWellFormed, { error: 'Text contains invalid characters' });
}

/** First human-readable message of a zod error (the API's `message`, the form's toast). */
/** A zod error, or the issues of one as Fastify hands them over (path, code, message). */
export interface IssueList {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

export function firstMessage(error: IssueList): string {
  return error.issues[0]?.message ?? 'Invalid request';
}

/** Field errors keyed by dotted path, for the API's `errors`. */
export function fieldErrors(error: IssueList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
