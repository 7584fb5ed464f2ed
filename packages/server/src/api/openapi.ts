import type { TSchema } from '@sinclair/typebox';
import { API_PREFIX } from '@repohost/core';
import type { RegisteredRoute } from './contract.js';
import { ERROR_KINDS } from './errors.js';
import { PagingQuery } from './router.js';
import { ApiErrorSchema } from './schemas.js';

type Json = Record<string, unknown>;

const COPIED_KEYWORDS = ['type', 'format', 'description', 'maxLength', 'minLength', 'minimum', 'maximum', 'default', 'enum', 'pattern'];

/**
 * Builds the swagger 2.0 document (the format Forgejo publishes) from the registered routes. Every schema with
 * an `$id` becomes a definition referenced by name.
 */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[], options: { version: string }): Json {
  const definitions: Record<string, Json> = {};

  const convert = (input: TSchema | Json, asDefinition = false): Json => {
    const node = input as Json;
    const id = node.$id as string | undefined;
    if (id && !asDefinition) {
      if (!definitions[id]) {
        definitions[id] = {}; // placeholder guards against recursion
        definitions[id] = convert(node, true);
      }
      return { $ref: `#/definitions/${id}` };
    }
    const anyOf = node.anyOf as Json[] | undefined;
    if (anyOf) {
      if (anyOf.every((m) => 'const' in m)) return { type: typeof anyOf[0]!.const, enum: anyOf.map((m) => m.const), ...pick(node, ['description']) };
      const nonNull = anyOf.filter((m) => m.type !== 'null');
      return { ...convert(nonNull[0] ?? {}), 'x-nullable': true };
    }
    if (node.type === 'null') return { type: 'object', 'x-nullable': true };
    const out: Json = pick(node, COPIED_KEYWORDS);
    if (node.type === 'object' && node.properties) {
      out.properties = Object.fromEntries(Object.entries(node.properties as Record<string, Json>).map(([k, v]) => [k, convert(v)]));
      if (Array.isArray(node.required) && node.required.length > 0) out.required = node.required;
    }
    if (node.type === 'array' && node.items) out.items = convert(node.items as Json);
    return out;
  };

  const paths: Record<string, Record<string, Json>> = {};
  for (const { spec, path } of routes) {
    const parameters: Json[] = [];
    for (const [, name] of path.matchAll(/\{(\w+(?:-\w+)*)\}/g)) parameters.push({ type: 'string', name, in: 'path', required: true });
    const list = 'list' in spec.reply;
    const query = { ...(list ? PagingQuery.properties : {}), ...spec.query?.properties };
    for (const [name, prop] of Object.entries(query)) {
      const described = convert(prop as Json);
      const parameter: Json = { name, in: 'query', ...pick(described, ['type', 'format', 'description', 'enum', 'items']) };
      // The router reads a repeated parameter as the list (`a=1&a=2`), as Forgejo's form helpers do.
      if (described.type === 'array') parameter.collectionFormat = 'multi';
      parameters.push(parameter);
    }
    if (spec.body) parameters.push({ name: 'body', in: 'body', schema: convert(spec.body) });
    const success: Json = { description: spec.reply.description };
    if ('list' in spec.reply) {
      success.schema = { type: 'array', items: convert(spec.reply.list) };
      success.headers = {
        'X-Total-Count': { type: 'integer', format: 'int64', description: 'The total number of items' },
        Link: { type: 'string', description: 'Pagination links: next, last, first, prev' },
      };
    } else if ('schema' in spec.reply) success.schema = convert(spec.reply.schema);
    const produces = 'produces' in spec.reply ? [...spec.reply.produces] : ['application/json'];
    const responses: Json = { [String(spec.reply.status)]: success };
    if ('or' in spec.reply && spec.reply.or) responses[String(spec.reply.or.status)] = { description: spec.reply.or.description };
    for (const kind of spec.errors ?? []) responses[String(ERROR_KINDS[kind].status)] = { $ref: `#/responses/${ERROR_KINDS[kind].response}` };
    const operation: Json = {
      produces,
      tags: [spec.tag],
      summary: spec.summary,
      operationId: spec.operationId,
      parameters,
      responses,
    };
    if (spec.body) operation.consumes = [spec.bodyType ?? 'application/json'];
    (paths[path] ??= {})[spec.method.toLowerCase()] = operation;
  }

  const errorRef = convert(ApiErrorSchema);
  return {
    swagger: '2.0',
    info: {
      title: 'RepoHost API',
      description: 'The RepoHost API, compatible with the Forgejo/Gitea API v1.',
      version: options.version,
      license: { name: 'MIT', url: 'http://opensource.org/licenses/MIT' },
    },
    basePath: API_PREFIX,
    schemes: ['https', 'http'],
    consumes: ['application/json', 'text/plain'],
    produces: ['application/json', 'text/html'],
    paths,
    definitions,
    responses: Object.fromEntries(
      Object.values(ERROR_KINDS).map(({ response, description }) => [response, { description, schema: errorRef }]),
    ),
    securityDefinitions: {
      AuthorizationHeaderToken: {
        description: 'API tokens must be prepended with "token" followed by a space.',
        type: 'apiKey',
        name: 'Authorization',
        in: 'header',
      },
      BasicAuth: { type: 'basic' },
      SudoHeader: { description: 'Sudo API request as the user provided as the key. Admin privileges are required.', type: 'apiKey', name: 'Sudo', in: 'header' },
      SudoParam: { description: 'Sudo API request as the user provided as the key. Admin privileges are required.', type: 'apiKey', name: 'sudo', in: 'query' },
      Token: { description: 'This authentication option is deprecated for removal.', type: 'apiKey', name: 'token', in: 'query' },
      AccessToken: { description: 'This authentication option is deprecated for removal.', type: 'apiKey', name: 'access_token', in: 'query' },
    },
    security: [
      { BasicAuth: [] },
      { AuthorizationHeaderToken: [] },
      { SudoHeader: [] },
      { SudoParam: [] },
      { Token: [] },
      { AccessToken: [] },
    ],
  };
}

function pick(node: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (node[k] !== undefined) out[k] = node[k];
  return out;
}
