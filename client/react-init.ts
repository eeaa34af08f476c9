import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

/**
 * React and React DOM are CommonJS: bundled, their module code runs where a module that imports
 * them is evaluated. This module is built into the React chunk (vite.config.ts), so evaluating
 * that chunk runs them, and client/public/boot.js does that in a task of its own, before the
 * app's modules (docs/decisions/017-server-rendering.md). main.tsx takes React DOM from here.
 */
export const reactDom = { startTransition, createRoot, hydrateRoot };
