import type { TSchema } from '@sinclair/typebox';
import type { AnyRoute, ErrorResponseName } from './route.js';
import { ApiErrorSchema } from './schemas.js';

type Json = Record<string, unknown>;

const ERROR_RESPONSES: Record<ErrorResponseName, string> = {
  validationError: 'APIValidationError is error format response related to input validation',
  error: 'APIError is error format response',
  forbidden: 'APIForbiddenError is a forbidden error response',
  notFound: 'APINotFound is a not found error response',
  unauthorized: 'APIUnauthorizedError is a unauthorized error response',
  conflict: 'APIConflict is a conflict empty response',
};

const COPIED_KEYWORDS = ['type', 'format', 'description', 'maxLength', 'minLength', 'minimum', 'maximum', 'default', 'enum', 'pattern'];

/**
 * Builds the swagger 2.0 document (the format Forgejo publishes) from the registered routes. Every schema with
 * an `$id` becomes a definition referenced by name.
 */
export function buildOpenApiDocument(routes: readonly AnyRoute[], options: { version: string; basePath?: string }): Json {
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
  for (const route of routes) {
    const parameters: Json[] = [];
    for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) parameters.push({ type: 'string', name, in: 'path', required: true });
    if (route.query) {
      for (const [name, prop] of Object.entries(route.query.properties)) {
        parameters.push({ name, in: 'query', ...pick(prop as Json, ['type', 'format', 'description', 'enum']) });
      }
    }
    if (route.body) parameters.push({ name: 'body', in: 'body', schema: convert(route.body) });
    const { status, response } = route.success;
    const success: Json = { description: response.description };
    if (response.schema) success.schema = convert(response.schema);
    if (response.paginated) {
      success.headers = {
        'X-Total-Count': { type: 'integer', format: 'int64', description: 'The total number of items' },
        Link: { type: 'string', description: 'Pagination links: next, last, first, prev' },
      };
    }
    const responses: Json = { [String(status)]: success };
    for (const name of route.errors ?? []) responses[statusOf(name)] = { $ref: `#/responses/${name}` };
    const operation: Json = {
      produces: ['application/json'],
      tags: [route.tag],
      summary: route.summary,
      operationId: route.operationId,
      parameters,
      responses,
    };
    if (route.body) operation.consumes = ['application/json'];
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
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
    basePath: options.basePath ?? '/api/v1',
    schemes: ['https', 'http'],
    consumes: ['application/json', 'text/plain'],
    produces: ['application/json', 'text/html'],
    paths,
    definitions,
    responses: Object.fromEntries(
      Object.entries(ERROR_RESPONSES).map(([name, description]) => [name, { description, schema: errorRef }]),
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

function statusOf(name: ErrorResponseName): string {
  return { validationError: '422', error: '400', forbidden: '403', notFound: '404', unauthorized: '401', conflict: '409' }[name];
}

function pick(node: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (node[k] !== undefined) out[k] = node[k];
  return out;
}
