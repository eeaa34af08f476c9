import { z } from 'zod';
import { apiErrorSchema } from '@shared/schemas/api';
import type { RouteAccess } from '../../lib/route-access';
import { OPERATIONS, TAGS, type Operation } from './operations';

/** What the document needs to know of a route that its schemas do not say. */
export interface RouteFacts {
  access?: RouteAccess;
  /** The route reads a validation failure itself (answers 403 or 404 instead of 400). */
  attachValidation: boolean;
}

/** "GET /api/pledges/:id" → "GET /api/pledges/{id}", the key of OPERATIONS. */
export const operationKey = (method: string, url: string) =>
  `${method} ${url.replace(/:(\w+)/g, '{$1}')}`;

const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer' },
  },
};

/** The one description of each error status; a route's own wording is in its `message`. */
const ERRORS: Record<number, { description: string; retryAfter?: true }> = {
  400: { description: 'The request is not valid: `message` says why, `errors` names each field' },
  401: { description: 'Not signed in (no valid session), or a wrong password' },
  403: {
    description:
      'Refused: a cross-site write (Origin or Sec-Fetch-Site of another site), or a signed link that is forged, expired or used',
  },
  404: { description: 'Not found' },
  405: { description: 'A method-override header (X-HTTP-Method-Override and the like) was sent' },
  409: { description: 'The current state does not allow this (already done or undone)' },
  413: { description: 'The request body is larger than this route takes' },
  415: { description: 'The request body’s Content-Type is not one this route reads' },
  422: { description: 'This Idempotency-Key was already used with a different pledge' },
  429: { description: 'Too many requests from this network', retryAfter: true },
  503: { description: 'The server is restarting or busy', retryAfter: true },
  507: { description: 'The server’s disk is nearly full', retryAfter: true },
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A key of your choosing (a UUID) for this pledge: sending the same pledge again with the same key within 24 hours answers the first pledge instead of making a second; the same key with a different pledge answers 422.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,100}$' },
};

interface OperationObject {
  summary?: string;
  operationId?: string;
  tags?: string[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
}
interface Document {
  paths?: Record<string, Record<string, OperationObject>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** The statuses a route answers with the error body: its own, and those of every route like it. */
function errorStatuses(
  method: string,
  op: Pick<OperationObject, 'parameters' | 'requestBody'>,
  facts: RouteFacts,
  entry: Operation,
): number[] {
  const write = WRITES.has(method);
  const hasInput = Boolean(op.parameters?.length || op.requestBody);
  const statuses = new Set<number>(entry.errors);
  if (hasInput && !facts.attachValidation) statuses.add(400);
  if (facts.access === 'admin') statuses.add(401);
  if (write) statuses.add(403).add(507);
  if (op.requestBody) statuses.add(413).add(415);
  statuses.add(405).add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** "GET /api/admin/pledges/{id}/emails" → "getAdminPledgesByIdEmails". */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split(/[/.-]/)
    .filter(Boolean)
    .map((w) => (w.startsWith('{') ? `By${w.slice(1, -1)}` : w))
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method + (words.join('') || 'Home');
}

/**
 * Completes the generated document: each operation's summary, tag, error responses, security and
 * the Idempotency-Key header, from OPERATIONS and the routes' own options. An operation with no
 * entry keeps what its schemas say (routes.test.ts names it).
 */
export function describeApi<T extends object>(doc: T, facts: Map<string, RouteFacts>): T {
  const document = doc as Document;
  const paths = document.paths ?? {};
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const key = `${method.toUpperCase()} ${path}`;
      const entry = OPERATIONS[key];
      const routeFacts = facts.get(key);
      if (!entry || !routeFacts) continue;
      op.summary = entry.summary;
      op.operationId = operationId(method, path);
      op.tags = [entry.tag];
      op.security = routeFacts.access === 'admin' ? [{ session: [] }] : [];
      if (entry.rawBody)
        op.requestBody = {
          required: true,
          description: entry.rawBody,
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        };
      if (entry.idempotencyKey)
        op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
      const responses = (op.responses ??= {});
      for (const status of errorStatuses(method, op, routeFacts, entry)) {
        // A route's own schema for a status (GET /api/health's 503) stays.
        if (responses[status]) continue;
        const { description, retryAfter } = ERRORS[status]!;
        responses[status] = {
          description,
          ...(retryAfter ? { headers: RETRY_AFTER } : {}),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
        };
      }
    }
  }
  const { $schema: _, ...errorSchema } = z.toJSONSchema(apiErrorSchema) as Record<string, unknown>;
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ApiError: errorSchema },
    securitySchemes: {
      ...document.components?.securitySchemes,
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: 'sid',
        description:
          'The session cookie POST /api/admin/login sets; named __Host-sid when PUBLIC_URL is https.',
      },
    },
  };
  const used = new Set(Object.values(OPERATIONS).map((o) => o.tag));
  document.tags = Object.entries(TAGS)
    .filter(([name]) => used.has(name as keyof typeof TAGS))
    .map(([name, description]) => ({ name, description }));
  return doc;
}
