import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { setCampaignPrices } from './shared/prices';
import { campaignSchema } from './shared/schemas/campaign';
import { campaignText as fillCampaignText } from './shared/share';

const apiPort = Number(process.env.API_PORT ?? 5001);

/**
 * The dev server fills in the campaign's title and description as the production server does
 * (server/modules/pages/routes.ts), from config/campaign.json or CAMPAIGN_CONFIG.
 */
function campaignPageText(): Plugin {
  return {
    name: 'campaign-text',
    apply: 'serve',
    transformIndexHtml(html) {
      const file =
        process.env.CAMPAIGN_CONFIG ??
        fileURLToPath(new URL('./config/campaign.json', import.meta.url));
      const c = campaignSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      setCampaignPrices(c);
      const esc = (v: string) => v.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
      return html
        .replaceAll('%CAMPAIGN_SITE_TITLE%', esc(c.siteTitle))
        .replaceAll('%CAMPAIGN_SITE_DESCRIPTION%', esc(fillCampaignText(c.siteDescription, c)));
    },
  };
}

/**
 * Lists, in index.html, the files of the lazy chunks a visitor is likely to open next (the pledge
 * form, the thank-you page) with everything they import beyond the first load. The app asks the
 * browser to prefetch them once it is idle (client/lib/prefetch.ts): downloaded, not run, so they
 * cost the first screen neither bandwidth nor main-thread time (docs/decisions/017-server-rendering.md).
 */
function prefetchChunks(sources: RegExp[]): Plugin {
  return {
    name: 'prefetch-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle as OutputBundle).filter(
          (c): c is OutputChunk => c.type === 'chunk',
        );
        const initial = new Set<string>();
        const addInitial = (file: string) => {
          if (initial.has(file)) return;
          initial.add(file);
          for (const dep of (bundle as OutputBundle)[file]?.type === 'chunk'
            ? ((bundle as OutputBundle)[file] as OutputChunk).imports
            : [])
            addInitial(dep);
        };
        for (const c of chunks) if (c.isEntry) addInitial(c.fileName);
        const files = new Set<string>();
        const add = (file: string) => {
          if (initial.has(file) || files.has(file)) return;
          files.add(file);
          const chunk = (bundle as OutputBundle)[file];
          if (chunk?.type === 'chunk') for (const dep of chunk.imports) add(dep);
        };
        for (const c of chunks)
          if (c.facadeModuleId && sources.some((re) => re.test(c.facadeModuleId!))) add(c.fileName);
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: 'prefetch-chunks' },
            children: JSON.stringify([...files].map((f) => `/${f}`)),
            injectTo: 'body',
          },
        ];
      },
    },
  };
}

/**
 * The app's scripts are requested only after the first paint: the entry script and the
 * modulepreloads Vite adds for its imports become a list, in order, that public/boot.js reads
 * after the next frame, to download them and run them one per task. Lighthouse's simulation
 * counts every request that ended before the first paint as something the paint waited for
 * (docs/decisions/017-server-rendering.md, "LCP in Lighthouse's simulation").
 */
function paintFirst(): Plugin {
  return {
    name: 'paint-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /\n?\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
        const preload = /\n?\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
        const src = entry.exec(html)?.[1];
        if (!src) throw new Error('paint-first: no entry script in index.html');
        const deps = [...html.matchAll(preload)].map((m) => m[1]!);
        const list = JSON.stringify({ deps, entry: src });
        return html
          .replace(preload, '')
          .replace(
            entry,
            `\n    <script type="application/json" id="app-scripts">${list}</script>\n    <script type="module" src="/boot.js"></script>`,
          );
      },
    },
  };
}

/**
 * Marks the named chunks for eager compilation (V8's explicit compile hints, Chrome 136+): their
 * functions are compiled on a background thread while the file streams in, instead of on the main
 * thread the first time each is called, during hydration. For React DOM, whose code runs almost
 * all of it while the page hydrates (docs/decisions/017-server-rendering.md). After minification,
 * which would drop the comment.
 */
function compileHints(names: string[]): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk' && names.includes(chunk.name))
          chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'client',
  publicDir: 'public',
  plugins: [
    campaignPageText(),
    react(),
    tailwindcss(),
    paintFirst(),
    compileHints(['react']),
    prefetchChunks([
      /[\\/]features[\\/]pledges[\\/]components[\\/]pledge-dialog\.tsx$/,
      /[\\/]routes[\\/]payment-instructions\.tsx$/,
    ]),
  ],
  // One spelling for the code both sides share: @shared/x instead of ../../../shared/x.
  resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    // The server-side renderer (npm run build:ssr, into dist/ssr) needs no copy of client/public.
    copyPublicDir: !isSsrBuild,
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            // Everything the first load needs in two chunks: left to itself, Rolldown split the
            // modules the lazy pages share with it into ~25 files of a few hundred bytes, each
            // a request (and a gzip header) on a slow phone network. React, React DOM and
            // react-init.ts (which runs their module code) in one, evaluated in a task of its own
            // by boot.js; the app's modules in the other.
            codeSplitting: {
              groups: [
                {
                  name: 'react',
                  test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|[\\/]client[\\/]react-init\.ts$/,
                  priority: 2,
                },
                { name: 'app', tags: ['$initial'], priority: 1 },
              ],
            },
          },
        },
  },
  // The server-side renderer (npm run build:ssr) bundles every client package rather than
  // importing it from node_modules: only the icons and components we use are in the server's
  // memory, and the client packages are devDependencies, so the production image (`npm ci
  // --omit=dev`) has none of them (~90 MB less, its install a third faster). React's production
  // build is the one bundled, whatever NODE_ENV the server runs with. Only for that build: the
  // tests run through Vite's SSR pipeline too, and would otherwise transform all of node_modules.
  ...(isSsrBuild
    ? {
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        ssr: { noExternal: true },
      }
    : {}),
  server: {
    proxy: { '/api': `http://localhost:${apiPort}` },
  },
}));
