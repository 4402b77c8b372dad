/**
 * A promise that settles on the first SIGINT (Ctrl+C) or SIGTERM (a supervisor's stop), for commands that
 * serve until stopped. Create it before printing "running": a stop sent right after the banner is then
 * never missed.
 */
export function stopSignal(): Promise<void> {
  return new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
