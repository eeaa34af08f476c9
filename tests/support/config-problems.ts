import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

/** The problems loadConfig lists for `env`; fails the test when the configuration is accepted. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}
