/** Value tests of the credential detector: random-looking, placeholder, reference, Basic credential (I10). */

/** Mixed case and a digit: true of random base62 keys, false of words like `learn-compatible-pipelines`. */
export function looksRandom(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && hasDigit(value);
}

export function hasDigit(value: string): boolean {
  return /[0-9]/.test(value);
}

/**
 * Exact shapes that stand in for a secret rather than being one: `<your-key>`, `${VAR}`, `$VAR`, `$(cmd)`,
 * `{{ var }}`, `{name}`, `%s`, `%(name)s`, `%VAR%`, `[redacted]`.
 */
const PLACEHOLDER_SHAPES: readonly RegExp[] = [
  /^<[^<>]*>$/,
  /^\$\{[^{}]*\}$/,
  /^\$\(?[A-Za-z_][A-Za-z0-9_]*\)?$/,
  /^\{\{[^{}]*\}\}$/,
  /^\{[A-Za-z0-9_.-]*\}$/,
  /^%(?:\([A-Za-z0-9_]*\))?s$/,
  /^%[A-Za-z_][A-Za-z0-9_]*%$/,
  /^\[[^[\]]*\]$/,
];

/** Whole values (lower-cased, letters and digits only) that are conventional stand-ins. */
const PLACEHOLDER_WORDS = new Set([
  'pass',
  'password',
  'passwd',
  'pwd',
  'pw',
  'secret',
  'token',
  'apikey',
  'key',
  'changeme',
  'redacted',
  'placeholder',
  'example',
  'none',
  'null',
  'nil',
  'undefined',
  'empty',
  'notset',
  'unset',
  'hidden',
  'masked',
  'removed',
  'omitted',
]);

/** Placeholder words that mark a value wherever they appear in it (`my-api-key-example`, `CHANGE_ME_123`). */
const PLACEHOLDER_INFIXES = /changeme|replaceme|redacted|placeholder|example|notreal/;

/**
 * True for an empty password or one that is an obvious stand-in: a shape above, a single repeated character
 * once punctuation is dropped (`***`, `xxxxxxxx`, `••••`), a conventional word (`changeme`, `password`,
 * `redacted`) or a fill-in instruction (`your-api-key`, `insert_token_here`).
 */
export function isPlaceholder(value: string): boolean {
  if (PLACEHOLDER_SHAPES.some((shape) => shape.test(value))) return true;
  const plain = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (plain === '' || /^(.)\1*$/.test(plain)) return true;
  if (PLACEHOLDER_WORDS.has(plain) || PLACEHOLDER_INFIXES.test(plain)) return true;
  return /^(?:your|insert|replace)/.test(plain) || plain.endsWith('here');
}

/** Values that name where a secret lives rather than holding it. */
const REFERENCE_SHAPES: readonly RegExp[] = [
  /^[A-Za-z]+:\/\//, // a URL (credentials inside one are the `url-password` rule's business)
  /^(?:~|\.{1,2})?\/[\w.@/-]*$/, // a POSIX path: /run/secrets/db, ~/.ssh/id_ed25519
  /^[A-Za-z]:\\/, // a Windows path
  /^[\w.-]+\.(?:md|txt|json|ya?ml|toml|ini|env|conf|cfg|pem|key|crt|cer|p12|pfx|jks|js|ts|py|sh)$/i, // a file
  /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/, // an environment variable name: OPENAI_API_KEY_V2
  /^(?:process\.env|import\.meta\.env|os\.environ|env|config|conf|cfg|settings|secrets|vault|options|opts|this|self|ctx|params|vars)[.[(:]/i, // a lookup: process.env.TOKEN, cfg.apiKey
  /^[A-Za-z_$][\w$.]*\([^()]*\)$/, // a call: getSecret(name)
];

/**
 * The test for a labelled value or bearer token: not a placeholder, not a reference (path, file name,
 * URL, variable), and random-looking, meaning letters with digits (`hunter2hunter2`) or at least three of
 * lower case, upper case, digits and symbols (`P@ssWord`). So `password: required` and
 * `secret: rotation` pass as prose. Known misses, accepted to keep prose and config docs writable: a
 * passphrase of plain lower-case words, an all-digit PIN.
 */
export function looksLikeSecretValue(value: string): boolean {
  if (isPlaceholder(value) || REFERENCE_SHAPES.some((shape) => shape.test(value))) return false;
  const lower = /[a-z]/.test(value);
  const upper = /[A-Z]/.test(value);
  const digit = hasDigit(value);
  const symbol = /[^A-Za-z0-9]/.test(value);
  if ((lower || upper) && digit) return true;
  return Number(lower) + Number(upper) + Number(digit) + Number(symbol) >= 3;
}

/** A Basic credential, unless it decodes to `user:` with an empty or placeholder password. */
export function isBasicCredential(value: string): boolean {
  if (isPlaceholder(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 || !isPlaceholder(decoded.slice(colon + 1));
}

/** Upper and lower case letters both: true of random base62, false of words and of `UPPER_SNAKE` names. */
export function mixedCase(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value);
}

/**
 * A JWT's first segment decodes to a JSON object naming its algorithm. `eyJ...` cursors, state blobs and
 * other base64url JSON in dotted ids are not tokens, and this keeps them out.
 */
export function isJwt(token: string): boolean {
  const header = token.slice(0, token.indexOf('.'));
  try {
    const parsed: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return (
      typeof parsed === 'object' && parsed !== null && typeof (parsed as { alg?: unknown }).alg === 'string'
    );
  } catch {
    return false;
  }
}
