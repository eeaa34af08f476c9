// `npm run docker:dry-run`: replays the Dockerfile without a Docker engine (none runs on the
// development machine), so a broken image is found before a charity tries to deploy it.
//
// Every stage gets its own empty folder standing in for the image's file system; COPY copies from
// a clean checkout (tracked files minus .dockerignore) or from an earlier stage, RUN runs in the
// stage's WORKDIR with the stage's ENV, and the last stage's CMD is started and must pass the
// HEALTHCHECK. Image paths (/app, /data) are mapped into the stage folder. What only a real image
// can do is reported, not faked: the base image's own files, USER and `chown` (the dry run runs as
// the current user; ownership is shown, not applied).
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_SOURCES, buildIsCurrent } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Dockerfile -> stages of { name, from, steps: [{ op, args, raw }] } (line continuations joined). */
export function parseDockerfile(text) {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages = [];
  for (const line of lines) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op) throw new Error(`Dockerfile: cannot read line "${line}"`);
    const upper = op.toUpperCase();
    if (upper === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      stages.push({ name: m?.[2] ?? String(stages.length), from: m?.[1], steps: [] });
      continue;
    }
    if (!stages.length) throw new Error(`Dockerfile: ${upper} before FROM`);
    stages.at(-1).steps.push({ op: upper, args: rest });
  }
  return stages;
}

/** `KEY=value KEY2=value2` (ENV's modern form). */
function parseEnv(args) {
  const env = {};
  for (const m of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, '');
  return env;
}

/** Flags like --from=build at the start of COPY/HEALTHCHECK, and the rest. */
function splitFlags(args) {
  const flags = {};
  let rest = args;
  for (;;) {
    const m = /^--([\w-]+)=(\S+)\s+/.exec(rest);
    if (!m) return { flags, rest };
    flags[m[1]] = m[2];
    rest = rest.slice(m[0].length);
  }
}

/** Tracked and new (not ignored) files of the working tree: what a clean clone would hold. */
function checkoutFiles() {
  const res = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`git ls-files failed: ${res.stderr}`);
  return res.stdout.split('\0').filter((f) => f && existsSync(path.join(root, f)));
}

/**
 * Why the checkout's own build (dist/) would not be what the build stage makes, or null when it
 * would: the build is current, and the build stage sees every file the build reads. Test files
 * are left out of the context and read by no build; any other build input left out by
 * .dockerignore, or present here but ignored by git (so absent from a clean clone), means the
 * stage must build for itself.
 */
function checkoutBuildDiffers(ignored) {
  if (!buildIsCurrent()) return 'the checkout has no current build';
  const inputs = [...BUILD_SOURCES, 'tsconfig.json'];
  const isInput = (f) => inputs.some((s) => f === s || f.startsWith(`${s}/`));
  const isTest = (f) => /\.test\.tsx?$/.test(f);
  const left = checkoutFiles().filter((f) => isInput(f) && ignored(f) && !isTest(f));
  if (left.length) return `.dockerignore leaves out build inputs: ${left.slice(0, 5).join(', ')}`;
  const res = spawnSync(
    'git',
    ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...inputs],
    { cwd: root, encoding: 'utf8' },
  );
  const local = res.stdout.split('\0').filter((f) => f && !isTest(f));
  if (res.status !== 0 || local.length)
    return `build inputs a clean clone lacks: ${local.slice(0, 5).join(', ')}`;
  return null;
}

