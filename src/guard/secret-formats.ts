/** The credential formats the detector knows (I10), most specific first, each with its cheap anchor. */
import {
  hasDigit,
  isBasicCredential,
  isJwt,
  isPlaceholder,
  looksLikeSecretValue,
  looksRandom,
  mixedCase,
} from './secret-values.ts';

export interface Detector {
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
 * Every unbounded repeat is followed by something its class cannot match, and the one nested repeat (the
 * labelled infix) is bounded, so a failed attempt costs at most a linear rescan (adversarial 8,000-character
 * inputs take a few ms). There is deliberately no unlabelled "high entropy" rule: git SHAs, UUIDs, digests and
 * ids are ordinary memory content, and base64 is judged by what it decodes to (secrets.ts), never by its look.
 */
/**
 * One anchor for every labelled format: each one's label words contain one of these. Shared, so the gate
 * holds it once (separate, overlapping alternatives cost the gate a third more on plain prose).
 */
const LABEL_ANCHOR =
  'pass|pwd|secret|token|credential|(?:api|access|private|signing|encryption|auth)[_ -]?key';

export const DETECTORS: readonly Detector[] = [
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
  // JSON Web Token: three base64url segments, the header a JSON object naming its `alg` (so `eyJ`). A signed
  // token is a bearer credential whoever reads it, so every one is caught, documentation examples too. An
  // unsigned one (`alg: none`, an empty third segment) authenticates nothing and, like `eyJ...` cursors and
  // state blobs whose first segment is no JWT header, is left alone.
  {
    kind: 'jwt',
    anchor: 'eyJ',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/dg,
    accept: isJwt,
  },
  // Hugging Face access tokens: `hf_` and 34 letters or digits; organisation tokens `api_org_`.
  {
    kind: 'huggingface-token',
    anchor: 'hf_|api_org_',
    pattern: /\b(?:hf|api_org)_[A-Za-z0-9]{30,40}(?![A-Za-z0-9_-])/dg,
    accept: mixedCase,
  },
  // SendGrid API key: `SG.`, a 22-character key id, `.`, a 43-character secret (base64url).
  {
    kind: 'sendgrid-key',
    anchor: 'SG\\.',
    pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/dg,
    accept: mixedCase,
  },
  // Telegram bot token: the bot's numeric id, `:`, then 34 or 35 characters that start with `AA`. Often inside
  // `https://api.telegram.org/bot<token>/`, so the id may follow letters.
  {
    kind: 'telegram-bot-token',
    anchor: ':AA',
    pattern: /(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{32,33}(?![A-Za-z0-9_-])/dg,
    accept: mixedCase,
  },
  // Azure Storage, Service Bus and Event Hubs connection strings: `AccountKey=` / `SharedAccessKey=` and the
  // base64 key.
  {
    kind: 'azure-storage-key',
    anchor: 'accountkey|sharedaccesskey',
    pattern: /\b(?:AccountKey|SharedAccessKey)\s{0,3}=\s{0,3}(?<secret>[A-Za-z0-9+/]{20,}={0,2})/dgi,
    accept: looksLikeSecretValue,
  },
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
  // Labelled secrets: a name ending in password, secret, token, api key, ... then `=`, `:`, `:=`, `=>`,
  // ` is ` (also "is now", "was changed to", "set to"), perhaps after a few words ("the password for prod
  // is ..."), then a value that looks random (see `looksLikeSecretValue`). Covers `DB_PASSWORD=...`,
  // `"client_secret": "..."`, `apiKey: '...'`, `?token=...`, "the DB password is ...". A password may be as
  // short as 6 characters; any other label needs 8, as `token: abc123` is more often a label than a key.
  {
    kind: 'labelled-secret',
    anchor: LABEL_ANCHOR,
    pattern: labelled('passw(?:or)?d|passphrase|passcode', 6),
    accept: looksLikeSecretValue,
  },
  {
    kind: 'labelled-secret',
    anchor: LABEL_ANCHOR,
    pattern: labelled(
      'pwd|secret|token|credentials?|(?:api|access|secret|private|signing|encryption|auth)[_ -]?key',
      8,
    ),
    accept: looksLikeSecretValue,
  },
  // The same names as a command-line flag with a space: `psql --password hunter2Blue`, `--token ...`.
  {
    kind: 'labelled-secret',
    anchor: LABEL_ANCHOR,
    pattern:
      /(?<![\w-])--(?:password|passwd|pass|token|secret|api-?key|access-token|auth-token)(?:\s{1,3}|=)(?:"(?<dq>[^"\s]{6,200})"|'(?<sq>[^'\s]{6,200})'|(?<bare>[^\s"'`&,;<>]{6,200}))/dgi,
    accept: looksLikeSecretValue,
  },
  // As an XML element, `<password>...</password>` (Maven settings, .NET configs).
  {
    kind: 'labelled-secret',
    anchor: LABEL_ANCHOR,
    pattern:
      /<(?:password|passwd|passphrase|secret|client_?secret|token|access_?token|api_?key|secret_?key)>(?<secret>[^<\s]{6,200})<\//dgi,
    accept: looksLikeSecretValue,
  },
  // A .netrc entry: `machine host login user password ...`.
  {
    kind: 'labelled-secret',
    anchor: LABEL_ANCHOR,
    pattern: /\blogin\s{1,3}\S{1,100}\s{1,3}password\s{1,3}(?<secret>\S{6,200})/dgi,
    accept: looksLikeSecretValue,
  },
];

/**
 * A labelled-secret pattern for the label alternatives `names` and values of at least `min` characters. Every
 * repeat is bounded and followed by something it cannot match, so a failed attempt stays linear.
 */
function labelled(names: string, min: number): RegExp {
  const assign = '\\s{0,3}(?::=|=>|[:=])\\s{0,3}';
  // A few words between the name and the verb, on one line and without sentence ends: "the password for
  // prod is". Only before a verb: "credential to manage resources. Format: ..." is a sentence, not a value.
  const infix = '(?:[ \\t]{1,3}(?:for|of|on|to)(?:[ \\t]{1,3}[\\w@-]{1,40}){1,3})?';
  const verb =
    '\\s{1,3}(?:(?:is|was)(?:\\s{1,3}(?:now|still|set to|changed to))?(?:\\s{0,3}:)?|(?:set|changed|reset) to)\\s{1,3}';
  const value = `(?:"(?<dq>[^"\\s]{${min},200})|'(?<sq>[^'\\s]{${min},200})|\`?(?<bare>[^\\s"'\`&,;<>]{${min},200}))`;
  return new RegExp(`(?:${names})["'\\]]{0,2}(?:${assign}|${infix}${verb})${value}`, 'dgi');
}
