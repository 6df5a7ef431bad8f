/** I10: the credential detector catches secret-shaped text and leaves ids, digests and prose alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsSecret, findSecret, maskSecrets } from '../../src/guard/secrets.ts';

// Every fake secret is assembled at run time from a split prefix and deterministic filler, so no
// credential-shaped literal sits in the repository for secret scanners to trip on.
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/**
 * `length` characters of `alphabet`, pseudo-random from `seed` (a linear congruential generator in 32-bit
 * integer arithmetic, read from its high bits: its low bits, and a product past 2^53 in floating point,
 * repeat or collapse to zeros, which made "random" hex all zeros).
 */
function filler(length: number, seed: number, alphabet = BASE62): string {
  let state = seed >>> 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += alphabet[(state >>> 16) % alphabet.length];
  }
  return out;
}

const b64url = (value: string): string => Buffer.from(value).toString('base64url');

/** `text` cut into lines of `width`, joined by `separator` (how `base64` and PEM files wrap). */
const wrap = (text: string, width: number, separator: string): string =>
  (text.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join(separator);

/** A small PNG's bytes in base64: the signature, an IHDR chunk and pseudo-random image data. */
const pngBase64 = (): string =>
  Buffer.concat([
    Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61', 'hex'),
    Buffer.from(filler(400, 121, HEX), 'hex'),
  ]).toString('base64');

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
  // ---- formats added for issue 8 --------------------------------------------------------------------
  c('huggingface-token', 'hf_ token in an env line', 'HF_TOKEN=', 'h' + 'f_' + filler(34, 61, LETTERS), ''),
  c(
    'huggingface-token',
    'hf_ token on a CLI login',
    'huggingface-cli login --token ',
    'h' + 'f_' + filler(34, 62, LETTERS),
    ' --add-to-git-credential',
  ),
  c(
    'huggingface-token',
    'hf_ token in prose',
    'the inference endpoint takes ',
    'h' + 'f_' + filler(34, 63, LETTERS),
    ' as its bearer',
  ),
  c(
    'huggingface-token',
    'api_org_ organisation token',
    'org token ',
    'api' + '_org_' + filler(34, 64, LETTERS),
    '',
  ),
  c(
    'azure-storage-key',
    'AccountKey= in a storage connection string',
    'DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=',
    Buffer.from(filler(64, 65, BASE62 + '+/'), 'latin1').toString('base64'),
    ';EndpointSuffix=core.windows.net',
  ),
  c(
    'azure-storage-key',
    'SharedAccessKey= in a Service Bus connection string',
    'Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=',
    Buffer.from(filler(32, 66), 'latin1').toString('base64'),
    '',
  ),
  c(
    'azure-storage-key',
    'AccountKey= in an env line',
    'AZURE_STORAGE_CONNECTION_STRING="AccountName=acme;AccountKey=',
    Buffer.from(filler(64, 67, HEX), 'hex').toString('base64'),
    '"',
  ),
  c(
    'sendgrid-key',
    'SG. key in an env line',
    'SENDGRID_API_KEY=',
    'S' + 'G.' + filler(22, 68, BASE62 + '-_') + '.' + filler(43, 69, BASE62 + '-_'),
    '',
  ),
  c(
    'sendgrid-key',
    'SG. key in prose',
    'mail goes out through ',
    'S' + 'G.' + filler(22, 70, BASE62 + '-_') + '.' + filler(43, 71, BASE62 + '-_'),
    ', the marketing account',
  ),
  c(
    'telegram-bot-token',
    'Telegram bot token in an env line',
    'TELEGRAM_BOT_TOKEN=',
    filler(10, 72, DIGITS).replace(/^0/, '7') + ':A' + 'A' + filler(33, 73, BASE62 + '-_'),
    '',
  ),
  c(
    'telegram-bot-token',
    'Telegram bot token inside the API URL',
    'curl https://api.telegram.org/bot',
    filler(9, 74, DIGITS).replace(/^0/, '5') + ':A' + 'A' + filler(33, 75, BASE62 + '-_'),
    '/sendMessage',
  ),
  c(
    'telegram-bot-token',
    'Telegram bot token in prose',
    'the alerts bot is ',
    filler(10, 76, DIGITS).replace(/^0/, '6') + ':A' + 'A' + filler(32, 77, BASE62 + '-_'),
    ' (@acme_alerts_bot)',
  ),
  // ---- passwords as people write them ---------------------------------------------------------------
  c('labelled-secret', 'prose: the DB password is ...', 'the DB password is ', 'hunter2' + '-Blue-77', ''),
  c('labelled-secret', 'prose: password is: ...', 'staging password is: ', 'hunter2' + '-Blue-77', ''),
  c(
    'labelled-secret',
    'prose: the password for prod is ...',
    'the password for prod is ',
    'Hunter2' + 'Blue77',
    ', do not share',
  ),
  c(
    'labelled-secret',
    'prose: password was changed to ...',
    'the wifi password was changed to ',
    'Blue' + 'Falcon-88',
    ' yesterday',
  ),
  c(
    'labelled-secret',
    'password= with a short password',
    'login with user=admin password=',
    'hunt' + 'er2',
    '',
  ),
  c('labelled-secret', 'PASSWORD = "..." quoted, short', 'PASSWORD = "', 's3cr' + '3t!', '"'),
  c(
    'labelled-secret',
    'spring.datasource.password= in a properties file',
    'spring.datasource.password=',
    'Xk9' + '#mQ2vL7',
    '\nspring.datasource.username=app',
  ),
  c('labelled-secret', 'password: in YAML', 'db:\n  user: app\n  password: ', 'Tr0ub4' + 'dor#3x', '\n'),
  c(
    'labelled-secret',
    'psql --password with a space',
    'psql -h db --password ',
    'hunter2' + 'Blue',
    ' -U app',
  ),
  c('labelled-secret', '--token with a space', 'gh auth login --token ', filler(24, 78), ''),
  c(
    'labelled-secret',
    'XML <password> element',
    '<server><id>nexus</id><password>',
    'N3xus' + '-Deploy-9',
    '</password></server>',
  ),
  c(
    'labelled-secret',
    '.netrc entry',
    'machine api.example.com login deploy password ',
    'pa55' + filler(10, 79),
    '\n',
  ),
  // ---- encoded, hidden or split ---------------------------------------------------------------------
  c(
    'github-token',
    'base64 of a GitHub token',
    'the CI secret decodes from ',
    Buffer.from('gh' + 'p_' + filler(36, 80)).toString('base64'),
    ' (base64)',
  ),
  c(
    'aws-access-key-id',
    'base64 of an AKIA key pair',
    'creds blob: ',
    Buffer.from('AK' + 'IA' + filler(16, 81, UPPER_DIGITS) + ':' + filler(40, 82, BASE62 + '/+')).toString(
      'base64',
    ),
    '',
  ),
  c(
    'labelled-secret',
    'base64 of a .env file',
    'env.b64 holds ',
    Buffer.from('DB_HOST=db.internal\nDB_PASSWORD=' + 'hunter2' + 'Blue77\n').toString('base64'),
    ' for the job',
  ),
  c(
    'stripe-key',
    'base64url of a Stripe key',
    'state param ',
    Buffer.from('s' + 'k_live_' + filler(24, 83)).toString('base64url'),
    ' in the callback',
  ),
  c(
    'github-token',
    'base64 of base64 of a GitHub token',
    'double-encoded: ',
    Buffer.from(Buffer.from('gh' + 'p_' + filler(36, 84)).toString('base64')).toString('base64'),
    '',
  ),
  c(
    'private-key',
    'base64 of a PEM key, wrapped at 76 columns',
    'tls.key: |\n  ',
    wrap(Buffer.from(pem('RSA ', filler(64, 85) + '\n' + filler(64, 86))).toString('base64'), 76, '\n  '),
    '\ntls.crt: ok',
  ),
  c(
    'github-token',
    'U+200B inside a GitHub token',
    'use ',
    'gh' + 'p_' + filler(18, 87) + '\u200B' + filler(18, 88),
    ' for the release',
  ),
  c('github-token', 'U+200B inside the ghp_ prefix', 'token ', 'gh\u200B' + 'p_' + filler(36, 89), ''),
  c(
    'aws-access-key-id',
    'U+2060 word joiners inside an AKIA key',
    'key id ',
    'AK' + 'IA\u2060' + filler(8, 90, UPPER_DIGITS) + '\u2060' + filler(8, 91, UPPER_DIGITS),
    ' in us-east-1',
  ),
  c(
    'stripe-key',
    'U+00AD soft hyphens inside a Stripe key',
    'charge with ',
    's' + 'k_live_' + filler(12, 92) + '\u00AD' + filler(12, 93),
    '',
  ),
  c(
    'openai-api-key',
    'zero-width joiner and BOM inside an OpenAI key',
    'OPENAI_API_KEY=',
    's' + 'k-proj-' + filler(20, 94) + '\u200D' + filler(20, 95) + '\uFEFF' + filler(10, 96),
    '',
  ),
  c(
    'github-token',
    'GitHub token split by a newline',
    'paste:\n',
    'gh' + 'p_' + filler(20, 97) + '\n' + filler(16, 98),
    '\nthanks',
  ),
  c(
    'github-token',
    'GitHub token split by spaces',
    'token is ',
    'gh' + 'p_' + ['aB3d', 'Ef5G', 'hI7j', 'Kl9M', 'nO1p', 'Qr3S', 'tU5v', 'Wx7Y', 'zA9b'].join(' '),
    ' (spaced out)',
  ),
  c(
    'aws-access-key-id',
    'AKIA key split by a backslash-newline',
    'aws configure set aws_access_key_id ',
    'AK' + 'IA' + filler(8, 99, UPPER_DIGITS) + '\\\n    ' + filler(8, 100, UPPER_DIGITS),
    '',
  ),
  c(
    'openai-api-key',
    'OpenAI key wrapped across indented lines',
    'key:\n    ',
    's' + 'k-proj-' + filler(30, 107) + '\n    ' + filler(30, 108),
    '\n',
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
  // ---- added for issue 8: digests, ids and encodings -------------------------------------------------
  [
    'more git SHAs',
    `merge ${filler(40, 110, HEX)} into ${filler(40, 111, HEX)}; cherry-pick ${filler(10, 112, HEX)}`,
  ],
  [
    'UUIDs in several spellings',
    `ids 550e8400-e29b-41d4-a716-446655440000, ${'F47AC10B-58CC-4372-A567-0E02B2C3D479'} and ${filler(32, 113, HEX)}`,
  ],
  ['a sha256: prefixed digest', `layer sha256:${filler(64, 114, HEX)} pulled`],
  [
    'a base64 sha256 digest',
    `Digest: SHA-256=${Buffer.from(filler(64, 115, HEX), 'hex').toString('base64')}`,
  ],
  [
    'npm integrity hashes (sha512 and sha1)',
    `"integrity": "sha512-${Buffer.from(filler(128, 116, HEX), 'hex').toString('base64')}", ` +
      `"integrity": "sha1-${Buffer.from(filler(40, 117, HEX), 'hex').toString('base64')}"`,
  ],
  [
    'base64 of ordinary text',
    `the fixture is ${Buffer.from('Reset your password in settings if the login keeps failing.').toString('base64')}`,
  ],
  [
    'base64 of a JSON config without secrets',
    `CONFIG=${Buffer.from('{"region":"eu-west-1","retries":3,"endpoint":"https://api.example.com"}').toString('base64')}`,
  ],
  ['a base64 PNG data URL', `<img src="data:image/png;base64,${pngBase64()}">`],
  [
    'base64 of binary, wrapped at 76 columns',
    `-----BEGIN CERTIFICATE-----\n${wrap(Buffer.from(filler(300, 118, HEX), 'hex').toString('base64'), 64, '\n')}\n-----END CERTIFICATE-----`,
  ],
  ['long identifiers', 'call getUserPreferencesForWorkspace2 in AbstractSingletonProxyFactoryBean4Test'],
  ['kebab-case package names', 'eslint-plugin-react-hooks and @typescript-eslint/eslint-plugin-tslint'],
  ['a file path', 'see /home/dev/projects/memledger/src/ledger/remember.ts and C:/Users/dev/AppData/Roaming'],
  [
    'an unsigned JWT (alg none)',
    `${b64url('{"alg":"none","typ":"JWT"}')}.${b64url('{"sub":"user-1","iat":1700000000}')}.`,
  ],
  ['an eyJ pagination cursor', `next page: ?cursor=${b64url('{"page":2,"sort":"name","after":"mem_01"}')}`],
  [
    'a dotted eyJ id whose first part is no JWT header',
    `trace ${b64url('{"page":2,"sort":"name"}')}.${filler(12, 119)}.${filler(12, 120)}`,
  ],
  // ---- ordinary sentences about passwords and tokens ------------------------------------------------
  ['reset your password in settings', 'Reset your password in settings, then sign in again'],
  ['password must be 12 characters', 'password must be 12 characters and include a digit'],
  ['the password for ... is stored in ...', 'the password for the admin panel is stored in 1Password'],
  ['the password is correct', 'the password is correct but the account is locked'],
  ['password was changed to meet a policy', 'Your password was changed to meet the new policy'],
  ['passwords rotate', 'passwords are rotated every 90 days; tokens expire after 1h'],
  [
    'a --password-file flag',
    'run psql --password-file /run/secrets/db_password or --password to be prompted',
  ],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VAR} placeholder is the case under test
  ['a --token flag with a variable', 'gh auth login --token $GH_TOKEN; npm publish --token ${NPM_TOKEN}'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VAR} placeholder is the case under test
  ['an XML password placeholder', '<password>${env.NEXUS_PASSWORD}</password> in settings.xml'],
  [
    'an Azure connection string placeholder',
    'AccountName=acme;AccountKey=<your-account-key>;EndpointSuffix=core.windows.net',
  ],
  ['Hugging Face env names', 'set HF_HOME=/data/hf_cache and call hf_hub_download(repo_id) with hf_transfer'],
  ['SG. in ordinary code', 'msg.send(); SG.NET is a namespace; see SG.2024 notes'],
  ['times and ratios with colons', 'meet at 12:30:45, aspect 16:9, build 1234567890:done'],
  [
    'a token prefix followed by words',
    'classic tokens start with ghp_ THEN COMES THE RANDOM PART and AKIA prefixes long-term keys, ASIA temporary',
  ],
  ['a token prefix followed by a year', 'the ghp_ 2024 rotation notes and sk- 2025 plan'],
  ['an emoji ZWJ sequence and soft hyphens', 'pairing 👩‍💻 with co\u00ADoperate and re\u00ADenter'],
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

// No timed assertion (a loaded machine makes any bound flaky): catastrophic backtracking would hang, and the
// test's own timeout turns a hang into a failure.
test('I10 credentials: finishes on 8,000-character adversarial inputs', { timeout: 60_000 }, () => {
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
  for (const input of inputs) {
    const found = findSecret(input);
    assert.equal(typeof maskSecrets(input), 'string');
    if (found !== null) assert.ok(found.end > found.start, 'a finding has a span');
  }
});

test('I10 credentials: the normalising stages finish on adversarial inputs and find only what is there', () => {
  // Base64 that decodes to adversarial text, base64 in base64, invisible characters everywhere, token
  // prefixes whose pieces all look joinable. Each is searched once per stage, never once per character.
  const nothing = [
    Buffer.from('password='.repeat(666)).toString('base64'),
    Buffer.from(Buffer.from('eyJaaaaaaaaaa.'.repeat(320)).toString('base64')).toString('base64'),
    '\u200B'.repeat(8000),
    'gh\u200Bp_a1B2 '.repeat(1000),
    'ghp_a1B2 '.repeat(888),
    'QUtJQ'.repeat(1600),
  ];
  for (const input of nothing) {
    assert.equal(findSecret(input), null);
    assert.equal(maskSecrets(input), input);
  }
  // Control: the same shapes around one real token still find it, at its place.
  const token = 'gh' + 'p_' + filler(36, 206);
  const text = `${'ghp_a1B2 '.repeat(400)}then ${token} ${'\u200B'.repeat(2000)}`;
  const finding = findSecret(text);
  assert.equal(finding?.kind, 'github-token');
  assert.equal(text.slice(finding?.start, finding?.end), token);
});

test('I10 credentials: a secret found inside base64 says so, and masking hides the whole encoded run', () => {
  const token = 'gh' + 'p_' + filler(36, 207);
  const encoded = Buffer.from(`export GH=${token}`).toString('base64');
  const text = `k8s data: ${encoded} (rotated)`;
  assert.deepEqual(findSecret(text), {
    kind: 'github-token',
    start: text.indexOf(encoded),
    end: text.indexOf(encoded) + encoded.length,
    encoding: 'base64',
  });
  assert.equal(maskSecrets(text), 'k8s data: [secret:github-token] (rotated)');
  // Control: a token in the clear carries no encoding.
  assert.equal(findSecret(`use ${token}`)?.encoding, undefined);
});
