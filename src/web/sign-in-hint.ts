// The command the console's sign-in screen tells a person to run: a token with exactly what the console's views call.
/**
 * reader for the memory browser, history and the review queue's reads; reviewer for verdicts. The audit view and
 * erasure are offered only to an admin (or auditor), so the hint names that role as an addition, not a default.
 * test/web/sign-in-hint.test.ts runs this command and signs in with its token.
 */
export const SIGN_IN_TOKEN_COMMAND =
  "memledger token create --kind human --name you --role reader --role reviewer --grant '*:rw'";

export const SIGN_IN_ADMIN_NOTE = 'add --role admin for the audit feed and erasure';
