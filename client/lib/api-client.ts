import type { ApiError } from '@shared/api-types';

/**
 * A non-ok response (product rule): the error's message is "status: body text" (or the status text
 * when the body is empty); `serverMessage` is the JSON `message` the UI shows.
 */
export class ApiRequestError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: string,
    public readonly serverMessage: string | undefined,
  ) {
    super(`${status}: ${body}`);
  }
}

function parseMessage(body: string): string | undefined {
  try {
    const data = JSON.parse(body) as Partial<ApiError>;
    return typeof data.message === 'string' ? data.message : undefined;
  } catch {
    return undefined;
  }
}

export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new ApiRequestError(res.status, text, parseMessage(text));
}

/** Every call sends credentials (cookies) and JSON. */
export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(data !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...extraHeaders,
    },
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await apiRequest('GET', url);
  return (await res.json()) as T;
}

/** The message a person should read: the server's sentence, else the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.serverMessage ?? fallback;
  return fallback;
}

/** Product rule: a failure whose message contains 401 means the admin session has expired. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof Error && /401/.test(error.message);
}
