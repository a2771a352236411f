/**
 * The OpenAPI description (sandbox/openapi/parcel-shipping.openapi.yaml) as other tools read it:
 * Redocly's lint engine with its `spec` ruleset (what `redocly lint --extends spec` runs) finds no
 * problem, and strict Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1 schemas) compiles every
 * schema in it, so a key no schema knows (a YAML inline mapping cut by a comma makes one) is
 * refused. The descriptions two such commas once cut read as the spec says.
 */
import { fileURLToPath } from 'node:url';
import { createConfig, lint } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openApi } from './openapiCheck';

type Node = Record<string, any>;

/** OpenAPI 3.1's own keywords in a Schema Object beside JSON Schema's (OAS 3.1.0 4.8.24 "Fixed Fields"). */
const OAS_SCHEMA_KEYWORDS = ['discriminator', 'xml', 'externalDocs', 'example'];
/** The fields of the OpenAPI Object (OAS 3.1.0 4.8.1): the document around the schemas, not a schema. */
const OAS_DOCUMENT_FIELDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
];

/** Specification extensions (`x-…`, OAS 3.1.0 4.9): allowed on the document and on a Schema Object. */
function extensions(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => extensions(n, out));
  else if (node !== null && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-')) out.add(k);
      extensions(v, out);
    }
  return out;
}

const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** JSON pointers of every Schema Object the description holds where OpenAPI puts one. */
function schemaPointers(doc: Node): string[] {
  const out: string[] = [];
  const contentSchemas = (content: Node | undefined, at: string) => {
    for (const [type, media] of Object.entries(content ?? {}))
      if ((media as Node).schema) out.push(`${at}/content/${escape(type)}/schema`);
  };
  const parameter = (p: Node, at: string) => {
    if (p.schema) out.push(`${at}/schema`);
    contentSchemas(p.content, at);
  };
  const response = (r: Node, at: string) => {
    contentSchemas(r.content, at);
    for (const [name, h] of Object.entries((r.headers ?? {}) as Node))
      parameter(h as Node, `${at}/headers/${escape(name)}`);
  };
  for (const [path, item] of Object.entries(doc.paths as Node)) {
    const at = `/paths/${escape(path)}`;
    for (const [i, p] of ((item as Node).parameters ?? []).entries()) parameter(p as Node, `${at}/parameters/${i}`);
    for (const [method, op] of Object.entries(item as Node)) {
      if (method === 'parameters' || typeof op !== 'object') continue;
      const opAt = `${at}/${method}`;
      for (const [i, p] of ((op as Node).parameters ?? []).entries()) parameter(p as Node, `${opAt}/parameters/${i}`);
      if ((op as Node).requestBody) contentSchemas((op as Node).requestBody.content, `${opAt}/requestBody`);
      for (const [status, r] of Object.entries(((op as Node).responses ?? {}) as Node))
        response(r as Node, `${opAt}/responses/${escape(status)}`);
    }
  }
  const c = (doc.components ?? {}) as Node;
  for (const name of Object.keys(c.schemas ?? {})) out.push(`/components/schemas/${escape(name)}`);
  for (const [name, p] of Object.entries((c.parameters ?? {}) as Node))
    parameter(p as Node, `/components/parameters/${escape(name)}`);
  for (const [name, r] of Object.entries((c.responses ?? {}) as Node))
    response(r as Node, `/components/responses/${escape(name)}`);
  for (const [name, b] of Object.entries((c.requestBodies ?? {}) as Node))
    contentSchemas((b as Node).content, `/components/requestBodies/${escape(name)}`);
  for (const [name, h] of Object.entries((c.headers ?? {}) as Node))
    parameter(h as Node, `/components/headers/${escape(name)}`);
  return out;
}

/** Compiles the schema at each pointer with strict Ajv; the refusals, by pointer. */
function strictRefusals(doc: Node, pointers: string[]): string[] {
  // Union types (`type: [string, number]`) are how OpenAPI 3.1 writes a value of either type.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addVocabulary([...OAS_SCHEMA_KEYWORDS, ...OAS_DOCUMENT_FIELDS, ...extensions(doc)]);
  ajv.addSchema(doc, 'openapi');
  const refusals: string[] = [];
  for (const pointer of pointers) {
    try {
      if (!ajv.getSchema(`openapi#${pointer}`)) refusals.push(`${pointer}: not found`);
    } catch (err) {
      refusals.push(`${pointer}: ${(err as Error).message}`);
    }
  }
  return refusals;
}

describe('the description as other tools read it', () => {
  it("OpenAPI: Redocly's `spec` ruleset finds no problem", async () => {
    const config = await createConfig({ extends: ['spec'] });
    const problems = await lint({
      ref: fileURLToPath(new URL('../openapi/parcel-shipping.openapi.yaml', import.meta.url)),
      config,
    });
    expect(problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`)).toEqual([]);
  });

  it('OpenAPI: strict Ajv compiles every schema of the description', () => {
    const { doc } = openApi();
    const pointers = schemaPointers(doc);
    // Every component schema, and the schemas of the operations' parameters, bodies and answers.
    expect(pointers).toEqual(
      expect.arrayContaining(['/components/schemas/AddressInput', '/components/schemas/TokenRequestCode']),
    );
    expect(pointers.filter((p) => p.startsWith('/paths/')).length).toBeGreaterThan(30);
    expect(strictRefusals(doc, pointers)).toEqual([]);
  });

  it('OpenAPI: strict Ajv refuses a schema with a key a YAML comma made', () => {
    // `{ type: string, description: Country code, e.g. CZ }` is a mapping with a key `e.g. CZ`.
    const doc = structuredClone(openApi().doc);
    doc.components.schemas.AddressInput.properties.state['e.g. CZ'] = null;
    expect(strictRefusals(doc, ['/components/schemas/AddressInput'])).toEqual([
      expect.stringContaining('unknown keyword: "e.g. CZ"'),
    ]);
  });

  it('OpenAPI: the address state and the PKCE verifier are described as the spec says, whole', () => {
    const { doc } = openApi();
    const state = doc.components.schemas.AddressInput.properties.state;
    // Spec "Delivery (shipment): request fields": `<party>.address.state` | string | yes | Country, ISO 3166-2 style code.
    expect(Object.keys(state).sort()).toEqual(['description', 'type']);
    expect(state.type).toBe('string');
    expect(state.description).toMatch(/^Country, ISO 3166-2 style code\b/);
    expect(doc.components.schemas.AddressInput.required).toContain('state');
    // Spec "Flow" 5 lists the token request's body fields (code, redirect_uri, scope, grant_type):
    // no code_verifier. PKCE is the sandbox's addition (sandbox/oauth/authorize.ts), said so.
    const verifier = doc.components.schemas.TokenRequestCode.properties.code_verifier;
    expect(Object.keys(verifier).sort()).toEqual(['description', 'type']);
    expect(verifier.description).toMatch(/PKCE \(RFC 7636, an addition to the spec\)/);
    expect(verifier.description).toMatch(/code_challenge/);
    expect(doc.components.schemas.TokenRequestCode.required ?? []).not.toContain('code_verifier');
  });
});
