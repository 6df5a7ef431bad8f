/**
 * The OpenAPI document: structurally valid 3.1, every route of the app documented and every documented
 * path served, and its schemas are the zod schemas that validate the requests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { KINDS, type Ledger, LIMITS, openLedger, STATES } from '../../src/index.ts';
import { listInputSchema } from '../../src/ledger/read.ts';
import { searchInputSchema } from '../../src/ledger/search.ts';
import { rememberInputSchema } from '../../src/model/memory.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { openApiPath } from '../../src/surfaces/http/openapi.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: the test walks an untyped JSON document
type Json = Record<string, any>;
const VERBS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

describe('OpenAPI document', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let doc: Json;
  let secret: string;

  before(async () => {
    home = tempHome('openapi');
    secret = (
      await makeTokens(home.home, {
        w: { name: 'wes', kind: 'human', roles: ['reader', 'writer'], grants: ['shared:rw'] },
      })
    ).w!.secret;
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
    const res = await http.app.request('/openapi.json');
    assert.equal(res.status, 200);
    doc = (await res.json()) as Json;
  });
  after(async () => {
    await http.close();
    tokens.close();
    ledger.close();
    home.cleanup();
  });

  test('it is structurally valid OpenAPI 3.1: paths, operations, parameters and every $ref resolve', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.jsonSchemaDialect, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(typeof doc.info.title, 'string');
    assert.equal(typeof doc.info.version, 'string');
    assert.deepEqual(doc.components.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: doc.components.securitySchemes.bearer.description,
    });
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      assert.match(path, /^\//);
      for (const [verb, op] of Object.entries(item as Json)) {
        assert.ok(VERBS.has(verb), `${path}: ${verb}`);
        assert.ok(
          Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)),
          `${verb} ${path} has a success response`,
        );
        if (op.operationId !== undefined) {
          assert.ok(!operationIds.has(op.operationId), `duplicate operationId ${op.operationId}`);
          operationIds.add(op.operationId);
        }
        const params = (op.parameters ?? []) as Json[];
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          assert.ok(
            params.some((p) => p.in === 'path' && p.name === name && p.required === true),
            `${path}: {${name}}`,
          );
        }
        for (const p of params) {
          assert.ok(['path', 'query', 'header', 'cookie'].includes(p.in));
          assert.equal(typeof p.name, 'string');
          assert.equal(typeof p.schema, 'object');
        }
      }
    }
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) k === '$ref' ? refs.push(v as string) : walk(v);
      }
    };
    walk(doc);
    assert.ok(refs.length > 20);
    for (const ref of refs) {
      assert.match(ref, /^#\//);
      let target: unknown = doc;
      for (const part of ref.slice(2).split('/')) target = (target as Json)?.[part];
      assert.ok(target !== undefined, `${ref} does not resolve`);
    }
  });

  test('every route of the app is documented, and every documented path and method is served', async () => {
    const served = new Set(
      http.app.routes
        .filter((r) => r.path !== '/*')
        .map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`),
    );
    for (const entry of served) {
      const [verb, path] = entry.split(' ') as [string, string];
      const item = doc.paths[path];
      assert.ok(item, `${path} is not documented`);
      if (verb === 'all')
        assert.ok(
          ['get', 'post', 'delete'].every((v) => v in item),
          `${path} methods`,
        );
      else assert.ok(verb in item, `${verb} ${path} is not documented`);
    }
    const sampleId = 'mem_0000000000000000000000';
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const verb of Object.keys(item as Json)) {
        assert.ok(
          served.has(`${verb} ${path}`) || served.has(`all ${path}`),
          `${verb} ${path} is documented but not routed`,
        );
        const res = await http.app.request(path.replace('{id}', sampleId), { method: verb.toUpperCase() });
        const body = await res.text();
        // Unauthenticated: 401 from a real route, 200 for the public ones; never the unknown-route 404.
        assert.ok(
          res.status === 401 || res.status === 200,
          `${verb} ${path}: ${res.status} ${body.slice(0, 120)}`,
        );
      }
    }
  });

  test('its schemas are the zod schemas that validate the requests', async () => {
    const schemas = doc.components.schemas as Json;
    const fromZod = z.toJSONSchema(rememberInputSchema, { io: 'input', unrepresentable: 'any' }) as Json;
    const remember = schemas.RememberBody;
    assert.deepEqual(Object.keys(remember.properties), Object.keys(fromZod.properties));
    assert.deepEqual(remember.required, ['body', 'scope']);
    assert.equal(remember.additionalProperties, false);
    assert.deepEqual(remember.properties.kind.enum, [...KINDS]);
    assert.equal(remember.properties.body.maxLength, LIMITS.body);
    assert.equal(remember.properties.scope.pattern, fromZod.properties.scope.pattern);
    assert.match(remember.properties.value.$ref, /^#\/components\/schemas\/RememberBody_/);
    const search = schemas.SearchBody;
    assert.equal(search.properties.limit.maximum, LIMITS.limit);
    assert.deepEqual(Object.keys(search.properties), Object.keys(searchInputSchema.shape));
    const listParams = (doc.paths['/v1/memories'].get.parameters as Json[]).map((p) => p.name);
    assert.deepEqual(listParams, Object.keys(listInputSchema.shape));
    const states = (doc.paths['/v1/memories'].get.parameters as Json[]).find((p) => p.name === 'states');
    assert.deepEqual(states?.schema.items.enum, [...STATES]);

    // The documented limits are the enforced ones: one character over is refused, at the limit is accepted.
    const post = (body: string) =>
      http.app.request('/v1/memories', {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}` },
        body: JSON.stringify({ body, scope: 'shared' }),
      });
    assert.equal((await post('x'.repeat(remember.properties.body.maxLength + 1))).status, 400);
    assert.equal((await post(`a ${'y'.repeat(remember.properties.body.maxLength - 2)}`)).status, 201);
  });
});
