#!/usr/bin/env node
/**
 * Writes packages/client/src/generated.ts, the operations of `@repohost/client`, from the routes the server
 * registers (`createApp(host).routes`): one function per operation, named by its operationId, the wire types from
 * the routes' TypeBox schemas (a schema with an `$id` becomes the interface of that name, Forgejo's definition
 * name), and one object per tag that names the operations as the client's groups do (see GROUPS).
 *
 * It writes packages/client/test/wire-types.ts too: compile-time checks that each wire type is TypeBox's `Static`
 * of the schema core exports for it (`generateTypeChecks`).
 *
 * `node scripts/generate-client.mjs` reads the built packages (`npm run build` runs it before building the client;
 * `npx tsx --tsconfig tsconfig.json scripts/generate-client.mjs` reads the sources); `--check` only fails when a
 * file differs. packages/client/test/in-memory.test.ts compares both files with what the sources' routes give.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const GENERATED_PATH = fileURLToPath(new URL('../packages/client/src/generated.ts', import.meta.url));
export const TYPE_CHECKS_PATH = fileURLToPath(new URL('../packages/client/test/wire-types.ts', import.meta.url));

/**
 * Each tag's group on the client and the operationId prefix its methods drop: `repoGet` is `client.repos.get`,
 * `issueListIssues` is `client.issues.listIssues`, `createCurrentUserRepo` (no prefix) `client.repos.createCurrentUserRepo`.
 */
export const GROUPS = {
  repository: { name: 'repos', prefix: 'repo' },
  issue: { name: 'issues', prefix: 'issue' },
  user: { name: 'users', prefix: 'user' },
  organization: { name: 'orgs', prefix: 'org' },
  admin: { name: 'admin', prefix: 'admin' },
  notification: { name: 'notifications', prefix: 'notify' },
  package: { name: 'packages', prefix: '' },
  miscellaneous: { name: 'misc', prefix: '' },
  settings: { name: 'settings', prefix: '' },
  activitypub: { name: 'activitypub', prefix: 'activitypub' },
};

const PAGING = { page: { type: 'integer', description: 'page number of results to return (1-based)' }, limit: { type: 'integer', description: 'page size of results' } };

