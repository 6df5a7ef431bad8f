/** Credential detector (I10): finds secret-shaped text so writes can refuse it and previews can mask it. */

export interface SecretFinding {
  /** Which format matched, e.g. `github-token`; `maskSecrets` renders it as `[secret:<kind>]`. */
  kind: string;
  /** Offset of the secret itself (UTF-16 units). A label or URL around it is not part of the span. */
  start: number;
  /** End offset, exclusive. */
  end: number;
}

interface Detector {
  kind: string;
  /**
   * Flags `g` and `d` are required. When the pattern has named groups, the group that took part in the
   * match is the secret; otherwise the whole match is.
   */
  pattern: RegExp;
  /** A further test of the secret text, for formats that placeholders or ordinary words can imitate. */
  accept?: (secret: string) => boolean;
  /**
   * A pattern (matched in any case) for a literal that every match of `pattern` contains: a prefix such as
   * `ghp_`, or a label word. Text holding no detector's anchor is cleared without running the detectors.
   */
  anchor: string;
}

/**
 * The formats, most specific first: when two start at the same offset the earlier entry names the kind
 * (so `GITHUB_TOKEN=ghp_...` is a `github-token`, not a `labelled-secret`).
 *
 * No quantifier is nested inside another, and every unbounded repeat is followed by something its class
 * cannot match, so a failed attempt costs at most a linear rescan (adversarial 8,000-character inputs take a few ms).
 * There is deliberately no unlabelled "high entropy" rule: git SHAs, UUIDs, digests, ids and base64 in
 * prose are ordinary memory content.
 */
