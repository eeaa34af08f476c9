import { fieldErrors, firstMessage } from '@shared/schemas/text';

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
export const conflict = (message: string) => new HttpError(409, message);
export const unsupportedMediaType = (message: string) => new HttpError(415, message);

export const BODY_NOT_OBJECT = 'The request body must be a JSON object.';

/**
 * The 400 for a request a route schema refused: the schema's own message, and one message per
 * field. A path parameter (an id) gets the message alone.
 */
export function validationError(
  issues: readonly { path: readonly PropertyKey[]; code: string; message: string }[],
  part: string | undefined,
): HttpError {
  // No body, null, an array or a bare string: zod's "expected object" is not a sentence for people.
  const root = issues[0];
  if (root && root.path.length === 0 && root.code === 'invalid_type')
    return badRequest(BODY_NOT_OBJECT);
  const message = firstMessage({ issues });
  if (part === 'params') return badRequest(message);
  return badRequest(message, fieldErrors({ issues }));
}
