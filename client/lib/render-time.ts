import { createContext, useContext } from 'react';

/**
 * When the server rendered the page's HTML (ISO 8601). Time-dependent text ("5 minutes ago") is
 * first rendered from it, on the server and again while the browser hydrates, so both produce the
 * same markup; components move to the real time once they run.
 */
export const RenderTimeContext = createContext<string | undefined>(undefined);

export function useRenderTime(): string | undefined {
  return useContext(RenderTimeContext);
}
