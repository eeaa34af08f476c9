import type { FastifyRequest } from 'fastify';

/** Never log a password, a cookie or a donor's e-mail (issue 2, security 38). */
export const logRedaction = {
  paths: [
    'req.headers.cookie',
    'req.headers.authorization',
    'res.headers["set-cookie"]',
    '*.password',
    '*.email',
  ],
  censor: '[redacted]',
};

export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      // The query string can carry an upload signature; log the path only.
      url: request.url.split('?')[0],
      remoteAddress: request.ip,
    };
  },
};
