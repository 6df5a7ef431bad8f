/**
 * The hop baseline of mcp_stdio_search: a bare MCP server over stdin/stdout with no SDK, no ledger and no
 * validation, that replays memledger. `node echo-stdio.mjs FILE`: FILE holds `{ tools, result }`, memledger's own
 * tool list and one `search_memory` answer it gave; every `tools/call` is answered with that result at once. The
 * client therefore sends, reads and validates (structuredContent against the output schema) what it does with
 * memledger, and what is left of the round trip is the SDK client, two processes and the pipes between them.
 */
import { readFileSync } from 'node:fs';

const { tools, result } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answer = (message) => {
  if (message.method === 'initialize') {
    return {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'echo', version: '1.0.0' },
    };
  }
  if (message.method === 'tools/list') return { tools };
  if (message.method === 'tools/call') return result;
  return {};
};
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let end = buffered.indexOf('\n');
  while (end !== -1) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    end = buffered.indexOf('\n');
    if (line.trim() === '') continue;
    const message = JSON.parse(line);
    if (message.id === undefined) continue; // a notification
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer(message) })}\n`);
  }
});