const DETECTORS: readonly Detector[] = [
  // PEM private key: `-----BEGIN [RSA|EC|OPENSSH|ENCRYPTED|PGP ...] PRIVATE KEY[ BLOCK]-----`, through its END
  // line, or through the base64 body when the END line was cut off.
  {
    kind: 'private-key',
    anchor: '-----BEGIN ',
    pattern:
      /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\r\n]*)/dg,
  },
  // AWS access key id: `AKIA` (long-term) or `ASIA` (temporary) and 16 upper-case letters or digits.
  { kind: 'aws-access-key-id', anchor: 'A[KS]IA', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/dg },
  // AWS secret access key: 40 base64 characters, recognisable only by its label.
  {
    kind: 'aws-secret-access-key',
    anchor: 'secret',
    pattern:
      /(?:aws[_-]?secret[_-]?(?:access[_-]?)?key|secret[_-]?access[_-]?key)["'\]]{0,2}\s{0,3}(?::=|=>|[:=])\s{0,3}["'`]?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
  },
  // GitHub: classic `ghp_` (personal), `gho_` (OAuth), `ghu_` (user-to-server), `ghs_` (server-to-server),
  // `ghr_` (refresh) with 36+ characters; fine-grained `github_pat_`.
  {
    kind: 'github-token',
    anchor: 'gh[pousr]_|github_pat_',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/dg,
  },
  // memledger's own API tokens: `mlk_` and 32 random bytes in base64url (43 characters), so an agent can
  // never save a memledger credential as a memory.
  {
    kind: 'memledger-token',
    anchor: 'mlk_',
    pattern: /(?<![A-Za-z0-9])mlk_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/dg,
  },
  // Anthropic: `sk-ant-api03-...`, `sk-ant-admin01-...`. Listed before OpenAI, which shares `sk-`.
  {
    kind: 'anthropic-api-key',
    anchor: 'sk-ant-',
    pattern: /\bsk-ant-[A-Za-z0-9_-]{32,}/dg,
    accept: looksRandom,
  },
  // OpenAI: legacy `sk-` and 48 characters, `sk-proj-`, `sk-svcacct-`, `sk-admin-`. The leading `\b` keeps
  // `task-runner` and `disk-usage` out; `looksRandom` keeps out `sk-learn-compatible-pipelines`.
  {
    kind: 'openai-api-key',
    anchor: 'sk-',
    pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/dg,
    accept: looksRandom,
  },
  // Slack tokens: `xoxb-` (bot), `xoxp-` (user), `xoxa-`/`xoxr-` (app/refresh), `xoxo-`, `xoxs-`, `xapp-`.
  {
    kind: 'slack-token',
    anchor: 'xox|xapp-',
    pattern: /\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/dg,
    accept: hasDigit,
  },
  // Slack incoming webhook: `https://hooks.slack.com/services/T.../B.../...` (also workflows, triggers).
  {
    kind: 'slack-webhook',
    anchor: 'hooks\\.slack\\.com',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/dg,
  },
  // Stripe secret and restricted keys, live or test: `sk_live_`, `rk_live_`, `sk_test_`, `rk_test_`.
  // Publishable keys (`pk_`) are public by design and are not matched.
  { kind: 'stripe-key', anchor: 'k_(?:live|test)_', pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/dg },
  // Google API key: `AIza` and 35 characters.
  { kind: 'google-api-key', anchor: 'AIza', pattern: /\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/dg },
  // GitLab: personal (`glpat-`), pipeline trigger (`glptt-`), deploy (`gldt-`), runner (`glrt-`) tokens.
  {
    kind: 'gitlab-token',
    anchor: 'gl(?:pat|ptt|dt|rt)-',
    pattern: /\bgl(?:pat|ptt|dt|rt)-[A-Za-z0-9_-]{20,}/dg,
  },
  // npm access token: `npm_` and 36 characters.
  { kind: 'npm-token', anchor: 'npm_', pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/dg },
  // JSON Web Token: three base64url segments, the header a JSON object (so `eyJ`).
  { kind: 'jwt', anchor: 'eyJ', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/dg },
  // Password in a URL: `scheme://user:password@host`, the user possibly empty (`redis://:pw@host`).
  // `scheme://user@host` has no password and is not matched; empty or placeholder passwords are let through.
  {
    kind: 'url-password',
    anchor: ':\\/\\/',
    pattern:
      /\b[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:@/?#]{0,256}:(?<secret>[^\s@/?#]{1,256})@[A-Za-z0-9[]/dg,
    accept: (password) => !isPlaceholder(password),
  },
  // HTTP header `Authorization: Bearer <token>` (or `Token <token>`), as in curl commands and logs.
  {
    kind: 'bearer-token',
    anchor: 'authorization',
    pattern:
      /\bAuthorization["']?\s{0,3}[:=]\s{0,3}["']?(?:Bearer|Token)\s{1,3}(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/dgi,
    accept: looksLikeSecretValue,
  },
  // HTTP header `Authorization: Basic <base64 of user:password>`.
  {
    kind: 'basic-auth',
    anchor: 'authorization',
    pattern: /\bAuthorization["']?\s{0,3}[:=]\s{0,3}["']?Basic\s{1,3}(?<secret>[A-Za-z0-9+/]{8,}={0,2})/dgi,
    accept: isBasicCredential,
  },
  // Generic labelled secret: a name ending in password, secret, token, api key, ... then `=`, `:`, `:=`,
  // `=>` or ` is `, then a value of 8+ characters that looks random (see `looksLikeSecretValue`). Covers
  // `DB_PASSWORD=...`, `"client_secret": "..."`, `apiKey: '...'`, `?token=...`, "the password is ...".
  {
    kind: 'labelled-secret',
    anchor: 'pass|pwd|secret|token|credential|(?:api|access|private|signing|encryption|auth)[_ -]?key',
    pattern:
      /(?:password|passwd|passphrase|pwd|secret|token|credentials?|(?:api|access|secret|private|signing|encryption|auth)[_ -]?key)["'\]]{0,2}(?:\s{0,3}(?::=|=>|[:=])\s{0,3}|\s{1,3}(?:is|was)\s{1,3})(?:"(?<dq>[^"\s]{8,200})|'(?<sq>[^'\s]{8,200})|`?(?<bare>[^\s"'`&,;<>]{8,200}))/dgi,
    accept: looksLikeSecretValue,
  },
];

/**
 * Every detector's anchor in one pattern. The detectors cost a scan each (9 µs for a typical body); this
 * costs one (under 1 µs) and clears the plain prose that most memories are. A text it matches still runs every
 * detector, so it never decides that something is a secret, only that nothing can be.
 */
const GATE = new RegExp([...new Set(DETECTORS.map((d) => d.anchor))].join('|'), 'i');

/** First secret-shaped span in the text, or null. */
export function findSecret(text: string): SecretFinding | null {
  if (!GATE.test(text)) return null;
  let first: SecretFinding | null = null;
  for (const detector of DETECTORS) {
    const next = scan(text, detector).next(); // a detector's later matches start later still
    if (!next.done && (first === null || next.value.start < first.start)) first = next.value;
  }
  return first;
}

/** Convenience. */
export function containsSecret(text: string): boolean {
  return findSecret(text) !== null;
}

/** Replaces every secret-shaped span with `[secret:<kind>]` (used to mask audit previews). */
export function maskSecrets(text: string): string {
  if (!GATE.test(text)) return text;
  const findings: SecretFinding[] = [];
  for (const detector of DETECTORS) findings.push(...scan(text, detector));
  if (findings.length === 0) return text;
  // Earliest first, the longer of two at the same offset first; the sort is stable, so table order
  // breaks the remaining ties. Spans that overlap one already masked are dropped.
  findings.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let cursor = 0;
  for (const finding of findings) {
    if (finding.start < cursor) continue;
    out += text.slice(cursor, finding.start) + `[secret:${finding.kind}]`;
    cursor = finding.end;
  }
  return out + text.slice(cursor);
}

function* scan(text: string, detector: Detector): Generator<SecretFinding> {
  for (const match of text.matchAll(detector.pattern)) {
    let span = match.indices?.[0];
    const groups = match.indices?.groups;
    if (groups) span = Object.values(groups).find((g) => g !== undefined) ?? span;
    if (!span) continue;
    const [start, end] = span;
    if (detector.accept && !detector.accept(text.slice(start, end))) continue;
    yield { kind: detector.kind, start, end };
  }
}

// ---- value tests ----------------------------------------------------------------------------------

/** Mixed case and a digit: true of random base62 keys, false of words like `learn-compatible-pipelines`. */
function looksRandom(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && hasDigit(value);
}

function hasDigit(value: string): boolean {
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
function isPlaceholder(value: string): boolean {
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
function looksLikeSecretValue(value: string): boolean {
  if (isPlaceholder(value) || REFERENCE_SHAPES.some((shape) => shape.test(value))) return false;
  const lower = /[a-z]/.test(value);
  const upper = /[A-Z]/.test(value);
  const digit = hasDigit(value);
  const symbol = /[^A-Za-z0-9]/.test(value);
  if ((lower || upper) && digit) return true;
  return Number(lower) + Number(upper) + Number(digit) + Number(symbol) >= 3;
}

/** A Basic credential, unless it decodes to `user:` with an empty or placeholder password. */
function isBasicCredential(value: string): boolean {
  if (isPlaceholder(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 || !isPlaceholder(decoded.slice(colon + 1));
}
