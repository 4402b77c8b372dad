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
