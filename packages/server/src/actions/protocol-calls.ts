/**
 * The runner protocol at `/api/actions`: connect-rpc's unary calls (https://connectrpc.com/docs/protocol) of the
 * `ping.v1.PingService` and `runner.v1.RunnerService` that Forgejo's and Gitea's runners speak, in both of connect's
 * codecs (`application/proto`, the runners' default, and `application/json`). Each call is a POST of one message;
 * the answer is one message, or connect's JSON error (`{"code","message"}`) with the status its code maps to. A
 * runner names itself with `x-runner-uuid` and `x-runner-token` on every call but Register and Ping. Loaded on the
 * first call (`protocol.ts`): a server no runner talks to never loads the protobuf runtime.
 */
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { create, fromBinary, fromJson, toBinary, toJson, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { RetryLaterError, RunnersService, TasksService, isRepoHostError, toApiActionRunner, type ActionRunner, type RepoHost, type RepoHostErrorKind } from '@repohost/core';
import { readBody } from '../api/router.js';
import { PingRequestSchema, PingResponseSchema } from './gen/ping/v1/messages_pb.js';
import {
  DeclareRequestSchema,
  DeclareResponseSchema,
  FetchTaskRequestSchema,
  FetchTaskResponseSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  RunnerSchema,
  RunnerStatus,
  TaskNeedSchema,
  TaskSchema,
  TaskStateSchema,
  UpdateLogRequestSchema,
  UpdateLogResponseSchema,
  UpdateTaskRequestSchema,
  UpdateTaskResponseSchema,
  type Runner,
} from './gen/runner/v1/messages_pb.js';

const PREFIX = '/api/actions';
/** A call's message at most (an UpdateLog batch is the largest), compressed or not. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const gunzipAsync = promisify(gunzip);

/** connect's error codes and the HTTP statuses they travel with. */
const CONNECT_STATUS = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  resource_exhausted: 429,
  unimplemented: 501,
  unavailable: 503,
  internal: 500,
} as const;
type ConnectCode = keyof typeof CONNECT_STATUS;

/** Core's error kinds as connect codes. */
const CODE_OF_KIND: Partial<Record<RepoHostErrorKind, ConnectCode>> = {
  bad_request: 'invalid_argument',
  validation: 'invalid_argument',
  unauthorized: 'unauthenticated',
  forbidden: 'permission_denied',
  not_found: 'not_found',
  conflict: 'already_exists',
  payload_too_large: 'resource_exhausted',
  too_many_requests: 'resource_exhausted',
  unavailable: 'unavailable',
};

class ConnectError extends Error {
  constructor(
    readonly code: ConnectCode,
    message: string,
  ) {
    super(message);
  }
}

type Codec = 'proto' | 'json';

interface Call<I extends DescMessage, O extends DescMessage> {
  input: I;
  output: O;
  /** Whether the call needs a registered runner's headers. */
  authenticated: boolean;
  handle(host: RepoHost, request: MessageShape<I>, runner: ActionRunner | undefined): Promise<MessageShape<O>>;
}

function call<I extends DescMessage, O extends DescMessage>(spec: Call<I, O>): Call<DescMessage, DescMessage> {
  return spec as unknown as Call<DescMessage, DescMessage>;
}

const CALLS = new Map<string, Call<DescMessage, DescMessage>>([
  [
    'ping.v1.PingService/Ping',
    call({
      input: PingRequestSchema,
      output: PingResponseSchema,
      authenticated: false,
      handle: async (_host, request) => create(PingResponseSchema, { data: `Hello, ${request.data}!` }),
    }),
  ],
  [
    'runner.v1.RunnerService/Register',
    call({
      input: RegisterRequestSchema,
      output: RegisterResponseSchema,
      authenticated: false,
      handle: async (host, request) => {
        // Runners before labels were one list sent agent and custom labels apart.
        const labels = request.labels.length ? request.labels : [...request.agentLabels, ...request.customLabels];
        const { runner, token } = await host.service(RunnersService).registerWithToken({ name: request.name, token: request.token, version: request.version, labels, ephemeral: request.ephemeral });
        return create(RegisterResponseSchema, { runner: runnerMessage(runner, token) });
      },
    }),
  ],
  [
    'runner.v1.RunnerService/Declare',
    call({
      input: DeclareRequestSchema,
      output: DeclareResponseSchema,
      authenticated: true,
      handle: async (host, request, runner) => {
        const declared = await host.service(RunnersService).declare(runner!, request.version, request.labels);
        return create(DeclareResponseSchema, { runner: runnerMessage(declared) });
      },
    }),
  ],
  [
    'runner.v1.RunnerService/FetchTask',
    call({
      input: FetchTaskRequestSchema,
      output: FetchTaskResponseSchema,
      authenticated: true,
      handle: async (host, request, runner) => {
        const { task, version } = await host.service(TasksService).fetchTask(runner!, Number(request.tasksVersion));
        if (!task) return create(FetchTaskResponseSchema, { tasksVersion: BigInt(version) });
        return create(FetchTaskResponseSchema, {
          tasksVersion: BigInt(version),
          task: create(TaskSchema, {
            id: BigInt(task.id),
            workflowPayload: Buffer.from(task.payload, 'utf8'),
            context: task.context as never,
            secrets: task.secrets,
            vars: task.vars,
            needs: Object.fromEntries(Object.entries(task.needs).map(([key, need]) => [key, create(TaskNeedSchema, { outputs: need.outputs, result: need.result })])),
          }),
        });
      },
    }),
  ],
  [
    'runner.v1.RunnerService/UpdateTask',
    call({
      input: UpdateTaskRequestSchema,
      output: UpdateTaskResponseSchema,
      authenticated: true,
      handle: async (host, request, runner) => {
        const state = request.state;
        if (!state) throw new ConnectError('invalid_argument', 'state is required');
        const answer = await host.service(TasksService).updateTask(
          runner!,
          {
            id: Number(state.id),
            result: state.result,
            startedAt: millisOf(state.startedAt),
            stoppedAt: millisOf(state.stoppedAt),
            steps: state.steps.map((step) => ({
              id: Number(step.id),
              result: step.result,
              startedAt: millisOf(step.startedAt),
              stoppedAt: millisOf(step.stoppedAt),
              logIndex: Number(step.logIndex),
              logLength: Number(step.logLength),
            })),
          },
          new Map(Object.entries(request.outputs)),
        );
        return create(UpdateTaskResponseSchema, { state: create(TaskStateSchema, { id: state.id, result: answer.result }), sentOutputs: answer.sentOutputs });
      },
    }),
  ],
  [
    'runner.v1.RunnerService/UpdateLog',
    call({
      input: UpdateLogRequestSchema,
      output: UpdateLogResponseSchema,
      authenticated: true,
      handle: async (host, request, runner) => {
        const ack = await host.service(TasksService).updateLog(
          runner!,
          Number(request.taskId),
          Number(request.index),
          request.rows.map((row) => ({ time: millisOf(row.time), content: row.content })),
          request.noMore,
        );
        return create(UpdateLogResponseSchema, { ackIndex: BigInt(ack) });
      },
    }),
  ],
]);

