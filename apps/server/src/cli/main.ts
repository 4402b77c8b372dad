/**
 * `muster <command> [options]`: dispatches to `commands/<command>.ts`. Each command module exports
 * `summary` (one line for the help) and `run(args) => Promise<number>` (the exit code).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CliError } from './cliError.ts';

export interface CommandModule {
  readonly summary: string;
  run(args: string[]): Promise<number>;
}

const commandsDir = join(dirname(fileURLToPath(import.meta.url)), 'commands');

function commandNames(): string[] {
  return readdirSync(commandsDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

async function loadCommand(name: string): Promise<CommandModule> {
  return (await import(pathToFileURL(join(commandsDir, `${name}.ts`)).href)) as CommandModule;
}

async function printHelp(): Promise<void> {
  const lines = ['usage: muster <command> [options]', '', 'commands:'];
  for (const name of commandNames()) {
    const mod = await loadCommand(name);
    lines.push(`  ${name.padEnd(10)} ${mod.summary}`);
  }
  lines.push('', "Run 'muster <command> --help' for a command's options.");
  console.log(lines.join('\n'));
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    await printHelp();
    return name === undefined ? 2 : 0;
  }
  if (!commandNames().includes(name)) {
    console.error(`muster: unknown command "${name}" (known: ${commandNames().join(', ')})`);
    return 2;
  }
  try {
    const mod = await loadCommand(name);
    return await mod.run(rest);
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`muster ${name}: ${err.message}`);
      return err.exitCode;
    }
    console.error(err);
    return 1;
  }
}
