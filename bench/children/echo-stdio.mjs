/**
 * The hop baseline of mcp_stdio_search: a bare MCP server over stdin/stdout with no SDK, no ledger and no
 * validation. It answers `initialize`, `tools/list` (one tool, `echo`) and `tools/call` with a text result of
 * `arguments.bytes` characters, so the client sends and reads what it does with memledger, and what is left of
 * the round trip is the SDK client, two processes and the pipes between them.
 */
let buffered = '';
const tool = { name: 'echo', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } } };
const answer = (message) => {
  if (message.method === 'initialize') {
    return {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'echo', version: '1.0.0' },
    };
  }
  if (message.method === 'tools/list') return { tools: [tool] };
  if (message.method === 'tools/call') {
    const bytes = Math.min(Math.max(0, Number(message.params.arguments?.bytes) || 0), 1 << 20);
    return { content: [{ type: 'text', text: 'x'.repeat(bytes) }] };
  }
  return {};
};
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
