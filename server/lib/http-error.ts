import type { z } from 'zod';
import { fieldErrors, firstMessage } from '../../shared/schemas/text';

/** An error whose message is safe to show: it becomes `{message, errors}` with its status. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: Record<string, string>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) =>
  new HttpError(400, message, errors);
export const notFound = (message: string) => new HttpError(404, message);

/** Validates with a shared zod schema; a rejection is a 400 with the schema's own message. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // No body, null, an array or a bare string: zod's "expected object" is not a sentence for people.
  const root = result.error.issues[0];
  if (root && root.path.length === 0 && root.code === 'invalid_type')
    throw badRequest('The request body must be a JSON object.');
  throw badRequest(firstMessage(result.error), fieldErrors(result.error));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseId(value: unknown, what: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw badRequest(`Invalid ${what} id`);
  return value.toLowerCase();
}