/** .dockerignore patterns as matchers (the subset we use: names, dirs, `*` and `**`). */
function ignoreMatcher() {
  const file = path.join(root, '.dockerignore');
  if (!existsSync(file)) return () => false;
  const res = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((p) => {
      const body = p
        .replace(/^\/+|\/+$/g, '')
        .split('**/')
        .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
        .join('(?:.*/)?');
      return new RegExp(`^${body}(?:/.*)?$`);
    });
  return (f) => res.some((re) => re.test(f));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Replays the Dockerfile. Returns { log, stages } and throws with the failing step on error.
 * options.keep: leave the folders for inspection; options.log: progress output;
 * options.reuseFullInstall: link this checkout's node_modules for a full `npm ci` (the tests use it;
 * the runtime stage's `npm ci --omit=dev`, which is what can break, always runs);
 * options.reuseBuild: for the build stage's `npm run build`, copy this checkout's dist/ when it is
 * what that step would make (see checkoutBuildDiffers; the test set-up has just built it), and
 * run the step otherwise. The runtime stage still installs, starts and health-checks that build.
 */
export async function dockerDryRun({
  keep = false,
  reuseFullInstall = false,
  reuseBuild = false,
  log = console.log,
} = {}) {
  const stages = parseDockerfile(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
  const work = mkdtempSync(path.join(os.tmpdir(), 'relief-docker-dry-run-'));
  const ignored = ignoreMatcher();
  const context = checkoutFiles().filter((f) => !ignored(f));
  const stageRoots = {};
  const steps = [];
  let child;
  try {
    for (const stage of stages) {
      const fsRoot = path.join(work, `stage-${stage.name}`);
      mkdirSync(fsRoot, { recursive: true });
      stageRoots[stage.name] = fsRoot;
      const env = {};
      let workdir = '/';
      const imagePaths = new Set();
      const mapPath = (p) => path.join(fsRoot, p);
      const mapTokens = (text) =>
        text.replace(/(^|[\s=:'"])(\/[\w./-]*)/g, (all, pre, p) =>
          [...imagePaths].some((ip) => p === ip || p.startsWith(`${ip}/`))
            ? `${pre}${mapPath(p)}`
            : all,
        );
      const note = (msg) => {
        steps.push(`[${stage.name}] ${msg}`);
        log(`[${stage.name}] ${msg}`);
      };
      note(`FROM ${stage.from} (the base image's own files are not reproduced)`);

      for (const { op, args } of stage.steps) {
        if (op === 'WORKDIR') {
          workdir = path.posix.resolve(workdir, args);
          imagePaths.add(workdir);
          mkdirSync(mapPath(workdir), { recursive: true });
          note(`WORKDIR ${workdir}`);
        } else if (op === 'ENV') {
          for (const [k, v] of Object.entries(parseEnv(args))) {
            if (v.startsWith('/')) imagePaths.add(v);
            env[k] = v;
          }
          note(`ENV ${args}`);
        } else if (op === 'VOLUME') {
          for (const v of JSON.parse(args)) imagePaths.add(v);
          note(`VOLUME ${args}`);
        } else if (op === 'COPY') {
          const { flags, rest } = splitFlags(args);
          const parts = rest.split(/\s+/);
          const rawDest = parts.pop();
          const dest = path.posix.resolve(workdir, rawDest);
          const destIsDir = rawDest.endsWith('/') || rawDest === '.' || parts.length > 1;
          for (const src of parts) {
            if (flags.from) {
              const from = stageRoots[flags.from];
              if (!from)
                throw new Error(`COPY --from=${flags.from}: no such stage before this one`);
              cpSync(path.join(from, src), mapPath(dest), { recursive: true });
              continue;
            }
            const prefix = src === '.' ? '' : src.replace(/\/+$/, '');
            const under = context.filter((f) => !prefix || f.startsWith(`${prefix}/`));
            if (under.length) {
              // A folder: its contents go into the destination.
              for (const f of under) {
                const target = path.join(mapPath(dest), path.relative(prefix, f));
                mkdirSync(path.dirname(target), { recursive: true });
                cpSync(path.join(root, f), target);
              }
            } else if (context.includes(prefix)) {
              const target = destIsDir
                ? path.join(mapPath(dest), path.basename(prefix))
                : mapPath(dest);
              mkdirSync(path.dirname(target), { recursive: true });
              cpSync(path.join(root, prefix), target);
            } else {
              throw new Error(`COPY ${src}: not in the build context (see .dockerignore)`);
            }
          }
          note(`COPY ${args}`);
        } else if (op === 'RUN') {
          // --mount=type=cache keeps the npm cache out of the image; here the user's cache serves.
          const command = splitFlags(args).rest;
          // Ownership cannot change without root and the image's users: shown, not applied.
          const shell = `chown() { echo "  (dry run: chown $* not applied)"; }\n${mapTokens(command)}`;
          note(`RUN ${args}`);
          if (reuseFullInstall && /^npm ci\b/.test(command) && !/--omit/.test(command)) {
            // The test suite's shortcut: this checkout's node_modules came from the same lock file.
            symlinkSync(
              path.join(root, 'node_modules'),
              path.join(mapPath(workdir), 'node_modules'),
            );
            note("  (reused the checkout's node_modules: same package-lock.json)");
            continue;
          }
          if (reuseBuild && command.trim() === 'npm run build') {
            const differs = checkoutBuildDiffers(ignored);
            if (!differs) {
              cpSync(path.join(root, 'dist'), path.join(mapPath(workdir), 'dist'), {
                recursive: true,
              });
              note("  (reused the checkout's current build: the same inputs as this stage's)");
              continue;
            }
            note(`  (building here: ${differs})`);
          }
          const started = Date.now();
          const res = spawnSync('sh', ['-c', shell], {
            cwd: mapPath(workdir),
            env: { ...process.env, ...mapEnv(env, mapPath, imagePaths) },
            stdio: ['ignore', 'pipe', 'pipe'],
            encoding: 'utf8',
          });
          if (res.status !== 0)
            throw new Error(
              `[${stage.name}] RUN ${args} failed (exit ${res.status}):\n${res.stdout.slice(-2000)}\n${res.stderr.slice(-4000)}`,
            );
          note(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        } else if (op === 'USER') {
          note(`USER ${args} (the dry run keeps the current user)`);
        } else if (op === 'EXPOSE' || op === 'HEALTHCHECK' || op === 'CMD') {
          stage[op] = args;
        } else {
          throw new Error(`Dockerfile: the dry run does not know ${op}; teach it or avoid it`);
        }
      }
      stage.env = env;
      stage.workdir = workdir;
      stage.mapPath = mapPath;
      stage.imagePaths = imagePaths;
    }

    // Start the final stage as the container would, and wait for its HEALTHCHECK to pass.
    const last = stages.at(-1);
    if (!last.CMD) throw new Error('Dockerfile: the last stage has no CMD');
    const port = await freePort();
    const env = {
      ...minimalEnv(),
      ...mapEnv(last.env, last.mapPath, last.imagePaths),
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'docker-dry-run-password',
    };
    const [cmd, ...cmdArgs] = JSON.parse(last.CMD);
    log(`[${last.name}] CMD ${last.CMD} on port ${port}`);
    const output = [];
    child = spawn(cmd, cmdArgs, { cwd: last.mapPath(last.workdir), env, stdio: 'pipe' });
    child.stdout.on('data', (d) => output.push(String(d)));
    child.stderr.on('data', (d) => output.push(String(d)));
    const exited = new Promise((r) => child.once('exit', (code) => r(code)));
    const health = JSON.parse(
      splitFlags(last.HEALTHCHECK.replace(/^CMD\s+/, '')).rest.replace(/^CMD\s+/, ''),
    );
    // Until the app answers, its health is asked in-process (a fetch); then the HEALTHCHECK's own
    // command must pass. Spawning that command (a Node start, ~50 ms CPU) every 300 ms through
    // the first start's initdb cost seconds of CPU for the same answer.
    const deadline = Date.now() + 60_000;
    let answering = false;
    while (!answering && Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(
          `the app exited with ${child.exitCode} before it was healthy:\n${output.join('')}`,
        );
      answering = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!answering) await sleep(300);
    }
    const check = spawnSync(health[0], health.slice(1), { env, encoding: 'utf8' });
    if (!answering || check.status !== 0)
      throw new Error(`HEALTHCHECK never passed within 60 s:\n${output.join('')}`);
    const home = await fetch(`http://127.0.0.1:${port}/`);
    const html = await home.text();
    if (!home.ok || !html.includes('<div id="root"'))
      throw new Error(`GET / answered ${home.status} without the app's page`);
    log(`[${last.name}] healthy; GET / ${home.status}`);
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`the app exited with ${code} on SIGTERM:\n${output.join('')}`);
    log(`[${last.name}] stopped cleanly on SIGTERM`);
    return { steps, stageRoots, output: output.join('') };
  } finally {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

/** Only what a container would have: no inherited DATABASE_URL, ADMIN_PASSWORD, etc. */
function minimalEnv() {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG'];
  return Object.fromEntries(keep.filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
}

function mapEnv(env, mapPath, imagePaths) {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      [...imagePaths].some((ip) => v === ip || v.startsWith(`${ip}/`)) ? mapPath(v) : v,
    ]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  dockerDryRun({ keep: process.argv.includes('--keep') }).then(
    () =>
      console.log(`Dockerfile dry run passed in ${((Date.now() - started) / 1000).toFixed(0)} s`),
    (err) => {
      console.error(`Dockerfile dry run failed: ${err.message}`);
      process.exit(1);
    },
  );
}