export async function serveCall(host: RepoHost, event: H3Event): Promise<Response> {
  const procedure = new URL(event.req.url).pathname.slice(PREFIX.length + 1);
  const spec = CALLS.get(procedure);
  const codec = codecOf(event.req.headers.get('content-type'));
  if (!spec) return connectError(new ConnectError('unimplemented', `${procedure} is not implemented`));
  if (!codec) return new FastResponse(null, { status: 415, headers: { 'accept-post': 'application/json, application/proto' } });
  try {
    const runner = spec.authenticated ? await authenticate(host, event) : undefined;
    const request = await readMessage(event, spec.input, codec);
    const answer = await spec.handle(host, request, runner);
    const body = codec === 'proto' ? toBinary(spec.output, answer) : JSON.stringify(toJson(spec.output, answer));
    return new FastResponse(body, { status: 200, headers: { 'content-type': `application/${codec}` } });
  } catch (error) {
    return connectError(asConnectError(error));
  }
}

function codecOf(contentType: string | null): Codec | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/proto') return 'proto';
  if (type === 'application/json') return 'json';
  return undefined;
}

async function authenticate(host: RepoHost, event: H3Event): Promise<ActionRunner> {
  const uuid = event.req.headers.get('x-runner-uuid') ?? '';
  const token = event.req.headers.get('x-runner-token') ?? '';
  return host.service(RunnersService).authenticate(uuid, token);
}

async function readMessage<I extends DescMessage>(event: H3Event, schema: I, codec: Codec): Promise<MessageShape<I>> {
  let bytes = await readBody(event, MAX_MESSAGE_BYTES).catch(() => {
    throw new ConnectError('resource_exhausted', `message larger than ${MAX_MESSAGE_BYTES} bytes`);
  });
  const encoding = (event.req.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'gzip') {
    bytes = await gunzipAsync(bytes, { maxOutputLength: MAX_MESSAGE_BYTES }).catch(() => {
      throw new ConnectError('invalid_argument', 'message is not gzip within the size limit');
    });
  } else if (encoding !== 'identity') {
    throw new ConnectError('unimplemented', `content encoding ${encoding} is not supported`);
  }
  try {
    if (codec === 'proto') return fromBinary(schema, bytes);
    const text = bytes.toString('utf8');
    return fromJson(schema, text.trim() === '' ? {} : JSON.parse(text), { ignoreUnknownFields: true });
  } catch {
    throw new ConnectError('invalid_argument', `invalid ${schema.typeName} message`);
  }
}

function asConnectError(error: unknown): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof RetryLaterError) return new ConnectError('unavailable', error.message);
  if (isRepoHostError(error)) return new ConnectError(CODE_OF_KIND[error.kind] ?? 'invalid_argument', error.message);
  console.error('[repohost] actions runner protocol:', error);
  return new ConnectError('internal', 'internal error');
}

function connectError(error: ConnectError): Response {
  return new FastResponse(JSON.stringify({ code: error.code, message: error.message }), {
    status: CONNECT_STATUS[error.code],
    headers: { 'content-type': 'application/json' },
  });
}

function runnerMessage(runner: ActionRunner, token = ''): Runner {
  const shown = toApiActionRunner(runner);
  return create(RunnerSchema, {
    id: BigInt(runner.id),
    uuid: runner.uuid,
    token,
    name: runner.name,
    version: runner.version,
    labels: shown.labels,
    ephemeral: shown.ephemeral,
    status: shown.status === 'offline' ? RunnerStatus.OFFLINE : shown.status === 'active' ? RunnerStatus.ACTIVE : RunnerStatus.IDLE,
  });
}

function millisOf(timestamp: Timestamp | undefined): number {
  return timestamp ? timestampDate(timestamp).getTime() : 0;
}
