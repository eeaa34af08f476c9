import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  url: string;
  /** The app's settings to send through it: SMTP_URL and a MAIL_FROM (spread into `env`). */
  env: { SMTP_URL: string; MAIL_FROM: string };
  /** Every accepted message, parsed, in arrival order. */
  received: ParsedMail[];
  /** While true, every message is refused with a temporary error (451). */
  refuse: boolean;
  /** Refused attempts so far. */
  refusals: number;
  /** SMTP connections opened so far, and the most messages ever being received at once. */
  connections: number;
  maxInFlight: number;
  /** Resolves when at least `n` messages have arrived (or fails after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server in this process (smtp-server), plain text on 127.0.0.1, any login. */
export async function startTestSmtp(opts: { delayMs?: number } = {}): Promise<TestSmtp> {
  const state = {
    received: [] as ParsedMail[],
    refuse: false,
    refusals: 0,
    connections: 0,
    inFlight: 0,
    maxInFlight: 0,
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    // On close, the app's pooled connections may still be open (a file's app closes after its
    // afterAll hooks): the default waits 30 s for them before it forces them shut.
    closeTimeout: 200,
    onConnect(_session, callback) {
      state.connections += 1;
      callback();
    },
    onData(stream, _session, callback) {
      state.inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      const done = (err?: Error) => {
        state.inFlight -= 1;
        callback(err);
      };
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.refuse) {
          state.refusals += 1;
          const err = Object.assign(new Error('Mailbox busy, try again later'), {
            responseCode: 451,
          });
          return done(err);
        }
        void (async () => {
          if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
          state.received.push(await simpleParser(Buffer.concat(chunks)));
          done();
        })();
      });
    },
  });
  // A client killed mid-message (the kill -9 test) resets its connection: expected, not a failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const smtp: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    env: {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Relief Campaign <relief@campaign.test>',
    },
    get received() {
      return state.received;
    },
    get refuse() {
      return state.refuse;
    },
    set refuse(v: boolean) {
      state.refuse = v;
    },
    get refusals() {
      return state.refusals;
    },
    get connections() {
      return state.connections;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    async waitFor(n, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (state.received.length < n) {
        if (Date.now() > deadline)
          throw new Error(`expected ${n} e-mails, got ${state.received.length} in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return state.received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return smtp;
}
