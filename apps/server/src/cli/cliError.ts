/**
 * An error the user can act on: printed as one line on stderr, exit code 2 (bad input, bad file, bad
 * option). Anything else that escapes a command is a bug and is printed with its stack, exit code 1.
 */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/**
 * A command ends early with this text on stdout (exit 0: `--help`, `--version`) or stderr (a usage shown
 * because the command line was incomplete, exit 2). `main` prints it.
 */
export class CliExit extends Error {
  readonly text: string;
  readonly exitCode: number;
  constructor(text: string, exitCode: number) {
    super(text);
    this.name = 'CliExit';
    this.text = text;
    this.exitCode = exitCode;
  }
}
