/**
 * Refuses the passwords attackers try first: the 49,233 of zxcvbn-ts's common list
 * (@zxcvbn-ts/language-common, compiled from leaked-password corpora). Server-side only: the list
 * is about 0.6 MB compressed, so no client bundle imports this. Loaded on first use (about 25 ms
 * to decompress plus 45 ms to build the set, 3-4 MB of heap, measured on this machine), so a
 * server that never sees a new password never pays for it.
 */
let loading: Promise<Set<string>> | undefined;

function commonPasswords(): Promise<Set<string>> {
  loading ??= import('@zxcvbn-ts/language-common').then((mod) => {
    // The package has no "exports" map: bundled, its CommonJS build arrives as `default`.
    const dictionary =
      (mod.dictionary as typeof mod.dictionary | undefined) ?? mod.default.dictionary;
    return new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  });
  return loading;
}

/**
 * Whether the password is on the list, ignoring case, or is a listed word with only digits and
 * symbols around it ("Password1234!", "jamaica2026!!"): the 12-character minimum alone lets those
 * through, and they are the first variations a guesser tries.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const list = await commonPasswords();
  const lower = password.trim().toLowerCase();
  if (list.has(lower)) return true;
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  return core.length >= 4 && core !== lower && list.has(core);
}
