/** The phrasing rules of the instruction detector: text that sets aside its reader's instructions or orders it about. */
import type { InstructionRule } from './instructions.ts';

const VERB_IGNORE =
  "(?:ignore|disregard|forget|override|bypass|overlook|dismiss|set aside|stop following|stop obeying|no longer follow|do not follow|don't follow|never follow)";
/** What came before the memory: the reader's instructions, whatever they are called. */
const EARLIER = '(?:previous|prior|above|earlier|preceding|foregoing|original|initial)';
const ORDERS =
  '(?:instructions?|directions?|directives?|guidelines?|rules|prompts?|commands|orders|context|guidance|programming|constraints|restrictions|messages|guardrails|policies|text)';
/** The reader's standing orders by their source ("the system prompt"); not "system messages" in a build log. */
const STANDING = '(?:system|developer|safety)';
const STANDING_ORDERS =
  '(?:instructions?|directives?|guidelines?|rules|prompts?|programming|constraints|restrictions|guardrails|policies)';
/** The reader's own instructions named by what they are, for "ignore the instructions above". */
const ITS_ORDERS =
  '(?:instructions?|directions|directives|guidelines|rules|prompts?|commands|orders|guidance|programming|constraints|restrictions|guardrails)';
/** "the previous instructions in the README": a person pointing at an outdated document, not at the reader. */
const DOCUMENT_AFTER =
  /^ (?:in|from|of|for|at) (?:the |our |this )?(?:readme|docs?|documentation|wiki|contributing|changelog|runbook|handbook|confluence|notion|ticket|issue|pr|[\w./-]+\.(?:md|txt|rst|adoc|html?))\b/;

/** Who a message to the reader names as its reader. */
const AI =
  '(?:ai|llm|language model|assistant|agent|model|bot|chatbot|claude|chatgpt|gpt|codex|copilot|gemini)';
/** Anchors: necessary conditions of several rules each, so most sentences are cleared by a quick scan. */
const HAS_IGNORE_VERB = /ignor|disregard|forget|overrid|bypass|overlook|dismiss|set aside|follow|obey/;
const HAS_YOU = /you/;
const HAS_AI = new RegExp(`\\b${AI}`);