const IDENT = /^[A-Za-z_$][\w$]*$/;
const pascal = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const camel = (s) => s.charAt(0).toLowerCase() + s.slice(1);
/** A path parameter's argument name: `repository-id` → `repositoryId`. */
const argName = (param) => param.replace(/-(\w)/g, (_, c) => c.toUpperCase());
const prop = (name) => (IDENT.test(name) ? name : JSON.stringify(name));
const doc = (text, indent = '') => {
  const lines = String(text).replace(/\*\//g, '*\\/').split('\n');
  return lines.length === 1 ? `${indent}/** ${lines[0]} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
};

/** The method name of an operation in its tag's group. */
export function methodName(operationId, tag) {
  const prefix = GROUPS[tag]?.prefix ?? '';
  if (prefix && operationId.startsWith(prefix) && /^[A-Z]/.test(operationId.slice(prefix.length))) return camel(operationId.slice(prefix.length));
  return camel(operationId);
}

/**
 * The client's source for these routes (`{ spec: { method, operationId, summary, tag, query, body, bodyType, reply }, path }`,
 * as `createApp(host).routes` lists them).
 */
export function generateClientSource(routes) {
  return build(routes).source;
}

/**
 * packages/client/test/wire-types.ts: for each wire type whose schema a package exports (`modules`: a package name
 * → its module), a compile-time check that the client's type and TypeBox's `Static` of that schema are the same
 * type, so that `npm run typecheck` fails as soon as a schema changes and the client is not regenerated.
 */
export function generateTypeChecks(routes, modules) {
  const { schemas } = build(routes);
  const exported = new Map();
  for (const [module, namespace] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(namespace)) {
      if (value && typeof value === 'object' && typeof value.$id === 'string') {
        const key = JSON.stringify(value);
        if (!exported.has(key)) exported.set(key, { module, name });
      }
    }
  }
  const aliases = new Map(Object.keys(modules).map((module, i) => [module, `m${i}`]));
  const checks = [];
  for (const [name, schema] of [...schemas.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const found = exported.get(JSON.stringify(schema));
    if (found) checks.push(`  Expect<Same<Static<typeof ${aliases.get(found.module)}.${found.name}>, client.${name}>>,\n`);
  }
  return [
    '// GENERATED FILE, do not edit: `node scripts/generate-client.mjs` writes it with packages/client/src/generated.ts.',
    '// Compile-time only: each wire type of the client is the `Static` type of the schema the server declares it with.',
    "import type { Static } from '@sinclair/typebox';",
    ...[...aliases].map(([module, alias]) => `import type * as ${alias} from '${module}';`),
    "import type * as client from '@repohost/client';",
    '',
    '/** Each assignable to the other, with the same property names. */',
    'type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
    'type Same<A, B> = Mutual<A, B> extends true ? Mutual<keyof A, keyof B> : false;',
    'type Expect<T extends true> = T;',
    '',
    `export type WireTypesMatch = [\n${checks.join('')}];`,
    '',
  ].join('\n');
}

function build(routes) {
  /** `$id` → its TypeScript declaration, in the order first met. */
  const named = new Map();
  /** `$id` → its schema. */
  const schemas = new Map();
  /** The `$id`s more than one schema carries. */
  const shared = new Set();

  const typeOf = (schema, indent) => {
    if (!schema || typeof schema !== 'object') return 'unknown';
    if (schema.$id) return declare(schema);
    if (schema.$ref) return String(schema.$ref).replace(/^#\/definitions\//, '');
    if (schema.anyOf || schema.oneOf) {
      const members = [...new Set((schema.anyOf ?? schema.oneOf).map((m) => typeOf(m, indent)))];
      return members.length === 1 ? members[0] : members.map((m) => (/[&]/.test(m) ? `(${m})` : m)).join(' | ');
    }
    if (schema.allOf) return schema.allOf.map((m) => typeOf(m, indent)).join(' & ');
    if ('const' in schema) return JSON.stringify(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = typeOf(schema.items, indent);
        return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
      }
      case 'object':
        return objectType(schema, indent);
      default:
        return 'unknown';
    }
  };

  const objectType = (schema, indent) => {
    const properties = Object.entries(schema.properties ?? {});
    const patterns = Object.values(schema.patternProperties ?? {});
    const extra = typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : [];
    if (properties.length === 0) {
      const values = [...patterns, ...extra];
      if (values.length > 0) return `Record<string, ${[...new Set(values.map((v) => typeOf(v, indent)))].join(' | ')}>`;
      return 'Record<string, unknown>';
    }
    const required = new Set(schema.required ?? []);
    const inner = `${indent}  `;
    const lines = properties.map(([key, value]) => {
      const comment = value.description && !value.$id ? doc(value.description, inner) : '';
      return `${comment}${inner}${prop(key)}${required.has(key) ? '' : '?'}: ${typeOf(value, inner)};\n`;
    });
    return `{\n${lines.join('')}${indent}}`;
  };

  const declare = (schema) => {
    const name = String(schema.$id).replace(/[^\w$]/g, '_');
    // Two schemas of one `$id` (GPGKey and its subkeys): the type is the first's, and no check compares it.
    // (TypeBox's builders clone the schemas they are given: copies of one schema are equal, not identical.)
    if (schemas.has(name) && schemas.get(name) !== schema && JSON.stringify(schemas.get(name)) !== JSON.stringify(schema)) shared.add(name);
    if (!named.has(name)) {
      named.set(name, ''); // placeholder: a schema that refers to itself
      schemas.set(name, schema);
      const body = typeOf({ ...schema, $id: undefined }, '');
      const comment = schema.description ? doc(schema.description) : '';
      named.set(name, body.startsWith('{\n') ? `${comment}export interface ${name} ${body}\n` : `${comment}export type ${name} = ${body};\n`);
    }
    return name;
  };

  const operations = [];
  const groups = new Map();
  const ops = [...routes].sort((a, b) => (a.spec.operationId < b.spec.operationId ? -1 : a.spec.operationId > b.spec.operationId ? 1 : 0));
  for (const { spec, path } of ops) {
    const { operationId, reply } = spec;
    if (!IDENT.test(operationId)) throw new Error(`operationId ${operationId} is no identifier`);
    const list = 'list' in reply;
    const raw = 'produces' in reply;
    const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const args = params.map((p) => `${argName(p)}: string | number`);
    const typePrefix = pascal(operationId);
    const types = [];

    let bodyArg = '';
    if (spec.body) {
      const bodyType = spec.body.$id ? declare(spec.body) : spec.bodyType === 'text/plain' ? 'string' : `${typePrefix}Body`;
      if (!spec.body.$id && spec.bodyType !== 'text/plain') types.push(`export type ${typePrefix}Body = ${typeOf(spec.body, '')};\n`);
      args.push(`body: ${bodyType}`);
      bodyArg = 'body';
    }
    let queryArg = '';
    const queryProps = { ...(list ? PAGING : {}), ...(spec.query?.properties ?? {}) };
    if (Object.keys(queryProps).length > 0) {
      const queryName = `${typePrefix}Query`;
      types.push(`export type ${queryName} = ${typeOf({ type: 'object', properties: queryProps, required: spec.query?.required ?? [] }, '')};\n`);
      const optional = (spec.query?.required ?? []).length === 0;
      args.push(`query${optional ? '?' : ''}: ${queryName}`);
      queryArg = 'query';
    }
    args.push('options?: CallOptions');

    let result;
    let call;
    // `{filepath}` keeps its slashes; every other parameter is one segment.
    const pathExpr = `\`${path.replace(/\{([^}]+)\}/g, (_, p) => `\${${p === 'filepath' ? 'filePath' : 'segment'}(${argName(p)})}`)}\``;
    const request = `{ ${[`method: '${spec.method}'`, `path: ${pathExpr}`, queryArg && 'query', bodyArg && (spec.bodyType === 'text/plain' ? 'text: body' : 'json: body'), 'options'].filter(Boolean).join(', ')} }`;
    if (list) {
      const item = typeOf(reply.list, '');
      result = `PageRequest<${item}>`;
      call = `return pageRequest<${item}>(transport, ${request});`;
    } else if (raw) {
      result = 'Promise<Response>';
      call = `return transport.raw(${request});`;
    } else if ('schema' in reply) {
      const type = typeOf(reply.schema, '');
      result = `Promise<${type}>`;
      call = `return transport.json<${type}>(${request});`;
    } else {
      result = 'Promise<void>';
      call = `return transport.empty(${request});`;
    }
    const summary = `${spec.summary}\n\n\`${spec.method} ${path}\`${list ? ' (a page: await it for one, iterate it for all)' : ''}`;
    operations.push(
      `${types.join('')}${doc(summary)}export function ${operationId}(transport: Transport, ${args.join(', ')}): ${result} {\n  ${call}\n}\n`,
    );
    const group = GROUPS[spec.tag]?.name ?? camel(spec.tag);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push({ method: methodName(operationId, spec.tag), operationId, summary });
  }

  const groupSources = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([group, members]) => {
      const seen = new Set();
      for (const m of members) {
        if (seen.has(m.method)) throw new Error(`two operations of group ${group} are named ${m.method}`);
        seen.add(m.method);
      }
      return `/** The operations tagged \`${Object.keys(GROUPS).find((t) => GROUPS[t].name === group) ?? group}\`. */\nexport const ${group} = {\n${members
        .map((m) => `${doc(m.summary, '  ')}  ${prop(m.method)}: ${m.operationId},\n`)
        .join('')}} as const;\n`;
    });

  const source = [
    '// GENERATED FILE, do not edit: `node scripts/generate-client.mjs` writes it from the routes of @repohost/server',
    '// (packages/client/test/generated.test.ts fails when it is stale).',
    '/* eslint-disable */',
    "import { filePath, pageRequest, segment, type CallOptions, type PageRequest, type Transport } from './transport.js';",
    '',
    '// Wire types, by their Forgejo definition names.',
    '',
    [...named.values()].join('\n'),
    '// Operations, by operationId: each takes the transport first (see `createTransport`).',
    '',
    operations.join('\n'),
    '// The groups of the client: one per tag, methods named by operationId without the tag\'s prefix.',
    '',
    groupSources.join('\n'),
    `/** Every group, by its name on the client. */\nexport const groups = { ${[...groups.keys()].sort().join(', ')} } as const;\n`,
  ].join('\n');
  for (const name of shared) schemas.delete(name);
  return { source, schemas };
}

/** The packages whose exported schemas the wire types are checked against. */
export const SCHEMA_MODULES = ['@repohost/core'];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { RepoHost } = await import('@repohost/core');
  const { createApp } = await import('@repohost/server');
  const modules = Object.fromEntries(await Promise.all(SCHEMA_MODULES.map(async (name) => [name, await import(name)])));
  const host = await RepoHost.inMemory();
  const routes = createApp(host).routes;
  await host.close();
  const outputs = [
    [GENERATED_PATH, generateClientSource(routes)],
    [TYPE_CHECKS_PATH, generateTypeChecks(routes, modules)],
  ];
  let stale = false;
  for (const [file, source] of outputs) {
    const current = await readFile(file, 'utf8').catch(() => '');
    if (current === source) continue;
    if (process.argv.includes('--check')) {
      process.stderr.write(`${file} is stale: run node scripts/generate-client.mjs\n`);
      stale = true;
    } else {
      await writeFile(file, source);
      process.stdout.write(`wrote ${file}\n`);
    }
  }
  process.exit(stale ? 1 : 0);
}
