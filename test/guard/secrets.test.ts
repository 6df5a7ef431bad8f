/** I10: the credential detector catches secret-shaped text and leaves ids, digests and prose alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsSecret, findSecret, maskSecrets } from '../../src/guard/secrets.ts';

// Every fake secret is assembled at run time from a split prefix and deterministic filler, so no
// credential-shaped literal sits in the repository for secret scanners to trip on.
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

/** `length` characters of `alphabet`, pseudo-random from `seed` (a linear congruential generator). */
function filler(length: number, seed: number, alphabet = BASE62): string {
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

const b64url = (value: string): string => Buffer.from(value).toString('base64url');

interface CatchCase {
  kind: string;
  label: string;
  before: string;
  secret: string;
  after: string;
}

const c = (kind: string, label: string, before: string, secret: string, after: string): CatchCase => ({
  kind,
  label,
  before,
  secret,
  after,
});

const pem = (type: string, body: string): string =>
  `-----BEGIN ${type}PRIVATE KEY-----\n${body}\n-----END ${type}PRIVATE KEY-----`;

const CATCH: CatchCase[] = [
  c(
    'aws-access-key-id',
    'AKIA key id',
    'deploy with key ',
    'AK' + 'IA' + filler(16, 1, UPPER_DIGITS),
    ' please',
  ),
  c(
    'aws-access-key-id',
    'ASIA session key id',
    'temporary creds: ',
    'AS' + 'IA' + filler(16, 2, UPPER_DIGITS),
    '',
  ),
  c(
    'aws-secret-access-key',
    'aws_secret_access_key = ...',
    'in ~/.aws/credentials set aws_secret_access_key = ',
    filler(20, 3) + '/' + filler(19, 4),
    ' and save',
  ),
  c(
    'aws-secret-access-key',
    'AWS_SECRET_ACCESS_KEY env var',
    'export AWS_SECRET_ACCESS_KEY="',
    filler(18, 5) + '+' + filler(21, 6),
    '" before running terraform',
  ),
  c('github-token', 'ghp_ classic token', 'use ', 'gh' + 'p_' + filler(36, 7), ' for the release job'),
  c('github-token', 'gho_ OAuth token', 'the OAuth app returned ', 'gh' + 'o_' + filler(36, 8), ''),
  c(
    'github-token',
    'ghu_ user-to-server token',
    'token for the app user: ',
    'gh' + 'u_' + filler(36, 9),
    '.',
  ),
  c(
    'github-token',
    'ghs_ installation token',
    'installation token ',
    'gh' + 's_' + filler(36, 10),
    ' expires hourly',
  ),
  c('github-token', 'ghr_ refresh token', 'refresh with ', 'gh' + 'r_' + filler(36, 11), ' tomorrow'),
  c(
    'github-token',
    'github_pat_ fine-grained token',
    'GITHUB_TOKEN=',
    'github' + '_pat_' + filler(22, 12) + '_' + filler(59, 13),
    ' in CI',
  ),
  c(
    'openai-api-key',
    'legacy sk- key',
    'the OpenAI key is ',
    's' + 'k-' + filler(48, 14),
    ', rotate it monthly',
  ),
  c(
    'openai-api-key',
    'sk-proj- project key',
    'OPENAI_API_KEY=',
    's' + 'k-proj-' + filler(40, 15) + '_' + filler(40, 16) + '-' + filler(20, 17),
    ' is in the env file',
  ),
  c(
    'anthropic-api-key',
    'sk-ant- key',
    'call Claude with ',
    's' + 'k-ant-api03-' + filler(60, 18) + '-' + filler(30, 19) + 'AA',
    ' in the header',
  ),
  c(
    'slack-token',
    'xoxb- bot token',
    'the bot posts with ',
    'xo' + 'xb-' + filler(12, 20, '0123456789') + '-' + filler(13, 21, '0123456789') + '-' + filler(24, 22),
    ' every morning',
  ),
  c(
    'slack-token',
    'xoxp- user token',
    'my user token ',
    'xo' +
      'xp-' +
      filler(12, 23, '0123456789') +
      '-' +
      filler(12, 24, '0123456789') +
      '-' +
      filler(32, 25, HEX),
    ' works',
  ),
  c(
    'slack-token',
    'xoxa- app token',
    'legacy app token ',
    'xo' + 'xa-2-' + filler(12, 26, '0123456789') + '-' + filler(32, 27),
    '',
  ),
  c(
    'slack-token',
    'xapp- app-level token',
    'socket mode needs ',
    'xa' +
      'pp-1-A' +
      filler(10, 28, UPPER_DIGITS) +
      '-' +
      filler(13, 29, '0123456789') +
      '-' +
      filler(64, 30, HEX),
    ' set',
  ),
  c(
    'slack-webhook',
    'Slack webhook URL',
    'alerts go to ',
    'https://hooks.slack.com/services/' +
      'T' +
      filler(8, 31, UPPER_DIGITS) +
      '/B' +
      filler(10, 32, UPPER_DIGITS) +
      '/' +
      filler(24, 33),
    ' (channel #ops)',
  ),
  c('stripe-key', 'sk_live_ key', 'charge cards with ', 's' + 'k_live_' + filler(24, 34), ' in production'),
  c('stripe-key', 'rk_live_ restricted key', 'the reporting job uses ', 'r' + 'k_live_' + filler(24, 35), ''),
  c('stripe-key', 'sk_test_ key', 'staging uses ', 's' + 'k_test_' + filler(24, 36), ' for checkout'),
  c('google-api-key', 'AIza key', 'Maps key ', 'AI' + 'za' + filler(35, 37), ' is restricted to our domain'),
  c(
    'memledger-token',
    'mlk_ memledger API token',
    'MEMLEDGER_TOKEN=',
    'ml' + 'k_' + filler(20, 59, BASE62 + '-_') + '-' + filler(22, 60, BASE62 + '-_'),
    ' for the MCP server',
  ),
  c('gitlab-token', 'glpat- token', 'clone with ', 'gl' + 'pat-' + filler(20, 38), ' as the password'),
  c('npm-token', 'npm_ token', '//registry.npmjs.org/:_authToken=', 'np' + 'm_' + filler(36, 39), ''),
  c(
    'jwt',
    'JWT',
    'the session cookie was ',
    b64url('{"alg":"HS256","typ":"JWT"}') +
      '.' +
      b64url('{"sub":"fake-user","iat":1700000000}') +
      '.' +
      filler(43, 40, BASE62 + '-_'),
    ' when it failed',
  ),
  c(
    'private-key',
    'RSA PEM block',
    'the deploy key:\n',
    pem('RSA ', filler(64, 41) + '\n' + filler(64, 42) + '\n' + filler(20, 43) + '=='),
    '\nkeep it safe',
  ),
  c('private-key', 'OPENSSH PEM block', 'id_ed25519 is ', pem('OPENSSH ', filler(70, 44)), ' (ed25519)'),
  c('private-key', 'PKCS#8 PEM block', 'tls.key: ', pem('', filler(64, 45)), ''),
  c(
    'private-key',
    'PEM block cut off before its END line',
    'pasted: ',
    '-----BEGIN EC PRIVATE KEY-----\n' + filler(64, 46) + '\n' + filler(30, 47),
    '',
  ),
  c(
    'url-password',
    'postgres URL with password',
    'connect to postgres://app:',
    'Tr4in' + 'Sm0ke',
    '@db.internal:5432/main',
  ),
  c(
    'url-password',
    'redis URL with empty user',
    'cache at redis://:',
    filler(16, 48),
    '@cache:6379/0 is fast',
  ),
  c(
    'url-password',
    'https URL with password',
    'fetch https://deploy:',
    'hunter2' + 'hunter2',
    '@git.example.com/repo.git',
  ),
  c(
    'bearer-token',
    'Authorization: Bearer header',
    'curl -H "Authorization: Bearer ',
    filler(40, 49),
    '" https://api.example.com',
  ),
  c(
    'bearer-token',
    'authorization: bearer lower case',
    'log line: authorization: bearer ',
    filler(32, 50) + '==',
    '',
  ),
  c(
    'basic-auth',
    'Authorization: Basic header',
    'sent Authorization: Basic ',
    b64url('admin:Sup3r' + 'Secr3t'),
    ' to the API',
  ),
  c(
    'labelled-secret',
    'password=hunter2hunter2',
    'login with password=',
    'hunter2' + 'hunter2',
    ' on staging',
  ),
  c('labelled-secret', 'DB_PASSWORD env line', 'in .env: DB_PASSWORD=', 'pa55' + filler(12, 51), ''),
  c('labelled-secret', 'api_key: YAML', 'config says api_key: ', filler(32, 52), ' for the vendor'),
  c('labelled-secret', 'secret="..." quoted', 'set secret="', 'q9' + filler(20, 53), '" in the chart'),
  c(
    'labelled-secret',
    'JSON "password": "..."',
    '{"user": "ops", "password": "',
    'W1nter' + '-is-C0ming!',
    '"}',
  ),
  c(
    'labelled-secret',
    'token= in a query string',
    'GET https://api.example.com/items?token=',
    filler(24, 54),
    '&page=2',
  ),
  c('labelled-secret', 'client_secret', 'the OAuth client_secret: ', filler(30, 55), ' lives in 1Password'),
  c('labelled-secret', 'private_key =', 'signing uses private_key = ', filler(44, 56), ''),
  c('labelled-secret', 'camelCase apiKey', "new Client({ apiKey: '", filler(28, 57), "' })"),
  c(
    'labelled-secret',
    'prose: the password is ...',
    'fyi the staging password is ',
    'Summ3r' + '2024!',
    ' until Friday',
  ),
  c(
    'labelled-secret',
    'x-api-key header',
    'curl -H "x-api-key: ',
    filler(32, 58),
    '" https://api.example.com',
  ),
];

for (const { kind, label, before, secret, after } of CATCH) {
  test(`I10 credentials: catches ${kind} in "${label}"`, () => {
    const text = before + secret + after;
    const finding = findSecret(text);
    assert.ok(finding, `expected a finding in ${JSON.stringify(text)}`);
    assert.equal(finding.kind, kind);
    assert.equal(text.slice(finding.start, finding.end), secret);
    assert.equal(containsSecret(text), true);
    assert.equal(maskSecrets(text), `${before}[secret:${kind}]${after}`);
  });
}

const sha1 = filler(40, 101, HEX);
const LEAVE_ALONE: Array<[label: string, text: string]> = [
  ['a git SHA', `fixed in commit ${sha1}, see the PR`],
  ['a short git SHA (7)', `reverted ${sha1.slice(0, 7)} because it broke the build`],
  ['a short git SHA (12)', `bisect points at ${sha1.slice(0, 12)}`],
  ['a UUID', 'request id 123e4567-e89b-42d3-a456-426614174000 failed with 502'],
  ['a sha256 hex digest', `the tarball sha256 is ${filler(64, 102, HEX)}`],
  ['a sha512 hex digest', `integrity check: ${filler(128, 103, HEX)}`],
  ['a docker digest', `pin the image to node@sha256:${filler(64, 104, HEX)} in the Dockerfile`],
  [
    'an npm integrity string',
    `"integrity": "sha512-${Buffer.from(filler(64, 105, HEX), 'hex').toString('base64')}"`,
  ],
  ['base64 of a short string in prose', 'the header value aGVsbG8gd29ybGQ= just decodes to hello world'],
  [
    'a memledger token prefix in a list',
    'token tok_01jd6k3v9q8w2x4y5z6a7b8c shows as mlk_AbCdEfGh… in token list',
  ],
  ['a memledger id', 'superseded by mem_01jd6k3v9q8w2x4y5z6a7b8c yesterday'],
  ['the word password', 'Reset your password from the settings page; passwords must be 12+ characters'],
  ['the word token', 'the token budget is 4096 tokens and max_tokens: 4096 in the request'],
  ['secret key rotation prose', 'our secret key rotation policy is 90 days'],
  ['API key storage prose', 'the API key is stored in Vault, never in the repo'],
  [
    'prose with a colon after password',
    'Password: required. Secret: rotation is automatic. Token: generated by CI',
  ],
  ['a URL without credentials', 'docs at https://example.com/guide/install?lang=en&page=2#linux'],
  ['a URL with a user but no password', 'clone ssh://git@github.com/acme/memledger.git then build'],
  ['a URL with a port', 'the dev server runs on http://localhost:8080/api'],
  ['a URL with an empty password', 'connect to postgres://app:@db.internal/main'],
  ['a URL with a *** password', 'the log shows postgres://app:***@db.internal:5432/main'],
  ['a URL with a <password> placeholder', 'use mysql://root:<password>@localhost:3306/app'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VAR} placeholder is the case under test
  ['a URL with a ${VAR} password', 'DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/main'],
  ['a URL with a $VAR password', 'amqp://guest:$RABBIT_PASS@queue:5672 in compose'],
  ['an email address', 'mail alice.smith+alerts@example.co.uk about the outage'],
  ['file paths', 'edit /home/dev/.config/memledger/config.json or C:\\Users\\dev\\AppData\\memledger.ini'],
  ['a semantic version', 'upgrade to 1.12.3-beta.4+build.5 before 2.0.0'],
  ['an ISO timestamp', 'recorded at 2024-11-05T14:03:22.123Z by the hook'],
  ['long ordinary words', 'internationalization and electroencephalographically counterrevolutionaries'],
  [
    'npm package names',
    'install @types/node, eslint-plugin-react-hooks and npm-run-all; npm_config_cache is set',
  ],
  ['sk- inside ordinary words', 'the task-runner reports disk-usage and risk-assessment per desk-booking'],
  ['sk- followed by plain words', 'a sk-learn-compatible-pipeline-for-ranking works here'],
  ['a Stripe publishable key', `the checkout page embeds ${'p' + 'k_live_' + filler(24, 106)}`],
  [
    'a PEM public key and certificate',
    '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY----- and -----BEGIN CERTIFICATE-----',
  ],
  ['api_key: <your-key>', 'set api_key: <your-key> in config.yaml'],
  ['password=changeme', 'the default is password=changeme until first login'],
  ['password: ********', 'the dump shows password: ******** as expected'],
  ['token: xxxxxxxxxxxx', 'example config: token: xxxxxxxxxxxx'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VAR} placeholder is the case under test
  ['a labelled ${VAR} reference', 'API_KEY=${OPENAI_API_KEY} and export GITHUB_TOKEN=$GITHUB_TOKEN'],
  ['a labelled process.env reference', 'pass apiKey: process.env.OPENAI_API_KEY to the client'],
  ['a labelled path to a key file', 'private_key: ~/.ssh/id_ed25519 and secret: /run/secrets/db_password'],
  ['a labelled fill-in instruction', 'token=your-token-here and api_key="YOUR_API_KEY_2"'],
  [
    'Authorization: Bearer <token>',
    'curl -H "Authorization: Bearer <token>" or "Authorization: Bearer $TOKEN"',
  ],
  ['an empty string', ''],
];

for (const [label, text] of LEAVE_ALONE) {
  test(`I10 credentials: leaves alone ${label}`, () => {
    assert.equal(findSecret(text), null, `unexpected finding in ${JSON.stringify(text)}`);
    assert.equal(containsSecret(text), false);
    assert.equal(maskSecrets(text), text);
  });
}

test('I10 credentials: maskSecrets removes every secret and keeps the words around them', () => {
  const github = 'gh' + 'p_' + filler(36, 201);
  const aws = 'AK' + 'IA' + filler(16, 202, UPPER_DIGITS);
  const text = `deploy with ${github} and key ${aws}; DB at postgres://app:hunter2hunter2@db/main, commit ${sha1}`;
  const masked = maskSecrets(text);
  assert.equal(
    masked,
    `deploy with [secret:github-token] and key [secret:aws-access-key-id]; ` +
      `DB at postgres://app:[secret:url-password]@db/main, commit ${sha1}`,
  );
  for (const secret of [github, aws, 'hunter2hunter2']) assert.ok(!masked.includes(secret));
  assert.equal(containsSecret(masked), false);
});

test('I10 credentials: findSecret reports the earliest secret, and the specific kind over the generic', () => {
  const npm = 'np' + 'm_' + filler(36, 203);
  const stripe = 's' + 'k_live_' + filler(24, 204);
  const text = `first NPM_TOKEN=${npm}, then ${stripe}`;
  const finding = findSecret(text);
  assert.deepEqual(finding, {
    kind: 'npm-token',
    start: text.indexOf(npm),
    end: text.indexOf(npm) + npm.length,
  });
});

test('I10 credentials: stays fast on 8,000-character adversarial inputs', () => {
  const inputs = [
    'a'.repeat(8000),
    'eyJ' + 'a'.repeat(7997),
    'eyJaaaaaaaaaa.'.repeat(570),
    'http://' + 'a:'.repeat(3996),
    'x://'.repeat(2000),
    'password='.repeat(888),
    'password: '.repeat(800),
    'Authorization: Bearer '.repeat(363),
    '-----BEGIN RSA PRIVATE KEY-----'.repeat(258),
    'sk-'.repeat(2666),
    `${filler(7000, 205, BASE62 + '+/=_-.:@')} ${'-'.repeat(999)}`,
  ];
  const started = performance.now();
  for (const input of inputs) {
    findSecret(input);
    maskSecrets(input);
  }
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 500, `took ${elapsed.toFixed(0)} ms`);
});
