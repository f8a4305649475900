import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `docker compose` (v2) when the CLI has it, otherwise Debian's `docker-compose` (v1.29). */
export function composeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  throw new Error('neither `docker compose` nor `docker-compose` is installed');
}

/** One compose project of this repository's docker-compose.yml, under its own name and published port. */
export class ComposeProject {
  private readonly base: string[];

  constructor(
    readonly name: string,
    private readonly cwd: string,
    private readonly env: Record<string, string>,
  ) {
    this.base = composeCommand();
  }

  async compose(args: string[], timeoutMs = 600_000): Promise<string> {
    const [cmd, ...pre] = this.base as [string, ...string[]];
    const { stdout } = await run(cmd, [...pre, '-p', this.name, ...args], {
      cwd: this.cwd,
      env: { ...process.env, ...this.env },
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  }

  /** Status and exit code of a service's container ("running 0", "exited 0", …), or null when it has none. */
  async state(service: string): Promise<{ status: string; exitCode: number; health?: string } | null> {
    const id = (await this.compose(['ps', '-a', '-q', service])).trim().split('\n')[0];
    if (!id) return null;
    const { stdout } = await run('docker', ['inspect', '-f', '{{json .State}}', id]);
    const state = JSON.parse(stdout) as { Status: string; ExitCode: number; Health?: { Status: string } };
    return { status: state.Status, exitCode: state.ExitCode, health: state.Health?.Status };
  }

  /** Polls until `done` answers true for the service's state, failing after `timeoutMs` with the last state seen. */
  async waitFor(
    service: string,
    done: (s: { status: string; exitCode: number; health?: string }) => boolean,
    timeoutMs: number,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown = null;
    while (Date.now() < deadline) {
      const s = await this.state(service);
      last = s;
      if (s && done(s)) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
    throw new Error(`${service} did not reach the expected state in ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
  }

  /**
   * `run --rm --no-deps` of a service's container with extra environment: its exit code and what it printed (for a
   * process expected to exit on its own, such as one refusing its configuration).
   */
  async run(service: string, env: Record<string, string>): Promise<{ exitCode: number; output: string }> {
    const vars = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    try {
      const stdout = await this.compose(['run', '--rm', '--no-deps', '-T', ...vars, service], 180_000);
      return { exitCode: 0, output: stdout };
    } catch (err) {
      const failed = err as { code?: unknown; stdout?: string; stderr?: string };
      if (typeof failed.code !== 'number') throw err;
      return { exitCode: failed.code, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }

  async logs(service: string): Promise<string> {
    return this.compose(['logs', '--no-color', service]).catch((err: Error) => err.message);
  }

  /** Names of the docker volumes that belong to this project. */
  async volumes(): Promise<string[]> {
    const { stdout } = await run('docker', [
      'volume',
      'ls',
      '-q',
      '--filter',
      `label=com.docker.compose.project=${this.name}`,
    ]);
    return stdout.split('\n').filter(Boolean);
  }
}
