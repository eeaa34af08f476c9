// Types of build-if-needed.mjs (plain JavaScript, run by `npm start` before any TypeScript tool).
export const root: string;
export function buildIsCurrent(): boolean;
/** Runs `npm run build` unless the build is current; resolves to false if the build failed. */
export function buildIfNeeded(log?: (line: string) => void): Promise<boolean>;
