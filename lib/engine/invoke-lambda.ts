// Runs a synthesized Lambda's bundled handler as the Lambda runtime would: in a Node process of its
// own (its environment is the function's, nothing of the caller's leaks in, and a module's state
// lives for one invocation), ES module or CommonJS, the handler string from the template, the
// function's timeout, the result returned as JSON. Its layers' files are reached where the
// function's environment points into /opt.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AssemblyFunction } from './lambda-functions';
import { TABLE_NAME_ENV } from '../model/environment';

/** Where the function's table lives locally, and what else its environment needs. */
export interface LocalTarget {
  /** The local table's name, given to TABLE_NAME and to every variable that refers to the table resource. */
  readonly tableName: string;
  /** The table's logical id in the template: the variables that `Ref` it get the local name. */
  readonly tableLogicalId?: string;
  /** The engine's endpoint (AWS_ENDPOINT_URL_DYNAMODB). */
  readonly endpoint: string;
  /** Variables to add or override. */
  readonly environment?: Readonly<Record<string, string>>;
}

/** A handler's failure: its error's type and message, and what the function wrote to stdout and stderr. */
export class LambdaInvocationError extends Error {
  /** The error's name (`SingleTableError`, `TypeError`, ...), or `Runtime.ExitError` when the process ended without an answer. */
  declare public readonly errorType: string;
  /** The handler's error message. */
  declare public readonly errorMessage: string;
  /** What the function logged. */
  declare public readonly logs: string;

  constructor(fn: AssemblyFunction, errorType: string, errorMessage: string, stack: string | undefined, logs: string) {
    super(`${fn.path} (${fn.handler}) failed: ${errorType}: ${errorMessage}`
      + (stack ? `\n${stack}` : '') + (logs.trim() ? `\nits output:\n${logs.trimEnd()}` : ''));
    Object.assign(this, { name: 'LambdaInvocationError', errorType, errorMessage, logs });
  }
}

/**
 * The environment Lambda would give the function, pointed at the local engine: its own
 * variables (strings as written; the table's name wherever it refers to the table; /opt paths
 * mapped to the layer folder holding the file), a dummy region and credentials, the endpoint,
 * and Lambda's own variables. A variable whose value is resolved only at deploy (another
 * resource's attribute) is left out unless `target.environment` gives it.
 */
export function localEnvironment(fn: AssemblyFunction, target: LocalTarget): Record<string, string> {
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    if (typeof value === 'string') own[name] = inLayers(fn, value);
    else if (target.tableLogicalId && (value as { Ref?: unknown })?.Ref === target.tableLogicalId) own[name] = target.tableName;
  }
  return {
    PATH: process.env.PATH ?? '',
    TZ: 'UTC',
    LANG: 'en_US.UTF-8',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    LAMBDA_TASK_ROOT: fn.codeDir,
    ...own,
    ...(fn.environment[TABLE_NAME_ENV] !== undefined ? { [TABLE_NAME_ENV]: target.tableName } : {}),
    AWS_ENDPOINT_URL_DYNAMODB: target.endpoint,
    ...target.environment,
  };
}

/** A path into /opt mapped to the layer folder that holds it (the last layer that has it, as Lambda stacks them). */
function inLayers(fn: AssemblyFunction, value: string): string {
  if (!value.startsWith('/opt/')) return value;
  const inside = value.slice('/opt/'.length);
  const dir = [...fn.layerDirs].reverse().find((d) => existsSync(join(d, inside)));
  return dir ? join(dir, inside) : value;
}

// The child: imports the handler's module (.js, .mjs or .cjs, as Lambda looks for them), calls the
// export with the event and a context, and answers over the IPC channel. Plain JavaScript, run
// with `node --input-type=module -e`, so it needs no file of its own.
const RUNNER = `
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
process.once('message', async ({ base, name, event, context, timeoutMs }) => {
  const answer = (message) => process.send(message, () => process.exit(0));
  try {
    const file = ['.js', '.mjs', '.cjs'].map((ext) => base + ext).find((f) => existsSync(f));
    if (!file) throw Object.assign(new Error('no ' + base + '.js, .mjs or .cjs in the function\\'s code'), { name: 'Runtime.ImportModuleError' });
    const module = await import(pathToFileURL(file).href);
    const handler = typeof module[name] === 'function' ? module[name] : module.default?.[name];
    if (typeof handler !== 'function') throw Object.assign(new Error(file + ' exports no function ' + name), { name: 'Runtime.HandlerNotFound' });
    const deadline = Date.now() + timeoutMs;
    const result = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(Object.assign(new Error('Task timed out after ' + timeoutMs / 1000 + ' seconds'), { name: 'Sandbox.Timedout' })), timeoutMs);
      const done = (error, value) => { clearTimeout(timer); if (error) reject(error); else resolve(value); };
      const returned = handler(event, { ...context, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) }, done);
      if (returned && typeof returned.then === 'function') returned.then((value) => done(null, value), (error) => done(error ?? new Error('rejected')));
    });
    answer({ ok: true, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) });
  } catch (error) {
    answer({ ok: false, type: error?.name ?? typeof error, message: error?.message ?? String(error), stack: error?.stack });
  }
});
`;

/** Extra time for the process to start and load the bundle before the function's timeout counts. */
const START_ALLOWANCE_MS = 60_000;

/** Invokes the function's handler with `event` in a process of its own; resolves to its JSON result, rejects with LambdaInvocationError. */
export function invokeLambda<T>(fn: AssemblyFunction, event: unknown, environment: Record<string, string>): Promise<T> {
  const dot = fn.handler.lastIndexOf('.');
  const request = {
    base: join(fn.codeDir, fn.handler.slice(0, dot)),
    name: fn.handler.slice(dot + 1),
    event: event === undefined ? {} : event,
    timeoutMs: fn.timeoutSeconds * 1000,
    context: {
      functionName: fn.logicalId,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${fn.logicalId}`,
      memoryLimitInMB: String(fn.memorySize),
      awsRequestId: randomUUID(),
      logGroupName: `/aws/lambda/${fn.logicalId}`,
      logStreamName: 'local',
      callbackWaitsForEmptyEventLoop: true,
    },
  };
  return new Promise<T>((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER], {
      cwd: fn.codeDir,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let logs = '';
    child.stdout!.on('data', (chunk) => { logs += chunk; });
    child.stderr!.on('data', (chunk) => { logs += chunk; });
    let answer: { ok: boolean; result?: T; type?: string; message?: string; stack?: string } | undefined;
    child.on('message', (message) => { answer = message as typeof answer; });
    const killer = setTimeout(() => child.kill('SIGKILL'), request.timeoutMs + START_ALLOWANCE_MS);
    child.on('error', (e) => { clearTimeout(killer); reject(e); });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      if (answer?.ok) return resolvePromise(answer.result as T);
      if (answer) return reject(new LambdaInvocationError(fn, answer.type!, hinted(answer.message!), answer.stack, logs));
      reject(new LambdaInvocationError(fn, 'Runtime.ExitError', `the process ended (${signal ?? `exit code ${code}`}) without an answer`, undefined, logs));
    });
    child.send(request);
  });
}

/** The SDK is the Lambda runtime's: locally it comes from the project that holds cdk.out. */
function hinted(message: string): string {
  return /Cannot find (package|module) '@aws-sdk\//.test(message)
    ? `${message} (the Lambda runtime provides @aws-sdk/*; locally, install it in the project that holds the cloud assembly: npm install --save-dev @aws-sdk/client-dynamodb)`
    : message;
}
