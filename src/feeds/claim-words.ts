/**
 * The words that make a sentence a preference or a decision, shared by the transcript miner and the notes
 * reader: a preference is a rule or convention of how to work, a decision a choice with its reason.
 */

/** What a person says to state a preference or a convention. Anchored where the speaker's rule starts. */
export const PREFERENCE = [
  /^(?:please\s+)?(?:always|never)\s+\w+/i,
  /^(?:(?:we|you|i)\s+(?:should\s+|must\s+)?)(?:always|never)\s+\w+/i,
  /\b(?:we|you)\s+(?:always|never)\s+\w+/i,
  /^i\s+(?:really\s+|strongly\s+|generally\s+)?(?:prefer|like|want|hate|dislike|don't like|do not like)\s+\w+/i,
  /^we\s+(?:always\s+|usually\s+|generally\s+)?prefer\s+\w+/i,
  /^my\s+preference\s+is\b/i,
  /^we\s+(?:use|don't use|do not use|never use|rely on|standardi[sz]e on|follow|stick to|deploy (?:with|to|on)|name|keep|run|host|write)\s+\S+/i,
  /^(?:our|the)\s+(?:convention|rule|standard|policy|style|preference)\s+(?:here\s+)?(?:is|for\s+\S+\s+is)\b/i,
  /^(?:please\s+)?(?:don't|do not)\s+(?:ever\s+)?(?:use|add|commit|push|run|call|write|import|touch|modify|change|edit|delete|rename|merge|deploy|mock)\s+\S+/i,
  /^(?:please\s+)?(?:use|prefer)\s+.+\s+(?:instead of|rather than|over)\s+\S+/i,
];

export const DECISION = [
  /\b(?:we|i|they|the team)\s+(?:have\s+|had\s+|finally\s+|eventually\s+)?(?:decided|chose|agreed|settled on|went with|opted|picked)\b.+\b(?:because|since|so that|due to|given that)\b.+/i,
  /^(?:let's|let us)\s+go with\s+.+\s+(?:because|since|so that)\s+.+/i,
  /\bwe(?:'re| are)\s+going with\s+.+\s+(?:because|since|so that)\s+.+/i,
  /^decision:\s*.+\b(?:because|since|so that|due to)\b.+/i,
];

export const isDecision = (s: string): boolean => DECISION.some((re) => re.test(s));

/**
 * In notes, a change of course with its reason is a decision too: "We moved CI to Actions because …",
 * "We keep the monorepo since …" (the writer states what was chosen and why; a transcript's "I'll use grep
 * because …" is narration and never reaches this, which notes alone use).
 */
export const DECISION_CHOICE =
  /^(?:we|the team)\s+(?:have\s+|had\s+)?(?:moved|switched|migrated|replaced|dropped|removed|adopted|kept|keep|stay(?:ed)? with|stick with|standardi[sz]ed on|chose|picked)\b.+\b(?:because|since|so that|due to|given that|as)\b.+/i;

/** A rule in a note: the person's preference words, a modal of obligation, or an instruction's imperative. */
// "only" as a word, not inside "read-only" or "append-only" (an adjective, not a rule).
const RULE_WORDS =
  /\b(?:always|never|must|mustn't|should|shouldn't|don't|do not|required to)\b|(?<![\w-])only(?![\w-])/i;
const IMPERATIVE =
  /^(?:please\s+)?(?:use|run|avoid|prefer|keep|write|add|put|prefix|name|pin|ask|escalate|call|check|commit|push|store|wrap|document|follow|stick to|make sure|ensure|remember to)\s+\S+/i;
/** Saying a thing follows a convention names the convention. */
const FOLLOWS = /\b(?:follows?|adheres? to|conforms? to)\b/i;

export const isPreferenceLike = (s: string): boolean =>
  PREFERENCE.some((re) => re.test(s)) || RULE_WORDS.test(s) || IMPERATIVE.test(s) || FOLLOWS.test(s);
