import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type StreamTransport from 'nodemailer/lib/stream-transport';

interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox row: a duplicate after a crash carries the same Message-ID. */
  messageId: string;
  /** Extra headers (the delivery news' List-Unsubscribe). */
  headers?: Record<string, string>;
}

export interface Mailer {
  kind: 'smtp' | 'files';
  /** Resolves once the SMTP server accepted the message (or the file is on disk). */
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/**
 * The timeouts bound one attempt, so a hung SMTP server holds a worker (and, on PostgreSQL, its
 * locked outbox row) for at most about a minute before the message is retried later.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

/**
 * Messages on the wire at once (docs/decisions/014-email-outbox.md, "At spike scale"). Each is
 * marked sent as soon as its SMTP server accepted it, so a crash repeats at most this many (with
 * the same Message-ID), never loses one. One at a time sent 9 messages a second to a local SMTP
 * server (a new connection each) and 280 over one pooled connection; three lanes over three pooled
 * connections, about a thousand.
 */
export const SEND_LANES = 3;

/**
 * Pooled connections, one per lane of the worker: without a pool every message opened
 * a connection of its own (TCP, greeting, EHLO; about 115 ms each against a local smtp-server), so
 * a backlog of reminders went out at 9 a second. A connection is replaced after 100 messages, as
 * relays expect of a polite sender.
 */
const SMTP_POOL = { pool: true, maxConnections: SEND_LANES, maxMessages: 100 } as const;

export function smtpMailer(url: string, from: string, replyTo: string): Mailer {
  const transport = lazyTransport({ url, ...SMTP_POOL, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    async send(email) {
      await (await transport.get()).sendMail({ from, replyTo, ...email });
    },
    close: transport.close,
  };
}

/**
 * A nodemailer transport made with the first message, not at start: loading nodemailer costs
 * about 0.1 s of CPU on every start, also after a crash, and most starts send nothing.
 */
function lazyTransport(
  options: SMTPTransport.Options | SMTPPool.Options | StreamTransport.Options,
) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(options))),
    close: () => void transport?.then((t) => t.close()),
  };
}

/**
 * No SMTP_URL (the embedded default): each message becomes DATA_DIR/outbox/<time>-<id>.eml, which
 * any mail program opens. Written to a temporary name and renamed, so a file is never half there.
 */
export function fileMailer(dir: string, from: string, replyTo: string): Mailer {
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'files',
    async send(email) {
      const info = await (await transport.get()).sendMail({ from, replyTo, ...email });
      // The local part of the Message-ID is the outbox row's id: a retry rewrites the same file.
      const id = (/^<?([^@>]+)/.exec(email.messageId)?.[1] ?? 'message').replace(/[^\w-]/g, '');
      const file = path.join(dir, `${id}.eml`);
      // The folder is made when a write finds it missing, not before every message (a mkdir was
      // a tenth of each message's CPU in a backlog of reminders).
      await writeFile(`${file}.tmp`, info.message as Buffer).catch(
        async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
          await mkdir(dir, { recursive: true });
          await writeFile(`${file}.tmp`, info.message as Buffer);
        },
      );
      await rename(`${file}.tmp`, file);
    },
    close: transport.close,
  };
}