/** `override` and `directive`, in that order. */
export const PHRASE_RULES: readonly InstructionRule[] = [
  // ---- override: the reader's own instructions, set aside or replaced -----------------------------------
  {
    kind: 'override',
    name: 'ignore-previous',
    anchor: HAS_IGNORE_VERB,
    pattern: new RegExp(
      `\\b${VERB_IGNORE}\\b(?: (?:all|any|every|each))?(?: of)?(?: (?:the|your|my|these|those|this|our))? (?:${EARLIER}(?: (?:${STANDING}|ai))? ${ORDERS}|${STANDING} ${STANDING_ORDERS})\\b|\\b${VERB_IGNORE}\\b(?: all| any)?(?: of)? (?:the|your|these|those) ${ITS_ORDERS} (?:above|before this|so far|you (?:were|have been|received|got)|given (?:to you|before|earlier|previously|above))\\b`,
    ),
    accept: (t, m) => !DOCUMENT_AFTER.test(t.slice(m.index + m[0].length)) || /\ball\b/.test(m[0]),
  },
  {
    kind: 'override',
    name: 'ignore-all',
    anchor: HAS_IGNORE_VERB,
    pattern: new RegExp(
      `\\b${VERB_IGNORE}\\b (?:all|any)(?: of)?(?: (?:the|your|my))? (?:instructions?|directions|directives|guidelines|prompts?|programming|guardrails|restrictions|safety (?:rules|guidelines))\\b`,
    ),
  },
  {
    kind: 'override',
    name: 'ignore-yours',
    anchor: HAS_IGNORE_VERB,
    pattern: new RegExp(
      `\\b${VERB_IGNORE}\\b (?:all |any )?(?:of )?your (?:\\w+ )?(?:instructions?|directions|directives|guidelines|rules|prompts?|programming|training|guardrails|restrictions|constraints|principles|policies|ethics|filters|system prompt|creators?|developers?)\\b`,
    ),
  },
  {
    kind: 'override',
    name: 'forget-everything',
    anchor: HAS_IGNORE_VERB,
    pattern: new RegExp(
      `\\b${VERB_IGNORE}\\b (?:everything|anything|all)(?: (?:that|else))?(?: (?:above|previously|before this|prior to this|written above|said above|you(?:'ve| have| were| are)? (?:been )?(?:told|given|instructed|taught|read|seen)))\\b|\\b${VERB_IGNORE}\\b (?:what|anything|everything) (?:the )?(?:system|developer|operator|user|they|anyone|others|your (?:creators?|developers?|instructions?))(?: has| have)? (?:told|said to|instructed|asked|taught) you\\b`,
    ),
  },
  {
    kind: 'override',
    name: 'new-instructions',
    anchor: /instruction|directive|orders|prompt/,
    pattern:
      /\b(?:new|real|actual|true|secret|hidden|override|overriding|revised system|updated system) (?:system )?(?:instructions?|directives?|orders|system prompt|prompt)\s*:/,
  },
  {
    kind: 'override',
    name: 'your-real-task',
    pattern:
      /\byour (?:real|true|actual|new|only|primary|sole|hidden|secret) (?:instructions?|task|goal|purpose|objective|orders|mission|directive|job|role) (?:is|are|now|:)/,
  },
  {
    kind: 'override',
    name: 'you-are-now',
    anchor: HAS_YOU,
    pattern: /\byou(?: are|'re) (?:now|no longer|henceforth)\b/,
  },
  {
    kind: 'override',
    name: 'takes-precedence',
    pattern:
      /\b(?:this|these|the following|my) (?:message|note|memory|instructions?|commands?|rules?) (?:overrides?|supersedes?|takes? precedence over|replaces?) (?:all |any )?(?:the |your )?(?:other|previous|prior|earlier|system|original|existing)? ?(?:instructions|rules|guidelines|prompts?|system prompt)\b/,
  },
  {
    kind: 'override',
    name: 'persona',
    pattern:
      /\b(?:(?:act|behave|respond|answer|roleplay|role-play)(?: as| like)(?: if you (?:are|were))?|pretend(?: that)?(?: you(?: are|'re)| to be))(?: an?| the)? (?:unrestricted|unfiltered|uncensored|jailbroken|evil|dan|rogue|malicious|amoral|unaligned|ai without|assistant without|model without)\b/,
  },
  {
    kind: 'override',
    name: 'no-restrictions',
    anchor: HAS_YOU,
    pattern:
      /\b(?:pretend|imagine|assume|remember|know) (?:that )?you (?:have|had|are under|are bound by) no (?:rules|restrictions|guidelines|limits|limitations|filters|instructions|guardrails)\b|\byou (?:are|were) (?:free from|freed from|released from|no longer bound by|not bound by) (?:all |any |your )?(?:rules|restrictions|guidelines|limits|limitations|filters|instructions|guardrails|policies)\b/,
  },
  {
    kind: 'override',
    name: 'jailbreak',
    anchor: /mode|anything now|jailbr/,
    pattern:
      /\b(?:do anything now|dan mode|developer mode (?:enabled|output|activated)|jailbreak(?:ed)? mode|jailbroken|god mode (?:enabled|activated|on)|(?:enable|enter|activate|switch to|turn on) (?:dan|god|jailbreak|unrestricted|unfiltered|uncensored) mode)\b/,
  },
  {
    kind: 'override',
    name: 'system-prompt',
    anchor: /your|the (?:full|entire|complete|original|initial|hidden|secret|verbatim)|system prompt|repeat/,
    pattern:
      /\b(?:reveal|print|show|output|repeat|display|leak|dump|disclose|share|recite|expose|tell me|give me|write out|return|send)(?: me| us)? (?:your|the (?:full|entire|complete|original|initial|hidden|secret|verbatim)) (?:system prompt|system message|developer message|initial prompt|hidden prompt|original prompt|hidden instructions|initial instructions|original instructions|instructions|prompt|rules)\b|\bwhat (?:is|are|was|were) your (?:system prompt|initial prompt|instructions|initial instructions|rules|guidelines)\b|\b(?:override|overwrite|ignore|forget|disregard|bypass|leak) (?:the |your )?system prompt\b|\brepeat (?:the |all )?(?:words|text|everything|lines|instructions) (?:above|before this|prior to this)\b/,
  },
  // ---- directive: commands aimed at whoever reads this ----------------------------------------------------
  {
    kind: 'directive',
    name: 'must-now',
    anchor: HAS_YOU,
    pattern:
      /\byou (?:must|shall|are to|need to|have to|are required to|are instructed to|are ordered to|are hereby (?:instructed|ordered|required) to) (?:now|immediately|instantly|at once|right away|henceforth|from now on|from this point on)\b/,
  },
  {
    kind: 'directive',
    name: 'from-now-on-you',
    anchor: HAS_YOU,
    pattern:
      /\b(?:from now on|from this point (?:on|forward)|from here on|henceforth|going forward),? you\b|\byou (?:will|must|shall|should) from now on\b/,
  },
  {
    kind: 'directive',
    name: 'role-addressed',
    anchor: HAS_AI,
    pattern: new RegExp(
      `^\\s*(?:assistant|ai assistant|ai agent)\\s*:|^\\s*(?:dear |hey |hi |hello |attention,? |attention:? )?(?:${AI})\\s*,\\s*(?:please\\s+)?(?:run|execute|delete|send|ignore|forget|email|post|upload|print|reveal|disable|remove|fetch|download|install|write|modify|obey|stop)\\b`,
    ),
  },
  {
    kind: 'directive',
    name: 'when-you-read-this',
    pattern: new RegExp(
      `\\b(?:when|once|if|as soon as|whenever|after) (?:you|an? ${AI}|the ${AI}|any ${AI}) (?:read|reads|see|sees|process|processes|load|loads|receive|receives|encounter|encounters|find|finds|parse|parses|retrieve|retrieves|are shown|is shown) (?:this|these)(?: (?:message|note|memory|text|instructions?|line|document|record|entry|context))?\\s*(?:[,:;.!-]|$|\\n)|\\bif you are an? (?:ai|llm|large language model|language model|assistant|ai assistant|ai agent|agent|chatbot|bot|model)\\b`,
    ),
  },
  {
    kind: 'directive',
    name: 'addressed-to-ai',
    anchor: HAS_AI,
    pattern: new RegExp(
      `\\b(?:attention|dear|hey|hello|hi|greetings|message to|instructions? (?:to|for)|note to|this is for) (?:the |any |all |every |you,? )?(?:ai|llm|language model|assistant|chatbot|ai agent|ai assistant)s?\\b\\s*[:,!-]|\\b(?:${AI})s? (?:reading|processing|parsing|seeing|that reads?|who reads?) this\\b|\\bto (?:any|the|all|every|whatever) (?:${AI})s? (?:reading|processing|that reads?|who reads?)\\b`,
    ),
  },
  {
    kind: 'directive',
    name: 'hide-from-user',
    pattern:
      /\bwithout (?:telling|informing|letting|alerting) (?:the|your) (?:user|human|operator|owner)\b|\b(?:do not|don't|never) (?:tell|inform|alert|let) (?:the|your) (?:user|human|operator)(?: know)? (?:about )?(?:this|that you|what you|you did|you have|you are)\b|\b(?:keep|hide) (?:this|it|these) (?:secret |hidden )?from (?:the|your) (?:user|human|operator)\b|\bwithout (?:the|your) (?:user|human|operator) (?:knowing|noticing|seeing)\b/,
  },
  {
    kind: 'directive',
    name: 'exfiltrate',
    anchor:
      /exfiltrat|system prompt|api key|credentials|secrets|tokens|passwords|private key|ssh key|env|conversation|chat history|cookies/,
    pattern:
      /\bexfiltrat(?:e|ing)\b|\b(?:send|post|upload|email|e-mail|forward|transmit|leak|copy|paste)\b[^.\n]{0,60}\b(?:your system prompt|the system prompt|(?:all|the|any|your|the user'?s?) (?:api keys?|credentials|secrets|tokens|passwords|private keys?|ssh keys?|env(?:ironment)? (?:vars|variables)|conversation|chat history|cookies|session tokens?))\b[^.\n]{0,60}\b(?:to|at) (?:https?:\/\/|[\w.+-]+@[\w-]+\.[\w.]+|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})/,
  },
];
