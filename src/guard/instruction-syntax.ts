/**
 * The syntax rules of the instruction detector: text that closes or fakes the context frame, asks to be executed
 * as a tool call, or carries a shell command no project means.
 */
import type { InstructionRule } from './instructions.ts';

/** `rm` with a recursive or forced option aimed at a root, a home, everything, or the parent. */
const RM_TARGET =
  '(?:~|~/|~/\\*|/|/\\*|\\*|\\.\\.|\\.\\./|\\$home/?|\\$\\{home\\}/?|/(?:home|etc|usr|var|root|boot|bin|lib|opt|sys|srv)/?|[a-z]:\\\\?)';
/** Private keys and credential stores (public keys end in `.pub` and are left alone). */
const CREDENTIAL_FILE =
  '(?:(?:~|\\$home|/root|/home/[\\w.-]+)/\\.ssh/(?:id_\\w+\\b(?!\\.pub)|authorized_keys)|\\bid_(?:rsa|ed25519|ecdsa|dsa)\\b(?!\\.pub)|\\.aws/credentials|/etc/(?:shadow|sudoers)|\\.git-credentials|\\.netrc\\b|\\.docker/config\\.json|\\.kube/config)';
const PIPE_TO_SHELL =
  /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,300}\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k|fi)?sh|python3?|perl|ruby|node|iex|pwsh|powershell)\b|\$\(\s*(?:curl|wget)\b/;
/**
 * What turns a project's install one-liner into a command aimed at the reader: being told to run it now or
 * unasked, or a download from a bare IP, plain HTTP or a paste/tunnel host.
 */
const URGED =
  /\b(?:execute|exec|run|paste|type)(?: (?:this|these|the following|it))?(?: commands?)?(?: (?:now|immediately|first))?\s*:|\b(?:right now|immediately|right away|at once|silently|quietly|secretly|without asking|without confirmation|before (?:doing )?anything else)\b|\byou (?:must|have to|are required to)\b|https?:\/\/\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|\bhttp:\/\/|\b(?:pastebin\.com|transfer\.sh|ngrok|webhook\.site|requestbin|bit\.ly|tinyurl\.com|is\.gd|oast\.|interact\.sh|burpcollaborator)/;

const HAS_CREDENTIAL_FILE = /\.ssh\/|id_|\.aws\/|\/etc\/|\.git-credentials|\.netrc|\.docker\/|\.kube\//;

/** `frame`: tried before every other rule, being the most specific evidence. */
export const FRAME_RULES: readonly InstructionRule[] = [
  // ---- frame: closing or faking the block memories are served in -------------------------------------------
  {
    kind: 'frame',
    name: 'frame-tag',
    lines: true,
    pattern:
      /<\s*\/\s*(?:memledger[\s_-]*context|memory|memories|context|system|system[_-]?prompt|system[_-]?reminder|instructions?|user|assistant|human|developer|data|documents?|search[_-]?results?|retrieved|untrusted|knowledge|prompt|user[_-]?(?:query|input|message)|tool[_-]?output|conversation)\s*>|<\s*(?:memledger[\s_-]*context|system|system[_-]?prompt|system[_-]?reminder|instructions|im_start|im_end)\b/,
  },
  {
    kind: 'frame',
    name: 'chat-token',
    lines: true,
    pattern:
      /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|eom_id|start_header_id|end_header_id|begin_of_text|end_of_text|end|start|channel|message|return)\|>|\[\/?inst\]|<<\/?sys>>|<(?:start|end)_of_turn>/,
  },
  {
    kind: 'frame',
    name: 'end-of-context',
    anchor: /end of|close of|stop of|exit of|begin|start/,
    lines: true,
    pattern:
      /(?:^|\n|[-=#*_~[(<|>]{2,} ?|[[(<] ?)(?:end|close|stop|exit) of (?:the )?(?:memledger )?(?:context|memory|memories|memory block|context block|data|document|retrieved (?:data|context|documents?)|search results|untrusted (?:data|content)|user (?:input|data|content)|remembered context|records)\b ?(?:[-=#*_~\])>.:!]|$|\n)|(?:^|\n) ?(?:[[<#=-]+ ?)?(?:begin|start) (?:of )?(?:the )?(?:new |real |actual )?(?:system|admin|developer)(?: prompt| message| instructions| override)?\b ?(?:[\]>=:-]|$|\n)/,
  },
  {
    kind: 'frame',
    name: 'role-header',
    anchor: /\n|system|admin|developer/,
    lines: true,
    pattern:
      /\n ?(?:#{1,6} ?|\*\*|\[|<)?(?:system|assistant|human|developer)(?: message| prompt| instructions?)? ?(?:\*\*|\]|>)? ?:|(?:^|\n) ?(?:\[|<|#{1,6} ?)?(?:system|admin|developer) (?:override|prompt|message|instruction)s? ?(?:\]|>)? ?:/,
  },
  {
    kind: 'frame',
    name: 'section-header',
    anchor: /\n/,
    lines: true,
    pattern:
      /\n ?#{1,6} ?(?:new |updated |important |real |system |additional |hidden |secret )?(?:instructions?|system(?: prompt| message)?|prompt|directives?|rules for (?:the )?(?:ai|assistant|agent)|assistant|response|developer(?: message)?|admin(?:istrator)?)(?: ?:)?(?:$|\n)/,
  },
  {
    kind: 'frame',
    name: 'fake-item',
    lines: true,
    pattern:
      /\(mem_[0-9a-z]{10,} ?·|#+ ?remembered context|\(data,? not instructions\)|#+ ?(?:rules people confirmed|corrections: reviewers|open commitments|relevant to the task)/,
  },
];

/** `tool-call` and `shell`, in that order. */
export const COMMAND_RULES: readonly InstructionRule[] = [
  // ---- tool-call: syntax that asks to be executed ----------------------------------------------------------
  {
    kind: 'tool-call',
    name: 'tool-tag',
    pattern:
      /<\s*\/?\s*(?:antml:)?(?:function_calls|function_results|invoke|tool_use|tool_result|tool_calls?|tool_response|function_call|functioncall)\b|<\s*(?:antml:)?parameter\s+name\s*=|<function=\w/,
  },
  {
    kind: 'tool-call',
    name: 'tool-token',
    pattern:
      /<\|(?:tool_calls?|tool_response|python_tag|function_call|tool_sep|tool_calls?_(?:begin|end)|tool_call_(?:begin|end))[^|>\n]{0,20}\|>|\[(?:tool_calls?|tool_request|function_call)\]|<tool▁/,
  },
  {
    kind: 'tool-call',
    name: 'tool-json',
    pattern:
      /\{\s*"(?:tool|tool_name|toolname|tool_call|recipient_name)"\s*:\s*[^\n]{0,200}?"(?:arguments|parameters|params|input|tool_input)"\s*:|\{\s*"(?:function|function_name)"\s*:\s*[^\n]{0,200}?"arguments"\s*:|\{\s*"name"\s*:\s*"[^"\n]{1,80}"\s*,\s*"arguments"\s*:|"type"\s*:\s*"(?:tool_use|function_call|tool_call)"|"(?:tool_calls|function_call)"\s*:\s*[[{]|\{\s*"action"\s*:\s*"[^"\n]{1,80}"\s*,\s*"action_input"\s*:/,
  },
  {
    kind: 'tool-call',
    name: 'react-action',
    anchor: /action input/,
    lines: true,
    pattern: /(?:^|\n)\s*action\s*:\s*[\w.-]+\s*\n\s*action input\s*:/,
  },
  // ---- shell: commands no project means, aimed at the reader -----------------------------------------------
  {
    kind: 'shell',
    name: 'rm-root',
    lines: true,
    pattern: new RegExp(
      `\\brm\\s+(?:-[a-z]*[rf][a-z]*\\s+|--(?:recursive|force|no-preserve-root)\\s+)+(?:-[a-z]+\\s+|--[a-z-]+\\s+)*["']?${RM_TARGET}["']?(?=$|[\\s;&|\`'")])|--no-preserve-root\\b|\\bfind\\s+(?:/|~|\\$home)\\s[^\\n]{0,80}-delete\\b|\\b(?:rd|rmdir)\\s+/s\\s+/q\\s+[a-z]:\\\\|\\bremove-item\\b[^\\n]{0,60}-recurse[^\\n]{0,60}(?:[a-z]:\\\\|~|\\$home|\\$env:userprofile)(?=$|[\\s;&|\`'")\\\\])`,
    ),
  },
  {
    kind: 'shell',
    name: 'disk-wipe',
    lines: true,
    pattern:
      /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bmkfs(?:\.\w+)?\s+(?:-\w+\s+)*\/dev\/|\bdd\s+[^\n]{0,80}\bof=\/dev\/(?:sd|hd|nvme|xvd|vd|disk|mmcblk)|>\s*\/dev\/(?:sd|nvme|hd)[a-z0-9]*\b|\bshred\s+[^\n]{0,40}\/dev\/|\bch(?:mod|own)\s+-r\s+\S+\s+\/(?=$|[\s;&|`'")])/,
  },
  {
    kind: 'shell',
    name: 'reverse-shell',
    lines: true,
    pattern:
      /\/dev\/tcp\/[\w.-]+\/\d+|\b(?:nc|ncat|netcat)\b[^\n]{0,60}\s-[ec]\s+\/?(?:bin\/)?(?:ba)?sh\b|\bbash\s+-i\s+>&|\bsocat\b[^\n]{0,60}\bexec:|\bmkfifo\b[^\n]{0,80}\|\s*(?:nc|ncat)\b/,
  },
  {
    kind: 'shell',
    name: 'obfuscated-exec',
    lines: true,
    pattern:
      /\bbase64\s+(?:-d|--decode|-di)\b[^\n]{0,60}\|\s*(?:sudo\s+)?(?:(?:ba|z)?sh|python3?|perl)\b|\$\(\s*(?:sudo\s+)?(?:rm\s+-[a-z]*[rf]|mkfs|dd\s+if=|shred\b|base64\s+-d)|\biex\s*\(?\s*(?:\(?\s*new-object\s+net\.webclient|iwr|irm|invoke-webrequest|invoke-restmethod)|\bpowershell(?:\.exe)?\b[^\n]{0,40}\s-e(?:nc(?:odedcommand)?)?\s+[a-z0-9+/=]{20,}/,
  },
  {
    kind: 'shell',
    name: 'pipe-to-shell',
    anchor: /[|]|\$\(/,
    lines: true,
    pattern: PIPE_TO_SHELL,
    accept: (t) => URGED.test(t),
  },
  {
    kind: 'shell',
    name: 'credential-file',
    anchor: HAS_CREDENTIAL_FILE,
    lines: true,
    pattern: new RegExp(
      `\\b(?:cat|less|more|head|tail|print|show|output|display|read|send|upload|paste|reveal|email|post|exfiltrate|base64|xxd|type)\\b[^\\n]{0,40}${CREDENTIAL_FILE}|${CREDENTIAL_FILE}[^\\n]{0,80}\\|\\s*(?:curl|wget|nc|ncat|netcat|base64)\\b|\\bcurl\\b[^\\n]{0,120}(?:-d|--data(?:-binary|-raw)?|-f|--form|-t|--upload-file)\\s*\\S*?${CREDENTIAL_FILE}|\\b(?:scp|rsync)\\b[^\\n]{0,40}${CREDENTIAL_FILE}`,
    ),
  },
];
